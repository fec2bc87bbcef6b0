#!/bin/bash
# Renju again (a second run of the same 52 games) at 1 s a move against Rapfi at full strength (one thread) with the build of bca7dab
# (the faster renju checks; bench signature 1482277): the 26 classical openings with both
# colours, as two matches at once over their first and last 13. Run from the repository's
# top folder.
K=/work/exp/kinrow-bca7dab; OUT=results/threats-2026-11-30
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=bench/strength
uptime > $OUT/load-renju2-start.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 13 --rule renju --openings $OUT/classical26-first13.txt --out $OUT/renju-bca7dab-c > $OUT/renju-bca7dab-c.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 13 --rule renju --openings $OUT/classical26-last13.txt --out $OUT/renju-bca7dab-d > $OUT/renju-bca7dab-d.txt 2>&1 &
wait
uptime > $OUT/load-renju2-end.txt
