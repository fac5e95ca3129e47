#!/usr/bin/env python3
"""Time- and nodes-to-depth of calvin and Fairy-Stockfish on the same positions
(one thread, Hash 64), as a Markdown table:

    python3 tools/ttd.py target/release/calvin FAIRY_STOCKFISH HISTORIASAKO_INI
"""
import subprocess, sys, time
def run(cmd, opts, pos, depth):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    send("uci")
    for k, v in opts: send(f"setoption name {k} value {v}")
    send("isready")
    while p.stdout.readline().strip() != "readyok": pass
    send(pos); send("isready")
    while p.stdout.readline().strip() != "readyok": pass
    t0 = time.time(); send(f"go depth {depth}")
    last = None
    for line in p.stdout:
        if line.startswith("info") and " depth " in line and " nodes " in line: last = line
        if line.startswith("bestmove"): break
    el = time.time() - t0
    send("quit"); p.wait()
    tok = last.split()
    nodes = int(tok[tok.index("nodes") + 1]); d = int(tok[tok.index("depth") + 1])
    return d, nodes, el
H = "K@e2 R@f8 Q@g2 E@e8 R@c1 N@d7 E@f2 B@b7 E@h2 N@c7 R@f1 K@g8 B@b1 B@h8 N@d1 E@c8 B@a1 Q@b8 N@e1 R@d8"
CASES = [
 ("historia mid", "historia-sako", "historiasako", "position startpos moves " + H, 18),
 ("historia mid+6", "historia-sako", "historiasako", "position startpos moves " + H + " e3e4 e7e6 d2d3 h7h6 f3f4 d6d5", 18),
 ("chess start", "chess", "chess", "position startpos", 18),
 ("kiwipete", "chess", "chess", "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 15),
 ("italian", "chess", "chess", "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 15),
]
calvin, fsf, ini = sys.argv[1], sys.argv[2], sys.argv[3]
print("| position | depth | calvin nodes | calvin s | FSF nodes | FSF s |")
print("|---|---|---|---|---|---|")
for name, cv, fv, pos, depth in CASES:
    a = run([calvin], [("Hash", 64), ("Threads", 1), ("UCI_Variant", cv)], pos, depth)
    b = run([fsf], [("Hash", 64), ("Threads", 1), ("VariantPath", ini), ("UCI_Variant", fv)], pos, depth)
    print(f"| {name} | {depth} | {a[1]} | {a[2]:.2f} | {b[1]} | {b[2]:.2f} |", flush=True)
