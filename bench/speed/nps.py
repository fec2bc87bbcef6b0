#!/usr/bin/env python3
"""Nodes per second of kinrow's gomoku search on fixed middle-game searches.

usage:
  nps.py --kinrow A [--kinrow B ...] [--threads N ...] [--reps N] [--positions FILE] [--verbose]

Each line of the positions file (default: positions.txt next to this script) is

    C R DEPTH SQ SQ ...

the board size, a search depth and the moves from the empty board. Every position is set in
kinrow (`newgame C R 5`, `position startpos moves ...`) and searched with `go depth DEPTH`,
so the work is the same for every build: the node counts of the last `info` lines must agree
between binaries (the script says so when they do not, and compares scores and best moves
too). For each binary: total nodes, total wall time from `go` to `bestmove`, nodes/s, and
the CPU time of its process (set-up included).

With several binaries the runs are interleaved (A B, then B A, ...) N times (default 3), so
that the machine's load falls on all of them alike, and the nodes/s of each binary is given
as a ratio to the first one's, per repetition and over all. Standard library only.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kinrow_uci import Kinrow  # noqa: E402


def load(path):
    positions = []
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        positions.append((f[0], f[1], int(f[2]), f[3:]))
    return positions


def run(binary, positions, verbose, threads=None):
    """Searches every position with one process; returns [(nodes, seconds, result)] and the
    process's CPU seconds (which a loaded machine disturbs less than the wall clock)."""
    kinrow = Kinrow(binary, threads=threads)
    out = []
    for cols, rows, depth, moves in positions:
        kinrow.set_position(cols, rows, moves)
        kinrow.ready()
        last, best, secs = kinrow.go(f"depth {depth}")
        m = re.search(r" nodes (\d+)", last or "")
        if not m:
            sys.exit(f"{binary}: no node count in {last!r}")
        s = re.search(r" score (\w+ -?\d+)", last)
        result = (last.split()[2], s.group(1) if s else "?", best)
        out.append((int(m.group(1)), secs, result))
        if verbose:
            print(f"  {binary}: {len(moves)} stones depth {depth}: {m.group(1)} nodes "
                  f"{secs * 1000:.0f} ms, depth {result[0]} score {result[1]} best {best}",
                  file=sys.stderr)
    cpu = cpu_seconds(kinrow.p.pid)
    kinrow.quit()
    return out, cpu


def cpu_seconds(pid):
    """The CPU time (user and system) the process has used, from /proc (Linux), or None."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kinrow", action="append", required=True, help="a kinrow binary (repeatable)")
    ap.add_argument("--threads", type=int, action="append",
                    help="option Threads of each --kinrow, in order (repeatable; not set if omitted); "
                         "the time to the fixed depths is then what compares")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--positions", default=os.path.join(here, "positions.txt"))
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    positions = load(a.positions)
    bins = a.kinrow
    threads = a.threads or [None] * len(bins)
    if len(threads) != len(bins):
        sys.exit("nps.py: give --threads once for each --kinrow, or not at all")
    totals = [[0, 0.0, 0.0] for _ in bins]
    reference = None
    same = True
    for rep in range(a.reps):
        order = list(range(len(bins))) if rep % 2 == 0 else list(range(len(bins)))[::-1]
        rep_nps = [0.0] * len(bins)
        for i in order:
            b = bins[i]
            res, cpu = run(b, positions, a.verbose, threads[i])
            nodes = sum(n for n, _, _ in res)
            secs = sum(s for _, s, _ in res)
            totals[i][0] += nodes
            totals[i][1] += secs
            totals[i][2] += cpu or 0.0
            rep_nps[i] = nodes / secs
            label = b if threads[i] is None else f"{b} (Threads {threads[i]})"
            print(f"rep {rep + 1} {label}: nodes {nodes} time {secs:.3f} s nps {nodes / secs:.0f}"
                  + (f" (cpu {cpu:.2f} s)" if cpu else ""))
            facts = [(n, r) for n, _, r in res]
            if reference is None:
                reference = (b, facts)
            elif facts != reference[1]:
                same = False
                for j, (x, y) in enumerate(zip(reference[1], facts)):
                    if x != y:
                        print(f"  DIFFERENT from {reference[0]} at position {j + 1}: {x} vs {y}")
        if len(bins) > 1:
            print(f"rep {rep + 1} ratio: " + ", ".join(
                f"{x / rep_nps[0]:.3f}" for x in rep_nps[1:]))
    print("total:")
    for b, (n, s, c) in zip(bins, totals):
        print(f"  {b}: nodes {n} time {s:.3f} s nps {n / s:.0f}" + (f" (cpu {c:.2f} s)" if c else ""))
    if len(bins) > 1:
        n0, s0, c0 = totals[0]
        for b, (n, s, c) in zip(bins[1:], totals[1:]):
            print(f"ratio {b} / {bins[0]}: {n / s / (n0 / s0):.3f}"
                  + (f" (by cpu time {n / c / (n0 / c0):.3f})" if c and c0 else ""))
        print("node counts, scores and best moves: " + ("identical" if same else "DIFFERENT"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
