#!/bin/sh
# j-contrast/j1-grey-text-2.5to1-validate-bad: expected FAIL (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/j-contrast-j1-grey-text-2.5to1-validate-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
