#!/usr/bin/env python3
"""The upstream GP-MIL codes on ich's fixed splits, for side-by-side benchmarks with `ich eval-gp`.

usage: python scripts/bench/bench-upstream-gp.py IMPL CHECKOUT DATA [--inducing M] [--max-iters N]
           [--patience P] [--seed S] [--shared DIR] [--no-kernel-update] [--only S[,S...]]
           [--csv OUT.csv]

IMPL      haussmann-vgpmil  Haußmann's numpy VGPMIL (github.com/manuelhaussmann/vgpmil)
          psi-vgpmil        VGPMIL of the psi-VGPMIL JAX code (github.com/Franblueee/psi-VGPMIL)
          psi-gvgpmil       G-VGPMIL (alpha = beta = 1) of the same code
CHECKOUT  a clone of that repository (nothing of it is copied here; it is imported from there)
DATA      musk1 | musk2 | rsna   (../shared/data/mil/musk{1,2}.csv with splits/musk{1,2}_5split.csv;
          ich-features/rsna_d8_fold{k}.csv with splits/rsna_d8_halves.csv and CQ500 as the
          external test set of split k, as `ich eval-gp --splits` reads them)

Every split trains on its `fit` bags, stops early on its `valid` bags and is scored on its `test`
bags, exactly as `ich eval-gp --splits FILE`. The upstream codes are run as their authors' own
experiment scripts run them: the psi-VGPMIL code through its `Trainer` (10 warm-up iterations,
early stopping on the validation bags' balanced log loss, patience 10, at most 50 iterations
after the warm-up, kernel (v, l) by SGD each iteration unless --no-kernel-update, start v = 0.5,
squared length scale l = D); Haußmann's code with its unit-variance RBF kernel of length scale
sqrt(D) (the same kernel as l = D above), H = 1e12, one iteration at a time, kept at the iteration
with the best validation bag log loss (the same rule, patience 10, at most 60 iterations), its own
`predict` (sigma of the latent mean). Split s is run with numpy's and OpenCV's generators seeded
with --seed + s (both codes draw their inducing points by OpenCV's k-means), so its figures do
not depend on which splits ran before it (--only). A bag's probability is the maximum over its instances of
their predicted probabilities (the splits README's rule and ich's default).

Printed per split and as mean ± sd over the splits (the CSV also has each split's number of test
bags, n_test, which scripts/bench/paired-splits.py checks against ich's report): bag AUC, bag ECE and mean bag log-likelihood
on the test bags; on the RSNA halves also instance (slice) AUC, slice ECE and mean slice
log-likelihood (slice labels for evaluation only), and the same bag figures on CQ500; and the
seconds each split took (training with early stopping, and prediction), with the total. ECE: 10
equal-width bins, as ich's. Needs numpy, scipy, scikit-learn, opencv-python-headless and, for
the psi-VGPMIL code, jax, optax, tqdm (`pip install ...` into a virtual environment).
"""
import argparse
import csv
import math
import os
import sys
import time

import cv2
import numpy as np
from sklearn.metrics import roc_auc_score

from mil_figures import ece, log_lik  # noqa: E402  (this folder's shared figures)


def read_splits(path):
    splits = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            s = int(row["split"])
            splits.setdefault(s, {}).setdefault(row["role"], []).append(row["bag"])
    return splits


def read_musk(path):
    """bag id -> (instances, bag label); no instance labels."""
    rows = np.loadtxt(path, delimiter=",")
    bags = {}
    for label, bag in sorted({(int(r[0]), int(r[1])) for r in rows}, key=lambda t: t[1]):
        x = rows[rows[:, 1] == bag][:, 2:]
        bags[str(bag)] = (x, label, None)
    return bags


def read_ich(path):
    """bag name -> (instances, bag label, slice labels or None), slices in file order."""
    feats, bags = {}, {}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        cols = [c for c in reader.fieldnames if c.startswith("feature_")]
        for row in reader:
            name = row["bag_name"]
            x = [float(row[c]) for c in cols]
            y = int(float(row["instance_label"])) if "instance_label" in row else None
            entry = feats.setdefault(name, ([], int(float(row["bag_label"])), []))
            entry[0].append(x)
            entry[2].append(y)
    for name, (x, label, ys) in feats.items():
        bags[name] = (np.array(x), label, None if ys[0] is None else np.array(ys))
    return bags


def bag_scores(inst_prob, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(float(np.max(inst_prob[start:start + n])))
        start += n
    return np.array(out)


def bag_log_loss(y, p):
    """The psi-VGPMIL Trainer's early-stopping criterion (balanced weights of 0.5 each are equal)."""
    return -log_lik(y, p)


class Haussmann:
    """Haußmann's numpy VGPMIL, driven one iteration at a time."""

    def __init__(self, checkout, d, inducing, max_iters, patience):
        sys.path.insert(0, checkout)
        from helperfunctions import RBF  # noqa: E402  (the checkout's module)
        from vgpmil import vgpmil  # noqa: E402

        self.model = vgpmil(RBF(lengthscale=math.sqrt(d), variance=1.0), num_inducing=inducing,
                            max_iter=1, normalize=True)
        self.max_iters, self.patience = max_iters, patience

    def fit(self, fit_bags, valid_bags):
        x = np.vstack([b[0] for b in fit_bags])
        lab = np.concatenate([np.full(len(b[0]), b[1]) for b in fit_bags]).astype(float)
        idx = np.concatenate([np.full(len(b[0]), i) for i, b in enumerate(fit_bags)])
        vy = [b[1] for b in valid_bags]
        best, best_state, waited = math.inf, None, 0
        for it in range(self.max_iters):
            self.model.train(x, lab, idx, init=(it == 0))
            loss = bag_log_loss(vy, self.predict_bags(valid_bags))
            if loss < best - 1e-3:
                best, waited = loss, 0
                best_state = (self.model.m.copy(), self.model.S.copy(), self.model.pi.copy(),
                              self.model.xi.copy())
            else:
                waited += 1
                if waited >= self.patience:
                    break
        self.model.m, self.model.S, self.model.pi, self.model.xi = best_state

    def predict_instances(self, bags):
        return np.asarray(self.model.predict(np.vstack([b[0] for b in bags]))).ravel()

    def predict_bags(self, bags):
        return bag_scores(self.predict_instances(bags), [len(b[0]) for b in bags])


class Psi:
    """The psi-VGPMIL JAX code's model and its own Trainer."""

    def __init__(self, checkout, d, inducing, max_iters, patience, gamma, kernel_update):
        sys.path.insert(0, os.path.join(checkout, "code"))
        import jax

        jax.config.update("jax_enable_x64", True)
        from engine import Trainer  # noqa: E402  (the checkout's modules)
        from psiVGPMIL import psiVGPMIL  # noqa: E402
        import psi_functions as pf  # noqa: E402

        if gamma:
            psi, dpsi, params = pf.psi_gvgpmil, pf.dif_psi_gvgpmil, {"alpha": 1.0, "beta": 1.0}
        else:
            psi, dpsi, params = pf.psi_vgpmil, pf.dif_psi_vgpmil, {}
        self.model = psiVGPMIL(psi, dpsi, num_inducing=inducing, kernel_ls=float(d),
                               kernel_var=0.5, lr=0.01, max_opt_epochs=200, normalize=True,
                               update_hyperparams=kernel_update, psi_params=params)
        self.trainer_cls = Trainer
        self.max_iters, self.patience = max_iters, patience

    def fit(self, fit_bags, valid_bags):
        xs, ys = [b[0] for b in fit_bags], [b[1] for b in fit_bags]
        self.model.initialize(xs, ys)
        trainer = self.trainer_cls(self.model, 10, self.patience)
        trainer.train(self.max_iters, xs, ys, [b[0] for b in valid_bags],
                      [b[1] for b in valid_bags])
        self.model.set_params(trainer.best_params)

    def predict_instances(self, bags):
        _, y = self.model.predict([b[0] for b in bags])
        return np.asarray(y)


def scores(model, bags, instances):
    p = model.predict_instances(bags)
    pb = bag_scores(p, [len(b[0]) for b in bags])
    yb = np.array([b[1] for b in bags])
    out = {"bag_auc": roc_auc_score(yb, pb), "bag_ece": ece(yb, pb), "bag_ll": log_lik(yb, pb)}
    if instances:
        yi = np.concatenate([b[2] for b in bags])
        out.update(inst_auc=roc_auc_score(yi, p), slice_ece=ece(yi, p), slice_ll=log_lik(yi, p))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("impl", choices=["haussmann-vgpmil", "psi-vgpmil", "psi-gvgpmil"])
    ap.add_argument("checkout")
    ap.add_argument("data", choices=["musk1", "musk2", "rsna"])
    ap.add_argument("--inducing", type=int, default=100)
    ap.add_argument("--max-iters", type=int, default=50)
    ap.add_argument("--patience", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                     "shared", "data"))
    ap.add_argument("--no-kernel-update", action="store_true")
    ap.add_argument("--only", help="run only these splits (comma-separated numbers), e.g. one "
                    "process per split on a slow code; each split's figures do not depend on the others")
    ap.add_argument("--csv", help="write the per-split figures here")
    a = ap.parse_args()
    if a.inducing < 1 or a.max_iters < 1 or a.patience < 1:
        ap.error("--inducing, --max-iters and --patience must be at least 1")
    if not os.path.isdir(a.checkout):
        ap.error(f"{a.checkout}: not a directory (a clone of the upstream repository)")

    d = a.shared
    needed = [os.path.join(d, "splits", "rsna_d8_halves.csv" if a.data == "rsna"
                           else f"{a.data}_5split.csv")]
    needed += ([os.path.join(d, "ich-features", f"{k}_d8_fold{s}.csv") for k in ("rsna", "cq500")
                for s in range(5)] if a.data == "rsna" else [os.path.join(d, "mil", f"{a.data}.csv")])
    missing = [f for f in needed if not os.path.isfile(f)]
    if missing:
        ap.error(f"{missing[0]}: no such file (--shared is the shared data folder, now {d})")
    module = "vgpmil.py" if a.impl == "haussmann-vgpmil" else os.path.join("code", "psiVGPMIL.py")
    if not os.path.isfile(os.path.join(a.checkout, module)):
        ap.error(f"{os.path.join(a.checkout, module)}: no such file ({a.checkout} is not a clone "
                 f"of the repository {a.impl} needs)")
    if a.data == "rsna":
        splits = read_splits(os.path.join(d, "splits", "rsna_d8_halves.csv"))
    else:
        splits = read_splits(os.path.join(d, "splits", f"{a.data}_5split.csv"))
        musk = read_musk(os.path.join(d, "mil", f"{a.data}.csv"))

    if a.only:
        try:
            only = sorted({int(t) for t in a.only.split(",")})
        except ValueError:
            ap.error(f"--only {a.only}: not a comma-separated list of split numbers")
        unknown = [s for s in only if s not in splits]
        if unknown:
            ap.error(f"--only: no split {unknown[0]} in the splits file (it has {sorted(splits)})")
        splits = {s: splits[s] for s in only}

    rows = []
    for s in sorted(splits):
        if a.data == "rsna":
            bags = read_ich(os.path.join(d, "ich-features", f"rsna_d8_fold{s}.csv"))
            external = read_ich(os.path.join(d, "ich-features", f"cq500_d8_fold{s}.csv"))
        else:
            bags, external = musk, None
        role = {r: [bags[b] for b in ids] for r, ids in splits[s].items()}
        dim = role["fit"][0][0].shape[1]
        # Both codes draw their inducing points with OpenCV's k-means (random centres) from its
        # global generator: seeding it per split, like numpy's, makes a split's figures depend on
        # (seed, split) alone, not on the splits run before it in the same process (--only).
        np.random.seed(a.seed + s)
        cv2.setRNGSeed(a.seed + s)
        if a.impl == "haussmann-vgpmil":
            model = Haussmann(a.checkout, dim, a.inducing, a.max_iters + 10, a.patience)
        else:
            model = Psi(a.checkout, dim, a.inducing, a.max_iters, a.patience,
                        a.impl == "psi-gvgpmil", not a.no_kernel_update)
        t0 = time.perf_counter()
        model.fit(role["fit"], role["valid"])
        row = {"split": s, "n_test": len(role["test"])}
        row.update(scores(model, role["test"], a.data == "rsna"))
        if external is not None:
            ext = scores(model, list(external.values()), False)
            row.update({f"cq500_{k}": v for k, v in ext.items()})
        row["seconds"] = time.perf_counter() - t0
        rows.append(row)
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in row.items()), flush=True)

    keys = [k for k in rows[0] if k not in ("split", "n_test")]
    print(f"{a.impl} on {a.data}, M = {a.inducing}, {len(rows)} splits (mean ± sd):")
    for k in keys:
        v = np.array([r[k] for r in rows])
        if k == "seconds":
            print(f"  seconds: {v.sum():.1f} in all")
        else:
            print(f"  {k}: {v.mean():.4f} ± {v.std(ddof=1):.4f}")
    if a.csv:
        tmp = a.csv + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        os.replace(tmp, a.csv)


if __name__ == "__main__":
    main()
