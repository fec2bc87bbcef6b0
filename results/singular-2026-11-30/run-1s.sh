#!/bin/bash
# 1 s a move, one thread, two matches at once, one game at a time each, from the
# repository's top folder: K=BIN run-1s.sh ["NAME rapfi|kinrow [options] [-- extra]" ...],
# or with no arguments the first queue below (build C). K was the experiment build (the
# patch bench/strength/experiments/singular-convert-2026-11-30.patch with the defaults
# singular_depth 4, singular_margin 20, and for C leaf_vct_budget 3000) or main at d629246
# (the main-* runs). The queue runs through bench/strength/queue-1s.sh: each match starts
# as one of the two slots frees.
export OUT=${OUT:-results/singular-2026-11-30}
if [ $# -gt 0 ]; then queue=("$@"); else queue=(
  "freestyle-classical-a rapfi"
  "vs-56eebe7-a kinrow"
  "freestyle-classical-b rapfi"
  "vs-56eebe7-b kinrow -- --seed 2"
); fi
exec bench/strength/queue-1s.sh "${queue[@]}"
