#!/usr/bin/env python3
"""Per kinrow (black) move: Rapfi's eval before (black to move) and after (white to move).
usage: drops.py RAPFI DEPTH SHARD NSHARDS OUT SGF..."""
import os, sys, re
sys.path.insert(0, "/work/main/bench/tune")
sys.path.insert(0, "/work/main/bench/strength")
from label import Brain
from summary import outcome
rapfi, depth, shard, nshards, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
items = []
for path in sys.argv[6:]:
    text = open(path).read()
    for gi, g in enumerate(re.findall(r"\(;.*?\)\s*(?=\(|$)", text, re.S)):
        if "PB[kinrow]" not in g:
            continue
        res = outcome(re.search(r"RE\[([^]]*)\]", g).group(1))
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        items.append((f"{os.path.basename(os.path.dirname(path))}#{gi}", res, moves))
brain = Brain(os.path.abspath(rapfi), depth, 5000)
def ev(m):
    global brain
    try:
        e = brain.evaluate(15, 15, m); return e, brain.last_move
    except TimeoutError:
        brain.p.kill(); brain = Brain(os.path.abspath(rapfi), depth, 5000); return "timeout", "-"
with open(out, "w") as f:
    for k, (gid, res, moves) in enumerate(items):
        if k % nshards != shard:
            continue
        for n in range(4, min(len(moves) - 1, 60), 2):
            e0, best = ev(moves[:n])
            e1, _ = ev(moves[:n + 1])
            f.write(f"{gid} {res} {n} {e0} {best} {moves[n]} {e1} {' '.join(moves[:n])}\n"); f.flush()
