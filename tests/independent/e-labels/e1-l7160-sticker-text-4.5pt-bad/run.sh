#!/bin/sh
# e-labels/e1-l7160-sticker-text-4.5pt-bad: expected FAIL (text-size). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/e-labels-e1-l7160-sticker-text-4.5pt-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --strict --out "$OUT"
