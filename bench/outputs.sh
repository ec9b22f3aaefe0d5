#!/usr/bin/env bash
# Every kind of output deckpress makes of the built-in games, hashed: run it with two
# binaries and diff the .hashes files to prove a change byte-identical (or list what it
# changes). Usage: bench/outputs.sh BINARY OUTDIR   (writes OUTDIR.hashes)
set -u
D=$1; B=$2; rm -rf $B; mkdir -p $B; export SOURCE_DATE_EPOCH=1700000000
$D build --all --paper a4,letter --out $B/home >/dev/null 2>&1; echo all $?
for s in pdf-cards; do $D build travfuda trumpet --for $s --out $B/$s >/dev/null 2>&1; echo $s $?; done
for s in drivethrucards gamecrafter makeplayingcards; do $D build travfuda --only cards --fit scale --for $s --out $B/$s >/dev/null 2>&1; echo $s $?; done
$D build travfuda --colour cmyk --duplex short --cut svg --out $B/cmyk >/dev/null 2>&1; echo cmyk $?
$D build trumpet --colour cmyk --pdfx 4 --duplex none --out $B/cmyk4 >/dev/null 2>&1; echo cmyk4 $?
$D build track --lang ru --gang --out $B/ru >/dev/null 2>&1; echo ru $?
$D build trash --players 3 --paper letter --out $B/ru >/dev/null 2>&1; echo trash3 $?
$D build trumpet --board-paper a2 --bleed 2mm --cut dxf --only board,cards --out $B/board >/dev/null 2>&1; echo board $?
$D calibrate --out $B/cal >/dev/null; echo cal $?
$D export tts travfuda --out $B/tts -q --base-url http://x/ >/dev/null 2>&1; echo tts $?
$D preview trash --out $B/prev -q >/dev/null 2>&1; echo prev $?
$D preview travfuda --card 3-double --out $B/prev1 -q >/dev/null 2>&1; echo prev1 $?
(cd $B; find . -type f | sort | xargs sha256sum) > $B.hashes; wc -l < $B.hashes
