#!/usr/bin/env python3
"""Scan ECE of `ich eval-gp --predictions P.csv` pooled over its splits, beside each split's.

usage: python3 scripts/ece-pooled.py P.csv [DRAWS] [TARGET]

For each set (test, external) and for each split, then for all splits' predictions together:
the ECE of the calibrated probabilities (10 equal-width bins, as ich's), its floor (the mean ECE
of labels drawn from the probabilities themselves, h ~ Bernoulli(p)) and the p-value of the
observed ECE under calibration ((1 + #{draw ECE >= ECE}) / (DRAWS + 1)), seeded, and the share of
those draws whose ECE is at most TARGET (default 0.05): how often a perfectly calibrated model
would meet an ECE target on this many predictions. The pooled row
has more predictions, so a lower floor, than any one split; on the RSNA halves the test halves of
different splits overlap (the same scan can be tested in several splits), so its predictions are
not independent scans. Python's own RNG: floors and p-values agree with ich's only to Monte Carlo
noise.
"""
import csv
import random
import sys

from mil_figures import ece  # this folder's shared figures


def consistency(y, p, draws, seed, target):
    e = ece(y, p)
    rng = random.Random(seed)
    total, at_least, within = 0.0, 0, 0
    for _ in range(draws):
        d = ece([1 if rng.random() < q else 0 for q in p], p)
        total += d
        at_least += d >= e
        within += d <= target
    return e, total / draws, (1 + at_least) / (draws + 1), within / draws


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    draws = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    target = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    print(f"set       split  n     ECE     floor   p      calibrated ECE <= {target}")
    for s in ("test", "external"):
        rs = [r for r in rows if r["set"] == s]
        if not rs:
            continue
        splits = sorted({int(r["split"]) for r in rs})
        for k in splits + ["all"]:
            t = rs if k == "all" else [r for r in rs if int(r["split"]) == k]
            y = [int(r["label"]) for r in t]
            p = [float(r["probability"]) for r in t]
            e, f, pv, ok = consistency(y, p, draws, 0 if k == "all" else k + 1, target)
            print(f"{s:<9} {k!s:<6} {len(p):<5} {e:.4f}  {f:.4f}  {pv:.3f}  {ok:.2f}")


if __name__ == "__main__":
    main()
