#!/bin/sh
# e-labels/e4-stickers-colour-only-bad: expected FAIL (colour-alone). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/e-labels-e4-stickers-colour-only-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
