#!/bin/sh
# i-smask/i2-svg-mask-text-9pt-pdfcards-cmyk-good: expected PASS (small-text). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/i-smask-i2-svg-mask-text-9pt-pdfcards-cmyk-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for pdf-cards --colour cmyk --out "$OUT"
