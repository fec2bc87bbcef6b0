#!/usr/bin/env python3
"""paired_jsonl.py A.jsonl NAME_A B.jsonl NAME_B: two kinrow matches against the same
opponent with the same openings and seed, compared game pair by game pair (an opening with
both colours); pairs with a game the opponent lost by a fault ('refused': Rapfi lost a
command's first word) are left out of both. Prints each side's score over the pairs kept and
the mean difference a game with its standard error."""
import json, math, sys

def games(path, name):
    out = {}
    for line in open(path):
        g = json.loads(line)
        if name not in (g['x'], g['o']):
            sys.exit(f"{path}: game {g['game']} is {g['x']} against {g['o']}, not {name}'s")
        me = 'x' if g['x'] == name else 'o'
        pts = 1.0 if g['winner'] == me else 0.5 if g['result'] == '1/2-1/2' else 0.0
        out[g['game']] = (pts, g['reason'] == 'refused')
    return out

a, b = games(sys.argv[1], sys.argv[2]), games(sys.argv[3], sys.argv[4])
diffs, sa, sb = [], 0.0, 0.0
for first in range(1, max(a) + 1, 2):
    pair = [first, first + 1]
    if any(g not in a or g not in b for g in pair):
        sys.exit(f"game {first} or {first + 1} is missing from one of the matches")
    if any(a[g][1] or b[g][1] for g in pair):
        continue
    pa = sum(a[g][0] for g in pair); pb = sum(b[g][0] for g in pair)
    sa += pa; sb += pb; diffs.append((pb - pa) / 2)
n = len(diffs)
if n < 2:
    sys.exit(f"{n} pairs kept: too few to compare")
mean = sum(diffs) / n
var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
print(f"{n} pairs kept; {sys.argv[2]} {sa / (2 * n):.3f}, {sys.argv[4]} {sb / (2 * n):.3f}; "
      f"{sys.argv[4]} - {sys.argv[2]}: {mean:+.3f} a game (s.e. {math.sqrt(var / n):.3f})")
