#!/bin/sh
# c-board/c2-tiled-board-labels-4.5pt-bad: expected FAIL (text-size). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/c-board-c2-tiled-board-labels-4.5pt-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --strict --out "$OUT"
