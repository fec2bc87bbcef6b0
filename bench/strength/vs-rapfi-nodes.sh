#!/bin/bash
# vs-rapfi-nodes.sh DIR NAME PARAMSFILE NODES: kinrow (with PARAMSFILE, or the compiled-in
# values where it is empty) at NODES a move against Rapfi at max_depth 12 through `kinrow
# match`, the openings of DIR/balanced83.txt (the 83 balanced openings in kinrow's notation,
# as in results/tune/rapfi-d12/) each with both colours, seed 1; into DIR/measure-NAME/
# (command.txt, machine.txt, match.log, games.jsonl). KINROW names the kinrow binary, RAPFI
# the Rapfi brain, CONC the games at once (default 2). Node-limited games do not depend on
# the machine's load; compare two runs with paired_jsonl.py.
set -eu
dir=$(cd "$1" && pwd); name=$2; file=$3; nodes=$4
out=$dir/measure-$name; mkdir -p "$out"
spec="cmd=${KINROW:?} name=$name nodes=$nodes"
[ -z "$file" ] || spec="$spec option.ParamsFile=$file"
cmd=("$KINROW" match --engine "$spec"
  --engine "cmd=${RAPFI:?} proto=gomocup name=rapfi depth=12 option.thread_num=1"
  --board 15x15 --games 166 --openings "file=$dir/balanced83.txt"
  --concurrency "${CONC:-2}" --seed 1 --jsonl "$out/games.jsonl")
printf '%q ' "${cmd[@]}" > "$out/command.txt"; echo >> "$out/command.txt"
echo "start $(date -u +%FT%TZ) $(uptime)" > "$out/machine.txt"
"${cmd[@]}" > "$out/match.log" 2>&1
echo "end $(date -u +%FT%TZ) $(uptime)" >> "$out/machine.txt"
grep -A7 "^match completed" "$out/match.log"
