#!/bin/bash
# Starts lean-classical-c when b ends and lean-classical-d when a ends (one match per freed slot).
cd /work/main
O=/work/exp/s10/lean1s; S=bench/strength
run() { echo "$(date -u +%H:%M:%S) $1 $(uptime)" >> $O/started.txt
  $S/vs-rapfi.sh --kinrow /work/exp/s10/kinrow-lean --rapfi /work/tools/bin/pbrain-rapfi --cli /work/tools/bin/c-gomoku-cli --pairs 26 --out $O/$1 > $O/$1.txt 2>&1; }
( while [ ! -s $O/lean-classical-b/summary.txt ]; do sleep 5; done; run lean-classical-c ) &
( while [ ! -s $O/lean-classical-a/summary.txt ]; do sleep 5; done; run lean-classical-d ) &
wait
