#!/bin/bash
# queue-1s.sh: a queue of 1 s matches, two at a time, each starting as one of the two slots
# frees; one thread each, one game at a time in each match. From the repository's top folder:
#
#   K=BIN OUT=DIR bench/strength/queue-1s.sh "NAME rapfi|kinrow [options] [-- extra]" ...
#
# NAME rapfi: K against Rapfi (vs-rapfi.sh --pairs 26, the classical openings unless the
# options say otherwise); NAME kinrow: K against OLD (vs-kinrow.sh --pairs 26). The options
# go to that script. Each match writes DIR/NAME/ and DIR/NAME.txt; DIR/started.txt gets a
# line (time, name, load) as each starts. R, C and OLD name Rapfi's brain, c-gomoku-cli and
# the older kinrow (defaults: this machine's /work/tools/bin and /work/ref/kinrow-56eebe7).
K=${K:?the kinrow binary}; OUT=${OUT:?the output folder}
R=${R:-/work/tools/bin/pbrain-rapfi}; C=${C:-/work/tools/bin/c-gomoku-cli}
OLD=${OLD:-/work/ref/kinrow-56eebe7}; S=bench/strength
[ $# -gt 0 ] || { echo "queue-1s.sh: no match named" >&2; exit 2; }
start() {
  set -- $1
  name=$1; who=$2; shift 2
  echo "$(date -u +%H:%M:%S) $name $(uptime)" >> $OUT/started.txt
  if [ "$who" = rapfi ]; then
    $S/vs-rapfi.sh --kinrow $K --rapfi $R --cli $C --pairs 26 "$@" --out $OUT/$name > $OUT/$name.txt 2>&1
  else
    $S/vs-kinrow.sh --new $K --old $OLD --pairs 26 --out $OUT/$name "$@" > $OUT/$name.txt 2>&1
  fi
}
queue=("$@")
i=0
pids=("" "")
while [ $i -lt ${#queue[@]} ]; do
  for slot in 0 1; do
    [ $i -lt ${#queue[@]} ] || break
    if [ -z "${pids[$slot]}" ] || ! kill -0 "${pids[$slot]}" 2>/dev/null; then
      start "${queue[$i]}" &
      pids[$slot]=$!
      i=$((i + 1))
    fi
  done
  sleep 5
done
wait
