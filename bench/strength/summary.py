#!/usr/bin/env python3
"""Score one engine's games from SGF records: games, W-L-D, score, Elo with a 95% error bar.

    summary.py --engine NAME [--turn-ms MS] FILE.sgf [FILE.sgf ...]

Reads game collections as c-gomoku-cli (`-sgf`) and kinrow match (`--sgf`) write them: each
game's PB and PW (the players' names) and RE (`B+...` black won, `W+...` white won, `0` or
`Draw` a draw). Games in which NAME did not play are left out and counted. Prints the
totals, the split by colour, the games' lengths and, from c-gomoku-cli's TE property, how
the games ended (time forfeits, illegal or forbidden moves and crashes are listed apart);
with --turn-ms, NAME's replies slower than the limit a move (c-gomoku-cli notes each move's
time in the SGF, and forgives up to a second past the limit before it scores a forfeit).

The Elo is the logistic one, -400 log10(1/score - 1), and its 95% interval comes from the
trinomial model: each game scores 1, 1/2 or 0; the score's standard error is the standard
deviation of those game scores over the square root of the game count; the interval's ends
are score +- 1.96 standard errors, turned into Elo. When every game was lost (or won), the
Elo is -inf (+inf) and the bound printed instead is the 95% one-sided one: the score q at
which all n games would still be lost with probability 5%, q = 1 - 0.05^(1/n).
"""

import argparse
import math
import re
import sys
from collections import Counter

Z95 = 1.959964
PROPERTY = re.compile(r"\s*([A-Z]{1,2})((?:\[(?:\\.|[^\]\\])*\])+)", re.S)
VALUE = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)
MOVE = re.compile(r";\s*([BW])\[[a-z]{2}\](?:\s*C\[((?:\\.|[^\]\\])*)\])?")
MILLISECONDS = re.compile(r"(\d+)ms")
FAULTS = ("time forfeit", "illegal", "forbidden", "crash")


class RecordError(Exception):
    """A record that cannot be scored."""


def games_of(text):
    """Every game tree of an SGF collection, as (root properties, moves).

    Each move is (colour, milliseconds, opening): c-gomoku-cli notes each move's thinking
    time as a comment `C[123ms]` (without one the time is None) and marks the opening's
    stones `C[opening move]`."""
    games = []
    starts = [m.start() for m in re.finditer(r"\(\s*;", text)]
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        body = text[start:end]
        position = body.index(";") + 1
        properties = {}
        while True:
            found = PROPERTY.match(body, position)
            if not found:
                break
            key, values = found.group(1), found.group(2)
            first = VALUE.match(values).group(1)
            properties[key] = first.replace("\\]", "]").replace("\\\\", "\\")
            position = found.end()
        moves = []
        for colour, comment in MOVE.findall(body):
            ms = MILLISECONDS.fullmatch(comment)
            moves.append((colour, int(ms.group(1)) if ms else None, comment == "opening move"))
        games.append((properties, moves))
    return games


def outcome(result):
    """'B', 'W' or 'D' from an SGF RE value; None if the game has no result."""
    value = result.strip().upper()
    if value.startswith("B+"):
        return "B"
    if value.startswith("W+"):
        return "W"
    if value in ("0", "DRAW", "D", "JIGO"):
        return "D"
    return None


def elo(score):
    """The logistic Elo difference of a score strictly between 0 and 1."""
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def elo_text(score):
    return "-inf" if score <= 0 else "+inf" if score >= 1 else f"{elo(score):+.0f}"


def rating(wins, losses, draws):
    """(score, Elo line) for a W-L-D record."""
    n = wins + losses + draws
    score = (wins + 0.5 * draws) / n
    if wins + draws == 0 or losses + draws == 0:
        q = 1.0 - 0.05 ** (1.0 / n)
        if wins + draws == 0:
            return score, f"Elo -inf (every game lost; 95% upper bound {elo(q):+.0f})"
        return score, f"Elo +inf (every game won; 95% lower bound {elo(1 - q):+.0f})"
    variance = (wins * (1 - score) ** 2 + losses * score**2 + draws * (0.5 - score) ** 2) / n
    error = math.sqrt(variance / n)
    low, high = score - Z95 * error, score + Z95 * error
    if 0 < low and high < 1:
        half = (elo(high) - elo(low)) / 2
        return score, f"Elo {elo(score):+.0f} +- {half:.0f} (95% interval {elo(low):+.0f} to {elo(high):+.0f}, trinomial)"
    return score, f"Elo {elo(score):+.0f} (95% interval {elo_text(low)} to {elo_text(high)}, trinomial)"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the player whose score is reported (its PB/PW name)")
    parser.add_argument("--turn-ms", type=int, default=0, help="the time limit a move: count the engine's replies slower than it")
    parser.add_argument("files", nargs="+", help="SGF collections")
    args = parser.parse_args(argv)

    tally = {"B": Counter(), "W": Counter()}
    lengths, times, endings, early, early_tally = [], [], Counter(), [], Counter()
    others = unfinished = 0
    try:
        for path in args.files:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError as err:
                raise RecordError(f"{path}: cannot read: {err}") from None
            for properties, moves in games_of(text):
                black, white = properties.get("PB", ""), properties.get("PW", "")
                if args.engine not in (black, white):
                    others += 1
                    continue
                result = outcome(properties.get("RE", ""))
                if result is None:
                    unfinished += 1
                    continue
                colour = "B" if black == args.engine else "W"
                if result == "D":
                    tally[colour]["D"] += 1
                else:
                    tally[colour]["W" if result == colour else "L"] += 1
                lengths.append(len(moves))
                times.extend(ms for side, ms, _ in moves if side == colour and ms is not None)
                ending = properties.get("TE", "")
                if moves and all(opening for _, _, opening in moves) and any(f in ending.lower() for f in FAULTS):
                    early.append(properties.get("GN", "?"))
                    early_tally[result if result == "D" else "W" if result == colour else "L"] += 1
                if "TE" in properties:
                    endings[properties["TE"]] += 1
    except RecordError as err:
        print(f"summary.py: {err}", file=sys.stderr)
        return 1

    total = tally["B"] + tally["W"]
    n = sum(total.values())
    if n == 0:
        print(f"summary.py: no finished game of '{args.engine}' in {' '.join(args.files)}", file=sys.stderr)
        return 1
    score, line = rating(total["W"], total["L"], total["D"])
    print(f"{args.engine}: {n} games, W-L-D {total['W']}-{total['L']}-{total['D']}, score {score:.3f} ({100 * score:.1f}%)")
    print(line)
    for colour, word in (("B", "as black"), ("W", "as white")):
        c = tally[colour]
        games = sum(c.values())
        if games:
            part = (c["W"] + 0.5 * c["D"]) / games
            print(f"  {word}: {games} games, W-L-D {c['W']}-{c['L']}-{c['D']}, score {part:.3f}")
    print(f"  stones on the board at the end: min {min(lengths)}, median {sorted(lengths)[len(lengths) // 2]}, max {max(lengths)}")
    if times:
        print(f"  {args.engine}'s thinking time a move (from the SGF comments): mean {sum(times) / len(times):.0f} ms, max {max(times)} ms over {len(times)} moves")
        if args.turn_ms > 0:
            late = [ms for ms in times if ms > args.turn_ms]
            print(f"  replies over the {args.turn_ms} ms limit: {len(late)}" + (f" ({', '.join(f'{ms} ms' for ms in sorted(late, reverse=True)[:5])})" if late else ""))
    if endings:
        faults = sum(count for text, count in endings.items() if any(f in text.lower() for f in FAULTS))
        print(f"  endings ({faults} by a fault: time forfeit, illegal or forbidden move, crash):")
        for text, count in endings.most_common():
            print(f"    {count:4}  {text}")
    if early:
        print(f"  WARNING: {len(early)} games (GN {', '.join(early)}) ended by a fault before either engine moved;")
        print("  c-gomoku-cli may score such a game for the wrong side (a refused START, say):")
        print("  its own log names the engine at fault.")
        rest = total - early_tally
        kept = sum(rest.values())
        if kept:
            part, line = rating(rest["W"], rest["L"], rest["D"])
            print(f"  without them: {kept} games, W-L-D {rest['W']}-{rest['L']}-{rest['D']}, score {part:.3f}, {line}")
    if others:
        print(f"  ({others} games without {args.engine} left out)")
    if unfinished:
        print(f"  ({unfinished} games without a result left out)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
