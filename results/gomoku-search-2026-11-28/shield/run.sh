#!/bin/sh
# usage: KINROW=path/to/kinrow run.sh LABEL NODES [--option N=V ...]
# (judged.json here is the cache of Rapfi's judgements these runs left: a rerun asks Rapfi
# only about moves it does not hold)
cd "$(dirname "$0")"
# RAPFI: Rapfi's Gomocup brain (pbrain-rapfi, built as docs/strength.md says).
Q=../../../bench/strength/quality.py
R=${RAPFI:?Rapfi's pbrain-rapfi}
label=$1; nodes=$2; shift 2
echo "$label start $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
python3 $Q run --kinrow $KINROW --nodes $nodes "$@" --brain $R --depth 16 --cache judged.json --jobs 2 --label $label --save $label.json ../../../bench/strength/quality-suite.txt > $label.out 2>&1
echo "$label end $(date -u +%T) $(cat /proc/loadavg)" >> load.txt
