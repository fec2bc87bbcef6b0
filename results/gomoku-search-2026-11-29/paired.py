#!/usr/bin/env python3
"""Paired comparison of two c-gomoku-cli matches played on the same openings, each opening
twice with the colours swapped (`-repeat`, one game at a time, so games 2k-1 and 2k share
opening k):

    python3 paired.py A.sgf NAME_A B.sgf NAME_B

For every opening both matches finished, the difference of the named engines' points;
prints both scores and the mean difference a game with its standard error over the openings.
Reads the records with bench/strength/summary.py's parser."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../bench/strength"))
from summary import games_of, outcome  # noqa: E402

POINTS = {"D": 0.5}


def points_by_opening(path, name):
    """Opening number -> the points `name` scored in each of its games."""
    with open(path) as f:
        games = games_of(f.read())
    out = {}
    for properties, _ in games:
        won = outcome(properties.get("RE", ""))
        if won is None or name not in (properties.get("PB"), properties.get("PW")):
            continue
        colour = "B" if properties.get("PB") == name else "W"
        opening = (int(properties["GN"]) + 1) // 2
        out.setdefault(opening, []).append(POINTS.get(won, 1.0 if won == colour else 0.0))
    return out


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    a = points_by_opening(argv[0], argv[1])
    b = points_by_opening(argv[2], argv[3])
    common = [k for k in a if len(a[k]) == 2 and len(b.get(k, [])) == 2]
    n = len(common)
    if n < 2:
        sys.exit("fewer than two openings finished in both matches")
    d = [sum(b[k]) - sum(a[k]) for k in common]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    sa = sum(sum(a[k]) for k in common)
    sb = sum(sum(b[k]) for k in common)
    print(f"{n} openings (both games in both files): A {sa}/{2 * n} ({sa / (2 * n):.1%}), "
          f"B {sb}/{2 * n} ({sb / (2 * n):.1%}); B - A = {mean / 2:+.3f} a game, "
          f"s.e. {sd / math.sqrt(n) / 2:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
