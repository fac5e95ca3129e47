#!/usr/bin/env python3
"""The UCI client the Python tools share (ttd.py, smp.py, deployment.py,
trajectory.py, train/relabel.py): start an engine with options, set a
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
        self.mate = None  # the mate distance when the last score was a mate
        self.cp = None  # the last score in centipawns, None when it was a mate
        self.bestmove = None
        self.seconds = 0.0


class Engine:
    def __init__(self, cmd, options=(), stderr=None):
        """Starts `cmd` (a list, or a shell command line as a string) and sends
        `setoption` for each (name, value)."""
        self.p = subprocess.Popen(cmd, shell=isinstance(cmd, str), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except OSError as e:  # a closed pipe: the engine is gone
            raise RuntimeError("the engine stopped") from e

    def readline(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("the engine stopped")
        return line

    def wait(self, word):
        """Reads up to the line that is `word` (or starts with it and a space)."""
        while True:
            line = self.readline().strip()
            if line == word or line.startswith(word + " "):
                return line

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def go(self, position, limit):
        """`position POSITION` (e.g. `startpos moves e2e4`), then `go LIMIT`."""
        self.send("position " + position)
        self.ready()
        r = Result()
        t0 = time.time()
        self.send("go " + limit)
        while True:
            line = self.readline()
            m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
            if line.startswith("info") and m:
                v = int(m.group(2))
                r.mate, r.cp = (v, None) if m.group(1) == "mate" else (None, v)
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
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


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
