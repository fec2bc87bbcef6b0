#!/bin/bash
# one lane: kinrow-main (its compiled-in parameters) against kinrow at 56eebe7, one match after another
cd /work/main
for m in "$@"; do
  K=/work/exp/s13/kinrow-main OUT=/work/exp/s13/out bench/strength/queue-1s.sh "main-old-$m kinrow"
done
