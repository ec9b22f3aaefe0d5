#!/bin/sh
# i-smask/i5-file-image-with-smask-dtc-bad: expected FAIL (transparency). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/i-smask-i5-file-image-with-smask-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --file imgmask-cards-drivethrucards.pdf --out "$OUT"
