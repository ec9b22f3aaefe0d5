#!/usr/bin/env bash
# 10 builds of `build --all` at once into one --out, each of catalogues with a version of
# its own, ROUNDS times: prints the games whose PDFs say more than one version.
# Usage: bench/hostile/concurrent.sh BINARY [ROUNDS]
set -u
B=$1; R=${2:-10}; W=$(mktemp -d); mixed=0
for c in $(seq 0 9); do
  cp -r "$(dirname "$0")/../../catalogues" "$W/cat$c"
done
for r in $(seq 1 "$R"); do
  OUT=$W/out$r
  for c in $(seq 0 9); do
    for g in "$W"/cat$c/*/game.toml; do
      sed -i "/^version = /d; s/^\[game\]$/[game]\nversion = \"r${r}c$c\"/" "$g"
    done
  done
  for c in $(seq 0 9); do
    DECKPRESS_CATALOGUES=$W/cat$c "$B" build --all --out "$OUT" >/dev/null 2>&1 &
  done
  wait
  for game in "$OUT"/*/; do
    v=$(for p in "$game"*.pdf; do pdfinfo "$p" 2>/dev/null | sed -n 's/^Subject:.*version \([^ ]*\).*/\1/p'; done | sort -u | wc -l)
    [ "$v" -gt 1 ] && mixed=$((mixed + 1))
  done
done
echo "rounds $R of 10 builds at once: $mixed games of mixed versions; $(find "$W" -name '.deckpress-*' | wc -l) temporary files"
rm -rf "$W"
