"""Paired comparison of two c-gomoku-cli SGF files played on the same openings (each opening
twice, colours swapped): per opening, the difference of the named engine's points; mean
difference and its standard error over the openings both files finished."""
import re, sys, math
def scores(path, name):
    text = open(path).read()
    out = {}
    for g in re.split(r'\(;FF', text)[1:]:
        pb = re.search(r'PB\[([^]]*)\]', g).group(1)
        re_ = re.search(r'RE\[([^]]*)\]', g).group(1)
        opening = tuple(re.findall(r';[BW]\[(\w\w)\]C\[opening move\]', g))
        key = frozenset(opening)
        colour = 'B' if pb == name else 'W'
        pts = 0.5 if re_.startswith('0') or re_ == 'Draw' else (1.0 if re_.startswith(colour) else 0.0)
        out.setdefault(key, []).append(pts)
    return out
a = scores(sys.argv[1], sys.argv[2]); b = scores(sys.argv[3], sys.argv[4])
common = [k for k in a if k in b and len(a[k]) == 2 and len(b[k]) == 2]
d = [sum(b[k]) - sum(a[k]) for k in common]
n = len(d); m = sum(d) / n; sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
sa = sum(sum(a[k]) for k in common); sb = sum(sum(b[k]) for k in common)
print(f"{n} openings (both games in both files): A {sa}/{2*n} ({sa/(2*n):.1%}), B {sb}/{2*n} ({sb/(2*n):.1%}); "
      f"B - A = {m/2:+.3f} a game, s.e. {sd/math.sqrt(n)/2:.3f}")
