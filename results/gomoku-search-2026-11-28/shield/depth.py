import subprocess,sys,re
# Run from this folder: python3 depth.py KINROW NODES "name=value ..." (every opening of
# probe-openings.txt, every 8th of the 83 balanced ones, searched to NODES; prints the depth reached).
binp,nodes,opts=sys.argv[1],sys.argv[2],sys.argv[3] if len(sys.argv)>3 else ""
ops=[l.split() for l in open('probe-openings.txt') if l.strip()]
tot=0
for moves in ops:
    cmds="newgame 15 15 5\nsetoption name Rule value freestyle\n"
    for o in opts.split():
        k,v=o.split('='); cmds+=f"setoption name {k} value {v}\n"
    cmds+=f"position startpos moves {' '.join(moves)}\ngo nodes {nodes}\n"
    p=subprocess.Popen([binp],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
    p.stdin.write(cmds); p.stdin.flush()
    last=None
    for line in p.stdout:
        if line.startswith('info depth'): last=line
        if line.startswith('bestmove'):
            break
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    m=re.search(r'depth (\d+) seldepth (\d+).*?(score \S+ \S+)',last)
    print(m.group(1),m.group(2),m.group(3),line.strip()); tot+=int(m.group(1))
print("mean depth",tot/len(ops))
