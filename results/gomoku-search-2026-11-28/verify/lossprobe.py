import json, sys
sys.path.insert(0, '/work/main/bench/lib'); sys.path.insert(0, '/work/main/bench/strength')
from kinrow_uci import Kinrow
from analyse import square
d=json.load(open('/tmp/q/base.json'))
suite=[l.split() for l in open('/work/main/bench/strength/quality-suite.txt') if l.strip() and not l.startswith('#')]
k=Kinrow(sys.argv[1]); lim=sys.argv[2]
found=0
for i,x in enumerate(d['losses']):
    if x is None or x<500: continue
    f=suite[i]; moves=[square(m) for m in f[3:]]+[square(d['moves'][i])]
    k.set_position(int(f[0]), int(f[1]), moves)
    info,best,secs=k.go(lim)
    w=info.split() if info else []
    sc=' '.join(w[w.index('score')+1:w.index('score')+3]) if 'score' in w else '?'
    nd=w[w.index('nodes')+1] if 'nodes' in w else '?'
    dp=w[2] if w else '?'
    found+= sc.startswith('mate') and not sc.startswith('mate -')
    print(i, sc, 'depth', dp, 'nodes', nd, f'{secs:.2f}s', flush=True)
print('found', found)
k.quit()
