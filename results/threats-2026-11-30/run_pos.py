#!/usr/bin/env python3
# run kinrow on bench/speed/positions.txt with go nodes N; print total nodes & time
import subprocess, sys, time
binp=sys.argv[1]; nodes=sys.argv[2]; extra=sys.argv[3:]  # extra: "name value" setoption pairs
lines=[l.split() for l in open('/work/main/bench/speed/positions.txt') if l.strip() and not l.startswith('#')]
p=subprocess.Popen([binp],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
t0=time.time(); tot=0; depths=[]
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
    w=last.split(); tot+=int(w[w.index("nodes")+1]); depths.append(int(w[w.index("depth")+1]))
send("quit")
p.wait()
import resource
ru=resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"nodes {tot} time {time.time()-t0:.2f} depth {sum(depths)/len(depths):.2f} cpu {ru.ru_utime:.2f}")
