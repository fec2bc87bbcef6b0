"""Wall time of `go nodes N` on the 20 positions of bench/speed/positions.txt for each binary
given, twice, alternating the order; prints the time and the mean depth reached. Run from the
repository's top folder: `python3 results/postpone-2026-11-30/tnodes.py N BIN BIN...`."""
import subprocess, sys, time, re
nodes = sys.argv[1]; bins = sys.argv[2:]
pos = [l.split() for l in open('bench/speed/positions.txt') if l.strip() and not l.startswith('#')]
def run(binary):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
    t=0; n=0; ds=[]
    for f in pos:
        send(f'newgame {f[0]} {f[1]} 5'); send('position startpos moves ' + ' '.join(f[3:]))
        t0=time.time(); send(f'go nodes {nodes}'); d=None
        while True:
            l=p.stdout.readline()
            m=re.search(r'info depth (\d+).* nodes (\d+)', l)
            if m: d=int(m.group(1)); last=int(m.group(2))
            if l.startswith('bestmove'): break
        t+=time.time()-t0; ds.append(d)
    send('quit'); p.wait()
    return t, sum(ds)/len(ds)
for rep in range(2):
    for b in (bins if rep%2==0 else bins[::-1]):
        t,d=run(b); print(rep, b, f'{t:.2f}s depth {d:.2f}', flush=True)
