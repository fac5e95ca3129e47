#!/usr/bin/env python3
"""Time- and nodes-to-depth of calvin and Fairy-Stockfish on the same positions
(one thread, Hash 64), as a Markdown table:

    python3 tools/ttd.py target/release/calvin FAIRY_STOCKFISH HISTORIASAKO_INI

The table's rows are single positions, and one position's count moves by a
third with any change to the search; its last row sums 40 chess
middlegames from games against Fairy-Stockfish (`data/ttd-chess-middlegames.fens`:
a random ply from 16 to 70, not in check, at least 10 legal moves), each
searched to depth 15 from an empty table, and gives the geometric mean of
calvin's nodes over Fairy-Stockfish's and the positions where calvin needs
more.
"""
import math
import os
import sys

from uci import Engine


def run(cmd, opts, pos, depth):
    """(depth, nodes, seconds) of `go depth DEPTH` at `pos`."""
    e = Engine(cmd, opts)
    r = e.go(pos, f"depth {depth}")
    e.quit()
    return r.depth, r.nodes, r.seconds


H = "K@e2 R@f8 Q@g2 E@e8 R@c1 N@d7 E@f2 B@b7 E@h2 N@c7 R@f1 K@g8 B@b1 B@h8 N@d1 E@c8 B@a1 Q@b8 N@e1 R@d8"
CASES = [
 ("historia mid", "historia-sako", "historiasako", "startpos moves " + H, 18),
 ("historia mid+6", "historia-sako", "historiasako", "startpos moves " + H + " e3e4 e7e6 d2d3 h7h6 f3f4 d6d5", 18),
 ("chess start", "chess", "chess", "startpos", 18),
 ("kiwipete", "chess", "chess", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 15),
 ("italian", "chess", "chess", "fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 15),
]
calvin, fsf, ini = sys.argv[1], sys.argv[2], sys.argv[3]
print("| position | depth | calvin nodes | calvin s | FSF nodes | FSF s |")
print("|---|---|---|---|---|---|")
for name, cv, fv, pos, depth in CASES:
    a = run([calvin], [("Hash", 64), ("Threads", 1), ("UCI_Variant", cv)], pos, depth)
    b = run([fsf], [("Hash", 64), ("Threads", 1), ("VariantPath", ini), ("UCI_Variant", fv)], pos, depth)
    print(f"| {name} | {depth} | {a[1]} | {a[2]:.2f} | {b[1]} | {b[2]:.2f} |", flush=True)

WIDE_DEPTH = 15
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ttd-chess-middlegames.fens")) as f:
    fens = [line.strip() for line in f if line.strip()]
ours = [run([calvin], [("Hash", 64), ("Threads", 1)], "fen " + fen, WIDE_DEPTH) for fen in fens]
theirs = [run([fsf], [("Hash", 64), ("Threads", 1)], "fen " + fen, WIDE_DEPTH) for fen in fens]
ratios = [a[1] / b[1] for a, b in zip(ours, theirs)]
mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
print(f"| {len(fens)} chess middlegames, summed (nodes: geometric mean {mean:.2f}x FSF's, more in "
      f"{sum(r > 1 for r in ratios)}) | {WIDE_DEPTH} | {sum(a[1] for a in ours)} | {sum(a[2] for a in ours):.2f} "
      f"| {sum(b[1] for b in theirs)} | {sum(b[2] for b in theirs):.2f} |", flush=True)
