#!/bin/sh
# j-contrast/j3-black-text-under-veil-2.5to1-build-bad: expected FAIL (contrast). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/j-contrast-j3-black-text-under-veil-2.5to1-build-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --strict --out "$OUT"
