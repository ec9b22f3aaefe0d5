#!/bin/sh
# f-pad/f2-own-score-sheet-grey-2.2to1-bad: expected FAIL (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/f-pad-f2-own-score-sheet-grey-2.2to1-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
