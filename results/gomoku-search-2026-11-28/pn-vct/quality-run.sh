#!/bin/sh
cd /tmp/q
Q=/work/main/bench/strength/quality.py
R=/work/tools/bin/pbrain-rapfi
echo "$(date -u +%T) $(cat /proc/loadavg)" > load.txt
python3 $Q run --kinrow /tmp/q/kinrow-pn --brain $R --depth 16 --cache judged.json --jobs 2 --label base --save base.json /work/main/bench/strength/quality-suite.txt > base.out 2>&1
echo "$(date -u +%T) $(cat /proc/loadavg)" >> load.txt
python3 $Q run --kinrow /tmp/q/kinrow-pn --env KINROW_PN_BUDGET=100000 --env KINROW_PN_DEF_BUDGET=100000 --env KINROW_PN_DEF_MOVE=20000 --brain $R --depth 16 --cache judged.json --jobs 2 --label pn --save pn.json /work/main/bench/strength/quality-suite.txt > pn.out 2>&1
echo "$(date -u +%T) $(cat /proc/loadavg)" >> load.txt
python3 $Q compare base.json pn.json > compare.out 2>&1
echo done > finished
