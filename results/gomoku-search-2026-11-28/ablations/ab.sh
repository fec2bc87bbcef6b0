#!/bin/bash
# usage: ab.sh NAME "cand opts (option.X=Y ...)" NODES GAMES [BIN] [BASEOPTS]
name=$1; opts=$2; nodes=$3; games=$4; bin=${5:-/work/exp/kinrow-cand}; base=${6:-}
out=/work/exp/runs/$name; mkdir -p $out; rm -f $out/*
echo "$(date -u +%T) start $(uptime)" > $out/machine.txt
/work/exp/kinrow-base match --engine "cmd=$bin name=cand option.Rule=${RULE:-freestyle} $opts" \
  --engine "cmd=/work/exp/kinrow-base name=base option.Rule=${RULE:-freestyle} $base" \
  --board 15x15 --rule ${RULE:-freestyle} --games $games --nodes $nodes --openings file=/work/exp/balanced-kinrow.txt \
  --concurrency ${CONC:-2} --seed 1 --jsonl $out/games.jsonl > $out/match.log 2>&1
echo "$(date -u +%T) end $(uptime)" >> $out/machine.txt
grep -E "^match completed|Elo|score|pentanomial" $out/match.log | head -8
