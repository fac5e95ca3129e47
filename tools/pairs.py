#!/usr/bin/env python3
"""Two versions of an engine compared pair by pair on the same openings:

    python3 tools/pairs.py [--name NAME] NEW.pgn OLD.pgn [NEW2.pgn OLD2.pgn ...]

Each file is a `calvin-match --pgnout` record of NAME (default `calvin`)
against the same opponent; NEW and OLD of a couple were played with the
same seed (more couples: more seeds, added up): games 2k-1 and 2k
(PGN rounds) are one opening played with both colours. A pair's score is
NAME's points in its two games (0 to 2); the output is the mean of NEW's
pair score minus OLD's over the pairs both files hold, with a 95% error
bar (1.96 standard errors), which is narrower than the two matches'
separate error bars when the openings decide much of a pair's result.
Pairs whose openings differ between the files are an error.
"""
import math
import sys

from pgn import games

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def pairs(path, name):
    """{pair number: (NAME's points in the pair, the pair's opening)}."""
    by_pair = {}
    for tags, moves in games(path):
        if tags.get("Result") not in POINTS:
            continue
        white, black = POINTS[tags["Result"]]
        if name not in (tags.get("White"), tags.get("Black")):
            raise SystemExit(f"{path}: round {tags.get('Round')} has no player named {name}")
        points = white if tags.get("White") == name else black
        k = (int(tags["Round"]) + 1) // 2
        opening = (tags.get("FEN", ""), tuple(moves[: int(tags.get("OpeningPlies", "0"))]))
        by_pair.setdefault(k, []).append((points, opening))
    return {k: (sum(p for p, _ in v), v[0][1]) for k, v in by_pair.items() if len(v) == 2}


def main():
    args, name = sys.argv[1:], "calvin"
    if args[:1] == ["--name"] and len(args) > 1:
        name, args = args[1], args[2:]
    if not args or len(args) % 2:
        raise SystemExit(__doc__)
    new_points, old_points = [], []
    for new_path, old_path in zip(args[::2], args[1::2]):
        new, old = pairs(new_path, name), pairs(old_path, name)
        common = sorted(new.keys() & old.keys())
        if not common:
            raise SystemExit(f"{new_path}, {old_path}: no opening pair is complete in both files")
        for k in common:
            if new[k][1] != old[k][1]:
                raise SystemExit(f"{new_path}, {old_path}: pair {k}: the openings differ (not the same seed?)")
        new_points += [new[k][0] for k in common]
        old_points += [old[k][0] for k in common]
    d = [a - b for a, b in zip(new_points, old_points)]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    print(f"{n} pairs: {mean:+.3f} +- {1.96 * sd / math.sqrt(n):.3f} a pair "
          f"(new {sum(new_points) / (2 * n):.1%}, old {sum(old_points) / (2 * n):.1%})")


if __name__ == "__main__":
    main()
