#!/bin/bash
# Final 1 s measurements of kinrow (K) against Rapfi and against kinrow at 56eebe7.
K=$1; OUT=$2
R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli; S=/work/main/bench/strength
mkdir -p $OUT
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --concurrency 2 --out $OUT/rapfi-freestyle-classical26 > $OUT/rapfi-freestyle-classical26.txt 2>&1
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --rule renju --pairs 10 --concurrency 2 --out $OUT/rapfi-renju > $OUT/rapfi-renju.txt 2>&1
$S/vs-kinrow.sh --new $K --old /work/ref/kinrow-56eebe7 --pairs 13 --concurrency 2 --out $OUT/vs-56eebe7 > $OUT/vs-56eebe7.txt 2>&1
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --openings $S/openings/balanced.txt --pairs 13 --concurrency 2 --out $OUT/rapfi-freestyle-balanced > $OUT/rapfi-freestyle-balanced.txt 2>&1
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --rule exact --pairs 5 --concurrency 2 --out $OUT/rapfi-exact > $OUT/rapfi-exact.txt 2>&1
$S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --board 20 --pairs 5 --concurrency 2 --out $OUT/rapfi-20x20 > $OUT/rapfi-20x20.txt 2>&1
echo done > $OUT/DONE
