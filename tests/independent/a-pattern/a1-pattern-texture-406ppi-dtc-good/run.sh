#!/bin/sh
# a-pattern/a1-pattern-texture-406ppi-dtc-good: expected PASS (image-dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/a-pattern-a1-pattern-texture-406ppi-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --out "$OUT"
