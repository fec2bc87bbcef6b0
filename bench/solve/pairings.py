#!/usr/bin/env python3
"""Writes fixtures/pairings.txt: positions of (8,8,5) with whether the second player has a
pairing strategy against the first, decided by a SAT solver (CaDiCaL, from the PyPI
package python-sat), an oracle independent of kinrow's own pairing searches.

The positions come from seeded games: the first player picks one of the four cells of
highest potential (its own lines plus the opponent's), the second player tries its 20
best blocking replies, each position after one of them is written, and a game ends where
one of them leaves a pairing. Every position with a pairing is kept and the
others are sampled, so the file stays small.

Usage: pip install python-sat && python3 bench/solve/pairings.py > fixtures/pairings.txt
"""

import itertools
import random
import sys

from pysat.card import CardEnc, EncType
from pysat.solvers import Cadical153

COLUMNS, ROWS, K = 8, 8, 5
CELLS = COLUMNS * ROWS
GAMES = 40
KEEP_WITHOUT = 5  # one position in this many without a pairing is written


def windows():
    found = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if 0 <= c + dc * (K - 1) < COLUMNS and 0 <= r + dr * (K - 1) < ROWS:
                    found.append(tuple((r + dr * i) * COLUMNS + c + dc * i for i in range(K)))
    return found


WINDOWS = windows()
CELL_WINDOWS = [[w for w in WINDOWS if x in w] for x in range(CELLS)]


def has_pairing(first, second):
    """Whether disjoint pairs of empty cells exist such that every window without a stone
    of `second` holds both cells of one pair (a pairing for `second` against `first`)."""
    open_empty = [[x for x in w if x not in first] for w in WINDOWS if not set(w) & second]
    if any(len(e) < 2 for e in open_empty):
        return False
    var = {}
    clauses = []
    for e in open_empty:
        clauses.append([var.setdefault(p, len(var) + 1) for p in itertools.combinations(e, 2)])
    top = len(var)
    by_cell = {}
    for (a, b), v in var.items():
        by_cell.setdefault(a, []).append(v)
        by_cell.setdefault(b, []).append(v)
    for lits in by_cell.values():
        if len(lits) > 1:
            enc = CardEnc.atmost(lits=lits, bound=1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, enc.nv)
            clauses += enc.clauses
    with Cadical153(bootstrap_with=clauses) as solver:
        return solver.solve()


def potential(x, mine, theirs):
    return sum(4 ** len(set(w) & mine) for w in CELL_WINDOWS[x] if not set(w) & theirs)


def name(x):
    return "%s%d" % (chr(ord("a") + x % COLUMNS), x // COLUMNS + 1)


def line(first, second):
    moves = [name(x) for pair in zip(first, second) for x in pair]
    return "%d %d %d | %s" % (COLUMNS, ROWS, K, " ".join(moves))


def main():
    sample = random.Random(0)
    out = sys.stdout
    out.write(__doc__.split("\n\n")[0].replace('"""', "").strip().replace("\n", "\n# ").join(["# ", "\n"]))
    out.write("# Made by bench/solve/pairings.py. Fields, separated by `|`: the game (columns rows k),\n")
    out.write("# the moves (first player first, alternating), and `pairing` or `none`.\n")
    for seed in range(GAMES):
        rng = random.Random(seed)
        first, second = [], []
        while len(first) + len(second) < CELLS - 2:
            taken = set(first) | set(second)
            empty = [x for x in range(CELLS) if x not in taken]
            mine, theirs = set(first), set(second)
            ranked = sorted(empty, key=lambda x: -(potential(x, mine, theirs) + potential(x, theirs, mine) + rng.random()))
            a = rng.choice(ranked[:4])
            first.append(a)
            empty.remove(a)
            mine.add(a)
            found = False
            for b in sorted(empty, key=lambda x: -potential(x, mine, theirs))[:20]:
                yes = has_pairing(mine, theirs | {b})
                if yes or sample.randrange(KEEP_WITHOUT) == 0:
                    out.write("%s | %s\n" % (line(first, second + [b]), "pairing" if yes else "none"))
                found |= yes
            if found:
                break
            b = max(empty, key=lambda x: potential(x, mine, theirs) * 2 + potential(x, theirs, mine) + rng.random())
            second.append(b)


if __name__ == "__main__":
    main()
