#!/bin/sh
# usage: run.sh LABEL [--option N=V ...]
cd /tmp/q2
Q=/work/main/bench/strength/quality.py
R=/work/tools/bin/pbrain-rapfi
label=$1; shift
echo "$label start $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
python3 $Q run --kinrow /tmp/q2/${BIN:-kinrow-sel3} "$@" --brain $R --depth 16 --cache judged.json --jobs 2 --label $label --save $label.json /work/main/bench/strength/quality-suite.txt > $label.out 2>&1
echo "$label end $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
