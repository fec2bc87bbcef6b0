#!/usr/bin/env python3
# usage: early.py SGF BIN LIMIT: for each game of SGF (c-gomoku-cli's records) that kinrow
# lost as black, kinrow (BIN, UCI) searches the positions of 4, 8, 12 and 16 stones with
# `go LIMIT` (e.g. "movetime 1000"); prints the stones, the move played there and the last
# info line with a depth.
import re, subprocess, sys
sgf, binp, lim = sys.argv[1], sys.argv[2], sys.argv[3]
games = re.findall(r"\(;.*?\)", open(sgf).read(), re.S)
p = subprocess.Popen([binp], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def coord(mv): return "abcdefghijklmnopqrstuvwxyz"[ord(mv[0]) - 97] + str(15 - (ord(mv[1]) - 97))
for g in games:
    if "PB[kinrow]" not in g or "RE[W+" not in g: continue
    mv = re.findall(r";[BW]\[([a-z][a-z])\]", g)
    for n in (4, 8, 12, 16):
        send("newgame 15 15 5")
        send("position startpos moves " + " ".join(coord(m) for m in mv[:n])); send("go " + lim)
        last = ""
        while True:
            l = p.stdout.readline()
            if l.startswith("info") and " depth " in l: last = l.strip()
            if l.startswith("bestmove"): break
        print(n, coord(mv[n]), last[:150])
    sys.stdout.flush()
send("quit")
