#!/usr/bin/env python3
"""For each position of a missed-wins suite: kinrow's move (go LIMIT), and Rapfi's verdict
(max_depth DEPTH, cached in judge-cache.json) on the position after it, white to move:
-M means black still wins.
usage: keep.py KINROW "LIMIT" SUITE [env:NAME=VAL|NAME=VAL ...]"""
import sys, os, re, json
sys.path.insert(0, "/work/main/bench/tune"); sys.path.insert(0, "/work/main/bench/lib")
from label import Brain
from kinrow_uci import Kinrow
kin, limit, suite = sys.argv[1], sys.argv[2], sys.argv[3]
opts = [o for o in sys.argv[4:] if not o.startswith("env:")]
for o in sys.argv[4:]:
    if o.startswith("env:"):
        n, v = o[4:].split("="); os.environ[n] = v
DEPTH = int(os.environ.get("JUDGE_DEPTH", 20))
def sgf(sq): return chr(97 + ord(sq[0]) - 97) + chr(97 + int(sq[1:]) - 1)
cache_path = f"judge-cache-d{DEPTH}.json"
cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
k = Kinrow(kin)
for o in opts:
    n, v = o.split("="); k.send(f"setoption name {n} value {v}")
brain = None
kept = 0; n = 0; res = []
for line in open(suite):
    f = line.split(); moves = f[3:]
    k.set_position(f[0], f[1], moves)
    last, best, secs = k.go(limit)
    key = " ".join(moves + [best])
    if key not in cache:
        if brain is None: brain = Brain("/work/tools/bin/pbrain-rapfi", DEPTH, 10000)
        cache[key] = brain.evaluate(15, 15, [sgf(m) for m in moves] + [sgf(best)])
        json.dump(cache, open(cache_path + ".tmp", "w")); os.replace(cache_path + ".tmp", cache_path)
    e = cache[key]
    ok = bool(re.fullmatch(r"-M\d+", e or ""))
    kept += ok; n += 1
    res.append("K" if ok else ".")
print(f"{kept} of {n} keep the win  {''.join(res)}  ({kin} {limit} {' '.join(sys.argv[4:])})")
k.quit()
