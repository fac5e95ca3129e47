#!/usr/bin/env python3
"""Lazy SMP: time to a fixed depth with 1 and with 2 threads (Hash 64) on
positions of several variants, each the median of R runs, as a Markdown
table with the speed-up and its median over the positions:

    python3 tools/smp.py target/release/calvin [RUNS]

Run it on an idle machine: two threads need two free cores.
"""
import statistics
import sys

from uci import Engine

H = "K@e2 R@f8 Q@g2 E@e8 R@c1 N@d7 E@f2 B@b7 E@h2 N@c7 R@f1 K@g8 B@b1 B@h8 N@d1 E@c8 B@a1 Q@b8 N@e1 R@d8"
CASES = [
    ("chess 1.e4 e5 2.Nf3 Nc6", "chess", "startpos moves e2e4 e7e5 g1f3 b8c6", 18),
    ("Kiwipete", "chess", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 14),
    ("Italian (issue 15)", "chess", "fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 15),
    ("Historia middlegame", "historia-sako", "startpos moves " + H, 15),
    ("Historia middlegame +6", "historia-sako", "startpos moves " + H + " e3e4 e7e6 d2d3 h7h6 f3f4 d6d5", 16),
    ("Ita", "ita", "fen b3ff1s1b/c1l6l/2r4c2/1prs6/1Lpp2pp1p/6P3/P2P3P1P/2CPS1RC2/3RSF1L2/B3F4B w e1ac,f2ac,e10ac,f10ac - 20 11", 11),
    ("Etcetera", "etcetera", "fen 1er1r2/g1pkpgp/p2m3/3G1m1/3e3/5E1/PPK1PPP/1ER1R1G w - - 0 11", 17),
    ("IAGO B", "iago-b", "startpos moves e2e4 e7e5 g1f3 b8c6", 14),
]


def run(engine, variant, pos, depth, threads):
    """Seconds from `go depth DEPTH` to `bestmove` at `pos`."""
    e = Engine([engine], (("Hash", 64), ("Threads", threads), ("UCI_Variant", variant)))
    r = e.go(pos, f"depth {depth}")
    e.quit()
    return r.seconds


def main():
    engine = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("| position | depth | 1 thread s | 2 threads s | speed-up |")
    print("|---|---|---|---|---|")
    ups = []
    for name, variant, pos, depth in CASES:
        one = statistics.median(run(engine, variant, pos, depth, 1) for _ in range(runs))
        two = statistics.median(run(engine, variant, pos, depth, 2) for _ in range(runs))
        ups.append(one / two)
        print(f"| {name} | {depth} | {one:.2f} | {two:.2f} | {one / two:.2f}x |", flush=True)
    print(f"\nmedian speed-up: {statistics.median(ups):.2f}x over {len(ups)} positions, {runs} runs each")


if __name__ == "__main__":
    main()
