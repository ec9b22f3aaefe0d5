#!/bin/sh
# c-board/c3-board-sea-art-76dpi-cmyk-bad: expected FAIL (dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/c-board-c3-board-sea-art-76dpi-cmyk-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --colour cmyk --board-paper a2 --strict --out "$OUT"
