#!/bin/sh
# i-smask/i4-file-smask-inside-form-dtc-bad: expected FAIL (transparency). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/i-smask-i4-file-smask-inside-form-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --file formmask-cards-drivethrucards.pdf --out "$OUT"
