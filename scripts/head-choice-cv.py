#!/usr/bin/env python3
"""Would choosing the GP head per split by cross-validation on its training bags help?

For every outer split of a fixed split file (../shared/data/splits/), the split's training
pool (its `fit` + `valid` bags, never its `test` bags) is cut into 5 stratified inner folds,
each with 20 % of the rest as `valid`, written as a split file of `ich eval-gp --splits`. Every
head configuration is run on the inner splits (the figures a choice may use) and on the outer
splits (the figures a user would see); the script prints each configuration's outer test bag AUC
per split, its mean inner bag AUC / log-likelihood / calibrated log-likelihood, and the outer AUC
of choosing, per outer split, the configuration with the best inner figure.

    python3 scripts/head-choice-cv.py [--ich target/debug/ich] [--out /tmp/head-choice] \
        [--data musk1,musk2,rsna] [--config NAME=ARGS ...]

Default configurations: V0 = VGPMIL, G0 = G-VGPMIL (its α × β grid), both `--kernel-steps 0`.
"""
import argparse
import collections
import csv
import json
import os
import random
import shlex
import statistics as st
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("ICH_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))


def labels(name, k):
    out = {}
    if name.startswith("musk"):
        with open(f"{DATA}/mil/{name}.csv") as f:
            for row in csv.reader(f):
                out[row[1]] = int(row[0])
    else:
        with open(f"{DATA}/ich-features/rsna_d8_fold{k}.csv") as f:
            for row in csv.DictReader(f):
                out[row["bag_name"]] = int(row["bag_label"])
    return out


def outer_file(name):
    return f"{DATA}/splits/" + ("rsna_d8_halves.csv" if name == "rsna" else f"{name}_5split.csv")


def features(name, k):
    if name == "rsna":
        return f"{DATA}/ich-features/rsna_d8_fold{'{split}' if k is None else k}.csv"
    return f"{DATA}/mil/{name}.csv"


def inner_splits(name, out):
    """One inner split file per outer split; the folds are seeded (100 + outer split)."""
    pools = collections.defaultdict(list)
    with open(outer_file(name)) as f:
        for r in csv.DictReader(f):
            if r["role"] != "test":
                pools[int(r["split"])].append(r["bag"])
    paths = {}
    for k, pool in sorted(pools.items()):
        lab = labels(name, k)
        rng = random.Random(100 + k)
        folds = [[] for _ in range(5)]
        for y in (0, 1):
            bags = sorted(b for b in pool if lab[b] == y)
            rng.shuffle(bags)
            for i, b in enumerate(bags):
                folds[i % 5].append(b)
        path = f"{out}/{name}_outer{k}.csv"
        with open(path, "w") as f:
            f.write("split,bag,role\n")
            for j in range(5):
                rest = [b for i in range(5) if i != j for b in folds[i]]
                valid = set()
                for y in (0, 1):
                    bs = sorted(b for b in rest if lab[b] == y)
                    rng.shuffle(bs)
                    valid |= set(bs[: max(1, round(0.2 * len(bs)))])
                for b in folds[j]:
                    f.write(f"{j},{b},test\n")
                for b in rest:
                    f.write(f"{j},{b},{'valid' if b in valid else 'fit'}\n")
        paths[k] = path
    return paths


def run(ich, feats, splits, args, out):
    cmd = [ich, "-q", "eval-gp", "--features", feats, "--splits", splits, *args, "--json", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)["report"]["splits"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ich", default=os.path.join(HERE, "..", "target", "debug", "ich"))
    ap.add_argument("--out", default="/tmp/head-choice")
    ap.add_argument("--data", default="musk1,musk2,rsna")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=ARGS")
    a = ap.parse_args()
    configs = dict(c.split("=", 1) for c in a.config) or {
        "V0": "--kernel-steps 0",
        "G0": "--kernel-steps 0 --model g-vgpmil",
    }
    os.makedirs(a.out, exist_ok=True)
    for name in a.data.split(","):
        paths = inner_splits(name, a.out)
        outer, inner = {}, {}
        for c, args in configs.items():
            args = shlex.split(args)
            res = run(a.ich, features(name, None), outer_file(name), args, f"{a.out}/{name}_{c}_outer.json")
            outer[c] = [s["test"]["bag"]["auc"] for s in res]
            inner[c] = []
            for k, path in sorted(paths.items()):
                ss = run(a.ich, features(name, k), path, args, f"{a.out}/{name}_{c}_inner{k}.json")
                inner[c].append(tuple(st.mean(s["test"][m]["auc" if i == 0 else "log_likelihood"] for s in ss)
                                      for i, m in enumerate(["bag", "bag", "bag_calibrated"])))
        print(name)
        for c in configs:
            print(f"  {c}: outer AUC {st.mean(outer[c]):.4f} (" + " ".join(f"{x:.3f}" for x in outer[c])
                  + ") | inner AUC/LL/LL cal. " + " ".join(f"{x[0]:.3f}/{x[1]:.3f}/{x[2]:.3f}" for x in inner[c]))
        for crit, i in [("AUC", 0), ("log-lik", 1), ("log-lik cal.", 2)]:
            chosen = [max(configs, key=lambda c: inner[c][k][i]) for k in range(len(paths))]
            mean = st.mean(outer[c][k] for k, c in enumerate(chosen))
            print(f"  chosen by inner {crit}: {' '.join(chosen)} -> outer AUC {mean:.4f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
