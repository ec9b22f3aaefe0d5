#!/bin/sh
# b-flattened/b4-watermark-photo-330ppi-dtc-good: expected PASS (image-dpi). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/b-flattened-b4-watermark-photo-330ppi-dtc-good"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" preflight game --for drivethrucards --out "$OUT"
