#!/usr/bin/env python3
"""Writes a synthetic feature file to test the pipeline: synth.py OUT.ft [N] [--seed S].

Chess-like features, F = 768 = colour (own/their) x 6 pieces x 64 squares, M = 32 slots,
score = material + a random piece-square table from the side to move's view (plus noise),
result drawn from sigmoid(score/400). A net should learn it well below the score baseline's loss
only in the sense that the target includes the result; the check is that losses fall.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnue_io  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int, nargs="?", default=50000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    n, m = a.n, 32
    val = np.array([100, 300, 320, 500, 900, 0])
    pst = rng.normal(0, 30, (6, 64)).round()
    feat = np.full((n, 2, m), nnue_io.NONE, np.uint16)
    sw = np.zeros(n)
    npieces = rng.integers(2, m + 1, n)
    for i in range(n):
        k = npieces[i]
        sq = rng.choice(64, k, replace=False)
        col = rng.integers(0, 2, k)
        pc = rng.integers(0, 6, k)
        feat[i, 0, :k] = col * 384 + pc * 64 + sq
        feat[i, 1, :k] = (1 - col) * 384 + pc * 64 + (sq ^ 56)
        rel = np.where(col == 0, sq, sq ^ 56)
        sw[i] = np.sum(np.where(col == 0, 1, -1) * (val[pc] + pst[pc, rel]))
    stm = rng.integers(0, 2, n).astype(np.uint8)
    sw += rng.normal(0, 20, n)
    p = 1 / (1 + np.exp(-sw / 400))
    u = rng.random(n)
    result = np.where(u < p * 0.8, 2, np.where(u < p * 0.8 + 0.2, 1, 0)).astype(np.uint8)
    score = np.clip(np.where(stm == 0, sw, -sw), -32000, 32000).round().astype(np.int16)
    nnue_io.write_ft(a.out, "synthetic", 768, stm, result, score, feat)
    print(f"wrote {a.out}: {n} positions, {int((np.abs(score.astype(int)) >= 3000).sum())} with |score| >= 3000")


if __name__ == "__main__":
    main()
