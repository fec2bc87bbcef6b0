#!/bin/bash
cmd=(/work/exp/kinrow-base tune spsa --start /work/exp/demo/off30-all.txt --nodes 10000 --iterations 200 --pairs-per-iteration 2 --concurrency 2 --seed 1 --openings /work/exp/demo/openings100.txt --state /work/exp/demo/spsa/state.jsonl --out /work/exp/demo/spsa/tuned.txt --log /work/exp/demo/spsa/spsa.log)
printf '%q ' "${cmd[@]}" > command.txt; echo >> command.txt
echo "start $(date -u +%FT%TZ) $(uptime)" > machine.txt
"${cmd[@]}" > stdout.txt 2> stderr.txt
echo "end $(date -u +%FT%TZ) $(uptime)" >> machine.txt
