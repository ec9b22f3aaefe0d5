#!/bin/sh
# a-pattern/a2-pattern-transform-x0.8-validate-good: expected PASS (dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/a-pattern-a2-pattern-transform-x0.8-validate-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
