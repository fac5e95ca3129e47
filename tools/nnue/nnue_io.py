"""Readers and writers of the NNUE feature file (CALVINFT) and net file (CALVINNN).

numpy only (no torch), so check.py can use it alone. All little-endian.
"""

import struct

import numpy as np

FT_MAGIC = b"CALVINFT"
NN_MAGIC = b"CALVINNN"
VERSION = 1  # of the feature file
# of the net file: 2 adds the kind byte (1: on top of the formula), 3 the activation byte, 4 output
# buckets (the bucket count and the board pieces a bucket spans, then one output layer each)
NN_VERSION = 4
CRELU, SCRELU = 0, 1  # the activation byte (version 3; versions 1 and 2 are clipped ReLU)
NONE = 0xFFFF  # unused feature slot
QA = 255
QB = 1024
QB_SCRELU = 64  # SCReLU's output quantisation: |round(w2 * 64)| <= 127, so clamp(acc) * w2 fits an i16
SCALE = 400
HAND_CAP = 8  # hand features per piece type and side

# (ranks, files) of each variant's board: the features' layout (docs/nnue.md).
BOARDS = {
    "chess": (8, 8),
    "iago-b": (8, 8),
    "iago-c": (8, 8),
    "historia-sako": (8, 8),
    "ita": (10, 10),
    "ito-shogi": (31, 1),
    "etcetera": (8, 7),
}


def layout(variant, nf):
    """(types, ranks, files) of a variant's features: F = 2 T (N + HAND_CAP)."""
    if variant not in BOARDS:
        raise ValueError(f"unknown variant {variant!r}")
    ranks, files = BOARDS[variant]
    per_type = 2 * (ranks * files + HAND_CAP)
    if nf % per_type:
        raise ValueError(f"{variant}: F {nf} is not a multiple of 2 (N + {HAND_CAP}) = {per_type}")
    return nf // per_type, ranks, files


def factors(variant, nf):
    """The virtual features of each real one (nnue-pytorch's factorisers): a
    board feature (side rel, type t, square rank r file f seen from the
    perspective) also counts as the features (rel, t), (rel, t, r) and
    (rel, t, f), numbered from F on and shared by all the squares they
    cover, so what a few squares' data teaches reaches the others. Returns
    (number of virtual features, table [65536, 3] u16 of each feature's
    virtual features, NONE where it has none: hand features and NONE)."""
    types, ranks, files = layout(variant, nf)
    n = ranks * files
    table = np.full((NONE + 1, 3), NONE, dtype=np.uint16)
    kinds = 2 * types
    for k in range(kinds):  # k = rel * T + t - 1
        for sq in range(n):
            r, f = divmod(sq, files)
            table[k * n + sq] = (
                nf + k,
                nf + kinds + k * ranks + r,
                nf + kinds + kinds * ranks + k * files + f,
            )
    return kinds * (1 + ranks + files), table


# The variants whose rules look the same in a mirror that swaps the a-file
# and the last file (castling aside, which the features do not show): a
# position and its mirror image are worth the same.
MIRROR_SYMMETRIC = ("chess", "iago-b", "iago-c")


def mirror_table(variant, nf):
    """Each feature's image when the board is mirrored left to right (file f
    to files - 1 - f, in either perspective): [65536] u16, hand features and
    NONE map to themselves."""
    types, ranks, files = layout(variant, nf)
    n = ranks * files
    table = np.arange(NONE + 1).astype(np.uint16)  # the identity
    for k in range(2 * types):
        for sq in range(n):
            r, f = divmod(sq, files)
            table[k * n + sq] = k * n + r * files + (files - 1 - f)
    return table


def board_counts(variant, nf, feat):
    """The pieces on the board of each position (feat [N, 2, M]): its board features as White sees
    them (hand features come after the 2 T N board features)."""
    types, ranks, files = layout(variant, nf)
    return (feat[:, 0, :] < 2 * types * ranks * files).sum(axis=1)


def bucket_divisor(max_count, buckets):
    """The board pieces one output bucket spans, so that `buckets` buckets cover 1..max_count."""
    return max(1, -(-max(1, max_count) // buckets))


def bucket_of(count, buckets, divisor):
    """The output bucket of positions with `count` pieces on the board (what the engine computes)."""
    return np.minimum(buckets - 1, np.maximum(np.asarray(count) - 1, 0) // divisor)


def record_dtype(m):
    """One position: stm, result (White's view), score (stm's view), features."""
    return np.dtype(
        [
            ("stm", "u1"),
            ("result", "u1"),
            ("score", "<i2"),
            ("feat", "<u2", (2, m)),  # [0] White's perspective, [1] Black's
        ]
    )


def read_ft_header(path):
    """Returns (variant, F, M, N, offset of the first record)."""
    with open(path, "rb") as f:
        magic = f.read(8)
        if magic != FT_MAGIC:
            raise ValueError(f"{path}: not a feature file (magic {magic!r})")
        (version,) = struct.unpack("<H", f.read(2))
        if version != VERSION:
            raise ValueError(f"{path}: feature file version {version}, expected {VERSION}")
        (n,) = struct.unpack("<B", f.read(1))
        variant = f.read(n).decode("utf-8")
        nf, m, npos = struct.unpack("<IHQ", f.read(4 + 2 + 8))
        return variant, nf, m, npos, f.tell()


def open_ft(path):
    """Header and a read-only memmap of the records (no copy)."""
    variant, nf, m, npos, off = read_ft_header(path)
    dt = record_dtype(m)
    size = __import__("os").path.getsize(path)
    expect = off + npos * dt.itemsize
    if size != expect:
        raise ValueError(f"{path}: {size} bytes, header says {expect} ({npos} records of {dt.itemsize})")
    rec = np.memmap(path, dtype=dt, mode="r", offset=off, shape=(npos,))
    return variant, nf, m, rec


def write_ft(path, variant, nf, stm, result, score, feat):
    """Writes a feature file (used by the synthetic test). feat: [N, 2, M] uint16."""
    feat = np.asarray(feat, dtype=np.uint16)
    npos, _, m = feat.shape
    rec = np.zeros(npos, dtype=record_dtype(m))
    rec["stm"] = stm
    rec["result"] = result
    rec["score"] = score
    rec["feat"] = feat
    name = variant.encode("utf-8")
    with open(path, "wb") as f:
        f.write(FT_MAGIC)
        f.write(struct.pack("<HB", VERSION, len(name)))
        f.write(name)
        f.write(struct.pack("<IHQ", nf, m, npos))
        f.write(rec.tobytes())


def qb(activation):
    return QB_SCRELU if activation == SCRELU else QB


def quantize(W, b1, w2, b2, activation=CRELU):
    """Float weights -> the integers of the net file (checks the ranges); w2 [2H] or [buckets, 2H],
    b2 a number or [buckets]."""
    qW = np.rint(np.asarray(W, np.float64) * QA)
    qb1 = np.rint(np.asarray(b1, np.float64) * QA)
    qw2 = np.rint(np.asarray(w2, np.float64) * qb(activation))
    qb2 = np.rint(np.asarray(b2, np.float64) * QA * qb(activation))
    lim2 = 127 if activation == SCRELU else 2028
    for name, a, lim in (("ft_weights", qW, 32767), ("ft_bias", qb1, 32767), ("out_weights", qw2, lim2),
                         ("out_bias", qb2, 2**31 - 1)):
        if a.size and np.abs(a).max() > lim:
            raise ValueError(f"{name} out of range: max |q| = {np.abs(a).max()} > {lim}")
    return qW.astype("<i2"), qb1.astype("<i2"), qw2.astype("<i2"), qb2.astype("<i4")


def dequantize(net):
    """The float weights (W [F,H], b1 [H], w2 [buckets, 2H], b2 [buckets]) of a net read by read_net:
    the inverse of quantize (float64 arrays)."""
    qa, qb_ = QA, qb(net["activation"])
    return (net["ft_w"] / qa, net["ft_b"] / qa, net["out_w"] / qb_, net["out_b"] / (qa * qb_))


def write_net(path, variant, W, b1, w2, b2, on_top=False, activation=CRELU, divisor=1):
    """W [F, H], b1 [H], w2 [2H] or [buckets, 2H] (stm half first), b2 a number or [buckets], all
    float; on_top: the engine adds the net's output to its formula's evaluation; divisor: the board
    pieces an output bucket spans. One output is written as version 2 (clipped ReLU; engines before
    version 3 read it too) or 3 (SCReLU), several as version 4."""
    qW, qb1, qw2, qb2 = quantize(W, b1, w2, b2, activation)
    qw2, qb2 = qw2.reshape(-1, qW.shape[1] * 2), qb2.reshape(-1)
    nf, h = qW.shape
    buckets = len(qb2)
    if not 1 <= buckets <= 255 or not 1 <= divisor <= 255:
        raise ValueError(f"{buckets} output buckets of {divisor} pieces (each 1 to 255)")
    version = 4 if buckets > 1 else 3 if activation == SCRELU else 2
    name = variant.encode("utf-8")
    with open(path, "wb") as f:
        f.write(NN_MAGIC)
        f.write(struct.pack("<HB", version, len(name)))
        f.write(name)
        f.write(struct.pack("<IIB", nf, h, int(on_top)))
        if version >= 3:
            f.write(struct.pack("<B", activation))
        if version >= 4:
            f.write(struct.pack("<BB", buckets, divisor))
        f.write(np.ascontiguousarray(qW).tobytes())  # feature-major
        f.write(qb1.tobytes())
        f.write(qw2.tobytes())
        f.write(qb2.tobytes())


def read_net(path):
    """Returns dict(variant, F, H, on_top, activation, buckets, divisor, ft_w [F,H] i16, ft_b [H] i16,
    out_w [buckets, 2H] i16, out_b [buckets] i64)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != NN_MAGIC:
        raise ValueError(f"{path}: not a net file (magic {data[:8]!r})")
    version, n = struct.unpack_from("<HB", data, 8)
    if version not in (1, 2, 3, NN_VERSION):
        raise ValueError(f"{path}: net version {version}, expected 1 to {NN_VERSION}")
    p = 11
    variant = data[p : p + n].decode("utf-8")
    p += n
    nf, h = struct.unpack_from("<II", data, p)
    p += 8
    on_top = False
    if version >= 2:
        on_top = bool(data[p])
        p += 1
    activation = CRELU
    if version >= 3:
        activation = data[p]
        p += 1
        if activation not in (CRELU, SCRELU):
            raise ValueError(f"{path}: activation {activation}")
    buckets, divisor = 1, 1
    if version >= 4:
        buckets, divisor = data[p], data[p + 1]
        p += 2
        if buckets == 0 or divisor == 0:
            raise ValueError(f"{path}: {buckets} output buckets of {divisor} pieces")
    ft_w = np.frombuffer(data, "<i2", nf * h, p).reshape(nf, h)
    p += 2 * nf * h
    ft_b = np.frombuffer(data, "<i2", h, p)
    p += 2 * h
    out_w = np.frombuffer(data, "<i2", buckets * 2 * h, p).reshape(buckets, 2 * h)
    p += 4 * h * buckets
    out_b = np.frombuffer(data, "<i4", buckets, p).astype(np.int64)
    p += 4 * buckets
    if p != len(data):
        raise ValueError(f"{path}: {len(data) - p} trailing bytes")
    return dict(variant=variant, F=nf, H=h, on_top=on_top, activation=activation, buckets=buckets,
                divisor=divisor, ft_w=ft_w, ft_b=ft_b, out_w=out_w, out_b=out_b)


def stm_result(stm, result):
    """Game result from the side to move's view, in [0, 1]."""
    r = result.astype(np.float32) / 2
    return np.where(stm == 0, r, 1 - r).astype(np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))
