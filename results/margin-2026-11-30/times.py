#!/usr/bin/env python3
# usage: times.py SGF...: for each c-gomoku-cli SGF file, kinrow's and Rapfi's thinking times
# from the move comments (C[123ms]): the moves of 100 ms or more (the rest are forced
# blocks, proven wins and losses), their mean, and the longest reply of each.
import re, statistics, sys

for f in sys.argv[1:]:
    kinrow, rapfi = [], []
    for game in open(f).read().split('(;')[1:]:
        black = re.search(r'PB\[(\w+)\]', game).group(1)
        colour = 'B' if black == 'kinrow' else 'W'
        for c, ms in re.findall(r';([BW])\[\w*\]C\[(\d+)ms\]', game):
            (kinrow if c == colour else rapfi).append(int(ms))
    line = [f]
    for name, t in (('kinrow', kinrow), ('rapfi', rapfi)):
        long = [x for x in t if x >= 100]
        line.append(f"{name}: {len(long)} moves >= 100 ms, mean {statistics.mean(long):.0f} ms, longest {max(t)} ms")
    print(' | '.join(line))
