#!/bin/bash
# 1 s a move with the threats search at the horizon (leaf_vct_* as at e77d7c0), one
# thread, two matches at once, one game at a time each, from the repository's top folder.
# The first freestyle run on the classical openings (freestyle-classical-a and -b, 52 games
# each) was started by hand, before the commit, with the experiment build's binary:
#   bench/strength/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-a
#   bench/strength/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-b
# This script runs the rest as a queue (bench/strength/queue-1s.sh, K the build): each
# match starts as one of the two slots frees.
export OUT=results/conversion-2026-11-30
queue=(
  "freestyle-classical-c rapfi"
  "renju-classical rapfi --rule renju"
  "freestyle-classical-d rapfi"
  "vs-56eebe7-a kinrow"
  "vs-56eebe7-b kinrow -- --seed 2"
)
# (A last entry, freestyle on the first 26 balanced openings, was taken out while the
# queue ran, for want of time: the loop was stopped once vs-56eebe7-b had started.)
bench/strength/queue-1s.sh "${queue[@]}"
uptime > $OUT/load-end.txt
