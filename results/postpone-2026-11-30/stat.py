"""Nodes spent below delaying fours: runs the experiment build (bench/strength/experiments/
postpone-2026-11-30.patch) with `go nodes N` on the 20 positions of bench/speed/positions.txt
and adds up its EXPSTAT lines; prints the nodes, those below delaying fours (outermost only),
the number of such fours searched and the mean depth reached. Run from the repository's top
folder: `KINROW_EXP=M python3 results/postpone-2026-11-30/stat.py BINARY NODES`."""
import subprocess, sys, os, re
binary, nodes = sys.argv[1], sys.argv[2]
pos = [l.split() for l in open('bench/speed/positions.txt') if l.strip() and not l.startswith('#')]
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, KINROW_EXPSTAT='1'))
def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
tot=[0,0,0]; depths=[]
for f in pos:
    send(f'newgame {f[0]} {f[1]} 5'); send('position startpos moves ' + ' '.join(f[3:])); send(f'go nodes {nodes}')
    depth=None
    while True:
        l = p.stdout.readline()
        m = re.search(r'info depth (\d+)', l)
        if m: depth=int(m.group(1))
        if l.startswith('bestmove'): break
    e = p.stderr.readline()
    while 'EXPSTAT' not in e: e = p.stderr.readline()
    n = [int(x) for x in re.findall(r'\d+', e)]
    for i in range(3): tot[i]+=n[i]
    depths.append(depth)
send('quit')
print('nodes', tot[0], 'delay_nodes', tot[1], f'({tot[1]/tot[0]:.1%})', 'delay_moves', tot[2], 'mean depth', sum(depths)/len(depths))
