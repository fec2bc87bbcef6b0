#!/bin/bash
cmd=(/work/exp/kinrow-base tune spsa --params extend_threat,extend_factor,tactical_attack,tactical_defence,quiet_plies,root_lmr_move,move_futility_margin,lmr_scale,lmr_min_depth,move_count_base,move_count_square,futility_depth,futility_margin,max_width,null_reduction,null_min_depth,idle_depth
  --start /work/exp/demo/off30-all.txt --nodes 10000 --iterations 150 --pairs-per-iteration 4 --first-step 0.5 --concurrency 2 --seed 2 --openings /work/exp/demo/openings100.txt --state /work/exp/demo/spsa2/state.jsonl --out /work/exp/demo/spsa2/tuned.txt --log /work/exp/demo/spsa2/spsa.log)
printf '%q ' "${cmd[@]}" > command.txt; echo >> command.txt
echo "start $(date -u +%FT%TZ) $(uptime)" > machine.txt
"${cmd[@]}" > stdout.txt 2> stderr.txt
echo "end $(date -u +%FT%TZ) $(uptime)" >> machine.txt
