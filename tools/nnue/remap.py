#!/usr/bin/env python3
"""Writes a chess feature file (calvin datagen features) in an IAGO class's layout.

    remap.py CHESS.ft OUT.ft iago-b|iago-c

A chess position is an IAGO position without Marshall, Cardinal or reserve:
IAGO's piece types 1-6 are FIDE's in FIDE's order, so a chess feature
`(rel * 6 + t - 1) * 64 + s` is IAGO's `(rel * 8 + t - 1) * 64 + s` (hand
features likewise, after the board's), the slots padded to IAGO's 36.
The chess family's shared feature space: docs/nnue.md.
"""
import sys

import numpy as np

import nnue_io

CHESS_TYPES, IAGO_TYPES, SQUARES, IAGO_SLOTS = 6, 8, 64, 36
NONE, HAND_CAP = nnue_io.NONE, nnue_io.HAND_CAP


def table():
    """Chess feature index -> IAGO feature index (NONE stays NONE)."""
    t = np.full(NONE + 1, NONE, dtype=np.uint16)
    for rel in range(2):
        for p in range(CHESS_TYPES):
            for s in range(SQUARES):
                t[(rel * CHESS_TYPES + p) * SQUARES + s] = (rel * IAGO_TYPES + p) * SQUARES + s
            for i in range(HAND_CAP):
                t[2 * CHESS_TYPES * SQUARES + (rel * CHESS_TYPES + p) * HAND_CAP + i] = (
                    2 * IAGO_TYPES * SQUARES + (rel * IAGO_TYPES + p) * HAND_CAP + i
                )
    return t


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("iago-b", "iago-c"):
        raise SystemExit(__doc__)
    src, dst, variant = sys.argv[1:]
    name, nf, m, rec = nnue_io.open_ft(src)
    if (name, nf) != ("chess", 2 * CHESS_TYPES * (SQUARES + HAND_CAP)):
        raise SystemExit(f"{src}: a {name} file with {nf} features, not chess's")
    feat = table()[np.asarray(rec["feat"])]
    pad = np.full((feat.shape[0], 2, IAGO_SLOTS - m), NONE, dtype=np.uint16)
    nnue_io.write_ft(
        dst, variant, 2 * IAGO_TYPES * (SQUARES + HAND_CAP), rec["stm"], rec["result"], rec["score"],
        np.concatenate([feat, pad], axis=2),
    )
    print(f"{dst}: {feat.shape[0]} positions of {src} as {variant}")


if __name__ == "__main__":
    main()
