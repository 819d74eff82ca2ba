#!/usr/bin/env python3
"""Can a slice calibration map be learnt from scan labels alone? Two MIL readings, measured.

usage: python3 scripts/slice-map-mil.py S.csv P.csv     (needs numpy and scipy)

S.csv and P.csv are `ich eval-gp --slice-predictions S.csv --predictions P.csv` on the RSNA
halves. For each split, the test scans are cut into two stratified halves (seeded); each half's
slices get maps fitted on the other half's *scan* labels only (slice labels are used to score,
never to fit):
- noisy-or-platt / noisy-or-beta: a Platt or beta map g of the raw slice probabilities fitted by
  the MIL likelihood with independent slices, P(scan positive) = 1 - prod(1 - g(p_n));
- context-*: the scan's calibrated probability (P.csv) times g(p_n) / (1 - prod(1 - g(p_j))),
  the same map's probability of the slice given that the scan is positive;
- positive-unlabelled: a slice of a positive scan is a mixture of negative slices distributed as
  the slices of negative scans and positive slices whose density ratio is exp(w logit p + w0);
  the mixture weight alpha and (w, w0) by maximum likelihood on "in a positive scan or not", the
  slice's probability the scan's calibrated probability times P(positive | p, positive scan).
Prints slice ECE (10 equal-width bins) and mean log-likelihood per split and their means, beside
ich's own calibrated slice probabilities ("ich").
"""
import collections
import csv
import sys

import numpy as np
from scipy.optimize import minimize

from mil_figures import ece, log_lik as loglik  # this folder's shared figures


def logit(p):
    p = np.clip(np.asarray(p, float), 1e-9, 1 - 1e-9)
    return np.log(p / (1 - p))


def inputs(p, family):
    p = np.clip(np.asarray(p, float), 1e-9, 1 - 1e-9)
    if family == "platt":
        return np.stack([logit(p), np.ones_like(p)], 1)
    return np.stack([np.log(p), -np.log1p(-p), np.ones_like(p)], 1)


def fit_noisy_or(bags, labels, family):
    x = [inputs(b, family) for b in bags]
    t0 = np.array([1.0, 0.0]) if family == "platt" else np.array([1.0, 1.0, 0.0])

    def nll(t):
        total = 0.0
        for xb, y in zip(x, labels):
            s = -np.logaddexp(0, xb @ t).sum()  # log prod(1 - g)
            total += np.log(-np.expm1(s) + 1e-300) if y else s
        return -total + 0.5e-3 * np.sum((t - t0) ** 2)

    return minimize(nll, t0, method="Nelder-Mead",
                    options=dict(maxiter=4000, xatol=1e-6, fatol=1e-8)).x


def fit_pu(bags, labels):
    s = np.concatenate([np.asarray(b) for b in bags])
    z = np.concatenate([[y] * len(b) for b, y in zip(bags, labels)])
    x, npos = logit(s), z.sum()
    nneg = len(z) - npos

    def nll(t):
        a = 1 / (1 + np.exp(-t[0]))
        ratio = (1 - a) + a * np.exp(np.clip(t[1] * x + t[2], -50, 50))
        c = np.clip(npos * ratio / (npos * ratio + nneg), 1e-12, 1 - 1e-12)
        return -np.sum(z * np.log(c) + (1 - z) * np.log(1 - c))

    fits = [minimize(nll, [a0, 1.0, 0.0], method="Nelder-Mead",
                     options=dict(maxiter=5000, xatol=1e-7, fatol=1e-9)) for a0 in (-2, -1, 0)]
    return min(fits, key=lambda r: r.fun).x


def main(slices_csv, bags_csv):
    rows = list(csv.DictReader(open(slices_csv)))
    scan_p = {(r["split"], r["bag"]): float(r["probability"])
              for r in csv.DictReader(open(bags_csv)) if r["set"] == "test"}
    res = collections.defaultdict(list)
    for split in sorted({r["split"] for r in rows}, key=int):
        bags = collections.OrderedDict()
        for r in rows:
            if r["split"] == split and r["set"] == "test":
                bags.setdefault(r["bag"], []).append(r)
        names = list(bags)
        raw = [np.array([float(r["probability_raw"]) for r in bags[n]]) for n in names]
        lab = np.array([max(int(r["label"]) for r in bags[n]) for n in names])
        rng = np.random.default_rng(int(split))
        half = np.zeros(len(names), int)
        for c in (0, 1):
            idx = np.where(lab == c)[0]
            rng.shuffle(idx)
            half[idx[::2]] = 1
        out = collections.defaultdict(list)
        ys = []
        for h in (0, 1):
            tr = [i for i in range(len(names)) if half[i] != h]
            te = [i for i in range(len(names)) if half[i] == h]
            maps = {f: fit_noisy_or([raw[i] for i in tr], lab[tr], f) for f in ("platt", "beta")}
            pu = fit_pu([raw[i] for i in tr], lab[tr])
            a = 1 / (1 + np.exp(-pu[0]))
            print(f"split {split} half {h}: positive-unlabelled alpha {a:.3f}")
            for i in te:
                ys.extend(int(r["label"]) for r in bags[names[i]])
                out["ich"].extend(float(r["probability"]) for r in bags[names[i]])
                ps = scan_p[(split, names[i])]
                for f, t in maps.items():
                    g = 1 / (1 + np.exp(-(inputs(raw[i], f) @ t)))
                    out["noisy-or-" + f].extend(g)
                    out["context-" + f].extend(ps * g / (1 - np.prod(1 - g)))
                r = np.exp(np.clip(pu[1] * logit(raw[i]) + pu[2], -50, 50))
                out["positive-unlabelled"].extend(ps * a * r / ((1 - a) + a * r))
        for k, p in out.items():
            res[k].append((ece(ys, p), loglik(ys, p)))
        print(f"split {split}: " + ", ".join(f"{k} {v[-1][0]:.4f} / {v[-1][1]:.4f}"
                                             for k, v in res.items()))
    for k, v in res.items():
        m = np.mean(np.array(v), 0)
        print(f"{k:<22} slice ECE {m[0]:.4f}  log-lik {m[1]:.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(*sys.argv[1:3])
