#!/usr/bin/env python3
"""Where a player's games were lost: every position of its games evaluated by a Gomocup brain.

usage: analyse.py --brain RAPFI [--turn MS] [--depth N] [--player NAME] [--colour black|white]
                  [--drop CP] [--turning OUT] SGF...

For each 15x15 (or any size) freestyle game in the SGF files where NAME (the PB/PW name,
default "kinrow") played the given colour (default: both), the brain (Rapfi prints
"Eval X" in its MESSAGE lines, X for the side to move) evaluates every position from the
fourth stone on, and its own move there. Where the side to move must block a four, the
block is played and the position after it evaluated (Brain.evaluate_forced): Rapfi answers
a position with one legal move after a few iterations, so its value there is shallow, and a
four that begins a won sequence of fours would read as a win let go. Each of NAME's moves gets a line:

    game ply move  before -> after  brain's move

`before` is the evaluation for NAME before its move, `after` the one after it (the brain's
evaluation for the opponent, negated); M<n> is a forced win in n plies, -M<n> a forced loss.
A move is marked `!!` where a forced win turned into no forced win, `??` where no forced
loss turned into a forced loss, and `?` where the evaluation fell by more than CP (default
300); the brain's own move is never marked. With --turning, each marked position goes to
OUT as a line

    COLUMNS ROWS MARK BEFORE AFTER PLAYED BRAIN MOVE...

(moves in kinrow's square names, black first), a suite of the moments games turned.
Standard library only.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tune"))
from label import Brain, negate  # noqa: E402


def games(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    for g in re.findall(r"\(;.*?\)\s*(?=\(|$)", text, re.S):
        size = re.search(r"SZ\[(\d+)(?::(\d+))?\]", g)
        rule = re.search(r"RU\[([^]]*)\]", g)
        if not size or (rule and rule.group(1) != "0"):
            continue
        cols = int(size.group(1))
        rows = int(size.group(2) or cols)
        pb = re.search(r"PB\[([^]]*)\]", g)
        pw = re.search(r"PW\[([^]]*)\]", g)
        gn = re.search(r"GN\[([^]]*)\]", g)
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        yield (gn.group(1) if gn else "?", cols, rows, pb.group(1) if pb else "",
               pw.group(1) if pw else "", moves)


def square(sgf):
    return f"{sgf[0]}{ord(sgf[1]) - 96}"


def value(ev):
    """An evaluation as a number for comparisons: forced wins and losses beyond any score."""
    if ev is None:
        return None
    m = re.fullmatch(r"([+-]?)M(\d+)", ev)
    if m:
        v = 100000 - int(m.group(2))
        return -v if m.group(1) == "-" else v
    try:
        return int(ev)
    except ValueError:
        return None


class Analyst(Brain):
    def evaluate_move(self, cols, rows, moves):
        """The brain's evaluation of the position for the side to move, and its move."""
        ev = self.evaluate_forced(cols, rows, moves)
        return ev, self.last_move


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--brain", required=True)
    ap.add_argument("--turn", type=int, default=1000)
    ap.add_argument("--depth", type=int, default=0, help="INFO max_depth (0: none)")
    ap.add_argument("--player", default="kinrow")
    ap.add_argument("--colour", choices=["black", "white"])
    ap.add_argument("--drop", type=int, default=300)
    ap.add_argument("--turning")
    ap.add_argument("sgf", nargs="+")
    a = ap.parse_args()
    brain = Analyst(os.path.abspath(a.brain), a.depth or 1000, a.turn)
    out = open(a.turning, "w") if a.turning else None
    counts = {"!!": 0, "??": 0, "?": 0}
    for path in a.sgf:
        for gn, cols, rows, pb, pw, moves in games(path):
            colours = [c for c, name in ((0, pb), (1, pw)) if name == a.player]
            if a.colour:
                colours = [c for c in colours if c == ("black", "white").index(a.colour)]
            if not colours:
                continue
            evs = []
            for n in range(3, len(moves)):
                try:
                    evs.append(brain.evaluate_move(cols, rows, moves[:n]))
                except TimeoutError:
                    brain.discard()
                    brain = Analyst(os.path.abspath(a.brain), a.depth or 1000, a.turn)
                    evs.append((None, None))
            evs.append((None, None))
            print(f"# {path} game {gn}: {pb} (black) - {pw} (white), {len(moves)} stones")
            for n in range(3, len(moves)):
                if n % 2 not in colours:
                    continue
                before, best = evs[n - 3]
                after = negate(evs[n - 2][0]) if n + 1 < len(moves) else None
                vb, va = value(before), value(after)
                mark = ""
                # The brain's own move is never marked: its evaluations of one line at
                # two depths can disagree.
                if vb is not None and va is not None and moves[n] != best:
                    if vb >= 90000 and va < 90000:
                        mark = "!!"
                    elif vb > -90000 and va <= -90000:
                        mark = "??"
                    elif vb - va > a.drop and vb < 90000:
                        mark = "?"
                if mark:
                    counts[mark] += 1
                    if out:
                        out.write(f"{cols} {rows} {mark} {before} {after} {square(moves[n])} "
                                  f"{square(best) if best else '-'} "
                                  f"{' '.join(square(m) for m in moves[:n])}\n")
                        out.flush()
                print(f"{gn:>4} {n + 1:3d} {square(moves[n]):>4}  {before or '?':>6} -> "
                      f"{after or '?':<6} {square(best) if best else '-':>4} {mark}")
            sys.stdout.flush()
    brain.close()
    print(f"# marked: {counts['!!']} wins let go (!!), {counts['??']} losses walked into (??), "
          f"{counts['?']} drops over {a.drop} (?)")


if __name__ == "__main__":
    main()
