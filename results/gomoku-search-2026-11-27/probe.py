#!/usr/bin/env python3
"""Depth, nodes and move of each binary at `go movetime MS` on the speed positions."""
import sys, os
sys.path.insert(0, '/work/main/bench/lib')
from kinrow_uci import Kinrow
ms = int(sys.argv[1]); bins = sys.argv[2:]
pos = [l.split() for l in open('/work/main/bench/speed/positions.txt') if l.strip() and not l.startswith('#')]
engines = [Kinrow(b) for b in bins]
tot = [[0,0] for _ in bins]
for p in pos[:int(os.environ.get("NPOS","12"))]:
    c, r, _d, moves = int(p[0]), int(p[1]), p[2], p[3:]
    row = []
    for i, e in enumerate(engines):
        e.set_position(c, r, moves)
        line, best, secs = e.go(f"movetime {ms}")
        w = (line or '').split()
        get = lambda k: w[w.index(k)+1] if k in w else '0'
        sc = ' '.join(w[w.index('score')+1:w.index('score')+3]) if 'score' in w else '-'
        row.append(f"d{get('depth')}/sd{get('seldepth')}/n{get('nodes')}/{best}/{sc}")
        tot[i][0] += int(get('depth')); tot[i][1] += int(get('nodes'))
    print(len(moves), *row, flush=True)
print("totals depth/nodes", tot)
for e in engines: e.quit()
