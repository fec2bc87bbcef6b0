# pool.py FILE...: pooled pentanomial score of "new" over kinrow match records, Elo with a 95% interval
import json, math, sys, gzip, collections
pairs = collections.defaultdict(float); n = collections.Counter()
for f in sys.argv[1:]:
    op = gzip.open if f.endswith('.gz') else open
    for line in op(f, 'rt'):
        g = json.loads(line); w = g['winner']
        s = 1 if w and g[w] == 'new' else (0.5 if not w else 0)
        pairs[(f, g['pair'])] += s; n[(f, g['pair'])] += 1
ps = [v / 2 for k, v in pairs.items() if n[k] == 2]
m = sum(ps) / len(ps); sd = math.sqrt(sum((x - m) ** 2 for x in ps) / (len(ps) - 1)); se = sd / math.sqrt(len(ps))
elo = lambda x: -400 * math.log10(1 / x - 1)
penta = collections.Counter(round(2 * x * 2) / 2 for x in ps)
print(f"{len(ps)} pairs, score {m:.4f}, Elo {elo(m):+.1f} ({elo(m - 1.96 * se):+.1f} to {elo(m + 1.96 * se):+.1f}), pentanomial {[penta.get(k / 2, 0) for k in range(5)]}")
