#!/bin/sh
# g-fine-inks/g1-swatch-navy-K100-6.5pt-dtc-good: expected PASS (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/g-fine-inks-g1-swatch-navy-K100-6.5pt-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --out "$OUT"
