#!/bin/sh
# cutechess-cli self-play of kinrow on 15x15 gomokufreestyle, as for issue #43.
# usage: run.sh KINROW TC NAME [extra -each options...]   (TC: st=0.1 or tc=1+0.01)
K=$1; TC=$2; NAME=$3; shift 3
echo "# $(date -u +%FT%TZ) load $(cat /proc/loadavg)"
echo "# /work/tools/bin/cutechess-cli -variant gomokufreestyle -engine name=a cmd=$K -engine name=b cmd=$K -each proto=uci $TC $* -games 60 -repeat -concurrency 1 -pgnout $NAME.pgn"
/work/tools/bin/cutechess-cli -variant gomokufreestyle \
  -engine name=a cmd="$K" -engine name=b cmd="$K" \
  -each proto=uci $TC "$@" -games 60 -repeat -concurrency 1 -pgnout "$NAME.pgn"
echo "# exit $? at $(date -u +%FT%TZ) load $(cat /proc/loadavg)"
