#!/usr/bin/env python3
# usage: lengths.py SGF...: the games' lengths (stones on the board at the end, the opening's
# included) by kinrow's colour and result, over every game of the c-gomoku-cli SGF files.
import re, statistics, sys

out = {}
for f in sys.argv[1:]:
    for game in open(f).read().split('(;')[1:]:
        black = re.search(r'PB\[(\w+)\]', game).group(1) == 'kinrow'
        result = re.search(r'RE\[([^]]*)\]', game).group(1)
        stones = len(re.findall(r';[BW]\[', game))
        won = result == ('B+1' if black else 'W+1')
        lost = result == ('W+1' if black else 'B+1')
        key = ('black' if black else 'white', 'won' if won else 'lost' if lost else 'drawn')
        out.setdefault(key, []).append(stones)
for (colour, outcome), n in sorted(out.items()):
    print(f"kinrow as {colour}, {outcome}: {len(n)} games, median {statistics.median(n)} stones, "
          f"{sum(1 for x in n if x <= 40)} ended within 40")
