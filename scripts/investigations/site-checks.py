#!/usr/bin/env python3
"""Two checks behind docs/BENCHMARKS.md's "A new hospital: ct-ich" section.

  zoom SRC OUT FACTOR   rewrites a ct-ich DICOM folder (to_dicom.py's output) with every slice
                        zoomed about its centre by FACTOR (> 1: the head larger in the frame, the
                        centre 1/FACTOR cropped; < 1: smaller, padded with air), OpenCV bilinear;
                        labels.csv and slice_labels.csv copied. Then `ich predict` on it shows
                        whether the field of view explains the imported network's calls.
  mil ADAPT_JSON        from `ich adapt`'s report (every scan's held-out network outputs), fits a
                        parametric MIL head by maximum likelihood on scan labels only (slice
                        probability sigmoid(w . x + b) of the slice's logit, optionally the
                        network's scan logit and the slice's position; scan probability by max or
                        noisy-OR), 5-fold stratified cross-validation (seed 0), and prints scan
                        and slice AUC and ECE: what a head on this evidence can reach at all.

needs: numpy, scipy, scikit-learn (mil); numpy, pydicom, opencv-python-headless (zoom)
"""
import glob, json, os, shutil, sys

import numpy as np


def zoom(src, out, z):
    import cv2
    import pydicom
    os.makedirs(out, exist_ok=True)
    for f in ("labels.csv", "slice_labels.csv"):
        shutil.copy(os.path.join(src, f), out)
    for sc in sorted(glob.glob(os.path.join(src, "ctich_*"))):
        od = os.path.join(out, os.path.basename(sc))
        os.makedirs(od, exist_ok=True)
        for f in sorted(glob.glob(os.path.join(sc, "*.dcm"))):
            d = pydicom.dcmread(f)
            h = d.pixel_array.astype(np.float32)
            n = h.shape[0]
            if z > 1:
                c = int(round(n / z))
                o = (n - c) // 2
                h2 = cv2.resize(h[o:o + c, o:o + c], (n, n), interpolation=cv2.INTER_LINEAR)
            else:
                c = int(round(n * z))
                o = (n - c) // 2
                h2 = np.full((n, n), -1000, np.float32)
                h2[o:o + c, o:o + c] = cv2.resize(h, (c, c), interpolation=cv2.INTER_LINEAR)
            d.PixelData = np.round(np.clip(h2, -1024, 3071)).astype(np.int16).tobytes()
            d.save_as(os.path.join(od, os.path.basename(f)))


def ece(y, p, b=10):
    y, p = np.asarray(y, float), np.asarray(p, float)
    k = np.minimum((p * b).astype(int), b - 1)
    return sum(abs(p[k == i].sum() - y[k == i].sum()) for i in range(b)) / len(y)


def mil(path):
    from scipy.optimize import minimize
    from sklearn.metrics import roc_auc_score
    preds = json.load(open(path))["predictions"]
    lg = lambda p: np.log(np.clip(p, 1e-9, 1 - 1e-9) / (1 - np.clip(p, 1e-9, 1 - 1e-9)))
    scans = []
    for p in preds:
        sl = lg(np.array(p["cnn_slices"]))
        n = len(sl)
        scans.append(dict(y=p["label"], sl=sl, sc=lg(p["cnn"]), pos=np.arange(n) / max(n - 1, 1),
                          sy=np.array([-1 if v is None else v for v in p["slice_labels"]])))

    def feats(s, kind):
        cols = [s["sl"]]
        if "scan" in kind:
            cols.append(np.full_like(s["sl"], s["sc"]))
        if "position" in kind:
            cols += [s["pos"], (s["pos"] - 0.5) ** 2]
        return np.stack(cols, 1)

    def fit(train, kind, rule):
        X = [feats(s, kind) for s in train]
        y = np.array([s["y"] for s in train])
        mu, sd = np.concatenate(X).mean(0), np.concatenate(X).std(0) + 1e-9
        X = [(x - mu) / sd for x in X]

        def nll(w):
            tot = 0.0
            for x, yy in zip(X, y):
                q = 1 / (1 + np.exp(-(x @ w[:-1] + w[-1])))
                pb = 1 - np.prod(1 - q) if rule == "noisy-or" else q.max()
                pb = np.clip(pb, 1e-9, 1 - 1e-9)
                tot -= yy * np.log(pb) + (1 - yy) * np.log(1 - pb)
            return tot + 0.5 * np.sum(w[:-1] ** 2)

        w = minimize(nll, np.zeros(X[0].shape[1] + 1), method="Nelder-Mead",
                     options={"maxiter": 4000}).x
        return mu, sd, w

    y = np.array([s["y"] for s in scans])
    rng = np.random.default_rng(0)
    folds = np.zeros(len(scans), int)
    for c in (0, 1):
        idx = np.where(y == c)[0]
        rng.shuffle(idx)
        folds[idx] = np.arange(len(idx)) % 5
    for kind in ["logit", "logit+scan", "logit+position", "logit+scan+position"]:
        for rule in ["max", "noisy-or"]:
            sp, qs, ls = np.zeros(len(scans)), [], []
            for f in range(5):
                mu, sd, w = fit([s for s, g in zip(scans, folds) if g != f], kind, rule)
                for i, s in enumerate(scans):
                    if folds[i] == f:
                        q = 1 / (1 + np.exp(-(((feats(s, kind) - mu) / sd) @ w[:-1] + w[-1])))
                        sp[i] = 1 - np.prod(1 - q) if rule == "noisy-or" else q.max()
                        keep = s["sy"] >= 0
                        qs += list(q[keep])
                        ls += list(s["sy"][keep])
            print(f"{kind:<20} {rule:<8} scan AUC {roc_auc_score(y, sp):.3f} ECE {ece(y, sp):.3f} | "
                  f"slice AUC {roc_auc_score(ls, qs):.3f} ECE {ece(ls, qs):.3f}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "zoom":
        zoom(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif len(sys.argv) == 3 and sys.argv[1] == "mil":
        mil(sys.argv[2])
    else:
        sys.exit(__doc__)
