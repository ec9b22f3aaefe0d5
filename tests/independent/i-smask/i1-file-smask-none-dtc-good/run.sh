#!/bin/sh
# i-smask/i1-file-smask-none-dtc-good: expected PASS (transparency). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/i-smask-i1-file-smask-none-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --file smask-cards-drivethrucards.pdf --out "$OUT"
