#!/bin/bash
# run.sh NAME NODES "option.a=1 option.b=2": the build B with those options against itself at
# its defaults, NODES a move, each opening of OPEN (kinrow positions) once with each colour
# (GAMES games, default 166); writes NAME.txt, NAME.sgf and NAME.jsonl in the current folder.
name=$1; nodes=$2; opts=$3
B=${B:?the kinrow build under test}; OPEN=${OPEN:?the openings file}
$B match --engine "cmd=$B name=new option.Rule=freestyle $opts" --engine "cmd=$B name=base option.Rule=freestyle" \
  --board 15x15 --games "${GAMES:-166}" --nodes "$nodes" --openings "file=$OPEN" --concurrency 1 \
  --sgf "$name.sgf" --jsonl "$name.jsonl" > "$name.txt" 2>&1
