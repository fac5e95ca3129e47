#!/usr/bin/env python3
"""Scores the positions of a `calvin datagen` file again with another UCI
engine (a teacher), keeping the games and their results.

    python3 tools/train/relabel.py IN.bin OUT.bin --engine CMD [--option NAME=VALUE ...]
        [--variant NAME] [--nodes N] [--stride S] [--workers W]

Every S-th kept position of every game (default: all) is searched by the
teacher with `go nodes N` from its FEN (the engine's FEN, hands in `[...]`,
as the file holds it); its score, from the side to move's view, replaces the
file's. A position the teacher scores as a mate, or at 29952 cp or more, is
left out (a trainer should not see decided positions, as datagen does).
OUT gets IN's header unchanged and one block per game, in IN's order, so
`calvin datagen eval/terms` and `texel.py` read it as any datagen file; the
header's settings still describe the games, not the teacher's searches.

Stopping and continuing: games are written whole as they are done; a run
started again with the same OUT skips the games OUT already holds (a game
cut off at OUT's end is dropped first). Each worker runs one teacher process
(one thread each: `--option Threads=1` is sent unless given).

With Fairy-Stockfish as the teacher in Historia Ŝako:

    python3 tools/train/relabel.py runs/train/historia-sako.bin runs/train/historia-fsf.bin \\
        --engine fairy-stockfish --option VariantPath=historiasako.ini --variant historiasako \\
        --nodes 2500 --stride 2 --workers 2
"""

import argparse
import dataclasses
import multiprocessing as mp
import os
import subprocess
import sys
import time

import calvin_data

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import uci  # noqa: E402

DECISIVE = 29952


class Teacher:
    """The teacher engine, through the tools' UCI client (tools/uci.py)."""

    def __init__(self, cmd, options, variant):
        if not any(k.lower() == "threads" for k, _ in options):
            options = options + [("Threads", "1")]
        if variant:
            options = options + [("UCI_Variant", variant)]
        self.e = uci.Engine(cmd, options, stderr=subprocess.DEVNULL)

    def score(self, fen, nodes):
        """The teacher's score of `fen` (side to move's view, cp), None for a mate or a decided score."""
        r = self.e.go(f"fen {fen}", f"nodes {nodes}")
        if r.cp is None or abs(r.cp) >= DECISIVE:
            return None
        return r.cp

    def close(self):
        self.e.quit()


_teacher = None
_args = None


def _init(args):
    global _teacher, _args
    _args = args
    options = [tuple(o.split("=", 1)) for o in args.option]
    _teacher = Teacher(args.engine, options, args.variant)


def _relabel(g):
    records = []
    for r in g.records[:: _args.stride]:
        s = _teacher.score(r.fen, _args.nodes)
        if s is not None:
            records.append(calvin_data.Record(max(-32767, min(32767, s)), r.ply, r.stm, r.fen))
    return calvin_data.encode_block(dataclasses.replace(g, records=records)), len(records)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--engine", required=True, help="the teacher's command line")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, sent as setoption")
    ap.add_argument("--variant", help="the teacher's UCI_Variant name")
    ap.add_argument("--nodes", type=int, default=2500)
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    raw = open(args.input, "rb").read()
    data = calvin_data.parse(raw)
    done = set()
    if os.path.exists(args.output) and os.path.getsize(args.output) > 0:
        old = open(args.output, "rb").read()
        have = calvin_data.parse(old)
        done = {g.index for g in have.games}
        if have.trailing:
            with open(args.output, "r+b") as f:
                f.truncate(len(old) - have.trailing)
    else:
        with open(args.output, "wb") as f:
            f.write(raw[:calvin_data.header_length(raw)])
    todo = [g for g in data.games if g.index not in done]
    print(f"{len(data.games)} games, {len(done)} done before, {len(todo)} to score", file=sys.stderr)
    start, positions = time.time(), 0
    with mp.Pool(args.workers, initializer=_init, initargs=(args,)) as pool, open(args.output, "ab") as out:
        for n, (block, count) in enumerate(pool.imap(_relabel, todo, chunksize=1), 1):
            out.write(block)
            out.flush()
            positions += count
            if n % 10 == 0 or n == len(todo):
                rate = positions / max(1e-9, time.time() - start)
                eta = (len(todo) - n) * (time.time() - start) / n
                print(f"games {n}/{len(todo)} positions {positions} ({rate:.0f}/s) eta {eta / 60:.1f} min",
                      file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
