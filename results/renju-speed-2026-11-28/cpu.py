import subprocess, sys, os
# usage: cpu.py RULE BIN... : user CPU seconds of `go nodes 200000` from five openings, per binary, interleaved
openings = ["h8 i9 g9 h10 i8 g8 j10 f7", "h8 h9 i9 g7 i7 i8 j8", "h8 i8 h9 h10 g9 f10 i10 g8",
            "h8 g9 i9 j10 i7 h7 j8 k9 g8", "h8 i9 h10 i11 i8 g8 j9 j7"]
rule, bins = sys.argv[1], sys.argv[2:]
tot = {b: 0.0 for b in bins}
for m in openings:
    row = []
    for b in bins:
        p = subprocess.Popen([b], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write(f"uci\nnewgame 15 15 5\nsetoption name Rule value {rule}\nposition startpos moves {m}\ngo nodes 200000\n"); p.stdin.flush()
        nodes = None
        for l in p.stdout:
            if l.startswith("info depth"): w = l.split(); nodes = w[w.index("nodes")+1]
            if l.startswith("bestmove"): break
        p.stdin.write("quit\n"); p.stdin.close()
        _, status, ru = os.wait4(p.pid, 0)
        tot[b] += ru.ru_utime
        row.append(f"{ru.ru_utime:.2f}s/{nodes}")
    print(m, "|", " ".join(row))
print("total user CPU:", " ".join(f"{os.path.basename(b)} {t:.2f}" for b, t in tot.items()))
