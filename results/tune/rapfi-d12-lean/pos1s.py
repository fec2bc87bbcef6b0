#!/usr/bin/env python3
# usage: pos1s.py KINROW LIMIT: each position of bench/speed/positions.txt searched with
# `go LIMIT` (e.g. "movetime 1000"); prints the stones and the last info line with a depth.
import os, subprocess, sys
binp=sys.argv[1]; lim=sys.argv[2]; extra=sys.argv[3:]
lines=[l.split() for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'bench', 'speed', 'positions.txt')) if l.strip() and not l.startswith('#')]
p=subprocess.Popen([binp],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
for f in lines:
    send(f"newgame {f[0]} {f[1]} 5")
    for e in extra:
        n,v=e.split('='); send(f"setoption name {n} value {v}")
    send("position startpos moves "+" ".join(f[3:])); send(f"go {lim}")
    infos=[]
    while True:
        l=p.stdout.readline()
        if not l: break
        if l.startswith("info"): infos.append(l.strip())
        if l.startswith("bestmove"): break
    dl=[i for i in infos if ' depth ' in i]
    print(len(f)-3, (dl[-1] if dl else '-')[:160])
send("quit"); p.wait()
