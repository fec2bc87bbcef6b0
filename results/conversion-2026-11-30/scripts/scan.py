#!/usr/bin/env python3
"""For kinrow's games as black (lost or won), Rapfi's verdict on each black-to-move position.
usage: scan.py RAPFI DEPTH SHARD NSHARDS OUT SGF...
Each output line: game-id result n eval moves..."""
import os, sys, re
sys.path.insert(0, "/work/main/bench/tune")
sys.path.insert(0, "/work/main/bench/strength")
from label import Brain
from summary import games_of, outcome

rapfi, depth, shard, nshards, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
items = []
for path in sys.argv[6:]:
    text = open(path).read()
    for gi, g in enumerate(re.findall(r"\(;.*?\)\s*(?=\(|$)", text, re.S)):
        if "PB[kinrow]" not in g:
            continue
        res = outcome(re.search(r"RE\[([^]]*)\]", g).group(1))
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        items.append((f"{os.path.basename(os.path.dirname(path))}#{gi}", res, moves, None))
brain = Brain(os.path.abspath(rapfi), depth, 5000)
with open(out, "w") as f:
    for k, (gid, res, moves, props) in enumerate(items):
        if k % nshards != shard:
            continue
        sq = [m for m in moves]
        for n in range(4, min(len(sq), 70), 2):
            try:
                ev = brain.evaluate(15, 15, sq[:n])
            except TimeoutError:
                brain.p.kill(); brain = Brain(os.path.abspath(rapfi), depth, 5000); ev = "timeout"
            f.write(f"{gid} {res} {n} {ev} {' '.join(sq[:n])}\n"); f.flush()
