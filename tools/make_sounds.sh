#!/bin/sh
# Make the table's sounds (src/twentyone/web/sounds/*.wav) with sox: short, mono, 22.05 kHz,
# a few kilobytes each. `sox -R` makes the noise repeatable, so a rerun writes the same bytes.
#   card  a card sliding onto the felt (filtered noise, 70 ms)
#   chip  two chips touching (two bright partials, fast decay)
#   win   a rising arpeggio (C E G C)
#   lose  a falling minor third
#   tick  a soft click for the last seconds of a countdown
# Needs sox (apt-get install sox). Run from anywhere: tools/make_sounds.sh
set -eu
out="$(cd "$(dirname "$0")/.." && pwd)/src/twentyone/web/sounds"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
fmt="-r 22050 -c 1 -b 16"
sox="sox -R -V1"

$sox -n $fmt "$out/card.wav" synth 0.07 pinknoise fade q 0.003 0.07 0.06 \
  highpass 900 lowpass 6000 gain -n -6

$sox -n $fmt "$tmp/c1.wav" synth 0.14 sine 3150 fade l 0 0.14 0.13
$sox -n $fmt "$tmp/c2.wav" synth 0.14 sine 4720 fade l 0 0.1 0.09
$sox -m "$tmp/c1.wav" "$tmp/c2.wav" $fmt "$out/chip.wav" gain -n -8

i=0
for note in 523.25 659.25 783.99 1046.5; do
  $sox -n $fmt "$tmp/w$i.wav" synth 0.11 pluck "$note" fade q 0.005 0.11 0.05
  i=$((i + 1))
done
$sox "$tmp/w0.wav" "$tmp/w1.wav" "$tmp/w2.wav" "$tmp/w3.wav" $fmt "$out/win.wav" \
  pad 0 0.15 reverb 20 gain -n -4

$sox -n $fmt "$tmp/l0.wav" synth 0.16 triangle 392 fade q 0.01 0.16 0.04
$sox -n $fmt "$tmp/l1.wav" synth 0.3 triangle 311.13 fade q 0.01 0.3 0.2
$sox "$tmp/l0.wav" "$tmp/l1.wav" $fmt "$out/lose.wav" lowpass 2500 gain -n -6

$sox -n $fmt "$out/tick.wav" synth 0.025 sine 1400 fade q 0.001 0.025 0.02 gain -n -12

ls -l "$out"
