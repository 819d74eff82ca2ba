#!/usr/bin/env python3
"""One code's figures over several seeds: how far a benchmark figure moves with the random draw.

usage: python3 scripts/seed-means.py FILE [FILE ...]

Every FILE is one run of the same code on the same splits file with another --seed: `ich eval-gp
--json` reports or `scripts/bench-upstream-gp.py --csv` files (not mixed). For every figure they
share, prints the mean over the files of each file's mean over its splits, the standard deviation
(n − 1) of those per-seed means, and their range. ich's figures are taken as in
scripts/paired-splits.py (AUCs before the map, ECE and log-likelihood after it). Both codes draw
their inducing points at random (k-means), so a single seed's figure on a few small test sets
(MUSK's 18–21 bags) can differ from another seed's by more than the difference between codes.
Standard library only.
"""
import importlib.util
import os
import statistics
import sys

spec = importlib.util.spec_from_file_location(
    "paired_splits", os.path.join(os.path.dirname(os.path.abspath(__file__)), "paired-splits.py"))
paired = importlib.util.module_from_spec(spec)
spec.loader.exec_module(paired)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if len(argv) > 1 else 2
    kinds = {f.endswith(".json") for f in argv[1:]}
    if len(kinds) > 1:
        paired.fail("ich reports (.json) and upstream CSVs mixed: give one code's runs")
    read = paired.read_ich if kinds == {True} else paired.read_upstream
    runs = [read(f) for f in argv[1:]]
    splits = sorted(runs[0])
    for f, r in zip(argv[1:], runs):
        if sorted(r) != splits:
            paired.fail(f"{f}: splits {sorted(r)}, but {argv[1]} has {splits}")
    names = [n for n, _, _ in paired.FIGURES if all(n in s for r in runs for s in r.values())]
    if not names:
        paired.fail("no figure in common")
    print(f"{len(runs)} runs × {len(splits)} splits: mean over runs of the split means "
          "(sd of the run means; range)")
    for n in names:
        means = [statistics.mean(r[s][n] for s in splits) for r in runs]
        sd = statistics.stdev(means) if len(means) > 1 else float("nan")
        print(f"  {n:14} {statistics.mean(means):.4f}  (sd {sd:.4f}; {min(means):.4f} – "
              f"{max(means):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
