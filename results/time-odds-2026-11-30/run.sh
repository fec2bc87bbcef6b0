#!/bin/bash
# kinrow at 2 s a move against Rapfi at 1 s (full strength, classical configuration, one
# thread), 15x15 freestyle, the 26 classical openings with both colours, refereed by
# c-gomoku-cli, two matches at once, one game at a time each; from the repository's top
# folder. What twice the time (so twice the nodes) is worth against Rapfi as the issue
# measures it. The build is that of the commit that added this script (the turn's deadline 35 ms + 5% before the limit: 1,865 ms of 2 s).
K=/work/exp/kinrow-floor; R=/work/tools/bin/pbrain-rapfi; C=/work/tools/bin/c-gomoku-cli
OUT=$PWD/results/time-odds-2026-11-30
run() {
  local dir=$OUT/$1
  mkdir -p "$dir"
  echo "start: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)" > "$dir/machine.txt"
  command=("$C" -engine name=kinrow "cmd=$K gomocup" tc=1000/2
    -engine name=rapfi "cmd=$R" thread=1 tc=1000/1
    -boardsize 15 -rule 0 -games 52 -repeat -concurrency 1
    -openings "file=$PWD/bench/strength/openings/classical26.txt" order=sequential
    -sgf "$dir/games.sgf" -pgn "$dir/games.pgn")
  printf '%q ' "${command[@]}" > "$dir/command.txt"; echo >> "$dir/command.txt"
  "${command[@]}" > "$dir/cli.log" 2>&1
  echo "end: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uptime)" >> "$dir/machine.txt"
  python3 bench/strength/summary.py --engine kinrow --turn-ms 2000 "$dir/games.sgf" > "$dir/summary.txt" 2>&1
}
run kinrow2s-a &
run kinrow2s-b &
wait
