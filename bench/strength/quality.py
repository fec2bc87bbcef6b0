#!/usr/bin/env python3
"""How good kinrow's moves are, judged move by move by a stronger brain (Rapfi).

usage:
  quality.py collect --brain RAPFI [--depth N] [--player NAME] [--within CP] [--every K]
                     [--phase I] [--skip N] [--limit N] OUT SGF...
  quality.py run (--kinrow KINROW [--env VAR=VALUE ...] [--option NAME=VALUE ...]
                  [--movetime MS | --nodes N]
                  | --player-brain BRAIN [--player-turn MS] [--player-depth N]
                  | --moves SAVED.json)
                 --brain RAPFI [--depth N] [--cache FILE] [--merge FILE ...] [--jobs J]
                 [--label NAME] [--save OUT.json] SUITE
  quality.py compare A.json B.json

A match of 52 games against Rapfi tells 25% from 15% only roughly (its 95% interval is
about +-10 points). This measures move quality on a fixed suite of positions instead, so
that every build (or setting) is judged on the same positions and two can be compared move
by move; over the 463 positions of quality-suite.txt its error is about that of a 52-game
match, at half the machine time (README.md, "Move quality").

`collect` takes, from the SGF files, the positions of NAME's games (default "kinrow") where
NAME was to move, after the opening stones (`--skip`, default 3): every K-th distinct one
(default 3, `--phase` says which of each K, so that one game does not give a run of
near-identical ones) is given to the brain (`INFO max_depth N`, default 12), and kept if the
brain does not call it decided: no forced win or loss and an evaluation within +-CP (default
400) for the side to move; at most N (default 400). A forced block (the side to move has no
five and one cell that stops the opponent's) is not taken: it leaves no choice, and Rapfi
values it after a few iterations only. Each line of OUT is

    COLUMNS ROWS EVAL MOVE...

(moves in SGF coordinates, black first), EVAL the brain's value for the side to move.

`run` has kinrow choose a move in every position of SUITE (`newgame`, `position`, `go
movetime MS`, default 1000, so its hard deadline is the one it keeps under Gomocup's
`timeout_turn` of that length, though it begins new iterations until that deadline, where
the Gomocup brain stops beginning them at two thirds of it; or `go nodes N` with --nodes,
which plays the same moves whatever the load), then the brain evaluates the
position after that move at the same depth (past forced blocks: after a four the block is
played and the position after it judged, as Rapfi's own value with one legal move is
shallow). A move's loss is EVAL less the value after it (for the side that moved): a
forced loss after it counts as a loss of 1000 (and is counted apart), a forced win as a
gain of the rest up to 1000. Prints the mean loss with its standard error, the moves that
lost over 300 and the forced losses walked into. Forced blocks in SUITE (59 of the 463 of
quality-suite.txt, 30 of its first 228, collected before `collect` left them out) are
neither judged nor counted: the move is the same for every player, and the EVAL was
shallow. The
brain's judgements are kept in the cache file (by position and move) so that two runs which
play the same move in a position get the same judgement, and a rerun costs only kinrow's
time. With two runs' outputs (--save), `compare` prints the paired difference:

  quality.py compare A.json B.json

Standard library only.
"""
import argparse
import json
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tune"))
from label import Brain, forced_block  # noqa: E402
from analyse import games, negate, square, value  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kinrow_uci import Kinrow  # noqa: E402

#: What a forced loss costs, and the most a move can gain.
MATE_LOSS = 1000


def square_to_sgf(sq):
    return sq[0] + chr(96 + int(sq[1:]))


def judge_brain(a):
    """The judging brain, at the depth and turn limit of the options."""
    return Brain(os.path.abspath(a.brain), a.depth, a.turn)


def key(cols, rows, moves, move):
    """The cache's key of a position (SGF moves) and a move played there. "forced:" marks
    judgements made past forced blocks: a cache of the earlier, shallow ones is not used."""
    return f"forced: {cols} {rows} {' '.join(moves)} {move}"


def mean_se(xs):
    """The mean of `xs` and its standard error."""
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
    return mean, sd / math.sqrt(len(xs))


def collect(a):
    kept = 0
    with open(a.out, "w") as out:
        for line in undecided_positions(a):
            out.write(line)
            kept += 1
    print(f"{kept} positions", file=sys.stderr)


def undecided_positions(a):
    """The suite's lines: positions of `a.player`'s games that the judging brain calls
    undecided, every `a.every`-th new one, at most `a.limit`."""
    brain = judge_brain(a)
    seen = set()
    kept = candidates = 0
    try:
        for path in a.sgf:
            for _gn, cols, rows, pb, pw, moves in games(path):
                colours = [c for c, name in ((0, pb), (1, pw)) if name == a.player]
                for n in range(a.skip, len(moves) - 1):
                    if n % 2 not in colours:
                        continue
                    key = (cols, rows, frozenset(moves[0:n:2]), frozenset(moves[1:n:2]))
                    if key in seen:
                        continue
                    seen.add(key)
                    candidates += 1
                    if (candidates + a.phase) % a.every:
                        continue
                    if forced_block(cols, rows, moves[:n]):
                        # One legal move says nothing of a player's choices, and Rapfi
                        # values it after a few iterations only.
                        continue
                    try:
                        ev = brain.evaluate(cols, rows, moves[:n])
                    except TimeoutError:
                        brain.discard()
                        brain = judge_brain(a)
                        continue
                    v = value(ev)
                    if v is None or "M" in ev or abs(v) > a.within:
                        continue
                    yield f"{cols} {rows} {v} {' '.join(moves[:n])}\n"
                    kept += 1
                    if kept >= a.limit:
                        return
    finally:
        brain.close()


def choose_brain(a, suite):
    """A Gomocup brain's own move in each position (at full strength, `--player-turn` ms a
    move): the yardstick a kinrow run is compared with."""
    brain = Brain(os.path.abspath(a.player_brain), a.player_depth or 1000, a.player_turn)
    chosen = []
    for cols, rows, _ev, moves in suite:
        brain.evaluate(cols, rows, moves)
        chosen.append(brain.last_move)
    brain.close()
    return chosen


def choose(binary, env, options, limit, suite):
    """kinrow's move (SGF letters) in each position of the suite, one process for all,
    with the options (NAME=VALUE) set before the first search."""
    kinrow = Kinrow(binary, env)
    for option in options:
        name, _, value = option.partition("=")
        kinrow.send(f"setoption name {name} value {value}")
    chosen = []
    for cols, rows, _ev, moves in suite:
        kinrow.set_position(cols, rows, [square(m) for m in moves])
        _info, best, _secs = kinrow.go(limit)
        chosen.append(square_to_sgf(best))
    kinrow.quit()
    return chosen


def judge(a, suite, chosen, cache, skip):
    """The brain's value for the mover after each chosen move (cached), as numbers; not
    where `skip` says so."""
    keys = [key(c, r, mv, m) for (c, r, _e, mv), m in zip(suite, chosen)]
    todo = [(i, k) for i, k in enumerate(keys) if k not in cache and not skip[i]]
    chunks = [todo[j::a.jobs] for j in range(a.jobs)]

    def work(chunk):
        brain = judge_brain(a)
        out = {}
        for i, key in chunk:
            c, r, _e, mv = suite[i]
            for _attempt in range(2):
                try:
                    # The brain's value is for the side to move after the move: negated.
                    out[key] = negate(brain.evaluate_forced(c, r, mv + [chosen[i]]))
                    break
                except TimeoutError:
                    brain.discard()
                    brain = judge_brain(a)
        brain.close()
        return out

    with ThreadPoolExecutor(a.jobs) as pool:
        for out in pool.map(work, chunks):
            cache.update(out)


def run(a):
    suite = []
    for line in open(a.suite):
        f = line.split()
        if len(f) >= 4 and not f[0].startswith("#"):
            suite.append((int(f[0]), int(f[1]), int(f[2]), f[3:]))
    env = dict(kv.split("=", 1) for kv in a.env)
    if a.moves:
        chosen = json.load(open(a.moves))["moves"]
    elif a.player_brain:
        chosen = choose_brain(a, suite)
    else:
        limit = f"nodes {a.nodes}" if a.nodes else f"movetime {a.movetime}"
        chosen = choose(a.kinrow, env, a.option, limit, suite)
    cache = {}
    if a.cache and os.path.exists(a.cache):
        cache = json.load(open(a.cache))
    for extra in a.merge:
        for k, v in json.load(open(extra)).items():
            cache.setdefault(k, v)
    # Forced blocks: no choice to judge (and their EVAL, from a shallow search of Rapfi's,
    # is no measure of the position).
    forced = [forced_block(c, r, mv) is not None for c, r, _e, mv in suite]
    judge(a, suite, chosen, cache, forced)
    if a.cache:
        json.dump(cache, open(a.cache, "w"))
    losses = []
    blunders = mated = 0
    for (c, r, ev, mv), m, skipped in zip(suite, chosen, forced):
        if skipped:
            losses.append(None)
            continue
        after = cache.get(key(c, r, mv, m))
        v = value(after)
        if v is None:
            losses.append(None)
            continue
        if v <= -90000:
            loss = ev + MATE_LOSS
            mated += 1
        elif v >= 90000:
            loss = ev - MATE_LOSS
        else:
            loss = ev - v
        losses.append(loss)
        blunders += loss > 300
    known = [x for x in losses if x is not None]
    mean, se = mean_se(known)
    label = a.label or (os.path.basename(a.kinrow or a.player_brain) + (" " + " ".join(a.env) if a.env else "")
                        + (" " + " ".join(a.option) if a.option else ""))
    print(f"{label}: {len(known)} positions, mean loss {mean:.1f} +- {se:.1f}"
          f" (1 s.e.), over 300: {blunders}, forced losses: {mated}"
          + (f"; {sum(forced)} forced blocks left out" if any(forced) else ""))
    if a.save:
        json.dump({"label": label, "losses": losses, "moves": chosen}, open(a.save, "w"))


def compare(a):
    x, y = json.load(open(a.a)), json.load(open(a.b))
    pairs = [(p, q) for p, q in zip(x["losses"], y["losses"]) if p is not None and q is not None]
    d = [q - p for p, q in pairs]
    mean, se = mean_se(d)
    same = sum(m == n for m, n in zip(x["moves"], y["moves"]))
    print(f"{y['label']} - {x['label']}: mean loss {mean:+.1f} +- {se:.1f} "
          f"(1 s.e., {len(d)} positions, {same} same moves)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--brain", required=True)
    c.add_argument("--depth", type=int, default=12)
    c.add_argument("--turn", type=int, default=10000)
    c.add_argument("--player", default="kinrow")
    c.add_argument("--within", type=int, default=400)
    c.add_argument("--every", type=int, default=3)
    c.add_argument("--phase", type=int, default=0, help="which of each K to take")
    c.add_argument("--skip", type=int, default=3, help="opening stones")
    c.add_argument("--limit", type=int, default=400)
    c.add_argument("out")
    c.add_argument("sgf", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("--kinrow")
    r.add_argument("--player-brain", help="a Gomocup brain plays instead of kinrow")
    r.add_argument("--player-turn", type=int, default=1000)
    r.add_argument("--player-depth", type=int, default=0, help="the brain's max_depth (0: none)")
    r.add_argument("--moves", help="the moves of an earlier run (--save), judged again")
    r.add_argument("--env", action="append", default=[])
    r.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a kinrow option to set before the first search (repeatable)")
    r.add_argument("--movetime", type=int, default=1000)
    r.add_argument("--nodes", type=int,
                   help="kinrow searches this many nodes a move instead (`go nodes N`): the "
                        "same moves whatever the machine's load")
    r.add_argument("--brain", required=True)
    r.add_argument("--depth", type=int, default=12)
    r.add_argument("--turn", type=int, default=10000)
    r.add_argument("--cache")
    r.add_argument("--merge", action="append", default=[],
                   help="another cache file whose judgements are taken where the cache has none")
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--label")
    r.add_argument("--save")
    r.add_argument("suite")
    p = sub.add_parser("compare")
    p.add_argument("a")
    p.add_argument("b")
    a = ap.parse_args()
    {"collect": collect, "run": run, "compare": compare}[a.cmd](a)


if __name__ == "__main__":
    main()
