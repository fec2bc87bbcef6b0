#!/bin/bash
# one lane: kinrow-main with the given option against kinrow at 56eebe7, matches one after another
v=$1; opt=$2; shift 2
cd /work/main
for m in "$@"; do
  K=/work/exp/s12/kinrow-main OUT=/work/exp/s12/out bench/strength/queue-1s.sh "$v-old-$m kinrow --new-option $opt"
done
