#!/bin/bash
# ab.sh NAME BIN_A "PARAMS_A" BIN_B "PARAMS_B" GAMES LIMIT...   (A is reported)
name=$1; a=$2; pa=$3; b=$4; pb=$5; games=$6; shift 6
mkdir -p /work/exp/w
printf '#!/bin/sh\nKINROW_PARAMS="%s" exec %s "$@"\n' "$pa" "$a" > /work/exp/w/$name-a.sh
printf '#!/bin/sh\nKINROW_PARAMS="%s" exec %s "$@"\n' "$pb" "$b" > /work/exp/w/$name-b.sh
chmod +x /work/exp/w/$name-a.sh /work/exp/w/$name-b.sh
/work/ref/kinrow-b0 match --engine cmd=/work/exp/w/$name-a.sh name=A --engine cmd=/work/exp/w/$name-b.sh name=B \
  --board 15x15 --games $games --openings file=/work/exp/balanced.pos --seed 1 --report-every 0 "$@" > /work/exp/r-$name.txt 2>&1
grep -E "Elo difference|A:|pentanomial" /work/exp/r-$name.txt | sed "s/^/$name: /"
