#!/bin/bash
# 1 s a move with the build of 8ebc6f2 (aspiration windows and the four bits; bench
# signature 1430093), two matches at once, one game at a time each, from the repository's
# top folder. Freestyle and renju on the classical openings against Rapfi at full strength
# (one thread) were started first, by hand, with these same lines:
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --rule renju --out $OUT/renju-classical
# This script then starts each half against kinrow at 56eebe7 (the translated search) as
# one of those ends.
K=/work/exp/kinrow-8ebc6f2; OUT=results/aspiration-2026-11-30
S=bench/strength; O=/work/ref/kinrow-56eebe7
done_match() { grep -q '^kinrow: [0-9]* games' "$1" 2>/dev/null; }
started=0
while [ $started -lt 2 ]; do
  for f in $OUT/renju-classical.txt $OUT/freestyle-classical.txt; do
    if done_match $f && ! grep -q "$f" $OUT/started.txt 2>/dev/null; then
      echo "$f" >> $OUT/started.txt
      if [ $started -eq 0 ]; then
        uptime > $OUT/load-middle.txt
        $S/vs-kinrow.sh --new $K --old $O --pairs 26 --out $OUT/vs-56eebe7-a > $OUT/vs-56eebe7-a.txt 2>&1 &
      else
        $S/vs-kinrow.sh --new $K --old $O --pairs 26 --out $OUT/vs-56eebe7-b -- --seed 2 > $OUT/vs-56eebe7-b.txt 2>&1 &
      fi
      started=$((started + 1))
    fi
  done
  sleep 10
done
wait
uptime > $OUT/load-end.txt
