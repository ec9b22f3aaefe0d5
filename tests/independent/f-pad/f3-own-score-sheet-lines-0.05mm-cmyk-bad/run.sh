#!/bin/sh
# f-pad/f3-own-score-sheet-lines-0.05mm-cmyk-bad: expected FAIL (hairline). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/f-pad-f3-own-score-sheet-lines-0.05mm-cmyk-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --colour cmyk --strict --out "$OUT"
