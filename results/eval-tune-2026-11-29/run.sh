#!/bin/bash
# 1 s a move against Rapfi at full strength (one thread), the build with the tuned evaluation
# terms as defaults (/work/exp/kinrow-evaldef): freestyle and renju on the classical
# openings, each opening with both colours, the two matches at once (one game at a time
# each). Run from the repository's top folder.
K=/work/exp/kinrow-evaldef; OUT=results/eval-tune-2026-11-29
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=bench/strength
uptime > $OUT/load-start.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/full-classical > $OUT/full-classical.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --rule renju --out $OUT/full-renju > $OUT/full-renju.txt 2>&1 &
wait
uptime > $OUT/load-end.txt
