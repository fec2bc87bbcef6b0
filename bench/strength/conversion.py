#!/usr/bin/env python3
"""Won positions kinrow let slip as black, and how many of them a build keeps won.

usage:
  conversion.py collect --brain RAPFI [--turn MS] [--from N] [--to N] [--shard I/N] OUT SGF...
  conversion.py run --kinrow KINROW [--limit "nodes 900000"] [--seed N]
                    [--option NAME=VALUE]... [--judge-depth D] [--cache FILE] SUITE
  conversion.py judge [--judge-depth D] [--cache FILE] SUITE MOVES

`collect` reads c-gomoku-cli's SGF records, takes the 15x15 freestyle games kinrow lost as
black, and gives Rapfi each position with black to move from stone N to stone M (by default
8 to 38) at a turn of MS milliseconds (1000), in game order, so that Rapfi's table carries
from one position to the next as in a game. It keeps the positions Rapfi calls a forced win
for black ("Eval +M<plies>") where kinrow's move in the game was not Rapfi's. Each line of
OUT is

    C R PLIES SQ SQ ...

as in won-positions.txt: the board size, Rapfi's plies to the five, and the moves from the
empty board in kinrow's square names.

`run` sets each position in kinrow, takes its move (`go LIMIT`, node limits by default so
that the figure does not depend on the machine's load; kinrow's `Seed` is N, 1 unless
given, so that its ties are broken the same way every run and a run repeats move for
move) and asks Rapfi at `max_depth` D (20) about the position after it, white to move: a
forced loss for white ("-M") means the move keeps the win. Each verdict is asked of a
fresh Rapfi, with a minute to reach that depth. It prints how many moves keep it, and a K
or a dot a position. Rapfi's verdicts are kept in the cache file (by default
judge-cache-dD.json beside the suite), so a second build that plays the same move costs
nothing more. `judge` does the same for a file of moves, one a line (another engine's,
say).

Rapfi's own verdict is no proof: at depth 20 it sees some of the wins it called at 1 s and
not others, so the count is a comparison between builds, not a count of wins kept.
Standard library only.
"""
import argparse
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tune"))
from label import Brain  # noqa: E402
from analyse import square  # noqa: E402
from summary import outcome  # noqa: E402
from quality import square_to_sgf  # noqa: E402

sys.path.insert(0, os.path.join(here, "..", "lib"))
from kinrow_uci import Kinrow  # noqa: E402

GAME = re.compile(r"\(;.*?\)\s*(?=\(|$)", re.S)


def lost_as_black(paths):
    for path in paths:
        text = open(path, encoding="utf-8", errors="replace").read()
        for g in GAME.findall(text):
            if "PB[kinrow]" not in g or "SZ[15]" not in g or "RU[0]" not in g:
                continue
            result = re.search(r"RE\[([^]]*)\]", g)
            if result and outcome(result.group(1)) == "W":
                yield re.findall(r";[BW]\[([a-z][a-z])\]", g)


def collect(a):
    index, count = (int(x) for x in a.shard.split("/"))
    brain = Brain(os.path.abspath(a.brain), 99, a.turn)
    kept = 0
    with open(a.out, "w") as out:
        for g, moves in enumerate(lost_as_black(a.sgf)):
            if g % count != index:
                continue
            for n in range(a.first, min(len(moves) - 1, a.last), 2):
                try:
                    ev = brain.evaluate(15, 15, moves[:n])
                except TimeoutError:
                    brain.p.kill()
                    brain = Brain(os.path.abspath(a.brain), 99, a.turn)
                    continue
                won = re.fullmatch(r"\+?M(\d+)", ev or "")
                if won and brain.last_move != moves[n]:
                    out.write(f"15 15 {won.group(1)} {' '.join(square(s) for s in moves[:n])}\n")
                    out.flush()
                    kept += 1
    brain.close()
    print(f"{kept} won positions where kinrow's move was not Rapfi's", file=sys.stderr)


class Judge:
    """Rapfi's verdicts on positions, white to move, kept in a JSON file."""

    def __init__(self, depth, path):
        self.depth = depth
        self.path = path
        self.cache = json.load(open(path)) if os.path.exists(path) else {}

    def keeps(self, moves):
        key = " ".join(moves)
        if key not in self.cache:
            # A fresh Rapfi for each verdict: what its table kept from the position before
            # would make the verdict depend on the order of the questions.
            rapfi = os.environ.get("RAPFI", "/work/tools/bin/pbrain-rapfi")
            brain = Brain(rapfi, self.depth, 60000)
            self.cache[key] = brain.evaluate(15, 15, [square_to_sgf(m) for m in moves])
            brain.close()
            # Merged with what another run may have written meanwhile.
            on_disk = json.load(open(self.path)) if os.path.exists(self.path) else {}
            on_disk.update(self.cache)
            json.dump(on_disk, open(self.path + ".tmp", "w"))
            os.replace(self.path + ".tmp", self.path)
        return bool(re.fullmatch(r"-M\d+", self.cache[key] or ""))


def positions(suite):
    return [line.split() for line in open(suite) if line.strip() and not line.startswith("#")]


def cache_path(a):
    return a.cache or os.path.join(os.path.dirname(os.path.abspath(a.suite)),
                                   f"judge-cache-d{a.judge_depth}.json")


def report(marks, what):
    print(f"{marks.count('K')} of {len(marks)} keep the win  {''.join(marks)}  ({what})")


def run(a):
    judge = Judge(a.judge_depth, cache_path(a))
    kinrow = Kinrow(a.kinrow)
    kinrow.send(f"setoption name Seed value {a.seed}")
    for option in a.option:
        name, _, value = option.partition("=")
        kinrow.send(f"setoption name {name} value {value}")
    marks = []
    for f in positions(a.suite):
        kinrow.set_position(f[0], f[1], f[3:])
        _last, best, _secs = kinrow.go(a.limit)
        marks.append("K" if judge.keeps(f[3:] + [best]) else ".")
    kinrow.quit()
    report(marks, f"{a.kinrow} go {a.limit} seed {a.seed} {' '.join(a.option)}")


def judge(a):
    j = Judge(a.judge_depth, cache_path(a))
    moves = [line.strip() for line in open(a.moves)]
    marks = ["K" if j.keeps(f[3:] + [m]) else "." for f, m in zip(positions(a.suite), moves)]
    report(marks, a.moves)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--brain", required=True)
    c.add_argument("--turn", type=int, default=1000)
    c.add_argument("--from", dest="first", type=int, default=8)
    c.add_argument("--to", dest="last", type=int, default=38)
    c.add_argument("--shard", default="0/1", help="I/N: the Ith of every N games")
    c.add_argument("out")
    c.add_argument("sgf", nargs="+")
    for name in ("run", "judge"):
        r = sub.add_parser(name)
        r.add_argument("--judge-depth", type=int, default=20)
        r.add_argument("--cache")
        r.add_argument("suite")
        if name == "run":
            r.add_argument("--kinrow", required=True)
            r.add_argument("--limit", default="nodes 900000")
            r.add_argument("--seed", type=int, default=1,
                           help="kinrow's Seed (1 to 2147483647; 0 seeds from the system)")
            r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        else:
            r.add_argument("moves")
    a = ap.parse_args()
    {"collect": collect, "run": run, "judge": judge}[a.cmd](a)


if __name__ == "__main__":
    main()
