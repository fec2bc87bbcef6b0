#!/usr/bin/env python3
"""Balanced openings for the strength harness: quiet random positions that Rapfi calls even.

The 26 classical 3-stone openings favour black heavily (Rapfi against itself wins 24 of 26 of
them as black), so a match over them measures mostly who plays black well. The openings made
here are chosen so that neither side is far ahead:

1. `candidates`: random positions of MIN..MAX stones (default 4 to 6; black first, colours
   alternating, so black has as many stones as white or one more) on the central REGION x
   REGION squares (default 7x7) of the board, drawn with a fixed seed. A position is kept only
   if it is quiet: neither side has a four (a square that would make five) nor an open three
   (a square that would make a straight four, four in a row with both ends empty on the
   board), which leaves out every position with a tactic already under way. Positions equal
   under the board's 8 symmetries (about the centre) are kept once (openings.py's
   canonical form). Printed in c-gomoku-cli offset notation, one a line.
2. `evaluate`: each candidate is given to Rapfi (a Gomocup brain, given by path; with no
   config.toml beside it, its built-in classical evaluation) as BOARD ... DONE with
   `INFO max_depth DEPTH` (default 10), `INFO thread_num 1` and no time limit to speak of,
   through bench/tune/label.py's Brain (which reads the "Eval X" of Rapfi's MESSAGE lines, X
   for the side to move). Writes a table, one candidate a line, tab-separated: the
   evaluation for black, the evaluation for the side to move, the stone count, the opening.
   A forced win or loss (an "M" score) is written as M and never selected.
3. `select`: the candidates whose evaluation for black lies within +-MAX_EVAL (default 80) of
   CENTRE (default 0) are written, in the table's (random) order, so that any prefix of the
   file is a random sample of it. Rapfi's win rate is about sigmoid(eval / 200), so +-80 is
   about 40% to 60% for black. Given several tables (the same candidates evaluated at several
   depths), a candidate must be within the window in every one: an evaluation that holds
   from depth 10 to depth 16 is less likely to be a horizon effect. The evaluation
   histograms are printed.
4. `selfplay`: checks the balance by play: Rapfi against itself over the openings, each
   played twice with colours swapped (c-gomoku-cli -repeat), then bench/strength/summary.py
   scores black (a copy of the SGF with the players named `black` and `white`).

Typical run (the numbers are the defaults):

    balanced.py candidates --seed 1 --count 600 > candidates.txt
    balanced.py evaluate --rapfi /path/pbrain-rapfi --depth 10 candidates.txt > evals-d10.tsv
    balanced.py evaluate --rapfi /path/pbrain-rapfi --depth 16 candidates.txt > evals-d16.tsv
    balanced.py select --max-eval 80 evals-d10.tsv evals-d16.tsv > openings/balanced.txt
    balanced.py selfplay --rapfi /path/pbrain-rapfi --cli /path/c-gomoku-cli \\
        --tc 100/0.1 --out runs/balanced openings/balanced.txt

Standard library only; it runs the programs it is given and builds nothing.
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tune"))

import openings  # noqa: E402  (this folder: the offset notation and its symmetries)

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def on_board(x, y, size):
    half = size // 2
    return -half <= x <= size - 1 - half and -half <= y <= size - 1 - half


def run_through(own, cell, direction):
    """The ends (first and last offsets) of the run of `own` stones through `cell` along
    `direction`, `cell` counted as own."""
    dx, dy = direction
    x, y = cell
    back = 0
    while (x - (back + 1) * dx, y - (back + 1) * dy) in own:
        back += 1
    ahead = 0
    while (x + (ahead + 1) * dx, y + (ahead + 1) * dy) in own:
        ahead += 1
    return back, ahead


def threat_after(own, taken, cell, size):
    """'five' if a stone of `own` on `cell` makes five or more in a row, 'open four' if it
    makes a straight four (four in a row, both ends empty squares on the board), else None."""
    best = None
    x, y = cell
    for dx, dy in DIRECTIONS:
        back, ahead = run_through(own, cell, (dx, dy))
        length = back + ahead + 1
        if length >= 5:
            return "five"
        if length == 4:
            ends = [(x - (back + 1) * dx, y - (back + 1) * dy), (x + (ahead + 1) * dx, y + (ahead + 1) * dy)]
            if all(on_board(ex, ey, size) and (ex, ey) not in taken for ex, ey in ends):
                best = "open four"
    return best


def quiet(moves, size):
    """Whether neither side has a four or an open three (see the module's docstring)."""
    black, white = set(moves[0::2]), set(moves[1::2])
    taken = black | white
    # Only squares within four of a stone can extend its lines.
    near = {(x + dx, y + dy) for x, y in taken for dx in range(-4, 5) for dy in range(-4, 5)}
    empty = [c for c in near if on_board(c[0], c[1], size) and c not in taken]
    for own in (black, white):
        for cell in empty:
            if threat_after(own, taken, cell, size):
                return False
    return True


def candidates(seed, count, low, high, region, size, attempts=1000000):
    """Up to `count` quiet positions, distinct up to symmetry, as lists of (dx, dy), and
    the counts of positions drawn, left out as repeats (up to symmetry) and as not quiet."""
    rng = random.Random(seed)
    r = region // 2
    squares = [(x, y) for y in range(-r, r + 1) for x in range(-r, r + 1)]
    seen = set()
    found = []
    tally = {"drawn": 0, "repeated": 0, "not quiet": 0}
    for _ in range(attempts):
        if len(found) >= count:
            break
        moves = rng.sample(squares, rng.randint(low, high))
        tally["drawn"] += 1
        form = openings.canonical(moves)
        if form in seen:
            tally["repeated"] += 1
            continue
        seen.add(form)
        if quiet(moves, size):
            found.append(moves)
        else:
            tally["not quiet"] += 1
    return found, tally


def offset_line(moves):
    return ", ".join(f"{dx},{dy}" for dx, dy in moves)


def read_lines(path):
    """The openings of an offset-notation file, checked by openings.py."""
    return openings.read_openings(path)


def cmd_candidates(a):
    found, tally = candidates(a.seed, a.count, a.min_stones, a.max_stones, a.region, a.size)
    for moves in found:
        print(offset_line(moves))
    by_stones = ", ".join(f"{n} stones {sum(1 for m in found if len(m) == n)}"
                          for n in range(a.min_stones, a.max_stones + 1))
    print(f"candidates (seed {a.seed}): {tally['drawn']} drawn, {tally['repeated']} repeats up to "
          f"symmetry, {tally['not quiet']} not quiet, {len(found)} kept ({by_stones})", file=sys.stderr)


def cmd_evaluate(a):
    import label  # bench/tune/label.py: the Gomocup driver that reads Rapfi's "Eval X"

    rapfi = os.path.abspath(a.rapfi)
    if os.path.exists(os.path.join(os.path.dirname(rapfi), "config.toml")):
        sys.exit(f"balanced.py: {os.path.dirname(rapfi)}/config.toml exists: Rapfi would load it "
                 "instead of its built-in classical configuration")
    todo = read_lines(a.file)
    brain = label.Brain(rapfi, a.depth, a.turn_ms)
    half = a.size // 2
    for number, moves in enumerate(todo, start=1):
        sgf = [chr(97 + half + dx) + chr(97 + half + dy) for dx, dy in moves]
        # A fresh START for every position (no hash carried over from the last one), and one
        # thread.
        brain.size = None
        brain.send("INFO thread_num 1")
        ev = brain.evaluate(a.size, a.size, sgf)
        if ev is None or "M" in ev:
            to_move, for_black = ev or "none", "M"
        else:
            to_move = int(ev)
            for_black = to_move if len(moves) % 2 == 0 else -to_move
        print(f"{for_black}\t{to_move}\t{len(moves)}\t{offset_line(moves)}", flush=True)
        if number % 50 == 0:
            print(f"evaluate: {number} of {len(todo)}", file=sys.stderr)
    brain.close()


def read_table(path):
    rows = []
    with open(path, encoding="ascii") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                sys.exit(f"balanced.py: {path} line {number}: not a table line")
            ev = None if fields[0] == "M" else int(fields[0])
            rows.append((ev, int(fields[2]), openings.parse_line(fields[3], number)))
    return rows


def histogram(values, width=50):
    lines = []
    bins = {}
    for v in values:
        b = max(-500, min(500, int(math.floor(v / 50.0)) * 50))
        bins[b] = bins.get(b, 0) + 1
    for b in range(-500, 550, 50):
        n = bins.get(b, 0)
        if n:
            name = f"<= -500" if b == -500 else f">= +500" if b == 500 else f"[{b:+d}, {b + 50:+d})"
            lines.append(f"  {name:>14} {n:4d} {'#' * n}")
    return "\n".join(lines)


def cmd_select(a):
    tables = [read_table(path) for path in a.tables]
    first = tables[0]
    for path, rows in zip(a.tables[1:], tables[1:]):
        if [r[2] for r in rows] != [r[2] for r in first]:
            sys.exit(f"balanced.py: {path} does not hold the same candidates, in the same order, as {a.tables[0]}")
    err = sys.stderr
    kept = []
    for i, (_, stones, moves) in enumerate(first):
        values = [rows[i][0] for rows in tables]
        if all(v is not None and abs(v - a.centre) <= a.max_eval for v in values):
            kept.append((values, stones, moves))
    for _, _, moves in kept:
        print(offset_line(moves))
    for path, rows in zip(a.tables, tables):
        valued = [r for r in rows if r[0] is not None]
        within = [r for r in valued if abs(r[0] - a.centre) <= a.max_eval]
        print(f"{path}: {len(rows)} candidates, {len(rows) - len(valued)} forced (M), "
              f"{len(within)} within {a.centre:+d} +- {a.max_eval} for black", file=err)
        print("  evaluation for black of every valued candidate (bins of 50):", file=err)
        print(histogram([r[0] for r in valued]), file=err)
    print(f"select: {len(kept)} of {len(first)} candidates within {a.centre:+d} +- {a.max_eval} "
          f"for black in every table", file=err)
    for n in sorted({r[1] for r in first}):
        print(f"  {n} stones: {sum(1 for r in first if r[1] == n)} candidates, "
              f"{sum(1 for r in kept if r[1] == n)} kept", file=err)
    for t, path in enumerate(a.tables):
        values = [r[0][t] for r in kept]
        if values:
            print(f"  kept, {path}: mean evaluation for black {sum(values) / len(values):+.1f}, "
                  f"mean sigmoid(eval/200) {sum(1 / (1 + math.exp(-v / 200)) for v in values) / len(values):.3f}",
                  file=err)
        print("  their evaluations (bins of 50):", file=err)
        print(histogram(values), file=err)


def cmd_selfplay(a):
    rapfi = os.path.abspath(a.rapfi)
    if os.path.exists(os.path.join(os.path.dirname(rapfi), "config.toml")):
        sys.exit(f"balanced.py: {os.path.dirname(rapfi)}/config.toml exists")
    count = len(read_lines(a.file))
    pairs = a.pairs or count
    os.makedirs(a.out, exist_ok=True)
    sgf = os.path.join(a.out, "games.sgf")
    for name in ("games.sgf", "games.pgn", "by-colour.sgf"):
        if os.path.exists(os.path.join(a.out, name)):
            sys.exit(f"balanced.py: {os.path.join(a.out, name)} exists (c-gomoku-cli would append)")
    engine = [f"cmd={rapfi}", "thread=1"] + ([f"depth={a.depth}"] if a.depth else [])
    command = [a.cli,
               "-engine", "name=rapfi-a", *engine,
               "-engine", "name=rapfi-b", *engine,
               "-each", f"tc={a.tc}",
               "-boardsize", str(a.size), "-rule", "0",
               "-games", str(2 * pairs), "-repeat", "-concurrency", "1",
               "-openings", f"file={os.path.abspath(a.file)}", "order=sequential",
               "-sgf", sgf, "-pgn", os.path.join(a.out, "games.pgn")]
    with open(os.path.join(a.out, "command.txt"), "w") as handle:
        handle.write(" ".join(command) + "\n")
    with open(os.path.join(a.out, "cli.log"), "w") as log:
        status = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT)
    if status:
        sys.exit(f"balanced.py: c-gomoku-cli exited with status {status} (see {a.out}/cli.log)")
    with open(sgf, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    text = re.sub(r"PB\[[^]]*\]", "PB[black]", text)
    text = re.sub(r"PW\[[^]]*\]", "PW[white]", text)
    by_colour = os.path.join(a.out, "by-colour.sgf")
    with open(by_colour, "w", encoding="utf-8") as handle:
        handle.write(text)
    summary = subprocess.run([sys.executable, os.path.join(HERE, "summary.py"), "--engine", "black", by_colour],
                             capture_output=True, text=True)
    with open(os.path.join(a.out, "summary.txt"), "w") as handle:
        handle.write(summary.stdout + summary.stderr)
    print(summary.stdout + summary.stderr, end="")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="action", required=True)

    c = sub.add_parser("candidates", help="print quiet random positions (offset notation)")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--count", type=int, default=600, help="how many to draw (default 600)")
    c.add_argument("--min-stones", type=int, default=4)
    c.add_argument("--max-stones", type=int, default=6)
    c.add_argument("--region", type=int, default=7, help="side of the central square they lie in (odd; default 7)")
    c.add_argument("--size", type=int, default=15)

    e = sub.add_parser("evaluate", help="Rapfi's evaluation of each candidate, as a table")
    e.add_argument("--rapfi", required=True, help="path of pbrain-rapfi (no config.toml beside it)")
    e.add_argument("--depth", type=int, default=10, help="INFO max_depth (default 10)")
    e.add_argument("--turn-ms", type=int, default=600000, help="INFO timeout_turn, ms (default 600000: depth limits)")
    e.add_argument("--size", type=int, default=15)
    e.add_argument("file", help="candidates, offset notation")

    s = sub.add_parser("select", help="the candidates Rapfi calls even, offset notation")
    s.add_argument("--max-eval", type=int, default=80, help="largest |eval - centre| kept (default 80)")
    s.add_argument("--centre", type=int, default=0, help="evaluation for black the window is centred on (default 0)")
    s.add_argument("tables", nargs="+", metavar="TABLE",
                   help="evaluate's output; with several (of the same candidates, e.g. at two depths), "
                        "a candidate is kept only if it is within the window in every one")

    p = sub.add_parser("selfplay", help="Rapfi against itself over the openings, both colours; black's score")
    p.add_argument("--rapfi", required=True)
    p.add_argument("--cli", required=True, help="path of c-gomoku-cli")
    p.add_argument("--tc", default="100/0.1", help="c-gomoku-cli tc= (default 100/0.1: 0.1 s a move)")
    p.add_argument("--depth", type=int, default=0, help="c-gomoku-cli depth= for both (default none)")
    p.add_argument("--pairs", type=int, default=0, help="only the first PAIRS openings (default all)")
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--out", required=True, help="folder for games.sgf, games.pgn, cli.log, by-colour.sgf, summary.txt")
    p.add_argument("file", help="openings, offset notation")

    a = ap.parse_args()
    if a.action == "candidates":
        if not (1 <= a.min_stones <= a.max_stones) or a.region % 2 == 0 or a.region > a.size:
            ap.error("need 1 <= --min-stones <= --max-stones and an odd --region no larger than --size")
        cmd_candidates(a)
    elif a.action == "evaluate":
        cmd_evaluate(a)
    elif a.action == "select":
        cmd_select(a)
    else:
        cmd_selfplay(a)


if __name__ == "__main__":
    try:
        main()
    except openings.OpeningError as err:
        sys.exit(f"balanced.py: {err}")
