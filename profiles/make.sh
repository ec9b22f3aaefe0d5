#!/usr/bin/env bash
# Rebuilds the two CMYK profiles deckpress bundles, from characterisation data published
# under the zlib licence (Debian's icc-profiles-free: FOGRA39L.ti3 by Fogra, TR003.ti3 by
# the ANSI CGATS/SWOP committee), with ArgyllCMS's colprof (apt-get install argyll
# icc-profiles-free). The profiles are data made by a tool, not the tool: Argyll's AGPL
# does not reach them, and the measurements' zlib licence allows shipping them in an
# MIT/Apache binary. Run deliberately; the output is committed.
#   -qm     medium quality tables (peak error against the measurements below 1 ΔE)
#   -kr     black generation: a ramp from white to black (a medium GCR)
#   -nc     the measurements are not copied into the profile (smaller)
#   -l/-L   total and black ink limits: 300 % for FOGRA39, 240 % for SWOP as DriveThruCards asks
# Then write the picture tables that ship beside them (docs/printing.md):
#   DECKPRESS_BLESS=1 cargo test --lib shipped
set -euo pipefail
cd "$(dirname "$0")"
data=/usr/share/color/icc
work=$(mktemp -d)
cp "$data/FOGRA39L.ti3" "$data/TR003.ti3" "$work/"
(cd "$work" && colprof -qm -kr -nc -l300 -L98 -A deckpress \
  -D "deckpress FOGRA39 (coated, TAC 300%)" \
  -C "Made by deckpress from the FOGRA39L characterisation data (Fogra, zlib licence); no warranty" FOGRA39L)
(cd "$work" && colprof -qm -kr -nc -l240 -L95 -A deckpress \
  -D "deckpress CGATS TR 003 (SWOP grade 3, TAC 240%)" \
  -C "Made by deckpress from the CGATS TR 003 characterisation data (zlib licence); no warranty" TR003)
cp "$work/FOGRA39L.icc" deckpress-fogra39.icc
cp "$work/TR003.icc" deckpress-cgats-tr003.icc
