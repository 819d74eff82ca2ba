#!/usr/bin/env python3
"""Does "unsure" earn its place? Intervals for the figures of `ich adapt`'s report (adapt.json,
`unsure`): a paired bootstrap over scans (one scan a patient on ct-ich; a scan's slices go with
it), 1,000 draws, seeded.

    python3 scripts/investigations/unsure-bootstrap.py SITE/adapt.json

Prints, for scans and for labelled slices: the unsure calls' error rate minus the sure ones'
(called at 0.5), and at each share set aside the error rate and AUC of the cases kept when the
model's own spread chooses them (|p - 0.5| / sd, smallest first) minus when the distance from
0.5 alone does (|p - 0.5|), each with its 95 % interval. Standard library only.
"""
import json
import math
import random
import sys

SHARES = [0.1, 0.2, 0.3, 0.4, 0.5]
T, SD = 0.5, 0.1


def unsure(c):
    _, (p, sd, lo, hi) = c
    return (lo < T <= hi) or sd >= SD


def error(cases):
    return sum((c[1][0] >= T) != (c[0] == 1) for c in cases) / len(cases) if cases else float("nan")


def auc(cases):
    pos = [c[1][0] for c in cases if c[0] == 1]
    neg = [c[1][0] for c in cases if c[0] == 0]
    if not pos or not neg:
        return float("nan")
    s = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum, i = 0.0, 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and s[j + 1][0] == s[i][0]:
            j += 1
        r = (i + j) / 2 + 1
        rank_sum += r * sum(1 for k in range(i, j + 1) if s[k][1] == 1)
        i = j + 1
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def kept(cases, share, key):
    aside = int(math.floor(share * len(cases) + 0.5))
    return sorted(cases, key=key)[aside:]


def by_model(c):
    p, sd = c[1][0], c[1][1]
    d = abs(p - T)
    return (d / sd if sd > 0 else math.inf, d)


def by_distance(c):
    return abs(c[1][0] - T)


def figures(cases):
    un = [c for c in cases if unsure(c)]
    su = [c for c in cases if not unsure(c)]
    out = {"unsure - sure error": error(un) - error(su)}
    for s in SHARES:
        m, d = kept(cases, s, by_model), kept(cases, s, by_distance)
        out[f"{int(s * 100)} % aside: error, model - distance"] = error(m) - error(d)
        out[f"{int(s * 100)} % aside: AUC, model - distance"] = auc(m) - auc(d)
    return out


def main():
    r = json.load(open(sys.argv[1]))
    u = r["unsure"]
    preds = u["predictions"]
    print(f"heads per fold: {', '.join(u['heads'])}")
    for what in ("scans", "slices"):
        def cases_of(ps):
            if what == "scans":
                return [(p["label"], p["p"]) for p in ps]
            return [(l, s) for p in ps for l, s in zip(p["slice_labels"], p["slices"]) if l is not None]

        cases = cases_of(preds)
        n_unsure = sum(unsure(c) for c in cases)
        print(f"\n{what}: {len(cases)} cases, {sum(c[0] for c in cases)} positive, {n_unsure} unsure")
        point = figures(cases)
        rng = random.Random(0)
        draws = {k: [] for k in point}
        for _ in range(1000):
            sample = [preds[rng.randrange(len(preds))] for _ in preds]
            f = figures(cases_of(sample))
            for k, v in f.items():
                if not math.isnan(v):
                    draws[k].append(v)
        for k, v in point.items():
            d = sorted(draws[k])
            if math.isnan(v) or len(d) < 100:
                print(f"  {k:40s} –")
                continue
            lo, hi = d[int(0.025 * len(d))], d[int(0.975 * len(d)) - 1]
            print(f"  {k:40s} {v:+.3f} (95 % {lo:+.3f} to {hi:+.3f})")


if __name__ == "__main__":
    main()
