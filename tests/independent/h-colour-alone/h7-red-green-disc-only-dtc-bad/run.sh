#!/bin/sh
# h-colour-alone/h7-red-green-disc-only-dtc-bad: expected FAIL (colour-alone). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/h-colour-alone-h7-red-green-disc-only-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --strict --out "$OUT"
