#!/usr/bin/env python3
"""Scan calibration by number of slices, from `ich eval-gp --predictions FILE`.

Usage: python3 scripts/calibration-by-size.py PREDICTIONS.csv [SET] [LO HI]

For the scans of SET (default: external) it prints, per split and as mean ± sd over the splits,
the expected calibration error (10 equal-width bins) of the calibrated scan probabilities and its
floor (the mean ECE of the same probabilities against labels drawn from them: what a perfectly
calibrated predictor would show), for all scans, for those with LO..=HI slices (default 24..=57,
the range of the RSNA training scans) and for the rest; then the reliability of the rest by bin.
Standard library only.
"""
import csv
import random
import statistics
import sys


def ece(labels, probs, bins=10):
    total = 0.0
    for b in range(bins):
        idx = [i for i, p in enumerate(probs) if min(int(p * bins), bins - 1) == b]
        if idx:
            total += abs(sum(labels[i] for i in idx) - sum(probs[i] for i in idx))
    return total / len(labels) if labels else float("nan")


def floor(probs, draws=200, seed=0):
    rng = random.Random(seed)
    return statistics.mean(
        ece([1 if rng.random() < p else 0 for p in probs], probs) for _ in range(draws)
    )


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    which = sys.argv[2] if len(sys.argv) > 2 else "external"
    lo, hi = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (24, 57)
    rows = [r for r in csv.DictReader(open(path, newline="")) if r["set"] == which]
    if not rows:
        sys.exit(f"{path}: no rows of set {which}")
    splits = sorted({int(r["split"]) for r in rows})
    groups = [
        ("all scans", lambda n: True),
        (f"{lo}..={hi} slices", lambda n: lo <= n <= hi),
        ("the others", lambda n: not lo <= n <= hi),
    ]
    print(f"{path}, set {which}, splits {splits}")
    for name, keep in groups:
        es, fs, counts = [], [], []
        for s in splits:
            g = [r for r in rows if int(r["split"]) == s and keep(int(r["instances"]))]
            if not g:
                continue
            labels = [int(r["label"]) for r in g]
            probs = [float(r["probability"]) for r in g]
            es.append(ece(labels, probs))
            fs.append(floor(probs))
            counts.append(len(g))
        if not es:
            continue
        sd = statistics.stdev(es) if len(es) > 1 else 0.0
        n = f"{min(counts)}" if min(counts) == max(counts) else f"{min(counts)}–{max(counts)}"
        print(
            f"{name:<18} {n:>7} scans/split  ECE {statistics.mean(es):.3f} ± {sd:.3f}"
            f"  floor {statistics.mean(fs):.3f}"
        )
    other = [r for r in rows if not lo <= int(r["instances"]) <= hi]
    if other:
        print("the others, all splits together: bin, scans, mean probability, fraction positive")
        for b in range(10):
            g = [r for r in other if min(int(float(r["probability"]) * 10), 9) == b]
            if g:
                mp = statistics.mean(float(r["probability"]) for r in g)
                fp = statistics.mean(int(r["label"]) for r in g)
                print(f"  {b / 10:.1f}–{(b + 1) / 10:.1f} {len(g):>5} {mp:.3f} {fp:.3f}")


if __name__ == "__main__":
    main()
