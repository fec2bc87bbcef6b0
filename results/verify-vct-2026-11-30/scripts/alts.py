#!/usr/bin/env python3
# usage: alts.py CASES: for each line of first.py's output (RUN GAME COLOUR STONES), the
# position before the move that made STONES stones, with every empty cell within two of a
# stone played instead, one a line as vct_suite reads them, with
# "# RUN GAME COLOUR STONES CELL played|-" after (SGF coordinates; "played" marks the game's
# move). Reads the games from the four matches' records under results/.
import sys
from matches import games as all_games
from analyse import square
games = all_games()
for line in open(sys.argv[1]):
    f,gi,col,n300=line.split()
    mv=games[(f,gi)][:int(n300)-1]
    occ=set(mv)
    cells=set()
    for s in mv:
        x,y=ord(s[0])-97,ord(s[1])-97
        for dx in range(-2,3):
            for dy in range(-2,3):
                X,Y=x+dx,y+dy
                if 0<=X<15 and 0<=Y<15:
                    c=chr(97+X)+chr(97+Y)
                    if c not in occ: cells.add(c)
    played=games[(f,gi)][int(n300)-1]
    for c in sorted(cells):
        print(f"15 15 0 {' '.join(square(s) for s in mv+[c])} # {f} {gi} {col} {n300} {c} {'played' if c==played else '-'}")
