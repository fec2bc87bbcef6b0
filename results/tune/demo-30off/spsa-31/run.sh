#!/bin/bash
cmd=(/work/exp/kinrow-base tune spsa --params null_depth_divisor,lmr_min_move,move_count_declining,leaf_vcf_depth,leaf_vcf_budget,root_vcf_depth,root_vcf_budget,root_vct_depth,root_vct_budget,root_vct_share,defence_depth,defence_budget,defence_move_budget,defence_share,order_three,order_double_three,order_four,order_four_three,order_open_four,block_three,block_double_three,block_four,block_four_three,block_open_four,order_killer,order_counter,history_malus,history_keep,order_history,order_history_cap,order_their_cells
  --start /work/exp/demo/spsa2/tuned.txt --nodes 10000 --iterations 150 --pairs-per-iteration 4 --first-step 0.5 --concurrency 2 --seed 3 --openings /work/exp/demo/openings100.txt --state /work/exp/demo/spsa3/state.jsonl --out /work/exp/demo/spsa3/tuned.txt --log /work/exp/demo/spsa3/spsa.log)
printf '%q ' "${cmd[@]}" > command.txt; echo >> command.txt
echo "start $(date -u +%FT%TZ) $(uptime)" > machine.txt
"${cmd[@]}" > stdout.txt 2> stderr.txt
echo "end $(date -u +%FT%TZ) $(uptime)" >> machine.txt
