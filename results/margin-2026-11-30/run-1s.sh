#!/bin/bash
# 1 s a move with the build of e896859 (a turn's deadline 35 ms + 5% before the limit; the
# search of 2aa21f8, bench signature 1430093), two matches at once, one game at a time
# each, from the repository's top folder, against Rapfi at full strength (one thread). The
# two freestyle runs on the classical openings were started first, by hand, with:
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical
#   $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 --out $OUT/freestyle-classical-2
# This script starts the next match in a slot as each match ends: renju and 20x20 freestyle
# on the classical openings, then exact five on them and freestyle on the first 26 balanced
# openings.
K=/work/exp/kinrow-margin; R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli
OUT=results/margin-2026-11-30; S=bench/strength
done_match() { grep -q '^kinrow: [0-9]* games' "$1" 2>/dev/null; }
next=(
  "renju-classical --rule renju"
  "freestyle-20x20 --board 20"
  "exact-classical --rule exact"
  "freestyle-balanced --openings $S/openings/balanced.txt"
)
watch=("$OUT/freestyle-classical.txt" "$OUT/freestyle-classical-2.txt")
i=0
while [ $i -lt ${#next[@]} ]; do
  for slot in 0 1; do
    [ $i -lt ${#next[@]} ] || break
    if done_match "${watch[$slot]}"; then
      set -- ${next[$i]}
      name=$1; shift
      echo "$(date -u +%H:%M:%S) $name $(uptime)" >> $OUT/started.txt
      $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 "$@" --out $OUT/$name > $OUT/$name.txt 2>&1 &
      watch[$slot]=$OUT/$name.txt
      i=$((i + 1))
    fi
  done
  sleep 10
done
wait
uptime > $OUT/load-end.txt
