#!/bin/sh
# a-pattern/a4-pdf-tiling-pattern-76ppi-file-bad: expected FAIL (image-dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/a-pattern-a4-pdf-tiling-pattern-76ppi-file-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for pdf-cards --file pdfpattern-cards-pdf-cards.pdf --out "$OUT"
