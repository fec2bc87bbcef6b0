#!/usr/bin/env python3
# usage: run_pos.py KINROW NODES [OPTION=VALUE ...]: kinrow searches each position of
# bench/speed/positions.txt with `go nodes NODES` (the options set after each newgame); prints
# the total nodes of the last info lines, the wall time, the mean depth and kinrow's CPU time.
# Stops at an error line (a position the rule refuses).
import os, subprocess, sys, time
here=os.path.dirname(os.path.abspath(__file__))
binp=sys.argv[1]; nodes=sys.argv[2]; extra=sys.argv[3:]  # extra: "name value" setoption pairs
lines=[l.split() for l in open(os.path.join(here,'..','..','bench','speed','positions.txt')) if l.strip() and not l.startswith('#')]
p=subprocess.Popen([binp],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
t0=time.time(); tot=0; depths=[]; silent=0
for f in lines:
    send(f"newgame {f[0]} {f[1]} 5")
    for e in extra:
        n,v=e.split('=')
        send(f"setoption name {n} value {v}")
    send("position startpos moves "+" ".join(f[3:])); send(f"go nodes {nodes}")
    last=None
    while True:
        l=p.stdout.readline()
        if not l: break
        if l.startswith("info") and " nodes " in l: last=l
        if l.startswith("bestmove"): break
        if "error" in l: sys.exit("kinrow: "+l.strip())
    if last is None or " depth 0 " in last:
        # A search that spends its nodes before its first iteration ends printed no line
        # before 7a11d98, and a line of depth 0 since: counted as before either way.
        silent += 1
        depths.append(0)
        continue
    w=last.split(); tot+=int(w[w.index("nodes")+1]); depths.append(int(w[w.index("depth")+1]))
send("quit")
p.wait()
import resource
ru=resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"nodes {tot} time {time.time()-t0:.2f} depth {sum(depths)/len(depths):.2f} cpu {ru.ru_utime:.2f}" + (f" ({silent} without a completed iteration)" if silent else ""))
