#!/bin/bash
# 1 s a move, one thread, two matches at once, one game at a time each, from the
# repository's top folder: K=BIN run-1s.sh ["NAME rapfi|kinrow [options] [-- extra]" ...],
# or with no arguments the first queue below. K is the experiment build (main at bbe3efc with
# the parameter verify_vct_budget, the check of the chosen move's threats search, at 300000:
# bench/strength/experiments/verify-vct-2026-11-30.patch). The queue runs through
# bench/strength/queue-1s.sh: each match starts as one of the two slots frees.
export OUT=${OUT:-results/verify-vct-2026-11-30}
if [ $# -gt 0 ]; then queue=("$@"); else queue=(
  "freestyle-classical-a rapfi"
  "freestyle-classical-b rapfi"
  "vs-56eebe7-a kinrow"
  "vs-56eebe7-b kinrow -- --seed 2"
); fi
exec bench/strength/queue-1s.sh "${queue[@]}"
