#!/bin/bash
# 1 s a move with the threats search at the horizon (leaf_vct_* as at e77d7c0), one
# thread, two matches at once, one game at a time each, from the repository's top folder.
# The first freestyle run on the classical openings (freestyle-classical-a and -b, 52 games
# each) was started by hand, before the commit, with the experiment build's binary:
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-a
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-b
# This script runs the rest as a queue: each match starts as one of the two slots frees.
K=${K:?the kinrow binary}; R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli
OLD=/work/ref/kinrow-56eebe7
OUT=results/conversion-2026-11-30; S=bench/strength
queue=(
  "freestyle-classical-c rapfi"
  "renju-classical rapfi --rule renju"
  "freestyle-classical-d rapfi"
  "vs-56eebe7-a kinrow"
  "vs-56eebe7-b kinrow -- --seed 2"
)
# (A last entry, freestyle on the first 26 balanced openings, was taken out while the
# queue ran, for want of time: the loop was stopped once vs-56eebe7-b had started.)
start() {
  set -- $1
  name=$1; who=$2; shift 2
  echo "$(date -u +%H:%M:%S) $name $(uptime)" >> $OUT/started.txt
  if [ "$who" = rapfi ]; then
    $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
  else
    $S/vs-kinrow.sh --new $K --old $OLD --pairs 26 --out $OUT/$name "$@" > $OUT/$name.txt 2>&1
  fi
}
i=0
pids=("" "")
while [ $i -lt ${#queue[@]} ]; do
  for slot in 0 1; do
    [ $i -lt ${#queue[@]} ] || break
    if [ -z "${pids[$slot]}" ] || ! kill -0 "${pids[$slot]}" 2>/dev/null; then
      start "${queue[$i]}" &
      pids[$slot]=$!
      i=$((i + 1))
    fi
  done
  sleep 10
done
wait
uptime > $OUT/load-end.txt
