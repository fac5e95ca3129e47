#!/usr/bin/env python3
"""Reader (and block writer) of `calvin datagen` files (format:
docs/datagen.md), standard library only, and the linear features of a
position taken from its FEN.

    python3 tools/train/calvin_data.py FILE     # prints a summary

The summary's `games`/`positions`/`trailing-bytes` line is the same as the
engine's `calvin datagen info FILE` (tests/datagen.rs checks that they agree).
"""

import struct
import sys
from dataclasses import dataclass, field

MAGIC = b"CALVINDG"
VERSION = 1
NO_POINTS = 255
# A game block's fields after its length, and a record's before its FEN.
BLOCK = "<IBBBBHI"
RECORD = "<hHBB"


@dataclass
class Record:
    score: int  # centipawns, side to move's view
    ply: int
    stm: int  # 0 White, 1 Black
    fen: str


@dataclass
class Game:
    index: int
    result: int  # White's view: 2 win, 1 draw, 0 loss
    white_points: int
    black_points: int
    end: int  # 0 rules, 1 ply cap, 2 resign adjudication
    plies: int
    records: list = field(default_factory=list)


@dataclass
class DataFile:
    variant: str
    settings: dict
    games: list
    trailing: int  # bytes of a game cut off at the end

    def positions(self):
        return sum(len(g.records) for g in self.games)


class FormatError(Exception):
    pass


def _header(b):
    if b[:8] != MAGIC or len(b) < 11:
        raise FormatError("not a calvin datagen file (bad magic)")
    (version,) = struct.unpack_from("<H", b, 8)
    if version != VERSION:
        raise FormatError(f"datagen format version {version}, this reader reads {VERSION}")
    n = b[10]
    at = 11 + n
    if len(b) < at + 25:
        raise FormatError("header cut short")
    variant = b[11:at].decode()
    rule_flags, seed, nodes, rp, mp, rs, rpl, hash_mib = struct.unpack_from("<BQIHHHHI", b, at)
    settings = dict(rule_flags=rule_flags, seed=seed, nodes=nodes, random_plies=rp,
                    max_plies=mp, resign_score=rs, resign_plies=rpl, hash=hash_mib)
    return variant, settings, at + 25


def _block(body, offset):
    if len(body) < 14:
        raise FormatError(f"damaged block at byte {offset}")
    index, result, wp, bp, end, plies, count = struct.unpack_from(BLOCK, body, 0)
    if result > 2 or end > 2:
        raise FormatError(f"damaged block at byte {offset}: result {result}, end {end}")
    g = Game(index, result, wp, bp, end, plies)
    at = 14
    for _ in range(count):
        if at + 6 > len(body):
            raise FormatError(f"damaged block at byte {offset}: records cut short")
        score, ply, stm, n = struct.unpack_from(RECORD, body, at)
        fen = body[at + 6:at + 6 + n].decode()
        at += 6 + n
        g.records.append(Record(score, ply, stm, fen))
    if at != len(body):
        raise FormatError(f"damaged block at byte {offset}: {len(body) - at} bytes after the records")
    return g


def header_length(b):
    """The length in bytes of the header that starts `b`."""
    return _header(b)[2]


def encode_block(g):
    """A game's block as the engine writes it (its length first)."""
    body = struct.pack(BLOCK, g.index, g.result, g.white_points, g.black_points, g.end, g.plies, len(g.records))
    for r in g.records:
        fen = r.fen.encode()
        body += struct.pack(RECORD, r.score, r.ply, r.stm, len(fen)) + fen
    return struct.pack("<I", len(body)) + body


def read(path):
    with open(path, "rb") as f:
        return parse(f.read())


def parse(b):
    """Reads a file held in memory (a snapshot of a file still being written)."""
    variant, settings, at = _header(b)
    games = []
    while at + 4 <= len(b):
        (n,) = struct.unpack_from("<I", b, at)
        if at + 4 + n > len(b):
            break
        games.append(_block(b[at + 4:at + 4 + n], at))
        at += 4 + n
    return DataFile(variant, settings, games, len(b) - at)


# Variants the same for both sides after a half turn of the board, not after
# a flip of its ranks (the engine's `Variant::HALF_TURN`): Black's view of a
# square turns its file too.
HALF_TURN = {"historia-sako"}


def seen_from(variant, colour, rank, file, ranks, files):
    """The square (rank, file) as `colour` sees it, `rank * files + file`
    (the engine's `seen_from`): ranks from its own edge, files turned too
    where the variant is symmetric by a half turn."""
    if colour == 0:
        return rank * files + file
    if variant in HALF_TURN:
        file = files - 1 - file
    return (ranks - 1 - rank) * files + file


def parse_fen(fen):
    """The board of a FEN as (ranks, files, pieces, hand): `pieces` a list of
    (letter, colour, rank, file) with rank 0 White's back rank; `hand` a
    list of (letter, colour). A promoted piece's letter keeps its `+`."""
    placement = fen.split()[0]
    hand_text = ""
    if "[" in placement:
        placement, hand_text = placement.split("[", 1)
        hand_text = hand_text.rstrip("]")
    rows = placement.split("/")
    ranks = len(rows)
    pieces = []
    files = 0
    for i, row in enumerate(rows):
        rank = ranks - 1 - i
        f, j, digits = 0, 0, ""
        while j < len(row):
            c = row[j]
            if c.isdigit():
                digits += c
                j += 1
                continue
            if digits:
                f += int(digits)
                digits = ""
            letter = c
            if c == "+" and j + 1 < len(row):
                j += 1
                letter = "+" + row[j]
            colour = 0 if letter[-1].isupper() else 1
            pieces.append((letter.lower(), colour, rank, f))
            f += 1
            j += 1
        if digits:
            f += int(digits)
        files = max(files, f)
    hand = [(c.lower(), 0 if c.isupper() else 1) for c in hand_text if c.isalpha()]
    return ranks, files, pieces, hand


TERMS_MAGIC = b"CALVINTM"
TERMS_VERSION = 1


def parse_terms(b):
    """Reads a `calvin datagen terms` file held in memory (docs/datagen.md):
    (column names, the engine's weights, byte offset of the first row,
    number of rows). The rows are little-endian i32, one per column."""
    if b[:8] != TERMS_MAGIC or len(b) < 12:
        raise FormatError("not a calvin datagen terms file (bad magic)")
    version, n = struct.unpack_from("<HH", b, 8)
    if version != TERMS_VERSION:
        raise FormatError(f"terms format version {version}, this reader reads {TERMS_VERSION}")
    at, names, weights = 12, [], []
    for _ in range(n):
        length = b[at]
        names.append(b[at + 1:at + 1 + length].decode())
        (w,) = struct.unpack_from("<i", b, at + 1 + length)
        weights.append(w)
        at += 1 + length + 4
    if (len(b) - at) % (4 * n):
        raise FormatError("terms file cut short")
    return names, weights, at, (len(b) - at) // (4 * n)


def main(argv):
    if len(argv) != 2:
        print("usage: calvin_data.py FILE", file=sys.stderr)
        return 2
    d = read(argv[1])
    s = d.settings
    print(f"variant {d.variant} seed {s['seed']} nodes {s['nodes']} random-plies {s['random_plies']} "
          f"max-plies {s['max_plies']} resign-score {s['resign_score']} resign-plies {s['resign_plies']} hash {s['hash']}")
    print(f"games {len(d.games)} positions {d.positions()} trailing-bytes {d.trailing}")
    res = [sum(1 for g in d.games if g.result == r) for r in range(3)]
    print(f"results white-wins {res[2]} draws {res[1]} black-wins {res[0]}")
    ends = [sum(1 for g in d.games if g.end == e) for e in range(3)]
    print(f"ends rules {ends[0]} ply-cap {ends[1]} adjudicated {ends[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
