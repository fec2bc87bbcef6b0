#!/bin/bash
# 1 s a move against Rapfi at full strength (one thread), the build with postpone_class 3
# (/work/exp/kinrow-pp, the working tree of this change, bench signature 1479097): freestyle
# on 15x15, the classical openings each with both colours twice (two matches at once, one
# game at a time each), then renju on the classical openings beside freestyle on the first
# 26 balanced openings. Run from the repository's top folder.
K=/work/exp/kinrow-pp; OUT=results/postpone-2026-11-30
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=bench/strength
uptime > $OUT/load-start.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-a > $OUT/freestyle-classical-a.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-b > $OUT/freestyle-classical-b.txt 2>&1 &
wait
uptime > $OUT/load-middle.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --rule renju --out $OUT/renju-classical > $OUT/renju-classical.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --openings $S/openings/balanced.txt --out $OUT/freestyle-balanced > $OUT/freestyle-balanced.txt 2>&1 &
wait
uptime > $OUT/load-end.txt
