#!/usr/bin/env python3
# usage: lengths.py SGF...: the games' lengths (stones on the board at the end, the opening's
# included) by kinrow's colour and result, over every game of the c-gomoku-cli SGF files,
# read by bench/strength/summary.py's parser.
import os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "strength"))
from summary import games_of, outcome

out = {}
for f in sys.argv[1:]:
    for properties, moves in games_of(open(f).read()):
        colour = 'B' if properties.get('PB') == 'kinrow' else 'W'
        winner = outcome(properties.get('RE', ''))
        result = 'won' if winner == colour else 'drawn' if winner == 'D' else 'lost'
        key = ('black' if colour == 'B' else 'white', result)
        out.setdefault(key, []).append(len(moves))
for (colour, result), n in sorted(out.items()):
    print(f"kinrow as {colour}, {result}: {len(n)} games, median {statistics.median(n)} stones, "
          f"{sum(1 for x in n if x <= 40)} ended within 40")
