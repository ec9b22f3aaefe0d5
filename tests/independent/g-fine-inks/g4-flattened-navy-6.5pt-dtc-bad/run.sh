#!/bin/sh
# g-fine-inks/g4-flattened-navy-6.5pt-dtc-bad: expected FAIL (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/g-fine-inks-g4-flattened-navy-6.5pt-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --out "$OUT"
