#!/usr/bin/env python3
"""Rapfi at a turn of T ms on each black-to-move position of kinrow's lost black games.
usage: scan1s.py RAPFI TURN SHARD NSHARDS OUT SGF..."""
import os, sys, re
sys.path.insert(0, "/work/main/bench/tune")
sys.path.insert(0, "/work/main/bench/strength")
from label import Brain
from summary import outcome
rapfi, turn, shard, nshards, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
LO, HI = int(os.environ.get("LO", 6)), int(os.environ.get("HI", 44))
items = []
for path in sys.argv[6:]:
    text = open(path).read()
    for gi, g in enumerate(re.findall(r"\(;.*?\)\s*(?=\(|$)", text, re.S)):
        if "PB[kinrow]" not in g:
            continue
        res = outcome(re.search(r"RE\[([^]]*)\]", g).group(1))
        if res != "W":
            continue
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        items.append((f"{os.path.basename(os.path.dirname(path))}#{gi}", res, moves))
brain = Brain(os.path.abspath(rapfi), 99, turn)
with open(out, "w") as f:
    for k, (gid, res, moves) in enumerate(items):
        if k % nshards != shard:
            continue
        for n in range(LO, min(len(moves) - 1, HI), 2):
            try:
                e = brain.evaluate(15, 15, moves[:n]); best = brain.last_move
            except TimeoutError:
                brain.p.kill(); brain = Brain(os.path.abspath(rapfi), 99, turn); e, best = "timeout", "-"
            f.write(f"{gid} {res} {n} {e} {best} {moves[n]} {' '.join(moves[:n])}\n"); f.flush()
