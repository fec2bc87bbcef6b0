#!/bin/bash
# usage: probe.sh "setoption lines..." limit   -> depth reached per position
K=${K:-/work/main/target/release/kinrow}
opts="$1"; lim="$2"
while read -r line; do
  m=$(for x in ${line#startpos moves }; do printf "P@%s " $x; done)
  printf "uci\nsetoption name UCI_Variant value gomoku\n$opts\nucinewgame\nposition startpos moves $m\ngo $lim\n" | (cat; sleep ${SLEEP:-1.3}; echo quit) | $K 2>&1 | grep -E "^info depth" | tail -1 | awk '{print $3, $5, $9, $11}'
done
