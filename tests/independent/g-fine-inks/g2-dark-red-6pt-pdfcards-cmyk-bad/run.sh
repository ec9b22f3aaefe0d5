#!/bin/sh
# g-fine-inks/g2-dark-red-6pt-pdfcards-cmyk-bad: expected FAIL (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/g-fine-inks-g2-dark-red-6pt-pdfcards-cmyk-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --for pdf-cards --colour cmyk --strict --out "$OUT"
