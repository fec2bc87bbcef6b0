#!/bin/bash
# round.sh NAME=WRAPPER ...: plays each candidate against Rapfi at max_depth 12, all at the
# same time, into NAME-d12/ here; a match that finishes first keeps its core busy with a
# scratch match (scratch-NAME/, not kept) until all are done, so that the others finish
# under the same load. RAPFI and CLI name the Rapfi brain and c-gomoku-cli; PAIRS is the
# number of balanced openings, each played with both colours (default 83, all of them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$here"
pairs=${PAIRS:-83}
R="--rapfi ${RAPFI:?the Rapfi brain} --cli ${CLI:?c-gomoku-cli} --openings $repo/bench/strength/openings/balanced.txt --pairs $pairs --depth 12"
names=()
for arg in "$@"; do
  name=${arg%%=*}; wrapper=${arg#*=}; names+=("$name")
  (
    "$repo/bench/strength/vs-rapfi.sh" --kinrow "$wrapper" --kinrow-name "$name" $R --out "$name-d12" > "$name.log" 2>&1
    rm -rf "scratch-$name"
    exec setsid "$repo/bench/strength/vs-rapfi.sh" --kinrow "$wrapper" --kinrow-name "filler$name" $R --out "scratch-$name" > "scratch-$name.log" 2>&1
  ) &
done
done_all() {
  for n in "${names[@]}"; do
    # Before a match writes its first record there is no file: no games yet.
    [ "$(cat "$n-d12/games.sgf" 2>/dev/null | grep -c 'RE\[')" -ge $((2 * pairs)) ] || return 1
  done
}
until done_all; do sleep 3; done
sleep 5
for n in "${names[@]}"; do pkill -f "name=filler$n"; done
wait
echo round done
