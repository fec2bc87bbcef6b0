# usage: scores.py KINROW LIMIT [NAME=VALUE ...] (from anywhere): kinrow's move and root value
# (the last info line's score) at each position of bench/strength/conversion-positions.txt,
# searched with `go LIMIT` ("nodes 900000"); a line each: stones, move, score.
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', '..', 'bench', 'strength'))
import conversion as cv
k = cv.Kinrow(sys.argv[1])
for o in sys.argv[3:]:
    n, _, v = o.partition('=')
    k.send(f"setoption name {n} value {v}")
for f in cv.positions(os.path.join(here, '..', '..', '..', 'bench', 'strength', 'conversion-positions.txt')):
    k.set_position(f[0], f[1], f[3:])
    last, best, secs = k.go(sys.argv[2])
    w = last.split()
    sc = " ".join(w[w.index('score')+1:w.index('score')+3])
    print(len(f) - 3, best, sc, flush=True)
k.quit()
