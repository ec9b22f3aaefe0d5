#!/bin/sh
# a-pattern/a3-pattern-text-4.5pt-dtc-bad: expected FAIL (small-text). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/a-pattern-a3-pattern-text-4.5pt-dtc-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --out "$OUT"
