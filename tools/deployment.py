#!/usr/bin/env python3
"""How well an engine deploys in Historia Ŝako, by Fairy-Stockfish's measure:
at plies 4, 7, ..., 19 of each game of the PGN files (the deployment's drops,
after the random opening plies), the engine chooses a drop with `go nodes N`
and Fairy-Stockfish searches the position before and after it to depth D;
the drop's loss is FSF's best value less its value after the drop. Prints
the mean loss in centipawns and how often the engine chose FSF's drop.

    python3 tools/deployment.py ENGINE NODES FAIRY_STOCKFISH HISTORIASAKO_INI DEPTH GAMES.pgn...
"""
import sys

from pgn import games
from uci import Engine


def fsf_engine(fsf, ini):
    """Fairy-Stockfish playing Historia Ŝako by the anchor's definition."""
    return Engine([fsf], [("VariantPath", ini), ("UCI_Variant", "historiasako"), ("Hash", 64)])


def position(moves):
    return "startpos moves " + " ".join(moves)


def main(argv):
    if len(argv) < 7:
        print(__doc__, file=sys.stderr)
        return 2
    engine, nodes, fsf, ini, depth, pgns = argv[1], int(argv[2]), argv[3], argv[4], int(argv[5]), argv[6:]
    f = fsf_engine(fsf, ini)
    e = Engine([engine], [("UCI_Variant", "historia-sako"), ("Hash", 16)])
    losses, agree = [], 0
    for path in pgns:
        for _, moves in games(path):
            for ply in range(4, 20, 3):
                e.send("ucinewgame")
                drop = e.go(position(moves[:ply]), f"nodes {nodes}").bestmove
                best = f.go(position(moves[:ply]), f"depth {depth}")
                after = f.go(position(moves[:ply] + [drop]), f"depth {depth}")
                losses.append(best.score + after.score)
                fsf_drop = best.bestmove
                agree += drop == fsf_drop
    print(f"{engine}: {len(losses)} drops, mean loss {sum(losses) / len(losses):.1f} cp by FSF depth {depth}, "
          f"FSF's drop chosen {agree} times")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
