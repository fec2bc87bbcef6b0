#!/bin/bash
# 1 s a move against Rapfi at full strength (one thread), the build of 17ccfcc
# (/work/exp/kinrow-17ccfcc, bench signature 1482277): exact five on 15x15 and freestyle on
# 20x20, the classical openings each with both colours, the two matches at once (one game
# at a time each). Run from the repository's top folder.
K=/work/exp/kinrow-17ccfcc; OUT=results/postpone-2026-11-30
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=bench/strength
uptime > $OUT/load-start-exact-20x20.txt
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --rule exact --out $OUT/exact-classical > $OUT/exact-classical.txt 2>&1 &
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --board 20 --out $OUT/freestyle-20x20-classical > $OUT/freestyle-20x20-classical.txt 2>&1 &
wait
uptime > $OUT/load-end-exact-20x20.txt
