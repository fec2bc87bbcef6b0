"""kinrow driven over its line protocol, for the bench scripts: one process, one search at a
time. Standard library only."""
import os
import subprocess
import sys
import time


class Kinrow:
    """A kinrow process (`binary`, with extra environment `env`) that searches positions."""

    def __init__(self, binary, env=None, threads=None):
        self.binary = binary
        self.p = subprocess.Popen([os.path.abspath(binary)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                  bufsize=1, env=dict(os.environ, **(env or {})))
        if threads is not None:
            self.send(f"setoption name Threads value {threads}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def set_position(self, cols, rows, moves):
        """A new game of `cols` x `rows` (k = 5) and the moves (kinrow's square names)."""
        self.send(f"newgame {cols} {rows} 5")
        self.send(f"position startpos moves {' '.join(moves)}")

    def ready(self):
        """Waits until kinrow has taken every command sent."""
        self.send("isready")
        while not self.readline().startswith("readyok"):
            pass

    def readline(self):
        line = self.p.stdout.readline()
        if not line:
            sys.exit(f"{self.binary} quit")
        return line

    def go(self, limit):
        """Searches the position with `go LIMIT`; returns the last `info depth` line (or None),
        the best move and the seconds from `go` to `bestmove`."""
        t = time.perf_counter()
        self.send(f"go {limit}")
        last = None
        while True:
            line = self.readline()
            if line.startswith("info depth"):
                last = line
            if line.startswith("bestmove"):
                return last, line.split()[1], time.perf_counter() - t

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)
