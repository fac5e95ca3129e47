#!/usr/bin/env python3
"""Integer inference of a calvin net on the first K positions of a feature file.

    check.py NET FEATURES [K]      (K default 20; 0 = all)

Prints one line per position, "stm score eval_cp", where eval_cp is the engine's integer
formula (side to move's view):
    acc = ft_bias + sum of ft_weights rows              (exact integers)
    a   = clamp(acc, 0, QA)
    sum = a_us . out_w[0..H] + a_them . out_w[H..2H] + out_bias
    eval_cp = sum * 400 / (QA * QB)                     (integer division, truncated toward 0 as Rust's /)
(SCReLU nets, version 3: sum = a_us^2 . out_w[0..H] + a_them^2 . out_w[H..2H] + out_bias * QA,
eval_cp = sum * 400 / (QA * QA * 64)); with output buckets (version 4) out_w and out_bias are
the position's bucket's (by the pieces on its board, nnue_io.bucket_of),
then a summary ('#' lines): the mean absolute difference between eval_cp and 400 * out of
(1) the dequantized net (float maths on the net's integers / QA, QB: only the final truncation
differs, so this checks the integer formula) and (2) the float model of NET.ckpt when it exists
(needs torch; this is the quantization error), and warnings if an accumulator
leaves the i16 range or sum * 400 leaves the i32 range.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnue_io  # noqa: E402
from nnue_io import QA, SCALE, SCRELU  # noqa: E402


def buckets_of(net, feat):
    """The output bucket of each position (feat [K, 2, M])."""
    counts = nnue_io.board_counts(net["variant"], net["F"], feat)
    return nnue_io.bucket_of(counts, net["buckets"], net["divisor"])


def integer_eval(net, feat, stm):
    """feat [K, 2, M] u16, stm [K] -> (eval_cp [K] int64, sum [K] int64, accumulators [K,2,H] int64)."""
    nf, h = net["F"], net["H"]
    w = np.zeros((nf + 1, h), np.int64)
    w[:nf] = net["ft_w"]
    f = feat.astype(np.int64)
    f[f == nnue_io.NONE] = nf
    acc = w[f].sum(axis=2) + net["ft_b"].astype(np.int64)  # [K, 2, H]
    black = stm == 1
    us = np.where(black[:, None], acc[:, 1], acc[:, 0])
    them = np.where(black[:, None], acc[:, 0], acc[:, 1])
    bucket = buckets_of(net, feat)
    ow = net["out_w"].astype(np.int64)[bucket]  # [K, 2H]
    ob = net["out_b"][bucket]
    qb = nnue_io.qb(net["activation"])
    v, u = np.clip(us, 0, QA), np.clip(them, 0, QA)
    if net["activation"] == SCRELU:
        s = (v * v * ow[:, :h]).sum(1) + (u * u * ow[:, h:]).sum(1) + ob * QA
        div = QA * QA * qb
    else:
        s = (v * ow[:, :h]).sum(1) + (u * ow[:, h:]).sum(1) + ob
        div = QA * qb
    num = s * SCALE
    cp = np.sign(num) * (np.abs(num) // div)  # truncation toward zero
    return cp, s, acc


def float_eval(W, b1, w2, b2, feat, stm, bucket, screlu=False):
    """w2 [buckets, 2H], b2 [buckets]; bucket [K] each position's."""
    return np.concatenate([float_eval1(W, b1, w2, b2, feat[i : i + 4096], stm[i : i + 4096],
                                       bucket[i : i + 4096], screlu)
                           for i in range(0, len(stm), 4096)])


def float_eval1(W, b1, w2, b2, feat, stm, bucket, screlu=False):
    nf, h = W.shape
    w = np.zeros((nf + 1, h), np.float64)
    w[:nf] = W
    f = feat.astype(np.int64)
    f[f == nnue_io.NONE] = nf
    acc = w[f].sum(axis=2) + b1
    black = stm == 1
    us = np.where(black[:, None], acc[:, 1], acc[:, 0])
    them = np.where(black[:, None], acc[:, 0], acc[:, 1])
    p = 2 if screlu else 1
    w = np.asarray(w2).reshape(-1, 2 * h)[bucket]
    b = np.asarray(b2).reshape(-1)[bucket]
    out = (np.clip(us, 0, 1) ** p * w[:, :h]).sum(1) + (np.clip(them, 0, 1) ** p * w[:, h:]).sum(1) + b
    return out * SCALE


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    net_path, ft_path = sys.argv[1], sys.argv[2]
    k = int(sys.argv[3]) if len(sys.argv) == 4 else 20
    net = nnue_io.read_net(net_path)
    variant, nf, m, rec = nnue_io.open_ft(ft_path)
    if (variant, nf) != (net["variant"], net["F"]):
        sys.exit(f"net is {net['variant']} F {net['F']}, features are {variant} F {nf}")
    if k <= 0 or k > len(rec):
        k = len(rec)
    rec = np.asarray(rec[:k])
    feat, stm, score = rec["feat"], rec["stm"], rec["score"]
    cps, ss, amin, amax = [], [], 0, 0
    for i in range(0, k, 4096):  # chunks: [chunk, 2, M, H] int64 temporaries
        c, t, acc = integer_eval(net, feat[i : i + 4096], stm[i : i + 4096])
        cps.append(c)
        ss.append(t)
        amin, amax = min(amin, int(acc.min())), max(amax, int(acc.max()))
    cp, s = np.concatenate(cps), np.concatenate(ss)
    for i in range(k):
        print(f"{stm[i]} {score[i]} {cp[i]}")

    # the dequantized net in float maths: differs from eval_cp only by the final truncation (< 1 cp),
    # which checks the integer formula
    screlu = net["activation"] == SCRELU
    bucket = buckets_of(net, feat)
    dq = float_eval(*nnue_io.dequantize(net), feat, stm, bucket, screlu)
    d = np.abs(cp - dq)
    print(f"# {k} positions; mean |eval_cp - dequantized float| = {d.mean():.3f} cp, max {d.max():.3f} cp")
    ckpt = net_path + ".ckpt"
    if os.path.exists(ckpt):
        import torch

        ck = torch.load(ckpt, weights_only=False, map_location="cpu")
        sd = ck["model"]
        Wall = sd["W"].double().numpy()
        W = Wall[:nf].copy()
        if ck.get("V", 0):  # factorisers: their rows are added into the real ones (train.py float_weights)
            _, table = nnue_io.factors(net["variant"], nf)
            for j in range(3):
                v = table[:nf, j]
                has = v != nnue_io.NONE
                W[has] += Wall[v[has].astype(np.int64)]
            W = np.clip(W, -1.98, 1.98)
        b1 = sd["b1"].double().numpy()
        w2 = sd["out.weight"].double().numpy()
        b2 = sd["out.bias"].double().numpy()
        fl = float_eval(W, b1, w2, b2, feat, stm, bucket, screlu)
        d = np.abs(cp - fl)
        print(f"# mean |eval_cp - float model ({ckpt})| = {d.mean():.3f} cp, max {d.max():.3f} cp")
    else:
        print(f"# no {ckpt}: no float model to compare with")
    print(f"# mean |eval_cp - score| = {np.abs(cp - score).mean():.1f} cp")
    if amin < -32768 or amax > 32767:
        print(f"# WARNING: accumulator outside i16: [{amin}, {amax}]")
    if not screlu and np.abs(s * SCALE).max() > 2**31 - 1:
        print(f"# WARNING: sum * 400 outside i32 (max |sum| {np.abs(s).max()}): use i64 or divide first")


if __name__ == "__main__":
    main()
