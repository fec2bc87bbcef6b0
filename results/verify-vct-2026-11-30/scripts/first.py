#!/usr/bin/env python3
# usage: first.py LOST.OUT [--same]: for each lost game of vct_suite --each's output on lostpos.py's
# positions (the verdicts at two budgets, then "# RUN GAME COLOUR STONES LENGTH"), the first
# position after a move of kinrow's that each budget proves lost. Prints the games where the
# larger budget proves it earlier ("RUN GAME COLOUR STONES", the input of alts.py and
# pick.py; with --same, the games where both prove it first after the same move) and, on
# standard error, the counts by colour.
import collections, sys

same = "--same" in sys.argv[2:]
games = collections.defaultdict(list)
for line in open(sys.argv[1]):
    verdicts, _, tag = line.partition("#")
    small, large = (int(v) for v in verdicts.split())
    run, game, colour, stones, _length = tag.split()
    games[(run, game, colour)].append((int(stones), small, large))
counts = collections.Counter()
for (run, game, colour), positions in games.items():
    positions.sort()
    first_small = next((n for n, s, _ in positions if s), None)
    first_large = next((n for n, _, l in positions if l), None)
    if first_large is None:
        counts[colour, "never proven"] += 1
    elif first_small == first_large:
        counts[colour, "same move"] += 1
        if same:
            print(run, game, colour, first_large)
    else:
        counts[colour, "earlier"] += 1
        if not same:
            print(run, game, colour, first_large)
for (colour, what), n in sorted(counts.items()):
    print(f"as {'black' if colour == 'B' else 'white'}: {what} {n}", file=sys.stderr)
