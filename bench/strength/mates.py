#!/usr/bin/env python3
"""A suite of won gomoku positions, and how many of them kinrow proves in a given time.

usage:
  mates.py collect --brain RAPFI [--depth N] [--max-plies P] OUT SGF...
  mates.py run --kinrow KINROW [--movetime MS] [--threads N] [--option NAME=VALUE]... SUITE

`collect` gives Rapfi every position of every 15x15 freestyle game in the SGF files (once
per distinct position, after the third stone) with `INFO max_depth N` and keeps those it
calls a forced win for the side to move within P plies ("Eval +M<plies>" in its MESSAGE
lines). Each line of OUT is

    C R PLIES SQ SQ ...

the board size, Rapfi's plies to the five, and the moves from the empty board in kinrow's
square names (file letter, rank number; SGF's rows become ranks from the first, which
mirrors the board top to bottom: the same game).

`run` sets each position in kinrow (`newgame C R 5`, `position startpos moves ...`),
searches it with `go movetime MS` and counts the positions where kinrow's last `info` line
reports a win (`score mate N`, N > 0): the positions it proves in the time, and the time it
took. Standard library only.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tune"))
from label import Brain, games  # noqa: E402
from analyse import square  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kinrow_uci import Kinrow  # noqa: E402


def collect(a):
    brain = Brain(os.path.abspath(a.brain), a.depth, a.turn)
    seen = set()
    kept = 0
    with open(a.out, "w") as out:
        for path in a.sgf:
            for cols, rows, moves in games(path):
                if (cols, rows) != (15, 15):
                    continue
                for n in range(3, len(moves)):
                    key = (frozenset(moves[0:n:2]), frozenset(moves[1:n:2]))
                    if key in seen:
                        continue
                    seen.add(key)
                    try:
                        ev = brain.evaluate(cols, rows, moves[:n])
                    except TimeoutError:
                        brain.p.kill()
                        brain = Brain(os.path.abspath(a.brain), a.depth, a.turn)
                        continue
                    m = re.fullmatch(r"\+?M(\d+)", ev or "")
                    if m and int(m.group(1)) <= a.max_plies:
                        out.write(f"{cols} {rows} {m.group(1)} {' '.join(square(s) for s in moves[:n])}\n")
                        out.flush()
                        kept += 1
        brain.close()
    print(f"{kept} won positions of {len(seen)} distinct", file=sys.stderr)


def run(a):
    kinrow = Kinrow(a.kinrow, threads=a.threads)
    for option in a.option:
        name, _, value = option.partition("=")
        kinrow.send(f"setoption name {name} value {value}")
    lines = [l.split() for l in open(a.suite) if l.strip() and not l.startswith("#")]
    found = 0
    times = []
    by_plies = {}
    for i, f in enumerate(lines):
        cols, rows, plies, moves = f[0], f[1], int(f[2]), f[3:]
        kinrow.set_position(cols, rows, moves)
        last, _best, secs = kinrow.go(f"movetime {a.movetime}")
        ms = secs * 1000
        m = re.search(r"score mate (-?\d+)", last or "")
        ok = bool(m) and int(m.group(1)) > 0
        found += ok
        tally = by_plies.setdefault(plies, [0, 0])
        tally[0] += ok
        tally[1] += 1
        if ok:
            times.append(ms)
        if a.verbose:
            print(f"{i + 1:4d} rapfi M{plies:<3d} {'won ' if ok else 'not '} {ms:6.0f} ms  {(last or '').strip()[:90]}")
    kinrow.quit()
    avg = sum(times) / len(times) if times else 0
    print(f"{found} of {len(lines)} won positions proven within {a.movetime} ms "
          f"(mean time of those {avg:.0f} ms)")
    print("by Rapfi's plies to the five: " + ", ".join(
        f"M{k} {w}/{n}" for k, (w, n) in sorted(by_plies.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--brain", required=True)
    c.add_argument("--depth", type=int, default=14)
    c.add_argument("--turn", type=int, default=5000)
    c.add_argument("--max-plies", type=int, default=25)
    c.add_argument("out")
    c.add_argument("sgf", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("--kinrow", required=True)
    r.add_argument("--movetime", type=int, default=1000)
    r.add_argument("--threads", type=int, help="kinrow's option Threads (not set if omitted)")
    r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a kinrow option to set before the first search (repeatable)")
    r.add_argument("--verbose", action="store_true")
    r.add_argument("suite")
    a = ap.parse_args()
    collect(a) if a.cmd == "collect" else run(a)


if __name__ == "__main__":
    main()
