#!/usr/bin/env python3
"""Fits the win-rate model of `UCI_ShowWDL` (src/wdl.rs, docs/wdl.md) to
`calvin datagen` files, one variant a file, by maximum likelihood over the
(score, result) pairs of every kept position:

    win(x)  = 1 / (1 + exp((a - x) / b))
    loss(x) = 1 / (1 + exp((a + x) / b))
    draw(x) = 1 - win(x) - loss(x)

x: the search's score in centipawns from the side to move's view; the
result is the game's, from the same side (Ita's score pairs count by their
sign, as datagen stores them). a >= 0 keeps the draw rate non-negative.

    tools/train/.venv/bin/python tools/wdl/fit.py FILE... [--svg OUT.svg]
        [--drawless VARIANT...] [--with-draws VARIANT...]

Prints a Markdown table (data and parameters) and each variant's Rust
constant; with --svg, writes the calibration plot: per score bucket the
observed win/draw/loss rates (dots) against the model (lines).

A variant none of whose games in the data was drawn by its rules (the
games drawn only by datagen's ply cap aside) is fitted drawless: a is
fixed at 0 and its ply-cap draws are left out. --drawless VARIANT... and
--with-draws VARIANT... decide it instead of the data.
"""

import argparse
import math
import os
import sys

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "train"))
import calvin_data  # noqa: E402

EPS = 1e-12
BUCKET = 50  # centipawns per calibration bucket
RANGE = 600  # the plot shows scores in [-RANGE, RANGE]
MIN_BUCKET = 30  # positions a bucket needs to be drawn


def pairs(path):
    """The variant, the file's settings and games, scores and outcomes
    (2 win, 1 draw, 0 loss for the side to move) of every record."""
    f = calvin_data.read(path)
    xs, ys = [], []
    for g in f.games:
        for r in g.records:
            xs.append(r.score)
            ys.append(g.result if r.stm == 0 else 2 - g.result)
    return f, np.array(xs, dtype=float), np.array(ys, dtype=int)


def rules_draws(games):
    """The games drawn by the rules (not by datagen's ply cap: a game still
    running at the cap is adjudicated a draw whatever its rules say).
    A variant with none in its data is fitted drawless."""
    return sum(1 for g in games if g.result == 1 and g.end == 0)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def model(a, b, x):
    w = sigmoid((x - a) / b)
    l_ = sigmoid((-x - a) / b)
    return w, np.clip(1.0 - w - l_, 0.0, 1.0), l_


def nll(p, x, y):
    a, b = p
    w, d, l_ = model(a, b, x)
    prob = np.where(y == 2, w, np.where(y == 1, d, l_))
    return -np.sum(np.log(np.maximum(prob, EPS)))


def fit(x, y, drawless=False):
    """(a, b, -log L, standard errors); drawless: a fixed at 0 (no draw rate)."""
    best = None
    a_bounds = (0.0, 0.0) if drawless else (0.0, 5000.0)
    for a0, b0 in ((0.0, 100.0), (100.0, 100.0), (300.0, 150.0), (50.0, 300.0)):
        a0 = 0.0 if drawless else a0
        r = minimize(nll, [a0, b0], args=(x, y), method="L-BFGS-B", bounds=[a_bounds, (1.0, 5000.0)])
        if best is None or r.fun < best.fun:
            best = r
    a, b = best.x
    if drawless:
        h = max(1e-3 * b, 0.5)
        d2 = (nll([0.0, b + h], x, y) - 2 * best.fun + nll([0.0, b - h], x, y)) / (h * h)
        return a, b, best.fun, [0.0, 1 / math.sqrt(d2) if d2 > 0 else float("nan")]
    return a, b, best.fun, stderr(a, b, x, y)


def stderr(a, b, x, y):
    """Standard errors from the numeric Hessian of the log-likelihood
    (positions counted as independent: games make them fewer)."""
    h = np.zeros((2, 2))
    p = np.array([a, b])
    s = np.array([max(1e-3 * abs(a), 0.5), max(1e-3 * b, 0.5)])
    for i in range(2):
        for j in range(2):
            ei, ej = np.eye(2)[i] * s[i], np.eye(2)[j] * s[j]
            h[i, j] = (nll(p + ei + ej, x, y) - nll(p + ei - ej, x, y) - nll(p - ei + ej, x, y)
                       + nll(p - ei - ej, x, y)) / (4 * s[i] * s[j])
    try:
        cov = np.linalg.inv(h)
        return [math.sqrt(cov[i, i]) if cov[i, i] > 0 else float("nan") for i in range(2)]
    except np.linalg.LinAlgError:
        return [float("nan"), float("nan")]


def buckets(x, y):
    """(centre, count, observed win, draw, loss) per score bucket."""
    out = []
    for lo in range(-RANGE, RANGE, BUCKET):
        m = (x >= lo) & (x < lo + BUCKET)
        n = int(m.sum())
        if n >= MIN_BUCKET:
            yy = y[m]
            out.append((lo + BUCKET / 2, n, (yy == 2).mean(), (yy == 1).mean(), (yy == 0).mean()))
    return out


def svg(fits, path):
    cols = 4
    pw, ph, mx, my = 230, 170, 38, 26
    rows = (len(fits) + cols - 1) // cols
    W, H = cols * pw, rows * ph + 24
    colours = ("#2a8a2a", "#888888", "#c03030")
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="10">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="8" y="{H - 8}">win (green), draw (grey), loss (red) against the score (cp, side to move);'
         f' dots: observed per {BUCKET} cp bucket (area ~ positions), lines: the fitted model</text>']
    for k, (name, a, b, x, y) in enumerate(fits):
        ox, oy = (k % cols) * pw + mx, (k // cols) * ph + my
        iw, ih = pw - mx - 10, ph - my - 22

        def px(v):
            return ox + (v + RANGE) / (2 * RANGE) * iw

        def py(p):
            return oy + (1 - p) * ih

        o.append(f'<rect x="{ox}" y="{oy}" width="{iw}" height="{ih}" fill="none" stroke="#444"/>')
        o.append(f'<text x="{ox}" y="{oy - 6}" font-weight="bold">{name}: a={a:.0f} b={b:.0f}</text>')
        for t in (-RANGE, -RANGE // 2, 0, RANGE // 2, RANGE):
            o.append(f'<text x="{px(t):.1f}" y="{oy + ih + 12}" text-anchor="middle">{t}</text>')
        for p in (0, 0.5, 1):
            o.append(f'<text x="{ox - 4}" y="{py(p) + 3:.1f}" text-anchor="end">{p:g}</text>')
            o.append(f'<line x1="{ox}" x2="{ox + iw}" y1="{py(p):.1f}" y2="{py(p):.1f}" stroke="#ddd"/>')
        grid = np.linspace(-RANGE, RANGE, 61)
        curves = model(a, b, grid)
        for c, curve in zip(colours, curves):
            pts = " ".join(f"{px(v):.1f},{py(p):.1f}" for v, p in zip(grid, curve))
            o.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.5"/>')
        bs = buckets(x, y)
        top = max((n for _, n, *_ in bs), default=1)
        for centre, n, *rates in bs:
            r = 1.0 + 2.5 * math.sqrt(n / top)
            for c, p in zip(colours, rates):
                o.append(f'<circle cx="{px(centre):.1f}" cy="{py(p):.1f}" r="{r:.1f}" fill="{c}" fill-opacity="0.7"/>')
    o.append("</svg>")
    with open(path, "w") as fh:
        fh.write("\n".join(o) + "\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--svg")
    ap.add_argument("--drawless", nargs="+", default=[], metavar="VARIANT",
                    help="fit these variants drawless whatever their data holds")
    ap.add_argument("--with-draws", nargs="+", default=[], metavar="VARIANT",
                    help="fit these variants with a draw rate whatever their data holds")
    args = ap.parse_args(argv)
    both = set(args.drawless) & set(args.with_draws)
    if both:
        ap.error(f"both --drawless and --with-draws: {' '.join(sorted(both))}")
    fits = []
    print("| variant | games | positions | W / D / L games | nodes | a (cp) | b (cp) | -log L / position |")
    print("|---|---|---|---|---|---|---|---|")
    for path in args.files:
        f, x, y = pairs(path)
        if len(x) == 0:
            print(f"{path}: no positions", file=sys.stderr)
            continue
        if f.variant in args.drawless or f.variant in args.with_draws:
            drawless = f.variant in args.drawless
        else:
            drawless = rules_draws(f.games) == 0
        if drawless:
            keep = y != 1
            x, y = x[keep], y[keep]
            if len(x) == 0:
                print(f"{path}: no positions of a game not drawn", file=sys.stderr)
                continue
        a, b, fun, (sa, sb) = fit(x, y, drawless)
        res = [g.result for g in f.games]
        wdl_games = f"{res.count(2)} / {res.count(1)} / {res.count(0)}"
        print(f"| {f.variant} | {len(f.games)} | {len(x)} | {wdl_games} | {f.settings['nodes']} "
              f"| {'0 (drawless)' if drawless else f'{a:.1f} ± {sa:.1f}'} | {b:.1f} ± {sb:.1f} | {fun / len(x):.4f} |")
        fits.append((f.variant, a, b, x, y))
    print()
    for name, a, b, _, _ in fits:
        print(f"{name}: const WDL: WdlModel = WdlModel {{ a: {a:.1f}, b: {b:.1f} }};")
    if args.svg:
        svg(fits, args.svg)


if __name__ == "__main__":
    main(sys.argv[1:])
