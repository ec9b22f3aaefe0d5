#!/bin/sh
# e-labels/e2-round-5193-art-322dpi-good: expected PASS (dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/e-labels-e2-round-5193-art-322dpi-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
