#!/usr/bin/env python3
"""Reply latency of `go movetime T` on 15x15, and the bestmove/pv check of issue #43.

    python3 bench/latency/movetime.py [--engine target/release/kinrow] [--limits 100,500,1000]
                                      [--samples 1000] [--seed 1] [--option 'Move Overhead=10']

Starts one engine (nothing else is started: run it on an otherwise idle machine, and say
what the load was) and, for each limit T, plays N seeded 15x15 middle-game positions
(6 to 16 stones scattered near the centre, no window of five holding three stones of one
player and none of the other, so that neither side has a forced win to find at once) and
measures the time from writing the `go movetime T` line to reading the `bestmove` line.
Before each `go` it sends the position and waits for `readyok`, so that only the search
and its reply are timed.

For each T it prints: the samples, the median, the 1st and 99th percentiles and the
maximum (ms), the median as a share of T, how many replies came later than T, how many
searches ended by themselves (a proven score: `mate` or `draw`; they are counted apart and
left out of the median), and how many `bestmove`s differed from the first move of the last
`pv` reported before them (issue #43: there must be none). Exit status 1 if any reply was
late or any bestmove differed.
"""

import argparse
import random
import statistics
import subprocess
import sys
import time

SIZE = 15


def quiet(stones):
    """No five-window with three or more stones of one player and none of the other."""
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(5)]
                if not all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    continue
                xs = sum(1 for cell in cells if stones.get(cell) == 0)
                os_ = sum(1 for cell in cells if stones.get(cell) == 1)
                if (xs >= 3 and os_ == 0) or (os_ >= 3 and xs == 0):
                    return False
    return True


def opening(rng):
    while True:
        n = rng.randint(6, 16)
        stones, moves = {}, []
        while len(moves) < n:
            r, c = rng.randint(3, 11), rng.randint(3, 11)
            if (r, c) in stones:
                continue
            stones[(r, c)] = len(moves) % 2
            moves.append(f"{chr(ord('a') + c)}{r + 1}")
        if quiet(stones):
            return moves


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("newgame 15 15 5")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"the engine closed its output; got {lines[-5:]}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/kinrow")
    ap.add_argument("--limits", default="100,500,1000")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[],
                    help="NAME=VALUE, sent as setoption before the first search")
    args = ap.parse_args()
    options = [tuple(o.split("=", 1)) for o in args.option]
    rng = random.Random(args.seed)
    engine = Engine(args.engine, options)
    failed = False
    print(f"engine {args.engine}, options {options or 'defaults'}, seed {args.seed}")
    for limit in [int(t) for t in args.limits.split(",")]:
        times, late, proven, mismatched = [], 0, 0, []
        for i in range(args.samples):
            moves = opening(rng)
            engine.send("position startpos moves " + " ".join(moves))
            engine.send("isready")
            engine.until("readyok")
            t0 = time.perf_counter()
            engine.send(f"go movetime {limit}")
            lines = engine.until("bestmove")
            ms = (time.perf_counter() - t0) * 1000
            if ms > limit:
                late += 1
                print(f"  LATE: movetime {limit}: {ms:.1f} ms after {' '.join(moves)}")
            infos = [l for l in lines if l.startswith("info depth ")]
            best = lines[-1].split()[1]
            if infos:
                last = infos[-1]
                if " pv " in last and last.split(" pv ", 1)[1].split()[0] != best:
                    mismatched.append((moves, last, lines[-1]))
                if " score mate " in last or " score draw " in last:
                    proven += 1
                    continue
            times.append(ms)
        times.sort()
        med = statistics.median(times) if times else float("nan")
        print(f"movetime {limit}: samples {args.samples} (timed {len(times)}, proven {proven}) "
              f"median {med:.1f} p1 {percentile(times, 0.01):.1f} "
              f"p99 {percentile(times, 0.99):.1f} max {times[-1] if times else float('nan'):.1f} ms; "
              f"median/limit {med / limit:.1%}; late {late}; "
              f"bestmove != last pv's first move: {len(mismatched)}", flush=True)
        for moves, last, best in mismatched[:5]:
            print(f"  MISMATCH after {' '.join(moves)}: {last} / {best}")
        failed |= late > 0 or bool(mismatched)
    engine.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
