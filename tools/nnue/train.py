#!/usr/bin/env python3
"""Trains calvin's NNUE, (F -> H) x 2 -> 1, on feature files and writes the quantized net.

    train.py --features A.ft [B.ft ...] --out NET [--hidden 256] [--epochs 20]
             [--batch 16384] [--lr 1e-3] [--lr-end 1e-5] [--wdl 0.25] [--score-scale 1] [--seed 1]
             [--threads 2] [--resume] [--init NET] [--max-positions N] [--no-factorise]
             [--on-top A.eval [B.eval ...]] [--activation crelu|screlu] [--device auto|cpu|cuda]
             [--mirror]

Float network: acc_p = b1 + sum_{f in features of perspective p} W[f]   (W [F, H], shared)
               out   = [clamp(acc_us, 0, 1), clamp(acc_them, 0, 1)] . w2 + b2,   eval_cp = 400 out
With --activation screlu the hidden values are clamp(acc, 0, 1)^2 (SCReLU; a version 3 net file).
Loss: mean (sigmoid(out) - target)^2, target = (1 - wdl) sigmoid(scale score / 400) + wdl r,
r the game result from the side to move's view. Formats: README.md and nnue_io.py.
With --on-top (one file per feature file: `calvin datagen eval`, the engine's static
evaluation of each position, White's view), out = formula / 400 + net: the net learns what
the formula misses, and the engine adds the two.
--device auto (the default) trains on CUDA when torch sees a GPU, else on the CPU.
Factorisers (unless --no-factorise): each board feature also activates virtual features
(its side and type; with its rank; with its file: nnue_io.factors) whose rows are added
into the real rows when the net is written, so the net file and the engine are unchanged.
--mirror (chess, iago-b, iago-c: rules that look the same in a left-right mirror, castling aside,
which the features do not show): each training position is mirrored with probability one half,
so the net learns from a game and its mirror image; validation positions are never mirrored.
"""

import argparse
import math
import os
import sys
import time
import warnings

import numpy as np
import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnue_io  # noqa: E402

SCORE_LIMIT = 3000  # records with |score| >= this are skipped
CLIP = 1.98  # |W|, |b1|, |w2| <= CLIP: round(W * 255) fits i16 easily, round(w2 * 1024) within +-2028
VAL_FRACTION = 0.02


def csr(crow, cols, values, size):
    """The CSR matrix make_batch's structure describes, not checked: a row (a virtual feature) may
    hold a column twice, which the product sums. torch 2.0 and later take check_invariants=False;
    torch 1.13 (Debian 12's) always checks, and refuses repeated columns, so there the unchecked
    constructor torch's own code uses."""
    if hasattr(torch.sparse, "check_sparse_tensor_invariants"):
        return torch.sparse_csr_tensor(crow, cols, values, size, check_invariants=False)
    return torch._sparse_csr_tensor_unsafe(crow, cols, values, size)


def load(paths, max_positions, base_paths=None):
    """All files into memory: (variant, F, M, feat [N,2,M] u16, stm [N] u8, result [N] u8, score [N] i16,
    base [N] i32 the formula's evaluation from the side to move's view, or zeros without base_paths)."""
    if base_paths is not None and len(base_paths) != len(paths):
        raise SystemExit(f"{len(base_paths)} evaluation files for {len(paths)} feature files")
    variant = nf = m = None
    parts = []
    total = skipped = 0
    nbytes = 0
    for n, path in enumerate(paths):
        v, f, mm, rec = nnue_io.open_ft(path)
        if base_paths is not None:
            base = np.fromfile(base_paths[n], "<i4")
            if len(base) != len(rec):
                raise SystemExit(f"{base_paths[n]}: {len(base)} evaluations for {len(rec)} positions of {path}")
        else:
            base = np.zeros(len(rec), np.int32)
        if variant is None:
            variant, nf, m = v, f, mm
        elif (v, f, mm) != (variant, nf, m):
            raise SystemExit(f"{path}: variant/F/M {v}/{f}/{mm} differ from {variant}/{nf}/{m}")
        nbytes += os.path.getsize(path)
        score = np.asarray(rec["score"])
        keep = np.abs(score.astype(np.int32)) < SCORE_LIMIT
        skipped += int((~keep).sum())
        idx = np.flatnonzero(keep)
        if max_positions is not None:
            idx = idx[: max(0, max_positions - total)]
        total += len(idx)
        print(f"  {path}: {len(rec)} positions, {len(idx)} used", flush=True)
        parts.append(
            (
                np.ascontiguousarray(rec["feat"][idx]),
                np.asarray(rec["stm"][idx]),
                np.asarray(rec["result"][idx]),
                score[idx],
                np.where(np.asarray(rec["stm"][idx]) == 0, base[idx], -base[idx]),
            )
        )
        if max_positions is not None and total >= max_positions:
            break
    feat, stm, result, score, base = (np.concatenate([p[i] for p in parts]) for i in range(5))
    if len(stm) == 0:
        raise SystemExit("no positions")
    used = feat[feat != nnue_io.NONE]
    if used.size and int(used.max()) >= nf:
        raise SystemExit(f"feature index {int(used.max())} >= F = {nf}")
    if stm.max() > 1 or result.max() > 2:
        raise SystemExit("bad stm or result byte in the data")
    return variant, nf, m, feat, stm, result, score, base, skipped, nbytes


class FeatureTransform(torch.autograd.Function):
    """acc[r] = sum of W[idx[r, j]] (an EmbeddingBag, mode sum) whose backward is the product of the
    transposed 0/1 incidence matrix, in CSR form built in numpy (radix sort of u16 indices), with the
    gradient: about twice as fast on the CPU as EmbeddingBag's backward, which sorts in torch."""

    @staticmethod
    def forward(ctx, W, idx, crow, rows, nrows):
        ctx.save_for_backward(crow, rows)
        ctx.nf = W.shape[0] - 1
        ctx.nrows = nrows
        return torch.nn.functional.embedding_bag(idx, W, mode="sum")

    @staticmethod
    def backward(ctx, grad):
        crow, rows = ctx.saved_tensors
        nf = ctx.nf
        st = csr(crow, rows, torch.ones(len(rows), dtype=grad.dtype), (nf, ctx.nrows))
        gw = torch.zeros(nf + 1, grad.shape[1], dtype=grad.dtype)
        gw[:nf] = st @ grad.contiguous()
        return gw, None, None, None, None


class Net(nn.Module):
    def __init__(self, nf, h, nv=0, table=None, screlu=False, buckets=1):
        super().__init__()
        self.nf, self.h, self.nv, self.table, self.screlu = nf, h, nv, table, screlu
        # Rows F..F+nv-1 are the virtual features (start at zero); the last
        # row is the padding row (empty slot 0xFFFF): always zero (zero gradient), not written
        self.W = nn.Parameter(torch.empty(nf + nv + 1, h))
        self.b1 = nn.Parameter(torch.empty(h))
        self.out = nn.Linear(2 * h, buckets)  # one output per bucket (of the pieces on the board)
        with torch.no_grad():
            self.W.normal_(0, 0.05)
            self.W[nf:].zero_()
            self.b1.fill_(0.5)
            self.out.weight.uniform_(-1 / math.sqrt(2 * h), 1 / math.sqrt(2 * h))
            self.out.bias.zero_()

    def forward(self, batch):
        """batch from make_batch: idx [B, 2, M] (slot 0 the side to move's perspective) and each
        position's output bucket [B] -> out [B]."""
        idx, crow, rows, bucket = batch
        b, _, m = idx.shape
        if crow is None:  # CUDA (or no gradient): torch's own backward; the padding row stays zero
            acc = torch.nn.functional.embedding_bag(idx.reshape(2 * b, m), self.W, mode="sum",
                                                    padding_idx=self.W.shape[0] - 1)
        else:
            acc = FeatureTransform.apply(self.W, idx.reshape(2 * b, m), crow, rows, 2 * b)
        acc = acc.reshape(b, 2, self.h) + self.b1  # [:, 0] us, [:, 1] them
        hidden = acc.reshape(b, 2 * self.h).clamp(0, 1)  # cat(us, them), CReLU
        if self.screlu:
            hidden = hidden * hidden  # SCReLU
        return self.out(hidden).gather(1, bucket.unsqueeze(1)).squeeze(1)

    @torch.no_grad()
    def clip(self):
        self.W.clamp_(-CLIP, CLIP)
        self.b1.clamp_(-CLIP, CLIP)
        self.out.weight.clamp_(-CLIP, CLIP)

    def float_weights(self):
        """(W [F,H], b1 [H], w2 [buckets, 2H], b2 [buckets]) as numpy float32, the virtual rows added
        into the real."""
        w = self.W.detach().cpu().numpy()
        real = w[: self.nf].copy()
        if self.nv:
            for k in range(3):
                v = self.table[: self.nf, k]
                has = v != nnue_io.NONE
                real[has] += w[v[has].astype(np.int64)]
            real = np.clip(real, -CLIP, CLIP)
        return (
            real,
            self.b1.detach().cpu().numpy(),
            self.out.weight.detach().cpu().numpy(),
            self.out.bias.detach().cpu().numpy(),
        )


def make_batch(feat, stm, bucket, idx, nf, table=None, grad=True, device=None, mirror=None):
    """Features of positions idx, perspectives reordered to (us, them), with their virtual
    features from `table` when given; empty slots -> nf (the rows of real and virtual features);
    and their output buckets. With grad, also the CSR structure of the transposed incidence
    matrix for the backward. `mirror`: (the features' mirror images, a bool [B] of the
    positions to mirror)."""
    f = feat[idx]  # [B, 2, M] u16
    black = stm[idx] == 1
    f[black] = f[black][:, ::-1]
    if mirror is not None:
        images, which = mirror
        f[which] = images[f[which]]
    if table is not None:
        b, _, m = f.shape
        f = np.concatenate([f, table[f].reshape(b, 2, 3 * m)], axis=2)
    b, _, m = f.shape
    flat = f.reshape(-1)
    t = torch.from_numpy(flat.astype(np.int64))
    t[t == nnue_io.NONE] = nf
    t = t.reshape(b, 2, m)
    bk = torch.from_numpy(bucket[idx].astype(np.int64))
    if device is not None and device.type != "cpu":
        return t.to(device, non_blocking=True), None, None, bk.to(device, non_blocking=True)
    if not grad:
        return t, None, None, bk
    order = np.argsort(flat, kind="stable")  # radix sort for u16; 0xFFFF (empty) last
    counts = np.bincount(flat, minlength=nf + 1)[:nf]
    crow = np.zeros(nf + 1, np.int64)
    np.cumsum(counts, out=crow[1:])
    rows = order[: crow[-1]] // m  # row of the [2B, M] index matrix
    return t, torch.from_numpy(crow), torch.from_numpy(rows.astype(np.int64)), bk


@torch.no_grad()
def evaluate(model, feat, stm, bucket, offset, target, idx, bs=65536, device=None):
    se = 0.0
    for i in range(0, len(idx), bs):
        j = idx[i : i + bs]
        out = model(make_batch(feat, stm, bucket, j, model.nf + model.nv, model.table, grad=False, device=device))
        out = out + torch.from_numpy(offset[j]).to(out.device)
        se += float(((torch.sigmoid(out) - torch.from_numpy(target[j]).to(out.device)) ** 2).sum())
    return se / max(1, len(idx))


def adam(params, lr):
    """Adam, fused (a 3x faster step on the CPU) where this torch fuses on the parameters' device:
    torch before 2.4 (Debian 12's 1.13 among them) fuses on CUDA only, and takes the plain step."""
    try:
        return torch.optim.Adam(params, lr=lr, fused=True)
    except (RuntimeError, TypeError):
        return torch.optim.Adam(params, lr=lr)


def save_atomic(obj_writer, path):
    tmp = path + ".tmp"
    obj_writer(tmp)
    os.replace(tmp, path)


@torch.no_grad()
def init_from(model, path, variant, nf, h, screlu, on_top):
    """Loads a net file's weights into `model` (the inverse of nnue_io.quantize); a net with one
    output gives its output layer to each of the model's buckets."""
    net = nnue_io.read_net(path)
    act = nnue_io.SCRELU if screlu else nnue_io.CRELU
    buckets = model.out.weight.shape[0]
    want = (variant, nf, h, act, on_top)
    have = (net["variant"], net["F"], net["H"], net["activation"], net["on_top"])
    if want != have or net["buckets"] not in (1, buckets):
        raise SystemExit(f"{path}: variant/F/H/activation/on-top {have} with {net['buckets']} output buckets, "
                         f"training {want} with {buckets}")
    W, b1, w2, b2 = nnue_io.dequantize(net)
    as_tensor = lambda a: torch.from_numpy(a.astype(np.float32)).to(model.W.device)  # noqa: E731
    model.W.zero_()
    model.W[:nf] = as_tensor(W)
    model.b1.copy_(as_tensor(b1))
    model.out.weight.copy_(as_tensor(w2).expand(buckets, -1))
    model.out.bias.copy_(as_tensor(b2).expand(buckets))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", nargs="+", required=True, help="feature files (calvin datagen features)")
    ap.add_argument("--out", required=True, help="net file to write; the checkpoint is OUT.ckpt")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-end", type=float, default=1e-5, help="cosine decay to this at the last step")
    ap.add_argument("--wdl", type=float, default=0.25, help="weight of the game result in the target")
    ap.add_argument("--score-scale", type=float, default=1.0,
                    help="multiplies the files' scores (a teacher's centipawns onto the engine's scale)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--resume", action="store_true", help="continue from OUT.ckpt")
    ap.add_argument("--init", default=None,
                    help="start from this net file's weights (same variant, F, H and activation; its rows "
                         "become the real features' rows, the virtual ones start at zero): fine-tuning")
    ap.add_argument("--max-positions", type=int, default=None)
    ap.add_argument("--no-factorise", action="store_true", help="train the real features only")
    ap.add_argument("--on-top", nargs="+", default=None,
                    help="the formula's evaluations (calvin datagen eval), one per feature file: "
                         "the net corrects the formula")
    ap.add_argument("--activation", choices=["crelu", "screlu"], default="crelu",
                    help="the hidden layer's: clipped ReLU, or squared clipped ReLU (version 3 net file)")
    ap.add_argument("--buckets", type=int, default=1,
                    help="output buckets by the pieces on the board, each with its own output layer "
                         "(more than one: a version 4 net file)")
    ap.add_argument("--mirror", action="store_true",
                    help="mirror half the training positions left to right (chess, iago-b, iago-c)")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                    help="auto: CUDA when torch sees a GPU, else the CPU")
    args = ap.parse_args()
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(args.device)
    screlu = args.activation == "screlu"

    t0 = time.time()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)  # denormal floats slow the CPU down several times
    torch.manual_seed(args.seed)

    print("reading", flush=True)
    variant, nf, m, feat, stm, result, score, base_cp, skipped, nbytes = load(
        args.features, args.max_positions, args.on_top)
    offset = (base_cp / nnue_io.SCALE).astype(np.float32)  # the formula's part of the output
    n = len(stm)
    print(
        f"data: variant {variant}, F {nf}, M {m}, {n} positions used ({skipped} skipped with |score| >= "
        f"{SCORE_LIMIT}), {nbytes / 1e6:.1f} MB of files, {feat.nbytes / 1e6:.1f} MB of features in memory, "
        f"{time.time() - t0:.1f} s",
        flush=True,
    )
    if not 1 <= args.buckets <= 255:
        raise SystemExit("--buckets: 1 to 255")
    counts = nnue_io.board_counts(variant, nf, feat)
    divisor = nnue_io.bucket_divisor(int(counts.max()), args.buckets) if args.buckets > 1 else 1
    if args.init is not None and args.buckets > 1 and not args.resume:
        init_net = nnue_io.read_net(args.init)
        if init_net["buckets"] == args.buckets:
            divisor = init_net["divisor"]  # the buckets the net was trained with
    bucket = nnue_io.bucket_of(counts, args.buckets, divisor)
    if args.buckets > 1:
        print(f"output buckets: {args.buckets} of {divisor} board pieces each (up to {int(counts.max())}), "
              f"positions per bucket {np.bincount(bucket, minlength=args.buckets).tolist()}", flush=True)
    r = nnue_io.stm_result(stm, result)
    base = nnue_io.sigmoid(score.astype(np.float32) * args.score_scale / nnue_io.SCALE).astype(np.float32)
    target = ((1 - args.wdl) * base + args.wdl * r).astype(np.float32)

    # The validation set is the last positions in file order: whole games
    # the net never trains on. (A random sample of positions would share
    # games with the training set, whose neighbouring positions are nearly
    # the same: measured on historia-sako, such a split reported 0.0035
    # where fresh games gave 0.0107.)
    nval = max(1, int(round(n * VAL_FRACTION))) if n > 1 else 0
    val_idx = np.arange(n - nval, n)
    train_idx = np.arange(n - nval)
    ntrain = len(train_idx)
    baseline = float(np.mean((base[val_idx] - target[val_idx]) ** 2))
    print(
        f"train {ntrain}, validation {nval}; validation loss of the score-only baseline "
        f"sigmoid({args.score_scale:g} score/400): {baseline:.6f}",
        flush=True,
    )
    if args.on_top is not None:
        formula = float(np.mean((nnue_io.sigmoid(offset[val_idx]) - target[val_idx]) ** 2))
        print(f"validation loss of the formula alone: {formula:.6f}", flush=True)

    nv, table = (0, None) if args.no_factorise else nnue_io.factors(variant, nf)
    images = None
    if args.mirror:
        if variant not in nnue_io.MIRROR_SYMMETRIC:
            raise SystemExit(f"--mirror: {variant}'s rules are not known to look the same in a mirror "
                             f"(only {', '.join(nnue_io.MIRROR_SYMMETRIC)})")
        images = nnue_io.mirror_table(variant, nf)
    model = Net(nf, args.hidden, nv, table, screlu, args.buckets).to(device)
    opt = adam(list(model.parameters()), args.lr)
    start_epoch = 0
    ckpt_path = args.out + ".ckpt"
    if args.resume:
        if os.path.exists(ckpt_path):
            ck = torch.load(ckpt_path, weights_only=False, map_location=device)
            have = (ck["F"], ck["H"], ck.get("V", 0), ck.get("act", "crelu"), ck.get("B", 1), ck.get("div", 1))
            want = (nf, args.hidden, nv, args.activation, args.buckets, divisor)
            if have != want:
                raise SystemExit(f"{ckpt_path}: F/H/virtual/activation/buckets/divisor {have} differ from {want}")
            model.load_state_dict(ck["model"])
            fused = [g.get("fused") for g in opt.param_groups]
            opt.load_state_dict(ck["opt"])
            for g, f in zip(opt.param_groups, fused):  # this torch's choice, not the checkpoint's:
                g["fused"] = f  # a CPU checkpoint of torch 2.4+ is fused, which torch 1.13 cannot step
            start_epoch = ck["epoch"] + 1
            print(f"resumed from {ckpt_path} after epoch {start_epoch}", flush=True)
        else:
            print(f"no {ckpt_path}: starting afresh", flush=True)

    if args.init is not None and not args.resume:
        init_from(model, args.init, variant, nf, args.hidden, screlu, args.on_top is not None)
        vloss = evaluate(model, feat, stm, bucket, offset, target, val_idx, device=device)
        print(f"initialised from {args.init}: validation loss {vloss:.6f} (baseline {baseline:.6f})", flush=True)

    def write_out(path):
        nnue_io.write_net(path, variant, *model.float_weights(), on_top=args.on_top is not None,
                          activation=nnue_io.SCRELU if screlu else nnue_io.CRELU, divisor=divisor)

    steps = max(1, math.ceil(ntrain / args.batch))
    total_steps = args.epochs * steps
    print(f"net: F {nf} -> H {args.hidden} x 2 -> {args.buckets}, {nv} virtual features, {steps} steps per epoch, "
          f"{args.activation}, on {device}" + (f" ({args.threads} threads)" if device.type == "cpu" else ""),
          flush=True)
    for epoch in range(start_epoch, args.epochs):
        te = time.time()
        order = train_idx[np.random.default_rng(args.seed * 1000003 + epoch).permutation(ntrain)]
        flip = np.random.default_rng(args.seed * 7919 + epoch)  # which positions --mirror mirrors
        se = 0.0
        for i in range(steps):
            step = epoch * steps + i
            lr = args.lr_end + (args.lr - args.lr_end) * 0.5 * (1 + math.cos(math.pi * step / total_steps))
            for g in opt.param_groups:
                g["lr"] = lr
            idx = np.sort(order[i * args.batch : (i + 1) * args.batch])
            mirror = (images, flip.random(len(idx)) < 0.5) if images is not None else None
            batch = make_batch(feat, stm, bucket, idx, nf + nv, table, device=device, mirror=mirror)
            out = model(batch) + torch.from_numpy(offset[idx]).to(device)
            loss = torch.mean((torch.sigmoid(out) - torch.from_numpy(target[idx]).to(device)) ** 2)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            model.clip()
            se += loss.detach().item() * len(idx)
        ttrain = time.time() - te
        vloss = evaluate(model, feat, stm, bucket, offset, target, val_idx, device=device)
        print(
            f"epoch {epoch + 1}/{args.epochs}: train {se / ntrain:.6f}, validation {vloss:.6f} "
            f"(baseline {baseline:.6f}), lr {lr:.2e}, {ntrain / ttrain:.0f} pos/s, epoch {time.time() - te:.1f} s, "
            f"elapsed {time.time() - t0:.1f} s",
            flush=True,
        )
        ck = dict(model=model.state_dict(), opt=opt.state_dict(), epoch=epoch, F=nf, H=args.hidden, V=nv,
                  act=args.activation, B=args.buckets, div=divisor,
                  variant=variant, args=vars(args))
        save_atomic(lambda p: torch.save(ck, p), ckpt_path)
        save_atomic(write_out, args.out)

    if start_epoch >= args.epochs:
        vloss = evaluate(model, feat, stm, bucket, offset, target, val_idx, device=device)
        print(f"nothing to train: checkpoint already at epoch {start_epoch}; its validation loss "
              f"{vloss:.6f} (baseline {baseline:.6f})", flush=True)
        save_atomic(write_out, args.out)
    print(f"wrote {args.out} (checkpoint {ckpt_path}), total {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
