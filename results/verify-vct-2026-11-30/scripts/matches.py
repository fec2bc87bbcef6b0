"""The four matches' games that alts.py and pick.py read, and the bench modules they use."""
import os
import re
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')
for sub in ('strength', 'tune', 'lib'):
    sys.path.insert(0, os.path.join(TOP, 'bench', sub))

RUNS = ['margin-2026-11-30/freestyle-classical', 'margin-2026-11-30/freestyle-classical-2',
        'aspiration-2026-11-30/freestyle-classical', 'aspiration-2026-11-30/freestyle-classical-2']
GAME = re.compile(r"\(;.*?\)\s*(?=\(|$)", re.S)


def games():
    """The moves (SGF coordinates) of every game, by (run, index in its file as a string)."""
    out = {}
    for run in RUNS:
        text = open(os.path.join(TOP, 'results', run, 'games.sgf')).read()
        for i, g in enumerate(GAME.findall(text)):
            out[(run, str(i))] = re.findall(r";[BW]\[([a-z][a-z])\]", g)
    return out
