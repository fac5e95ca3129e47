#!/usr/bin/env python3
"""The small UCI driver the measuring tools share (ttd.py, smp.py,
deployment.py, trajectory.py): start an engine with options, set a
position, search, read the last scored `info` line and the best move.

As a script, one search and its summary line, for a quick look and the
driver's test (tests/examples.rs):

    python3 tools/uci.py ENGINE VARIANT DEPTH [MOVES...]
    -> depth D nodes N score S bestmove M
"""
import re
import subprocess
import sys
import time


class Result:
    """What a search reported: its last `info` line with a depth, the
    score (side to move's view; mates as +-3000), the best move and the
    wall-clock seconds from `go` to `bestmove`."""

    def __init__(self):
        self.depth = self.nodes = self.score = None
        self.bestmove = None
        self.seconds = 0.0


class Engine:
    def __init__(self, cmd, options=()):
        """Starts `cmd` (a list) and sends `setoption` for each (name, value)."""
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def ready(self):
        self.send("isready")
        while self.p.stdout.readline().strip() != "readyok":
            pass

    def go(self, position, limit):
        """`position POSITION` (e.g. `startpos moves e2e4`), then `go LIMIT`."""
        self.send("position " + position)
        self.ready()
        r = Result()
        t0 = time.time()
        self.send("go " + limit)
        for line in self.p.stdout:
            if line.startswith("info") and " depth " in line and " nodes " in line:
                tok = line.split()
                r.depth = int(tok[tok.index("depth") + 1])
                r.nodes = int(tok[tok.index("nodes") + 1])
                m = re.search(r"score (cp|mate) (-?\d+)", line)
                if m:
                    v = int(m.group(2))
                    r.score = v if m.group(1) == "cp" else (3000 if v > 0 else -3000)
            if line.startswith("bestmove"):
                r.bestmove = line.split()[1]
                break
        r.seconds = time.time() - t0
        return r

    def quit(self):
        self.send("quit")
        self.p.wait()


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    e = Engine([argv[1]], [("UCI_Variant", argv[2])])
    r = e.go("startpos moves " + " ".join(argv[4:]), f"depth {int(argv[3])}")
    e.quit()
    print(f"depth {r.depth} nodes {r.nodes} score {r.score} bestmove {r.bestmove}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
