#!/usr/bin/env python3
"""Paired per-split differences between `ich eval-gp --json` and the upstream codes' per-split CSVs.

usage: python3 scripts/bench/paired-splits.py ICH.json UPSTREAM.csv [UPSTREAM.csv ...]

ICH.json      the report of `ich eval-gp --splits FILE ... --json ICH.json`
UPSTREAM.csv  the `--csv` file of `scripts/bench/bench-upstream-gp.py` on the same splits file

For every figure both sides have (bag AUC, ECE and log-likelihood on the test bags; on the RSNA
halves also instance AUC, slice ECE and log-likelihood, and the CQ500 bag figures), prints, per
upstream file, the mean ± sd (n − 1) of the per-split differences ich − upstream and in how many
splits ich is better (higher AUC and log-likelihood, lower ECE); then the same against the
upstream code whose mean is best on that figure. ich's AUCs are of its reported probabilities
before the map (as the issue's and the upstream codes' are), its ECE and log-likelihood after
the map (what its reports show). Splits are matched by number; a split missing on either side, a
different number of test bags in a split (the CSV's n_test, written since 2026-11-24's tenth
session) or slice figures on one side only is an error, so that a difference is never taken over
different sets of bags. Standard library only.
"""
import csv
import json
import math
import os
import sys

# upstream CSV column -> (path in an ich split record, higher is better)
FIGURES = [
    ("bag_auc", ("test", "bag", "auc"), True),
    ("bag_ece", ("test", "bag_calibrated", "ece"), False),
    ("bag_ll", ("test", "bag_calibrated", "log_likelihood"), True),
    ("inst_auc", ("test", "instance", "auc"), True),
    ("slice_ece", ("test", "instance_calibrated", "ece"), False),
    ("slice_ll", ("test", "instance_calibrated", "log_likelihood"), True),
    ("cq500_bag_auc", ("external", "bag", "auc"), True),
    ("cq500_bag_ece", ("external", "bag_calibrated", "ece"), False),
    ("cq500_bag_ll", ("external", "bag_calibrated", "log_likelihood"), True),
]


def fail(msg):
    print(f"paired-splits: {msg}", file=sys.stderr)
    sys.exit(2)


def lookup(record, path):
    for key in path:
        if not isinstance(record, dict) or record.get(key) is None:
            return None
        record = record[key]
    return float(record)


def read_ich(path):
    try:
        with open(path) as f:
            report = json.load(f)
        splits = report["report"]["splits"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not an `ich eval-gp --json` report ({e})")
    out = {}
    try:
        for s in splits:
            figures = {name: lookup(s, p) for name, p, _ in FIGURES}
            figures["n_test"] = lookup(s, ("test", "n_bags"))
            out[int(s["split"])] = {k: v for k, v in figures.items() if v is not None}
    except (KeyError, TypeError, ValueError) as e:
        fail(f"{path}: a split record without its number or with a figure that is not a number ({e})")
    if not out:
        fail(f"{path}: no splits")
    return out


def read_upstream(path):
    out = {}
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                out[int(row["split"])] = {
                    k: float(v) for k, v in row.items() if k not in ("split", "seconds") and v != ""
                }
    except (OSError, ValueError, KeyError) as e:
        fail(f"{path}: not a bench-upstream-gp.py --csv file ({e})")
    if not out:
        fail(f"{path}: no splits")
    return out


def paired(ich, up, name, higher):
    diffs = [ich[s][name] - up[s][name] for s in sorted(ich)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else float("nan")
    better = sum(1 for d in diffs if (d > 0 if higher else d < 0))
    return mean, sd, better, n


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    ich = read_ich(argv[1])
    ups = {}
    for path in argv[2:]:
        up = read_upstream(path)
        if sorted(up) != sorted(ich):
            fail(f"{path}: splits {sorted(up)}, but {argv[1]} has {sorted(ich)}")
        for s in sorted(up):
            n_up, n_ich = up[s].pop("n_test", None), ich[s].get("n_test")
            if n_up is not None and n_ich is not None and n_up != n_ich:
                fail(f"{path}: split {s} has {n_up:.0f} test bags, {argv[1]} {n_ich:.0f}: "
                     "not the same data set or splits file")
        if ("inst_auc" in up[min(up)]) != ("inst_auc" in ich[min(ich)]):
            fail(f"{path} and {argv[1]}: one has slice labels, the other not: "
                 "not the same data set")
        ups[os.path.basename(path)] = up
    names = [
        (name, higher)
        for name, _, higher in FIGURES
        if all(name in r for r in ich.values())
        and all(name in r for up in ups.values() for r in up.values())
    ]
    if not names:
        fail("no figure in common")
    print(f"ich − upstream, per split ({len(ich)} splits): mean ± sd, splits where ich is better")
    for label, up in ups.items():
        print(f"against {label}:")
        for name, higher in names:
            m, sd, better, n = paired(ich, up, name, higher)
            print(f"  {name:14} {m:+.4f} ± {sd:.4f}  ({better} of {n})")
    if len(ups) > 1:
        print("against the best upstream code on each figure (by its mean):")
        for name, higher in names:
            means = {
                label: sum(r[name] for r in up.values()) / len(up) for label, up in ups.items()
            }
            best = (max if higher else min)(means, key=means.get)
            m, sd, better, n = paired(ich, ups[best], name, higher)
            print(f"  {name:14} {m:+.4f} ± {sd:.4f}  ({better} of {n})  [{best}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
