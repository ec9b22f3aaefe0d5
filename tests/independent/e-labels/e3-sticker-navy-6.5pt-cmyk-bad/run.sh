#!/bin/sh
# e-labels/e3-sticker-navy-6.5pt-cmyk-bad: expected FAIL (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/e-labels-e3-sticker-navy-6.5pt-cmyk-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --colour cmyk --strict --out "$OUT"
