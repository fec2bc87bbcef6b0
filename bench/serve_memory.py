#!/usr/bin/env python3
"""Resident memory of `kinrow serve` per game (docs/serve.md, "Memory").

Usage: bench/serve_memory.py GAMES KINROW_BINARY SECONDS

Starts `kinrow serve --port 0 --max-games GAMES`, makes GAMES 15x15 games of the engine
against itself at movetime 100 through the API, opens an event stream to each (so that
none rests unwatched), and prints the server's VmRSS (from /proc/PID/status) at the start,
once the games are made, and after SECONDS of play (with the peak, sampled every second).
"""
import http.client
import json
import re
import subprocess
import sys
import time


def main():
    games, binary, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--max-games", str(games)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        address = re.search(r"http://([^/]+)/", server.stdout.readline()).group(1)
        host, port = address.rsplit(":", 1)

        def rss_mb():
            with open(f"/proc/{server.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) // 1024
            return 0

        def connection():
            return http.client.HTTPConnection(host, int(port), timeout=10)

        print("start", rss_mb(), "MB")
        streams = []
        for _ in range(games):
            c = connection()
            setup = {"columns": 15, "rows": 15, "k": 5, "x": "engine", "o": "engine",
                     "movetime": 100}
            c.request("POST", "/api/games", json.dumps(setup),
                      {"Host": address, "Content-Type": "application/json"})
            game = json.loads(c.getresponse().read())
            c.close()
            stream = connection()
            stream.request("GET", f"/api/games/{game['id']}/events", headers={"Host": address})
            streams.append(stream)
        print(games, "games made", rss_mb(), "MB")
        peak = 0
        for _ in range(seconds):
            time.sleep(1)
            peak = max(peak, rss_mb())
        print(f"after {seconds} s of play: now {rss_mb()} MB, peak {peak} MB")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
