#!/bin/sh
# d-box/d2-box-side-navy-6.5pt-cmyk-bad: expected FAIL (fine-text-inks). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/d-box-d2-box-side-navy-6.5pt-cmyk-bad"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" build game --colour cmyk --strict --out "$OUT"
