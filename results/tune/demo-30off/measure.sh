#!/bin/bash
# usage: measure.sh NAME PARAMSFILE NODES GAMES : kinrow with PARAMSFILE against kinrow at the compiled-in values
name=$1; file=$2; nodes=$3; games=$4
out=/work/exp/demo/$name; mkdir -p $out
cmd=(/work/exp/kinrow-base match --engine "cmd=/work/exp/kinrow-base name=$name option.ParamsFile=$file"
  --engine "cmd=/work/exp/kinrow-base name=default"
  --board 15x15 --games $games --nodes $nodes --openings file=/work/exp/demo/openings100.txt
  --concurrency ${CONC:-2} --seed 1 --jsonl $out/games.jsonl)
printf '%q ' "${cmd[@]}" > $out/command.txt; echo >> $out/command.txt
echo "start $(date -u +%FT%TZ) $(uptime)" > $out/machine.txt
"${cmd[@]}" > $out/match.log 2>&1
echo "end $(date -u +%FT%TZ) $(uptime)" >> $out/machine.txt
grep -A6 "^match completed" $out/match.log
