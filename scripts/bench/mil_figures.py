"""Figures shared by the benchmark scripts, computed as `ich` computes them (standard library only).

ece(y, p): expected calibration error, 10 equal-width bins of p: Σ_bins |Σ y − Σ p| / n.
log_lik(y, p): mean Bernoulli log-likelihood, p clipped to [1e-12, 1 − 1e-12].
Imported by scripts/bench/bench-upstream-gp.py (a script's own
folder is on Python's path).
"""
import math


def ece(y, p, bins=10):
    hits = [0.0] * bins
    conf = [0.0] * bins
    n = 0
    for t, q in zip(y, p):
        b = min(int(q * bins), bins - 1)
        hits[b] += float(t)
        conf[b] += float(q)
        n += 1
    return sum(abs(h - c) for h, c in zip(hits, conf)) / n


def log_lik(y, p):
    total, n = 0.0, 0
    for t, q in zip(y, p):
        q = min(max(float(q), 1e-12), 1 - 1e-12)
        total += math.log(q) if t else math.log1p(-q)
        n += 1
    return total / n
