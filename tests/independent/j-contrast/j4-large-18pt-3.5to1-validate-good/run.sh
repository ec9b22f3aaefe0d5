#!/bin/sh
# j-contrast/j4-large-18pt-3.5to1-validate-good: expected PASS (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/j-contrast-j4-large-18pt-3.5to1-validate-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
