#!/usr/bin/env python3
"""ct-ich held out: does `ich predict` with a bundle adapted on some patients give, on patients
never used to adapt, what the adaptation's report promised? (docs/BENCHMARKS.md, "A new hospital")

  split CT_ICH_DICOM OUT        OUT/A (21 patients, 9 with a bleed) and OUT/B (the other 20), each
                                with its labels.csv and slice_labels.csv (to_dicom.py's output in)
  check ADAPT_JSON REPORT_JSON  A's cross-validated figures with 95 % intervals (bootstrap over its
                                patients) against B's figures from `ich predict --labels`

  ich adapt --model SA OUT/A --labels OUT/A/labels.csv --labels OUT/A/slice_labels.csv --out SITE_A
  ich predict --model SITE_A OUT/B --labels OUT/B/labels.csv --labels OUT/B/slice_labels.csv \
      --out REP_B --no-html --no-dicom
needs: numpy
"""
import csv, json, os, shutil, sys

import numpy as np


def split(src, out):
    rows = list(csv.DictReader(open(os.path.join(src, "labels.csv"))))
    srows = list(csv.DictReader(open(os.path.join(src, "slice_labels.csv"))))
    pos = [r for r in rows if r["label"] == "1"]
    neg = [r for r in rows if r["label"] == "0"]
    for name, part in (("A", pos[0::2] + neg[0::2]), ("B", pos[1::2] + neg[1::2])):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        scans = {r["scan"] for r in part}
        for sc in scans:
            if not os.path.exists(os.path.join(d, sc)):
                shutil.copytree(os.path.join(src, sc), os.path.join(d, sc))
        for f, rs in (("labels.csv", part), ("slice_labels.csv", [r for r in srows if r["scan"] in scans])):
            with open(os.path.join(d, f), "w", newline="") as fh:
                w = csv.DictWriter(fh, fieldnames=(rows if f == "labels.csv" else srows)[0].keys())
                w.writeheader()
                w.writerows(rs)
        print(name, len(part), "scans,", sum(r["label"] == "1" for r in part), "positive")


def auc(y, p):
    y, p = np.asarray(y), np.asarray(p)
    pos, neg = p[y == 1], p[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        return None
    return (pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()


def ece(y, p, b=10):
    y, p = np.asarray(y, float), np.asarray(p, float)
    idx = np.minimum((p * b).astype(int), b - 1)
    return sum((idx == k).sum() / len(p) * abs(y[idx == k].mean() - p[idx == k].mean())
               for k in range(b) if (idx == k).any())


def figs(sc):
    y, p = [s[0] for s in sc], [s[1] for s in sc]
    sl = [x for s in sc for x in s[2]]
    sy, sp = [l for l, _ in sl], [q for _, q in sl]
    return dict(scan_auc=auc(y, p), scan_ece=ece(y, p), slice_auc=auc(sy, sp), slice_ece=ece(sy, sp))


def check(adapt_json, report_json):
    a, rep = json.load(open(adapt_json)), json.load(open(report_json))
    scans = [(p["label"], p["p"][0],
              [(l, s[0]) for l, s in zip(p["slice_labels"], p["slices"]) if l is not None])
             for p in a["predictions"]]
    held = [(s["label"], s["probability"],
             [(x["label"], x["probability"]) for x in s["slices"] if x.get("label") is not None])
            for s in rep["scans"]]
    rng = np.random.default_rng(0)
    boots = [figs([scans[i] for i in rng.integers(0, len(scans), len(scans))]) for _ in range(1000)]
    fa, fb = figs(scans), figs(held)
    print(f"A: {a['scans']} scans, chosen: {a['chosen']}; B: {len(held)} scans")
    for k in fa:
        lo, hi = np.quantile([b[k] for b in boots if b[k] is not None], [0.025, 0.975])
        where = "inside" if lo <= fb[k] <= hi else "OUTSIDE"
        print(f"{k:10s} A cross-validated {fa[k]:.3f} (95 % {lo:.3f}-{hi:.3f})  B {fb[k]:.3f}  {where}")
    flagged = sum(bool(s.get("out_of_distribution", {}) and s["out_of_distribution"]["flagged"])
                  for s in rep["scans"])
    print(f"B out-of-distribution flags: {flagged} of {len(held)}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
