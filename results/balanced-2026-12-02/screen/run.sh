#!/bin/bash
# run.sh NAME NODES "option.a=1 option.b=2": the build under test with those options against itself at the defaults
name=$1; nodes=$2; opts=$3; B=${B:-/work/runs/kinrow-new}
cd /work/runs/screen
$B match --engine "cmd=$B name=new option.Rule=freestyle $opts" --engine "cmd=$B name=base option.Rule=freestyle" \
  --board 15x15 --games ${GAMES:-166} --nodes $nodes --openings file=${OPEN:-/work/runs/bal83.txt} --concurrency 1 \
  --sgf $name.sgf --jsonl $name.jsonl > $name.txt 2>&1
