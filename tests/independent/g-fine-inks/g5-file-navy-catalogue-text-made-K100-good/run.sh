#!/bin/sh
# g-fine-inks/g5-file-navy-catalogue-text-made-K100-good: expected PASS (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/g-fine-inks-g5-file-navy-catalogue-text-made-K100-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --file navyfile-cards-drivethrucards.pdf --out "$OUT"
