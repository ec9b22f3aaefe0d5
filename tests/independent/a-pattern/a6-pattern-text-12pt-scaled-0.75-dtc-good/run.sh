#!/bin/sh
# a-pattern/a6-pattern-text-12pt-scaled-0.75-dtc-good: expected PASS (small-text, safe-zone). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/a-pattern-a6-pattern-text-12pt-scaled-0.75-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --out "$OUT"
