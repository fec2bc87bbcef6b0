#!/usr/bin/env python3
"""ttd.py DEPTH N BIN[:name=value,...] ...: the nodes and time each kinrow binary (with those
search parameters set) takes to search the first N balanced openings to DEPTH (`go depth`),
summed, and the nodes of each."""
import os, subprocess, sys
depth, n, bins = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pos = []
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../bench/strength/openings/balanced.txt')).readlines()[:n]:
    nums = [int(x) for x in line.replace(' ', '').strip().strip(',').split(',')]
    pos.append(' '.join(chr(ord('h') + nums[i]) + str(8 + nums[i + 1]) for i in range(0, len(nums), 2)))
for b in bins:
    tn = tt = 0
    per = []
    for mv in pos:
        path, _, sets = b.partition(':')
        opts = ''.join(f"setoption name {kv.split('=')[0]} value {kv.split('=')[1]}\n" for kv in sets.split(',') if kv)
        p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write(f"uci\nsetoption name UCI_Variant value gomoku\n{opts}position startpos moves {mv}\ngo depth {depth}\n")
        p.stdin.flush()
        last = None
        for line in p.stdout:
            if line.startswith('info depth'):
                last = line.split()
            if line.startswith('bestmove'):
                break
        p.stdin.close(); p.wait()
        nodes = int(last[last.index('nodes') + 1]); t = int(last[last.index('time') + 1])
        tn += nodes; tt += t; per.append(nodes)
    print(b.split('/')[-1], 'depth', depth, 'nodes', tn, 'time', tt, per, flush=True)
