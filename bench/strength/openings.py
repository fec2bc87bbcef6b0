#!/usr/bin/env python3
"""Opening files for the strength harness: check them, list them, convert them.

The openings live in c-gomoku-cli's "offset" notation (the Gomocup opening format): one
opening a line, moves `dx,dy` separated by ", ", black first, each an offset from the centre
square (HALF = size // 2; column = HALF + dx from the left, row = HALF + dy from the top).
kinrow match reads positions as after `position`, with squares named from the bottom left
(`a1`), so the same openings are converted for it here.

    openings.py check FILE [--size N]    validate; exit 1 with a message on the first fault
    openings.py list FILE [--size N]     one line per opening: its label and its squares
    openings.py kinrow FILE [--size N] [--count K]
                                         the first K openings (all by default) as
                                         `startpos moves h8 h9 h10` lines for kinrow match
"""

import argparse
import sys

SYMMETRIES = [
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
]


class OpeningError(Exception):
    """A line of an opening file that cannot be used."""


def parse_line(line, lineno):
    """The moves of one offset-notation line, as (dx, dy) pairs."""
    text = line.strip()
    if not text:
        raise OpeningError(f"line {lineno}: empty line (c-gomoku-cli would play it as an empty board)")
    numbers = []
    for word in text.replace(",", " ").split():
        try:
            numbers.append(int(word))
        except ValueError:
            raise OpeningError(f"line {lineno}: '{word}' is not an integer offset") from None
    if len(numbers) % 2:
        raise OpeningError(f"line {lineno}: an odd count of offsets ({len(numbers)})")
    return [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]


def read_openings(path):
    """Every opening of the file, in order."""
    try:
        with open(path, encoding="ascii", newline="") as handle:
            lines = handle.read().split("\n")
    except (OSError, UnicodeDecodeError) as err:
        raise OpeningError(f"{path}: cannot read: {err}") from None
    if lines and lines[-1] == "":
        lines.pop()
    openings = []
    for number, line in enumerate(lines, start=1):
        if "\r" in line:
            raise OpeningError(f"line {number}: carriage return (c-gomoku-cli reads LF lines)")
        openings.append(parse_line(line, number))
    if not openings:
        raise OpeningError(f"{path}: no openings")
    return openings


def square(dx, dy, size):
    """kinrow's name of the square at offset (dx, dy) on a size x size board."""
    half = size // 2
    column, row_from_top = half + dx, half + dy
    if not (0 <= column < size and 0 <= row_from_top < size):
        raise OpeningError(f"offset {dx},{dy} is off a {size}x{size} board")
    return f"{chr(ord('a') + column)}{size - row_from_top}"


def canonical(moves):
    """The opening's smallest form over the board's eight symmetries (about the centre)."""
    forms = []
    for transform in SYMMETRIES:
        black = sorted(transform(x, y) for x, y in moves[0::2])
        white = sorted(transform(x, y) for x, y in moves[1::2])
        forms.append((tuple(black), tuple(white)))
    return min(forms)


def label(moves):
    """`direct`, `indirect` or `other`, by the first two stones."""
    if len(moves) >= 2 and moves[0] == (0, 0):
        dx, dy = moves[1]
        if abs(dx) + abs(dy) == 1:
            return "direct"
        if abs(dx) == 1 and abs(dy) == 1:
            return "indirect"
    return "other"


def check(openings, size):
    """Validate the openings for a board; raise OpeningError on the first fault."""
    seen = {}
    for number, moves in enumerate(openings, start=1):
        squares = [square(dx, dy, size) for dx, dy in moves]
        if len(set(moves)) != len(moves):
            raise OpeningError(f"line {number}: a square is played twice ({' '.join(squares)})")
        form = canonical(moves)
        if form in seen:
            raise OpeningError(
                f"line {number}: the same opening as line {seen[form]} up to symmetry"
            )
        seen[form] = number


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["check", "list", "kinrow"])
    parser.add_argument("file")
    parser.add_argument("--size", type=int, default=15, help="board size (default 15)")
    parser.add_argument("--count", type=int, default=0, help="kinrow: only the first COUNT openings")
    args = parser.parse_args(argv)
    if not 5 <= args.size <= 26:
        parser.error("--size must be from 5 to 26")
    if args.count < 0:
        parser.error("--count must not be negative")
    try:
        openings = read_openings(args.file)
        check(openings, args.size)
        if args.action == "check":
            print(f"{args.file}: {len(openings)} openings, all distinct up to symmetry, on {args.size}x{args.size}")
        elif args.action == "list":
            for number, moves in enumerate(openings, start=1):
                squares = " ".join(square(dx, dy, args.size) for dx, dy in moves)
                print(f"{number:3} {label(moves):8} {squares}")
        else:
            chosen = openings[: args.count] if args.count else openings
            if args.count > len(openings):
                raise OpeningError(f"--count {args.count}: the file has only {len(openings)} openings")
            for moves in chosen:
                print("startpos moves " + " ".join(square(dx, dy, args.size) for dx, dy in moves))
    except OpeningError as err:
        print(f"openings.py: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
