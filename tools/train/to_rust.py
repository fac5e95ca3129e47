#!/usr/bin/env python3
"""Turns a texel.py fit made with --engine (corrections to the engine's
evaluation) into a Rust table: for each piece type in the engine's order,
the material correction plus the piece-square correction of every square,
seen from the piece's own side (rank 0 its back rank), index rank * files + file.

    python3 tools/train/to_rust.py runs/train/chess.json PNBRQK > table.rs

A variant's `Evaluator::pst` can add `TUNED[t - 1][rel]` to its value (an
experiment: shipped weights change only with a match that shows a gain).
"""

import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        w = json.load(f)
    if not w.get("on_top_of_engine_eval"):
        print("the fit was not made with --engine: its values are not corrections", file=sys.stderr)
        return 2
    ranks, files = w["board"]["ranks"], w["board"]["files"]
    order = argv[2]
    print(f"// {w['variant']}: texel.py on {w['positions']} positions, K {w['K']}, "
          f"held-out MSE {w['test_mse']}")
    print(f"pub const TUNED: [[i32; {ranks * files}]; {len(order)}] = [")
    for letter in order:
        t = letter.lower()
        m = w["material"].get(t, 0)
        table = w["pst"].get(t, [[0] * files for _ in range(ranks)])
        values = [m + v for row in table for v in row]
        print(f"    // {letter}: material {m:+}")
        print("    [" + ", ".join(str(v) for v in values) + "],")
    print("];")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
