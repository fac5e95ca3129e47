#!/usr/bin/env python3
"""A reference of the engine's network inference for the 8x8 chess family, in plain Python
(no numpy, no torch): features read from a FEN, integer inference, both activations.

    reference.py                       the table the engine's test asserts (src/eval/nnue.rs)
    reference.py NET VARIANT FEN ...   a net file's integer evaluation of each FEN

The fixed random network is the one of the engine's tests (`random_net`): a 64-bit LCG,
x = x * 6364136223846793005 + 1442695040888963407, r = x >> 33; in file order the feature
weights and biases are r % 128 - 64, the output weights r % 64 - 32, the output bias
(r % 64 - 32) * QA (with output buckets: every bucket's output weights, then every bucket's
bias). Its output must equal the engine's integer output exactly.

Features (docs/nnue.md): seen from side p, a piece of type t (from 1, in the variant's order)
of side rel (0 own, 1 other) on square s is (rel*T + t-1)*64 + s', s' the square with ranks
counted from p's side; the i-th piece of a type in hand (i < min(count, 8)) is
2*T*64 + (rel*T + t-1)*8 + i.
Inference: acc = bias + rows (i16, wrapping); v = clamp(acc, 0, QA);
CReLU:  eval = trunc((v_us . w_us + v_them . w_them + b) * 400 / (QA*QB)),        QB = 1024
SCReLU: eval = trunc((v_us^2 . w_us + v_them^2 . w_them + b*QA) * 400 / (QA*QA*QB)), QB = 64
With output buckets (version 4), w and b are the bucket's: min(buckets - 1, (n - 1) // divisor),
n the pieces on the board.
"""

import os
import struct
import sys

QA, SCALE, HAND_CAP = 255, 400, 8
QB = {0: 1024, 1: 64}  # by activation: 0 clipped ReLU, 1 squared clipped ReLU
LETTERS = {"chess": "PNBRQK", "iago-b": "PNBRQKMC", "iago-c": "PNBRQKMC", "iago-b+a": "PNBRQKMCA"}

# (variant, FEN): the positions of the engine's test, the side to move's view.
POSITIONS = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"),
    ("chess", "8/P5k1/8/8/8/8/5Kp1/8 b - - 0 1"),
    ("iago-b", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc] w KQBCDFGkqbcdfg - 0 1"),
    ("iago-b", "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/RMBQKB1R[Cmc] b - - 5 4"),
    ("iago-c", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[QMCqmc] w KQBCDFGkqbcdfg - 0 1"),
    ("iago-c", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[MCmc] b - - 0 3"),
]
HIDDEN = 256


def features(variant, fen, persp):
    letters = LETTERS[variant]
    t_count = len(letters)
    board = fen.split()[0]
    hand = ""
    if "[" in board:
        board, hand = board[:-1].split("[")
    out = []
    for i, row in enumerate(board.split("/")):
        rank = 7 - i
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
                continue
            color = 0 if c.isupper() else 1
            t = letters.index(c.upper()) + 1
            rel = int(color != persp)
            s = (rank if persp == 0 else 7 - rank) * 8 + file
            out.append((rel * t_count + t - 1) * 64 + s)
            file += 1
    counts = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    for c, k in counts.items():
        color = 0 if c.isupper() else 1
        t = letters.index(c.upper()) + 1
        rel = int(color != persp)
        for i in range(min(k, HAND_CAP)):
            out.append(2 * t_count * 64 + (rel * t_count + t - 1) * HAND_CAP + i)
    return out


def random_net(nf, h, activation, buckets=1, divisor=1):
    """The engine tests' random_net: file order, feature weights, biases, output weights, biases."""
    x = 0x2545F4914F6CDD1D
    vals = []
    ft = nf * h
    for i in range(nf * h + h + buckets * (2 * h + 1)):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        r = x >> 33
        vals.append(r % 128 - 64 if i < ft + h else r % 64 - 32)
    out = ft + h + buckets * 2 * h
    return dict(F=nf, H=h, act=activation, buckets=buckets, divisor=divisor, ft_w=vals[:ft],
                ft_b=vals[ft : ft + h], out_w=vals[ft + h : out], out_b=[b * QA for b in vals[out:]])


def read_net(path):
    """A CALVINNN file (versions 1 to 4) as lists of ints."""
    data = open(path, "rb").read()
    if data[:8] != b"CALVINNN":
        raise SystemExit(f"{path}: not a net file")
    version, n = struct.unpack_from("<HB", data, 8)
    p = 11 + n
    nf, h = struct.unpack_from("<II", data, p)
    p += 8
    kind = act = 0
    if version >= 2:
        kind = data[p]
        p += 1
    if version >= 3:
        act = data[p]
        p += 1
    buckets = divisor = 1
    if version >= 4:
        buckets, divisor = data[p], data[p + 1]
        p += 2
    if kind != 0:
        raise SystemExit(f"{path}: a network on top of the formula (the formula is not in this reference)")
    w = struct.unpack_from(f"<{nf * h + h + buckets * 2 * h}h", data, p)
    b = struct.unpack_from(f"<{buckets}i", data, p + 2 * len(w))
    return dict(F=nf, H=h, act=act, buckets=buckets, divisor=divisor, ft_w=list(w[: nf * h]),
                ft_b=list(w[nf * h : nf * h + h]), out_w=list(w[nf * h + h :]), out_b=list(b))


def wrap16(x):
    return (x + 32768) % 65536 - 32768


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def evaluate(net, variant, fen):
    h = net["H"]
    side = 0 if fen.split()[1] == "w" else 1
    acc = []
    on_board = sum(1 for f in features(variant, fen, 0) if f < 2 * len(LETTERS[variant]) * 64)
    bucket = min(net["buckets"] - 1, max(on_board - 1, 0) // net["divisor"])
    for persp in range(2):
        a = list(net["ft_b"])
        for f in features(variant, fen, persp):
            if f >= net["F"]:
                raise SystemExit(f"feature {f} >= F {net['F']}")
            row = net["ft_w"][f * h : (f + 1) * h]
            a = [wrap16(x + r) for x, r in zip(a, row)]
        acc.append(a)
    us, them = acc[side], acc[1 - side]
    w = net["out_w"][bucket * 2 * h : (bucket + 1) * 2 * h]
    w_us, w_them, b = w[:h], w[h:], net["out_b"][bucket]
    qb = QB[net["act"]]
    v = [min(max(x, 0), QA) for x in us]
    u = [min(max(x, 0), QA) for x in them]
    if net["act"] == 0:
        s = sum(a * w for a, w in zip(v, w_us)) + sum(a * w for a, w in zip(u, w_them)) + b
        return trunc_div(s * SCALE, QA * qb)
    s = sum(a * a * w for a, w in zip(v, w_us)) + sum(a * a * w for a, w in zip(u, w_them)) + b * QA
    return trunc_div(s * SCALE, QA * QA * qb)


def feature_count(variant):
    t = len(LETTERS[variant])
    return 2 * t * 64 + 2 * t * HAND_CAP


def main():
    if len(sys.argv) >= 4:
        net = read_net(sys.argv[1])
        for fen in sys.argv[3:]:
            print(evaluate(net, sys.argv[2], fen), fen)
        return
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    nets = {}
    for name, act, buckets, divisor in (("crelu", 0, 1, 1), ("screlu", 1, 1, 1), ("screlu, 4 buckets of 8", 1, 4, 8)):
        row = []
        for variant, fen in POSITIONS:
            key = (variant, act, buckets)
            if key not in nets:
                nets[key] = random_net(feature_count(variant), HIDDEN, act, buckets, divisor)
            row.append(evaluate(nets[key], variant, fen))
        print(name, row)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)
