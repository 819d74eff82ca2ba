#!/usr/bin/env python3
"""A label-shift (prevalence) correction of an external set's scan probabilities, for comparison.

Saerens, Latinne & Decaestecker (2002): the external set's prevalence is estimated by EM from its
own unlabelled probabilities, and each probability re-weighted from the training prevalence to
it. Reads the `--predictions` file of `ich eval-gp ... --test EXTERNAL`; the labels are used only
to score the result (ECE in 10 equal-width bins, mean log-likelihood), per split.

    python3 scripts/prior-shift.py PREDICTIONS.csv [--train-prevalence 0.48]
"""
import argparse
import csv

from mil_figures import ece, log_lik  # this folder's shared figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("predictions")
    ap.add_argument("--train-prevalence", type=float, default=0.48,
                    help="prevalence of the training bags (RSNA fold files: 0.48)")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.predictions)))
    tr = a.train_prevalence
    before, after = [], []
    for k in sorted({r["split"] for r in rows}, key=int):
        ext = [(float(r["probability"]), int(r["label"])) for r in rows
               if r["split"] == k and r["set"] == "external"]
        p, y = [q for q, _ in ext], [t for _, t in ext]
        pi, q = tr, p
        for _ in range(1000):
            w1, w0 = pi / tr, (1 - pi) / (1 - tr)
            q = [w1 * x / (w1 * x + w0 * (1 - x)) for x in p]
            new = sum(q) / len(q)
            if abs(new - pi) < 1e-9:
                break
            pi = new
        before.append(ece(y, p))
        after.append(ece(y, q))
        print(f"split {k}: prevalence estimated {pi:.3f}, true {sum(y) / len(y):.3f}; "
              f"ECE {before[-1]:.4f} -> {after[-1]:.4f}, log-lik {log_lik(y, p):.4f} -> {log_lik(y, q):.4f}")
    print(f"mean ECE {sum(before) / len(before):.4f} -> {sum(after) / len(after):.4f}")


if __name__ == "__main__":
    main()
