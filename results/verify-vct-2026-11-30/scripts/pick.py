#!/usr/bin/env python3
# usage: pick.py KINROW [CASES]: kinrow's move (go movetime 1000, Seed 1, a fresh game) in the
# position before each move of CASES (first.py's output; cases.txt by default), written as
# the position after it, one a line as vct_suite reads them, with
# "# RUN GAME COLOUR STONES MOVE" after.
import sys
from matches import games as all_games
from analyse import square
from kinrow_uci import Kinrow
games = all_games()
k=Kinrow(sys.argv[1]); k.send("setoption name Seed value 1")
for line in open(sys.argv[2] if len(sys.argv) > 2 else 'cases.txt'):
    f,gi,col,n300=line.split()
    mv=[square(s) for s in games[(f,gi)][:int(n300)-1]]
    k.set_position(15,15,mv)
    _,best,_=k.go("movetime 1000")
    print(f"15 15 0 {' '.join(mv+[best])} # {f} {gi} {col} {n300} {best}", flush=True)
k.quit()
