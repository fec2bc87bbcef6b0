#!/usr/bin/env python3
# usage: times.py SGF...: for each c-gomoku-cli SGF file, kinrow's and Rapfi's thinking times
# from the move comments (C[123ms]): the moves of 100 ms or more (the rest are forced
# blocks, proven wins and losses), their mean, and the longest reply of each. The records
# are read by bench/strength/summary.py's parser.
import os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "strength"))
from summary import games_of

for f in sys.argv[1:]:
    kinrow, rapfi = [], []
    for properties, moves in games_of(open(f).read()):
        colour = 'B' if properties.get('PB') == 'kinrow' else 'W'
        for c, ms, _ in moves:
            if ms is not None:
                (kinrow if c == colour else rapfi).append(ms)
    line = [f]
    for name, t in (('kinrow', kinrow), ('rapfi', rapfi)):
        long = [x for x in t if x >= 100]
        line.append(f"{name}: {len(long)} moves >= 100 ms, mean {statistics.mean(long):.0f} ms, longest {max(t)} ms")
    print(' | '.join(line))
