#!/bin/sh
# usage: KINROW=path/to/kinrow run.sh LABEL NODES [--option N=V ...]
# (from /work/exp/q4, where judged.json, the cache of Rapfi's judgements, was kept)
cd "$(dirname "$0")"
Q=/work/main/bench/strength/quality.py
R=/work/tools/bin/pbrain-rapfi
label=$1; nodes=$2; shift 2
echo "$label start $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
python3 $Q run --kinrow $KINROW --nodes $nodes "$@" --brain $R --depth 16 --cache judged.json --jobs 2 --label $label --save $label.json /work/main/bench/strength/quality-suite.txt > $label.out 2>&1
echo "$label end $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
