#!/usr/bin/env python3
"""Prints the term weights of a texel.py fit made with --terms as a Rust
`EvalWeights` literal (src/eval/terms.rs), rounded to whole centipawns,
for a variant's `Evaluator::EVAL_WEIGHTS` (an experiment: shipped weights
change only with a match that shows a gain).

    python3 tools/train/eval_weights.py runs/train/historia-sako.json [--terms-only]

`--terms-only` prints the fit of the term weights alone (no material or
piece-square corrections), which fits the engine's tables as they are.
"""

import json
import sys

# EvalWeights' fields in order, with the columns (docs/datagen.md) they weigh.
FIELDS = [
    ("tempo", ["tempo"]),
    ("mobility", ["mobility"]),
    ("doubled", ["doubled"]),
    ("isolated", ["isolated"]),
    ("passed", [f"passed{r}" for r in range(8)]),
    ("shield_near", ["shield_near"]),
    ("shield_far", ["shield_far"]),
    ("shield_none", ["shield_none"]),
    ("king_file_semi_open", ["king_file_semi_open"]),
    ("king_file_open", ["king_file_open"]),
    ("danger_per_unit2", ["danger_units2"]),
    ("danger_max", ["danger_capped"]),
    ("threat_by_lesser", ["threat_by_lesser"]),
    ("hanging", ["hanging"]),
    ("king_center", ["king_center"]),
    ("trapped", ["trapped"]),
]


def literal(terms):
    """The `EvalWeights { ... }` text of the weights by column name."""
    lines = ["EvalWeights {"]
    for field, columns in FIELDS:
        values = [str(round(terms[c])) for c in columns]
        value = values[0] if len(values) == 1 else "[" + ", ".join(values) + "]"
        lines.append(f"    {field}: {value},")
    lines.append("}")
    return "\n".join(lines)


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != "--terms-only"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        w = json.load(f)
    key = "terms_only_fit" if len(argv) == 3 else "terms"
    if key not in w:
        print("the fit was not made with --terms: it has no term weights", file=sys.stderr)
        return 2
    print(f"// {w['variant']}: texel.py --terms on {w['positions']} positions, K {w['K']}, "
          f"held-out MSE {w['test_mse']}")
    print(literal(w[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
