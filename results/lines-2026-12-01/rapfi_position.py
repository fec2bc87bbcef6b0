#!/usr/bin/env python3
# usage: rapfi_position.py RAPFI [N] [MS]: Rapfi (classical, one thread) given the Nth
# position (from 1) of bench/speed/positions.txt with BOARD and a turn of MS ms (default
# 1000); prints its move and its last MESSAGE line with a depth (Rapfi's depth, nodes, time).
# Rank 1 is sent as y = 0: the board may be the position mirrored top to bottom, which
# changes the move's name but not the search.
import os, subprocess, sys, time

brain = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1
ms = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
here = os.path.dirname(os.path.abspath(__file__))
lines = [l.split() for l in open(os.path.join(here, '..', '..', 'bench', 'speed', 'positions.txt'))
         if l.strip() and not l.startswith('#')]
cols, moves = int(lines[n - 1][0]), lines[n - 1][3:]
p = subprocess.Popen([brain], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                     cwd=os.path.dirname(os.path.abspath(brain)))
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
send(f"START {cols}")
while not p.stdout.readline().startswith(("OK", "ERROR")):
    pass
send(f"INFO timeout_turn {ms}"); send("INFO timeout_match 100000000"); send("INFO rule 0")
send("BOARD")
# Gomocup's BOARD: 1 marks the side to move's stones (black moves when the count is even).
black_to_move = len(moves) % 2 == 0
for i, m in enumerate(moves):
    x, y = ord(m[0]) - ord('a'), int(m[1:]) - 1
    send(f"{x},{y},{1 if (i % 2 == 0) == black_to_move else 2}")
send("DONE")
start, last = time.time(), ""
while True:
    l = p.stdout.readline()
    if not l:
        break
    l = l.strip()
    if l.startswith("MESSAGE") and "Depth" in l:
        last = l
    if l[:1].isdigit():
        print("move", l, f"after {time.time() - start:.3f} s")
        break
print(last)
send("END")
