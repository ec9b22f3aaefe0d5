#!/bin/sh
# j-contrast/j2-white-on-picture-2.5to1-dtc-bad: expected FAIL (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/j-contrast-j2-white-on-picture-2.5to1-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --out "$OUT"
