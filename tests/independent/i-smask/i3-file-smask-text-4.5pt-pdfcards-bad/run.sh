#!/bin/sh
# i-smask/i3-file-smask-text-4.5pt-pdfcards-bad: expected FAIL (small-text). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/i-smask-i3-file-smask-text-4.5pt-pdfcards-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for pdf-cards --file smasktext-cards-pdf-cards.pdf --out "$OUT"
