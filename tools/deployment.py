#!/usr/bin/env python3
"""How well an engine deploys in Historia Ŝako, by Fairy-Stockfish's measure:
at plies 4, 7, ..., 19 of each game of the PGN files (the deployment's drops,
after the random opening plies), the engine chooses a drop with `go nodes N`
and Fairy-Stockfish searches the position before and after it to depth D;
the drop's loss is FSF's best value less its value after the drop. Prints
the mean loss in centipawns and how often the engine chose FSF's drop.

    python3 tools/deployment.py ENGINE NODES FAIRY_STOCKFISH HISTORIASAKO_INI DEPTH GAMES.pgn...
"""
import re
import subprocess
import sys


def start(cmd, options):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for o in options:
        p.stdin.write(o + "\n")
    p.stdin.write("isready\n")
    while not p.stdout.readline().startswith("readyok"):
        pass
    return p


def go(p, moves, limit):
    """(score from the side to move's view, best move) of `go LIMIT`."""
    p.stdin.write("position startpos moves " + " ".join(moves) + "\n" + f"go {limit}\n")
    score = None
    while True:
        line = p.stdout.readline()
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if m:
            v = int(m.group(2))
            score = v if m.group(1) == "cp" else (3000 if v > 0 else -3000)
        if line.startswith("bestmove"):
            return score, line.split()[1]


def games(path):
    for g in open(path).read().split("[Event ")[1:]:
        body = re.sub(r"\{[^}]*\}", "", g.split("\n\n", 1)[1])
        yield [t for t in body.split() if not re.match(r"^\d+\.$", t) and t not in ("1-0", "0-1", "1/2-1/2", "*")]


def main(argv):
    if len(argv) < 7:
        print(__doc__, file=sys.stderr)
        return 2
    engine, nodes, fsf, ini, depth, pgns = argv[1], int(argv[2]), argv[3], argv[4], int(argv[5]), argv[6:]
    f = start([fsf], [f"setoption name VariantPath value {ini}", "setoption name UCI_Variant value historiasako",
                      "setoption name Hash value 64"])
    e = start([engine], ["setoption name UCI_Variant value historia-sako", "setoption name Hash value 16"])
    losses, agree = [], 0
    for path in pgns:
        for moves in games(path):
            for ply in range(4, 20, 3):
                e.stdin.write("ucinewgame\n")
                _, drop = go(e, moves[:ply], f"nodes {nodes}")
                best, fsf_drop = go(f, moves[:ply], f"depth {depth}")
                after, _ = go(f, moves[:ply] + [drop], f"depth {depth}")
                losses.append(best + after)
                agree += drop == fsf_drop
    print(f"{engine}: {len(losses)} drops, mean loss {sum(losses) / len(losses):.1f} cp by FSF depth {depth}, "
          f"FSF's drop chosen {agree} times")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
