#!/bin/sh
# f-pad/f1-score-pad-font-3.2mm-good: expected PASS (text-size). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/f-pad-f1-score-pad-font-3.2mm-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --strict --players 4 --out "$OUT"
