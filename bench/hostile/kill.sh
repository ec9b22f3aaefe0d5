#!/usr/bin/env bash
# kill -9 during `build --all`, TRIALS times, each followed by one clean build: prints the
# temporary files left behind after the kills and after the clean builds, and the games
# whose PDFs say more than one version (each trial builds a copy of the catalogues whose
# `version` is the trial's number; DECKPRESS_CATALOGUES points the binary at it).
# Usage: bench/hostile/kill.sh BINARY [TRIALS]
set -u
B=$1; N=${2:-40}; W=$(mktemp -d); OUT=$W/out
cp -r "$(dirname "$0")/../../catalogues" "$W/cat"
left_after_kills=0; mixed=0
for t in $(seq 1 "$N"); do
  for g in "$W"/cat/*/game.toml; do
    sed -i "/^version = /d; s/^\[game\]$/[game]\nversion = \"k$t\"/" "$g"
  done
  DECKPRESS_CATALOGUES=$W/cat "$B" build --all --out "$OUT" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(( RANDOM % 40 ))"
  kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  left_after_kills=$(( left_after_kills + $(find "$OUT" -name '.deckpress-*' 2>/dev/null | wc -l) ))
  for g in "$W"/cat/*/game.toml; do
    sed -i "/^version = /d; s/^\[game\]$/[game]\nversion = \"c$t\"/" "$g"
  done
  DECKPRESS_CATALOGUES=$W/cat "$B" build --all --out "$OUT" >/dev/null 2>&1
  for game in "$OUT"/*/; do
    v=$(for p in "$game"*.pdf; do pdfinfo "$p" 2>/dev/null | sed -n 's/^Subject:.*version \([^ ]*\).*/\1/p'; done | sort -u | wc -l)
    [ "$v" -gt 1 ] && mixed=$((mixed + 1))
  done
done
echo "trials $N; temporary files seen right after the kills (summed): $left_after_kills"
echo "after each clean build: $(find "$OUT" -name '.deckpress-*' | wc -l) temporary files, $mixed games of mixed versions"
rm -rf "$W"
