#!/bin/bash
# 1 s a move, one thread, two matches at once, one game at a time each, from the
# repository's top folder: K=BIN run-1s.sh ["NAME rapfi|kinrow [options] [-- extra]" ...],
# or with no arguments the first queue below. K is the experiment build (main at bbe3efc with
# the parameter verify_vct_budget, the check of the chosen move's threats search, at 300000:
# bench/strength/experiments/verify-vct-2026-11-30.patch). Each match starts as one of
# the two slots frees.
K=${K:?the kinrow binary}; R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli
OLD=/work/ref/kinrow-56eebe7
OUT=${OUT:-results/verify-vct-2026-11-30}; S=bench/strength
if [ $# -gt 0 ]; then queue=("$@"); else queue=(
  "freestyle-classical-a rapfi"
  "freestyle-classical-b rapfi"
  "vs-56eebe7-a kinrow"
  "vs-56eebe7-b kinrow -- --seed 2"
); fi
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
  sleep 5
done
wait
