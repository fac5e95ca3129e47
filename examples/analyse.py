#!/usr/bin/env python3
"""Analyse a position of any calvin variant over a plain UCI pipe.

python-chess drives calvin for chess, but it refuses to set UCI_Variant and
cannot hold drops, so for the other games talk to the engine directly:

    python3 examples/analyse.py [ENGINE] [VARIANT] [DEPTH] [MOVE ...]

e.g. `python3 examples/analyse.py target/release/calvin ita 6 e2e3 e9e8`.
Prints the last `info` line with a score and the best move.
"""
import subprocess
import sys


def analyse(engine, variant, depth, moves, timeout=60):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        def send(line):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

        def read_until(prefix):
            for line in proc.stdout:
                line = line.strip()
                yield line
                if line.startswith(prefix):
                    return
            raise RuntimeError("engine closed its output before " + prefix)

        send("uci")
        for _ in read_until("uciok"):
            pass
        send("setoption name UCI_Variant value " + variant)
        send("isready")
        for line in read_until("readyok"):
            if line.startswith("info string error"):
                raise RuntimeError(line)
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go depth %d" % depth)
        last_info = ""
        for line in read_until("bestmove"):
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if line.startswith("info") and " score " in line:
                last_info = line
            best = line
        send("quit")
        proc.wait(timeout=timeout)
        return last_info, best.split()[1]
    finally:
        if proc.poll() is None:
            proc.kill()


def main():
    args = sys.argv[1:]
    engine = args[0] if args else "target/release/calvin"
    variant = args[1] if len(args) > 1 else "ita"
    depth = int(args[2]) if len(args) > 2 else 6
    info, best = analyse(engine, variant, depth, args[3:])
    print(info)
    print("bestmove", best)


if __name__ == "__main__":
    main()
