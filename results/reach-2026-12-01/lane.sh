#!/bin/bash
# one lane: the named variant's matches one after another
v=$1; shift
cd /work/main
for m in "$@"; do
  K=/work/exp/s12/kinrow-$v OUT=/work/exp/s12/out bench/strength/queue-1s.sh "$v-$m rapfi"
done
