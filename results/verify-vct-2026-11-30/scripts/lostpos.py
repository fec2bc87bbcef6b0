#!/usr/bin/env python3
# usage: lostpos.py SGF...: every position after a move of kinrow's (from the sixth stone) in
# the 15x15 freestyle games kinrow lost in c-gomoku-cli's SGF records, one a line as
# vct_suite reads them ("15 15 0 MOVE...", kinrow's square names), with
# "# RUN GAME COLOUR STONES LENGTH" after: the match's folder, the game's index in the file,
# kinrow's colour, the stones on the board and in the whole game.
import os, re, sys
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')
for sub in ('strength', 'tune'):
    sys.path.insert(0, os.path.join(TOP, 'bench', sub))
from summary import outcome
from analyse import square
GAME = re.compile(r"\(;.*?\)\s*(?=\(|$)", re.S)
for path in sys.argv[1:]:
    text = open(path).read()
    for gi, g in enumerate(GAME.findall(text)):
        if "SZ[15]" not in g or "RU[0]" not in g: continue
        kb = "PB[kinrow]" in g
        r = re.search(r"RE\[([^]]*)\]", g); o = outcome(r.group(1)) if r else None
        if o is None or o == ('B' if kb else 'W') or o not in 'BW': continue
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        first = 0 if kb else 1  # index of kinrow's first move
        for i in range(first, len(moves), 2):
            n = i + 1
            if n < 6: continue
            print(f"15 15 0 {' '.join(square(s) for s in moves[:n])} # {path.split('/')[-3]}/{path.split('/')[-2]} {gi} {'B' if kb else 'W'} {n} {len(moves)}")
