#!/usr/bin/env python3
"""Labels gomoku positions with a Gomocup brain's evaluation, for fitting kinrow's weights.

usage: label.py --brain PATH [--depth N] [--turn MS] [--start N] [--limit N]
                [--variants N --seed S] [--best FILE] OUT SGF...

Every position of every freestyle game (SGF rule 0 or Gomocup's "5 in a row" name) in the
SGF files, before each move after the third, once per distinct position, is sent to the
brain with BOARD and its evaluation read from the "Eval X" of its MESSAGE lines (Rapfi
prints them; X is for the side to move). Positions the brain calls a forced win or loss
("M" scores) are left out. Each line of OUT is

    COLUMNS ROWS EVAL MOVE...

with the moves in SGF coordinates (file letter, then rank letter), black first: the side
to move is black when the number of moves is even.

With `--variants N`, each game position is followed by N positions a few random moves away
(1 to 4 moves, each on an empty cell within two of a stone, none making five): the search
evaluates positions off the game's path far more often than on it, after moves no player
would choose, and the evaluation must know them too. The same `--seed` gives the same
variants. With `--best FILE`, every position the brain answered (won and lost ones too) is
also written to FILE with the brain's move in place of the evaluation, for fitting move
ordering to its choices. Standard library only.
"""
import argparse
import contextlib
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile


def games(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    for g in re.findall(r"\(;.*?\)\s*(?=\(|$)", text, re.S):
        size = re.search(r"SZ\[(\d+)(?::(\d+))?\]", g)
        rule = re.search(r"RU\[([^]]*)\]", g)
        if not size or (rule and rule.group(1) not in ("0",) and "5 in a row" not in rule.group(1)):
            continue
        cols = int(size.group(1))
        rows = int(size.group(2) or cols)
        moves = re.findall(r";[BW]\[([a-z][a-z])\]", g)
        yield cols, rows, moves


def positions(paths):
    seen = set()
    for path in paths:
        for cols, rows, moves in games(path):
            # The last position of a game may hold its five: left out.
            for n in range(3, len(moves)):
                key = (cols, rows, frozenset(moves[0:n:2]), frozenset(moves[1:n:2]))
                if key in seen:
                    continue
                seen.add(key)
                yield cols, rows, moves[:n]


DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def makes_five(own, cell, cols, rows):
    """Whether a stone at `cell` (file, rank) gives five or more in a row with `own`."""
    x, y = cell
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while True:
                p = (x + sign * k * dx, y + sign * k * dy)
                if not (0 <= p[0] < cols and 0 <= p[1] < rows) or p not in own:
                    break
                run += 1
                k += 1
        if run >= 5:
            return True
    return False


def variants(cols, rows, moves, count, rng):
    """`count` positions 1 to 4 random moves after `moves` (each within two cells of a
    stone, none making five); fewer where the board leaves no such move."""
    start = [(ord(m[0]) - 97, ord(m[1]) - 97) for m in moves]
    for _ in range(count):
        stones = list(start)
        sides = (set(stones[0::2]), set(stones[1::2]))
        for _ in range(rng.randint(1, 4)):
            taken = sides[0] | sides[1]
            near = sorted({(x + dx, y + dy) for x, y in taken
                           for dx in range(-2, 3) for dy in range(-2, 3)
                           if 0 <= x + dx < cols and 0 <= y + dy < rows} - taken)
            if not near:
                break
            cell = rng.choice(near)
            own = sides[len(stones) % 2]
            if makes_five(own, cell, cols, rows):
                break
            own.add(cell)
            stones.append(cell)
        if len(stones) > len(start):
            yield [chr(97 + x) + chr(97 + y) for x, y in stones]


def forced_block(cols, rows, moves):
    """The one move of the side to move (SGF letters) where it has no five to make and
    exactly one cell that stops the opponent's five; None otherwise. Five or more wins."""
    stones = [(ord(m[0]) - 97, ord(m[1]) - 97) for m in moves]
    to_move = set(stones[len(moves) % 2::2])
    moved = set(stones[1 - len(moves) % 2::2])
    empty = [(x, y) for x in range(cols) for y in range(rows)
             if (x, y) not in to_move and (x, y) not in moved]
    if any(makes_five(to_move, c, cols, rows) for c in empty):
        return None
    blocks = [c for c in empty if makes_five(moved, c, cols, rows)]
    if len(blocks) != 1:
        return None
    return chr(97 + blocks[0][0]) + chr(97 + blocks[0][1])


def negate(ev):
    """An "Eval" of the brain's for the other side ("M5" and "-M5" are forced wins and
    losses)."""
    if ev is None:
        return None
    if ev.startswith("-"):
        return ev[1:]
    return "-" + ev.lstrip("+")


class Brain:
    def __init__(self, path, depth, turn):
        self.cwd = tempfile.mkdtemp(prefix="label-")
        self.p = subprocess.Popen([path], cwd=self.cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  bufsize=0)
        self.pending = b""
        self.size = None
        self.depth = depth
        self.turn = turn

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())

    def line(self, timeout):
        """The brain's next line, or TimeoutError after `timeout` seconds of silence."""
        fd = self.p.stdout.fileno()
        while b"\n" not in self.pending:
            if not select.select([fd], [], [], timeout)[0]:
                raise TimeoutError("the brain did not answer")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError("the brain quit")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def reply(self, deadline):
        """Reads to the brain's move (kept as `last_move`, SGF letters); returns the last
        Eval it printed."""
        ev = None
        while True:
            line = self.line(deadline)
            m = re.search(r"Eval ([^ |]+)", line)
            if m:
                ev = m.group(1)
            if line.startswith("ERROR"):
                raise TimeoutError(f"the brain refused the position: {line}")
            m = re.match(r"^(\d+),(\d+)$", line)
            if m:
                self.last_move = chr(97 + int(m.group(1))) + chr(97 + int(m.group(2)))
                self.settle()
                return ev

    def settle(self):
        """Waits until the brain takes commands again: Rapfi drops a command that comes
        while it is still finishing its search, even after it has printed its move."""
        while True:
            self.send("ABOUT")
            try:
                while "name" not in self.line(0.01):
                    pass
                return
            except TimeoutError:
                continue

    def evaluate(self, cols, rows, moves):
        if self.size != (cols, rows):
            self.send(f"START {cols}" if cols == rows else f"RECTSTART {cols},{rows}")
            self.line(10.0)
            self.send("INFO timeout_match 1000000000")
            self.send(f"INFO timeout_turn {self.turn}")
            self.send(f"INFO max_depth {self.depth}")
            self.send("INFO rule 0")
            self.size = (cols, rows)
        self.send("BOARD")
        n = len(moves)
        for i, m in enumerate(moves):
            own = 1 if (n - 1 - i) % 2 == 1 else 2
            self.send(f"{ord(m[0]) - 97},{ord(m[1]) - 97},{own}")
        self.send("DONE")
        return self.reply(max(5.0, 3 * self.turn / 1000))

    def evaluate_forced(self, cols, rows, moves, limit=60):
        """`evaluate`, looked at past forced blocks: while the side to move has no five of
        its own and exactly one cell to stop the opponent's, that block is played and the
        position after it evaluated (the value negated back for each block). Rapfi answers
        a position with one legal move after a few iterations (its "singular root"), so
        its value after a four is shallow: a four that begins a won sequence of fours
        would read as no win at all. `last_move` is the first block where there was one.
        Five or more wins (freestyle), as everywhere in these tools."""
        seq = list(moves)
        first = None
        while len(seq) - len(moves) < limit:
            block = forced_block(cols, rows, seq)
            if block is None:
                break
            first = first or block
            seq.append(block)
        ev = self.evaluate(cols, rows, seq)
        if first:
            self.last_move = first
        # Each block hands the move back: an odd number of them turns the value round.
        return negate(ev) if (len(seq) - len(moves)) % 2 else ev

    def close(self):
        self.send("END")
        self.p.wait(timeout=10)
        shutil.rmtree(self.cwd, ignore_errors=True)

    def discard(self):
        """Ends a brain that stopped answering, and removes its folder."""
        self.p.kill()
        self.p.wait(timeout=10)
        shutil.rmtree(self.cwd, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--brain", required=True)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--turn", type=int, default=2000)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="positions to pass over first")
    ap.add_argument("--variants", type=int, default=0,
                    help="random positions a few moves away from each game position")
    ap.add_argument("--seed", type=int, default=1, help="for the variants")
    ap.add_argument("--best", metavar="FILE",
                    help="also write every position the brain answered, won ones too, with "
                         "the brain's move in place of the evaluation: COLUMNS ROWS BEST MOVE...")
    ap.add_argument("out")
    ap.add_argument("sgf", nargs="+")
    a = ap.parse_args()
    brain = Brain(os.path.abspath(a.brain), a.depth, a.turn)
    kept = mates = 0
    stuck = 0
    rng = random.Random(a.seed)
    best_file = open(a.best, "w") if a.best else contextlib.nullcontext()
    with open(a.out, "w") as out, best_file as best:
        for i, (cols, rows, game_moves) in enumerate(positions(a.sgf)):
            if a.limit and i >= a.limit:
                break
            # The variants are drawn for the positions passed over too, so that a run
            # resumed with --start gives the variants a whole run would.
            todo = [game_moves] + list(variants(cols, rows, game_moves, a.variants, rng))
            if i < a.start:
                continue
            for moves in todo:
                try:
                    ev = brain.evaluate(cols, rows, moves)
                except TimeoutError:
                    # A brain that stops answering (or refuses) is replaced; the position is
                    # left out.
                    stuck += 1
                    brain.discard()
                    brain = Brain(os.path.abspath(a.brain), a.depth, a.turn)
                    continue
                if best:
                    best.write(f"{cols} {rows} {brain.last_move} {' '.join(moves)}\n")
                if ev is None or "M" in ev:
                    mates += 1
                    continue
                out.write(f"{cols} {rows} {int(ev)} {' '.join(moves)}\n")
                kept += 1
                if kept % 1000 == 0:
                    out.flush()
                    print(f"{kept} labelled, {mates} left out", file=sys.stderr)
    brain.close()
    print(f"{kept} labelled, {mates} left out, {stuck} unanswered", file=sys.stderr)


if __name__ == "__main__":
    main()
