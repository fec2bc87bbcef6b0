#!/bin/bash
# 1 s a move with the build of a1e0dad (the search of 17ccfcc, 1.36 times the nodes a second;
# bench signature 1482277), two matches at once, one game at a time each: freestyle on
# 15x15 against Rapfi at full strength (one thread), the classical openings with both
# colours twice; then renju against Rapfi beside the first half against kinrow at 56eebe7;
# then the second half against 56eebe7 beside freestyle on the first 26 balanced openings.
# Run from the repository's top folder.
K=/work/exp/kinrow-a1e0dad; OUT=results/threats-2026-11-30
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=bench/strength
O=/work/ref/kinrow-56eebe7
uptime > $OUT/load-start.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-a > $OUT/freestyle-classical-a.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-b > $OUT/freestyle-classical-b.txt 2>&1 &
wait
uptime > $OUT/load-middle1.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --rule renju --out $OUT/renju-classical > $OUT/renju-classical.txt 2>&1 &
$S/vs-kinrow.sh --new $K --old $O --pairs 26 --out $OUT/vs-56eebe7-a > $OUT/vs-56eebe7-a.txt 2>&1 &
wait
uptime > $OUT/load-middle2.txt
$S/vs-kinrow.sh --new $K --old $O --pairs 26 --out $OUT/vs-56eebe7-b -- --seed 2 > $OUT/vs-56eebe7-b.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --openings $S/openings/balanced.txt --out $OUT/freestyle-balanced > $OUT/freestyle-balanced.txt 2>&1 &
wait
uptime > $OUT/load-end.txt
