#!/usr/bin/env python3
"""Where an engine loses its games against Fairy-Stockfish in Historia Ŝako,
by Fairy-Stockfish's measure: the position at plies 0, 4, 20 (the
deployment's end), 30, 40, 60 and 80 of each game of the PGN files is scored
by Fairy-Stockfish to depth D, from the named player's view, and the mean
and median score at each of those plies are printed, over the games that
reach it.

    python3 tools/trajectory.py PLAYER FAIRY_STOCKFISH HISTORIASAKO_INI DEPTH GAMES.pgn...
"""
import statistics
import sys

from deployment import fsf_engine, position
from pgn import games

PLIES = (0, 4, 20, 30, 40, 60, 80)


def main(argv):
    if len(argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    player, fsf, ini, depth, pgns = argv[1], argv[2], argv[3], int(argv[4]), argv[5:]
    f = fsf_engine(fsf, ini)
    at = {p: [] for p in PLIES}
    for path in pgns:
        for tags, moves in games(path):
            sign = 1 if tags.get("White") == player else -1
            for ply in PLIES:
                if ply <= len(moves):
                    score = f.go(position(moves[:ply]), f"depth {depth}").score or 0
                    at[ply].append(sign * score * (1 if ply % 2 == 0 else -1))
    for ply, v in at.items():
        if v:
            print(f"ply {ply}: {len(v)} games, {player}'s score by FSF depth {depth}: "
                  f"mean {statistics.mean(v):.0f}, median {statistics.median(v):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
