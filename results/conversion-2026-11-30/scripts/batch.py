import subprocess, sys
from concurrent.futures import ThreadPoolExecutor
K="/work/exp/kinrow-margin"; M="missed-all.txt"
def run(v):
    name, binp, limit, opts = v
    out = subprocess.run(["python3","keep.py",binp,limit,M]+opts, capture_output=True, text=True).stdout.strip()
    open(f"k-{name}.txt","w").write(out+"\n"); print(name, out, flush=True)
variants=[]
for arg in sys.argv[1:]:
    name, *opts = arg.split(",")
    binp = K; limit="nodes 900000"
    o2=[]
    for o in opts:
        if o.startswith("bin="): binp=o[4:]
        elif o.startswith("nodes="): limit="nodes "+o[6:]
        else: o2.append(o)
    variants.append((name,binp,limit,o2))
with ThreadPoolExecutor(2) as ex: list(ex.map(run, variants))
