#!/bin/bash
# one lane: matches against Rapfi one after another; each argument is VARIANT-RUN
cd /work/main
for m in "$@"; do
  v=${m%-*}
  K=/work/exp/s13/kinrow-$v OUT=/work/exp/s13/out bench/strength/queue-1s.sh "$m rapfi"
done
