#!/usr/bin/env python3
# usage: alts_summary.py ALTS.OUT: vct_suite --each's verdicts on alts.py's positions (every
# move near the stones before the move of kinrow's after which the larger budget first
# proves the loss); for each such position, how many moves are not proven lost, and the
# count by colour of positions with and without one.
import collections, sys

cases = collections.defaultdict(list)
for line in open(sys.argv[1]):
    verdict, _, tag = line.partition("#")
    run, game, colour, stones, cell, played = tag.split()
    cases[(colour, run, int(game), int(stones))].append((int(verdict.split()[-1]), cell))
counts = collections.Counter()
for key in sorted(cases):
    moves = cases[key]
    open_moves = [cell for proven, cell in moves if not proven]
    counts[key[0], bool(open_moves)] += 1
    print(*key, f"{len(moves)} moves, {len(open_moves)} not proven lost:", *open_moves)
for (colour, any_open), n in sorted(counts.items()):
    side = "black" if colour == "B" else "white"
    print(f"as {side}: {n} positions {'with' if any_open else 'without'} a move not proven lost",
          file=sys.stderr)
