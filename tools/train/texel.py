#!/usr/bin/env python3
"""Texel tuning of a linear evaluation (material, hand and piece-square
values per piece type, a tempo term) on `calvin datagen` files.

    python3 tools/train/texel.py DATA.bin [DATA2.bin ...] --out WEIGHTS.json

The features come from each position's FEN (tools/train/calvin_data.py):
for every piece type (a letter, `+x` for a promoted one), White's count on
the board less Black's, the same for the hands, and for every square
(seen from the piece's own side: Black's squares mirrored rank for rank,
and file for file in a game symmetric by a half turn, as the engine's
`seen_from` does) +1 for a White piece there and -1 for a
Black one; and +1/-1 for White/Black to move. The evaluation is their dot
product with the weights, in centipawns from White's view.

The fit: `K` is chosen so that sigmoid(score / K) best predicts the games'
results (the scale that turns the engine's centipawns into an expected
score); the weights then minimise the mean squared error between
sigmoid(eval / K) and the target lambda * result + (1 - lambda) *
sigmoid(score / K) (result: win 1, draw 0.5, loss 0, from White's view;
docs/datagen.md says how Ita's score pairs map), plus an L2 penalty on the
piece-square values (on every weight with `--engine`), its size chosen on
the validation games (numbers ending in 1) unless given. scipy's L-BFGS-B
does the minimising with the exact gradient. Games whose number ends in 0
are held out: the report gives their loss for a constant 0.5, the search
score itself, a material-only fit and the full fit.

With `--engine PATH/calvin` the fit is made on top of the engine's own
static evaluation (`calvin datagen eval`): the model is sigmoid((engine +
features . weights) / K), and the weights are corrections to the engine's
material and placement values, while its other terms (mobility, pawn
structure, king safety, the variant's own) stay as they are. The report
then also gives the held-out loss of the engine's evaluation alone.

With `--terms` (and `--engine`) the coefficients of the evaluation's
generic terms (mobility, pawn structure, king shelter and danger, tempo:
the engine's `EvalWeights`) are fitted too, jointly with the corrections:
`calvin datagen terms` gives every position's terms as counts whose dot
product with the engine's weights is its evaluation (checked here, exactly,
for every position). The model is then sigmoid((material + extra + terms .
term_weights + features . corrections) / K): material and piece-square
values and the variant's own terms (`extra`) as the engine has them, the
term weights from the engine's and not penalised, the corrections as
above (the side to move is the `tempo` term then, not a feature). The
report adds a fit of the term weights alone; `eval_weights.py` prints the
fitted weights as a Rust `EvalWeights`.

With `--eval-k K` the evaluation's sigmoid has the scale K instead of the
one fitted to the scores: for scores from another engine (`relabel.py`),
whose centipawns predict the results on another scale than the engine's
own, K is the scale the engine's own scores have on such games (the `K` of
a fit of the engine's own data), so that the fitted values stay in the
engine's centipawns while the target is the teacher's expected score.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy import optimize, sparse

import calvin_data


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))


class Layout:
    """Column numbers of the features of one variant's positions."""

    def __init__(self, variant, ranks, files, types, hand_types, tempo=True):
        self.variant, self.ranks, self.files = variant, ranks, files
        self.types = sorted(types)
        self.hand_types = sorted(hand_types)
        self.names = []
        self.material = {t: self._add(f"material {t}") for t in self.types}
        self.hand = {t: self._add(f"hand {t}") for t in self.hand_types}
        self.tempo = self._add("tempo") if tempo else None
        self.first_pst = len(self.names)
        self.pst = {}
        for t in self.types:
            self.pst[t] = len(self.names)
            for sq in range(ranks * files):
                self.names.append(f"pst {t} {sq}")
        self.terms = {}

    def add_terms(self, names):
        """Columns for the engine's terms `names`, after the others."""
        self.terms = {n: self._add(f"term {n}") for n in names}

    def _add(self, name):
        self.names.append(name)
        return len(self.names) - 1


def load(paths, snapshots, tempo):
    """Reads the files (their bytes read once: a file may still grow):
    (variant, positions as (pieces, hand, stm, score, result, game), layout)."""
    rows, variant, types, hand_types, dims = [], None, set(), set(), None
    for n, (path, b) in enumerate(zip(paths, snapshots)):
        d = calvin_data.parse(b)
        if variant not in (None, d.variant):
            sys.exit(f"{path} is {d.variant}, the others {variant}")
        variant = d.variant
        for g in d.games:
            result = g.result / 2.0
            for r in g.records:
                ranks, files, pieces, hand = calvin_data.parse_fen(r.fen)
                dims = dims or (ranks, files)
                types.update(p[0] for p in pieces)
                hand_types.update(h[0] for h in hand)
                rows.append((pieces, hand, r.stm, r.score, result, (n, g.index)))
    if not rows:
        sys.exit("no positions")
    return variant, rows, Layout(variant, dims[0], dims[1], types, hand_types, tempo)


def matrix(rows, layout):
    """The sparse feature matrix (one row per position, White's view)."""
    data, cols, indptr = [], [], [0]
    for pieces, hand, stm, _, _, _ in rows:
        feats = {}
        for t, colour, rank, file in pieces:
            sign = 1 if colour == 0 else -1
            sq = calvin_data.seen_from(layout.variant, colour, rank, file, layout.ranks, layout.files)
            for c in (layout.material[t], layout.pst[t] + sq):
                feats[c] = feats.get(c, 0) + sign
        for t, colour in hand:
            c = layout.hand[t]
            feats[c] = feats.get(c, 0) + (1 if colour == 0 else -1)
        if layout.tempo is not None:
            feats[layout.tempo] = 1 if stm == 0 else -1
        for c, v in feats.items():
            if v:
                cols.append(c)
                data.append(v)
        indptr.append(len(cols))
    n_terms = len(layout.terms)
    return sparse.csr_matrix((np.array(data, float), np.array(cols), np.array(indptr)),
                             shape=(len(rows), len(layout.names) - n_terms))


def fit_k(score, result):
    """The K for which sigmoid(score / K) best predicts the results."""
    loss = lambda k: np.mean((sigmoid(score / k) - result) ** 2)
    return optimize.minimize_scalar(loss, bounds=(20, 5000), method="bounded").x


def fit(X, y, k, penalised, l2, w0, base):
    """Minimises mean (sigmoid((base + Xw)/k) - y)^2 + l2 * |w[penalised]|^2. The
    optimiser works on w / k (about unit scale), so its tolerances mean
    the same for every variant."""
    n = X.shape[0]
    mask = np.zeros(X.shape[1])
    mask[penalised] = l2 * k * k

    offset = base / k

    def f(v):
        p = sigmoid(offset + X @ v)
        e = p - y
        g = X.T @ (e * p * (1 - p)) * (2.0 / n) + 2 * mask * v
        return np.mean(e * e) + np.sum(mask * v * v), g

    opts = {"maxiter": 5000, "ftol": 1e-13, "gtol": 1e-9}
    r = optimize.minimize(f, w0 / k, jac=True, method="L-BFGS-B", options=opts)
    return r.x * k, r.nit


def run_datagen(engine, command, b):
    """The bytes `calvin datagen COMMAND` writes for the data file `b`."""
    with tempfile.TemporaryDirectory() as d:
        data, out = os.path.join(d, "data.bin"), os.path.join(d, "data.out")
        with open(data, "wb") as f:
            f.write(b)
        subprocess.run([engine, "datagen", command, data, out], check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as f:
            return f.read()


def engine_evals(engine, snapshots):
    """The engine's static evaluations (White's view) of every position of the files, in order."""
    out = [np.frombuffer(run_datagen(engine, "eval", b), dtype="<i4") for b in snapshots]
    return np.concatenate(out).astype(float)


def engine_terms(engine, snapshots):
    """The engine's terms of every position of the files, in order:
    (column names, the engine's weights, a row per position)."""
    names, weights, rows = None, None, []
    for b in snapshots:
        raw = run_datagen(engine, "terms", b)
        n, w, at, count = calvin_data.parse_terms(raw)
        if names not in (None, n) or weights not in (None, w):
            sys.exit("the files' terms differ in columns or weights")
        names, weights = n, w
        rows.append(np.frombuffer(raw, dtype="<i4", offset=at, count=count * len(n)).reshape(count, len(n)))
    return names, np.array(weights, float), np.concatenate(rows).astype(float)


def add_terms(X, layout, engine_eval, names, weights, rows):
    """Checks that the terms' dot product with the engine's weights is the
    engine's evaluation, and adds the fitted ones to the features: (the
    features, the base that is not fitted, the start of the weights)."""
    dot = rows @ weights
    bad = np.flatnonzero(dot != engine_eval)
    if bad.size:
        i = bad[0]
        sys.exit(f"position {i}: the terms give {dot[i]:.0f}, the engine's evaluation is {engine_eval[i]:.0f}")
    fixed = [names.index("material"), names.index("extra")]
    fitted = [c for c in range(len(names)) if c not in fixed]
    layout.add_terms([names[c] for c in fitted])
    X = sparse.hstack([X, sparse.csr_matrix(rows[:, fitted])]).tocsr()
    w0 = np.zeros(X.shape[1])
    w0[list(layout.terms.values())] = weights[fitted]
    return X, rows[:, fixed].sum(axis=1), w0


def split(rows):
    """Games numbered ...0 are the test set, ...1 the validation set (the
    penalty is chosen on it), the rest the training set; all three are
    every position where a file has too few games."""
    g = np.array([r[5][1] % 10 for r in rows])
    test, valid = g == 0, g == 1
    train = ~(test | valid)
    if not (train.any() and test.any() and valid.any()):
        return (np.ones(len(rows), bool),) * 3
    return train, valid, test


def fit_models(X, y, k, base, layout, l2, engine, w0):
    """The term weights alone (with terms), the material-only fit (and the
    term weights) and the full fit, from the material fit, all from `w0`.
    Corrections to the engine's values (`engine`) are all held near 0
    unless the data says otherwise; without it only the piece-square
    values. The term weights are not held."""
    n_cols = X.shape[1]
    terms = list(layout.terms.values())
    tempo = [] if layout.tempo is None else [layout.tempo]
    material_cols = list(layout.material.values()) + list(layout.hand.values()) + tempo + terms

    def fit_some(cols, start, can_hold):
        w = start.copy()
        held = [i for i, c in enumerate(cols) if can_hold(c) and c not in layout.terms.values()]
        w[cols], iterations = fit(X[:, cols], y, k, held, l2, start[cols], base)
        return w, iterations

    w_terms = fit_some(terms, w0, lambda c: False)[0] if terms else None
    w_mat, _ = fit_some(material_cols, w0, lambda c: bool(engine))
    w, iterations = fit_some(list(range(n_cols)), w_mat, lambda c: bool(engine) or layout.first_pst <= c)
    return w_terms, w_mat, w, iterations


def inputs(a):
    """Reads the files and what the engine says of them: (variant, rows,
    layout, features, base, start weights, the engine's evaluation or None,
    the engine's term weights by name)."""
    snapshots = []
    for path in a.data:
        with open(path, "rb") as f:
            snapshots.append(f.read())
    variant, rows, layout = load(a.data, snapshots, tempo=not a.terms)
    X = matrix(rows, layout)
    base, w0, engine_eval, engine_weights = np.zeros(len(rows)), np.zeros(X.shape[1]), None, {}
    if a.engine:
        engine_eval = base = engine_evals(a.engine, snapshots)
        if len(base) != len(rows):
            sys.exit(f"the engine gave {len(base)} evaluations for {len(rows)} positions")
    if a.terms:
        names, weights, term_rows = engine_terms(a.engine, snapshots)
        X, base, w0 = add_terms(X, layout, engine_eval, names, weights, term_rows)
        engine_weights = dict(zip(names, weights))
    return variant, rows, layout, X, base, w0, engine_eval, engine_weights


def report(a, variant, rows, layout, k, splits, fits, losses, engine_weights):
    """The JSON written to --out."""
    train, _, test = splits
    w_terms, w_mat, w, iterations = fits
    out = {
        "variant": variant,
        "files": a.data,
        "positions": len(rows),
        "train_positions": int(train.sum()),
        "test_positions": int(test.sum()),
        "K": round(float(k), 2),
        "lambda": a.lam,
        "l2": a.l2,
        "iterations": int(iterations),
        "on_top_of_engine_eval": bool(a.engine),
        "test_mse": {name: round(v, 6) for name, v in losses.items()},
        "board": {"ranks": layout.ranks, "files": layout.files},
        "material": {t: round(float(w[c])) for t, c in layout.material.items()},
        "material_only_fit": {t: round(float(w_mat[c])) for t, c in layout.material.items()},
        "hand": {t: round(float(w[c])) for t, c in layout.hand.items()},
        "tempo": round(float(w[layout.tempo])) if layout.tempo is not None else None,
        "pst": {
            t: [[round(float(v)) for v in w[c + r * layout.files:c + (r + 1) * layout.files]]
                for r in range(layout.ranks)]
            for t, c in layout.pst.items()
        },
    }
    assert all(len(sum(v, [])) == layout.ranks * layout.files for v in out["pst"].values())
    if layout.terms:
        # Columns that no position has keep the engine's weight.
        out["terms"] = {n: round(float(w[c]), 2) for n, c in layout.terms.items()}
        out["terms_only_fit"] = {n: round(float(w_terms[c]), 2) for n, c in layout.terms.items()}
        out["terms_engine"] = {n: int(engine_weights[n]) for n in layout.terms}
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True, help="weights as JSON")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5, help="weight of the result in the target")
    ap.add_argument("--l2", type=float, help="penalty per cp^2 (default: the best of 1e-9 .. 1e-6 on validation games)")
    ap.add_argument("--engine", help="calvin binary: fit corrections on top of its static evaluation")
    ap.add_argument("--terms", action="store_true", help="fit the weights of the engine's terms too (needs --engine)")
    ap.add_argument("--eval-k", type=float,
                    help="the scale K of the evaluation's sigmoid (default: the K fitted to the scores), "
                         "for scores from another engine: the K the engine's own scores have")
    a = ap.parse_args(argv)
    if a.terms and not a.engine:
        ap.error("--terms needs --engine")
    t0 = time.time()
    variant, rows, layout, X, base, w0, engine_eval, engine_weights = inputs(a)
    stm = np.array([r[2] for r in rows])
    score_white = np.array([r[3] for r in rows], float) * np.where(stm == 0, 1, -1)
    result = np.array([r[4] for r in rows])
    train, valid, test = split(rows)
    k = fit_k(score_white[train], result[train])
    y = a.lam * result + (1 - a.lam) * sigmoid(score_white / k)
    # The evaluation's own scale: the scores' unless given (a teacher's
    # centipawns may be calibrated otherwise than the engine's).
    ke = a.eval_k or k
    mse = lambda p, on: float(np.mean((p[on] - y[on]) ** 2))
    best = None
    for l2 in [a.l2] if a.l2 is not None else [1e-9, 1e-8, 1e-7, 1e-6]:
        fits = fit_models(X[train], y[train], ke, base[train], layout, l2, a.engine, w0)
        v = mse(sigmoid((base + X @ fits[2]) / ke), valid)
        if best is None or v < best[0]:
            best = (v, l2, fits)
    _, a.l2, fits = best
    w_terms, w_mat, w, iterations = fits
    models = {"constant 0.5": np.full(len(rows), 0.5), "search score": sigmoid(score_white / k)}
    if a.engine:
        models["engine eval"] = sigmoid(engine_eval / ke)
    if w_terms is not None:
        models["terms fit"] = sigmoid((base + X @ w_terms) / ke)
    models["material fit"] = sigmoid((base + X @ w_mat) / ke)
    models["full fit"] = sigmoid((base + X @ w) / ke)
    losses = {name: mse(p, test) for name, p in models.items()}
    out = report(a, variant, rows, layout, k, (train, valid, test), fits, losses, engine_weights)
    out["train_mse"] = {name: round(mse(p, train), 6) for name, p in models.items()}
    out["validation_mse"] = {name: round(mse(p, valid), 6) for name, p in models.items()}
    out["eval_K"] = round(float(ke), 2)
    out["seconds"] = round(time.time() - t0, 1)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    print(f"{variant}: {len(rows)} positions, K {k:.1f}, eval K {ke:.1f}, l2 {a.l2:g}, {iterations} iterations, {out['seconds']} s")
    print(f"  MSE on games:  {'held out':>9} {'validation':>10} {'training':>9}")
    for name, v in losses.items():
        print(f"  {name:14} {v:9.6f} {out['validation_mse'][name]:10.6f} {out['train_mse'][name]:9.6f}")
    if a.engine:
        print("  (material and piece-square values are corrections to the engine's evaluation)")
    print("  material " + " ".join(f"{t}={v}" for t, v in out["material"].items()))
    if out["hand"]:
        print("  hand     " + " ".join(f"{t}={v}" for t, v in out["hand"].items()))
    if layout.terms:
        print("  terms    " + " ".join(f"{n}={v}" for n, v in out["terms"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
