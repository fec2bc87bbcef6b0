#!/bin/bash
# measure.sh NAME PARAMSFILE NODES: kinrow with PARAMSFILE (empty: the compiled-in values) at
# NODES a move against Rapfi at max_depth 12, the 83 balanced openings with both colours;
# into measure-NAME/. KINROW names the kinrow binary, RAPFI the Rapfi brain.
set -eu
name=$1; file=$2; nodes=$3
here=$(cd "$(dirname "$0")" && pwd)
out=$here/measure-$name; mkdir -p "$out"
spec="cmd=${KINROW:?} name=$name nodes=$nodes"
[ -z "$file" ] || spec="$spec option.ParamsFile=$file"
cmd=("$KINROW" match --engine "$spec"
  --engine "cmd=${RAPFI:?} proto=gomocup name=rapfi depth=12 option.thread_num=1"
  --board 15x15 --games 166 --openings "file=$here/balanced83.txt"
  --concurrency "${CONC:-2}" --seed 1 --jsonl "$out/games.jsonl")
printf '%q ' "${cmd[@]}" > "$out/command.txt"; echo >> "$out/command.txt"
echo "start $(date -u +%FT%TZ) $(uptime)" > "$out/machine.txt"
"${cmd[@]}" > "$out/match.log" 2>&1
echo "end $(date -u +%FT%TZ) $(uptime)" >> "$out/machine.txt"
grep -A7 "^match completed" "$out/match.log"
