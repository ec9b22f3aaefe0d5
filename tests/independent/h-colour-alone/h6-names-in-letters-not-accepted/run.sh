#!/bin/sh
# h-colour-alone/h6-names-in-letters-not-accepted: expected PASS (colour-alone). Usage: sh run.sh [path/to/deckpress]
B="${1:-${DECKPRESS:-/work/bin/deckpress-e8ce935}}"
cd "$(dirname "$0")" || exit 2
OUT="${TMPDIR:-/tmp}/indep49-out/h-colour-alone-h6-names-in-letters-not-accepted"
rm -rf "$OUT"; mkdir -p "$OUT"
"$B" validate game --strict
