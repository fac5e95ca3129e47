#!/usr/bin/env python3
"""Turns a texel.py fit made with --engine (corrections to the engine's
evaluation) into a weights file (docs/weights.md) that the engine includes
as a variant's built-in weights or loads with the option EvalFile.

    python3 tools/train/to_weights.py W.json VARIANT LETTERS OUT [--description TEXT]

VARIANT is the engine's variant name (UCI_Variant: chess, historia-sako, ...).
LETTERS are the variant's piece letters in the engine's order (its piece
types 1, 2, ...): one character each ("PNBRQK", "KQRBNEP"), or separated by
commas where a letter has more than one character ("K,P,T,C,H,G,S,+P,+T,+C").
The types given must be the variant's first types, in order; types the fit
has no value for get 0. The description defaults to the fit's summary.
Standard library only.
"""

import json
import struct
import sys

MAGIC = b"CALVINWT"
VERSION = 1


def letters_of(text):
    if "," in text or " " in text:
        return [l for l in text.replace(" ", ",").split(",") if l]
    return list(text)


def i16(v, what):
    v = int(round(v))
    if not -32768 <= v <= 32767:
        raise ValueError(f"{what} = {v} does not fit in 16 bits")
    return struct.pack("<h", v)


def text(s, length_format):
    b = s.encode("utf-8")
    limit = 255 if length_format == "<B" else 65535
    if len(b) > limit:
        raise ValueError(f"text longer than {limit} bytes: {s[:40]}...")
    return struct.pack(length_format, len(b)) + b


def describe(w):
    return f"texel.py on {w['positions']} positions, K {w['K']}, held-out MSE {w['test_mse'].get('full fit')}"


def weights_bytes(w, variant, letters, description):
    """The file's bytes for fit `w` (a texel.py JSON)."""
    ranks, files = w["board"]["ranks"], w["board"]["files"]
    out = MAGIC + struct.pack("<H", VERSION) + text(variant, "<B") + text(description, "<H")
    out += struct.pack("<BBB", files, ranks, len(letters))
    for letter in letters:
        t = letter.lower()
        table = w["pst"].get(t, [[0] * files for _ in range(ranks)])
        if len(table) != ranks or any(len(row) != files for row in table):
            raise ValueError(f"piece {letter}: the table is not {ranks}x{files}")
        out += text(letter, "<B")
        out += i16(w["material"].get(t, 0), f"material {letter}")
        out += i16(w.get("hand", {}).get(t, 0), f"hand {letter}")
        for r, row in enumerate(table):
            for f, v in enumerate(row):
                out += i16(v, f"{letter} rank {r} file {f}")
    return out


def main(argv):
    args = argv[1:]
    description = None
    if "--description" in args:
        i = args.index("--description")
        if i + 1 >= len(args):
            print(__doc__, file=sys.stderr)
            return 2
        description = args[i + 1]
        del args[i : i + 2]
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    path, variant, letters, out = args
    with open(path) as f:
        w = json.load(f)
    if not w.get("on_top_of_engine_eval"):
        print("the fit was not made with --engine: its values are not corrections", file=sys.stderr)
        return 2
    letters = letters_of(letters)
    known = {l.lower() for l in letters}
    unused = sorted((set(w["material"]) | set(w["pst"]) | set(w.get("hand", {}))) - known)
    if unused:
        print(f"the fit has values for pieces not in LETTERS: {' '.join(unused)}", file=sys.stderr)
        return 2
    try:
        data = weights_bytes(w, variant, letters, description if description is not None else describe(w))
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    with open(out, "wb") as f:
        f.write(data)
    print(f"{out}: {len(data)} bytes, {variant}, {len(letters)} piece types, "
          f"{w['board']['files']}x{w['board']['ranks']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
