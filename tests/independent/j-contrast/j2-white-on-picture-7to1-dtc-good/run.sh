#!/bin/sh
# j-contrast/j2-white-on-picture-7to1-dtc-good: expected PASS (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/j-contrast-j2-white-on-picture-7to1-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --out "$OUT"
