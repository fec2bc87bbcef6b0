# pool.py FILE...: "new"'s score over game pairs pooled from kinrow match records (.jsonl or
# .jsonl.gz; a pair is an opening with both colours), its Elo with a 95% interval from the
# pairs' standard error, and the pentanomial counts (pairs scoring 0, 0.5, 1, 1.5, 2).
import collections, gzip, json, math, sys

totals = collections.defaultdict(float); games = collections.Counter()
for f in sys.argv[1:]:
    for line in (gzip.open if f.endswith('.gz') else open)(f, 'rt'):
        g = json.loads(line); w = g['winner']
        totals[f, g['pair']] += 1 if w and g[w] == 'new' else 0.5 if not w else 0
        games[f, g['pair']] += 1
pairs = [t for k, t in totals.items() if games[k] == 2]
m = sum(pairs) / (2 * len(pairs))
sd = math.sqrt(sum((t / 2 - m) ** 2 for t in pairs) / (len(pairs) - 1))
se = sd / math.sqrt(len(pairs))
elo = lambda x: -400 * math.log10(1 / x - 1)
penta = collections.Counter(pairs)
print(f"{len(pairs)} pairs, score {m:.4f}, Elo {elo(m):+.1f} ({elo(m - 1.96 * se):+.1f} to "
      f"{elo(m + 1.96 * se):+.1f}), pentanomial {[penta[k / 2] for k in range(5)]}")
