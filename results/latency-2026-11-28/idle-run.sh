#!/bin/sh
cd /tmp/idle
( while true; do echo "$(date -u +%T) $(cat /proc/loadavg)"; sleep 30; done ) > load.log &
LP=$!
python3 /work/main/bench/latency/movetime.py --engine /tmp/idle/kinrow --limits 100,500,1000 --samples 1000 --seed 5 > movetime-idle.log 2>&1
echo "exit $?" >> movetime-idle.log
sh /work/main/results/cutechess-2026-11-28/run.sh /tmp/idle/kinrow st=0.1 st0.1-idle > st0.1-idle.log 2>&1
sh /work/main/results/cutechess-2026-11-28/run.sh /tmp/idle/kinrow tc=1+0.01 tc1+0.01-idle > tc1+0.01-idle.log 2>&1
kill $LP
echo done > finished
