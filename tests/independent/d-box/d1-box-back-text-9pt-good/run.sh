#!/bin/sh
# d-box/d1-box-back-text-9pt-good: expected PASS (text-size). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/d-box-d1-box-back-text-9pt-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
