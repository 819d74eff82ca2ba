#!/usr/bin/env python3
"""TensorFlow's scan probabilities of the published SA-DMIL network on DICOM series of any size,
preprocessed as its authors did: HU → `bsb_window` (brain 40/80, subdural 80/200, soft 30/30 as
three channels in [0, 1]) → `cv2.resize(…, (512, 512), interpolation=cv2.INTER_LINEAR)` on the
windowed floats → the bag padded to 57 with all-zero slices → the network in eval mode.

  python3 scripts/bench/sa-dmil-tf-reference.py CHECKPOINT DICOM_DIR OUT_JSON [--check REFERENCE_JSON]

CHECKPOINT is the checkpoint prefix (`../shared/data/pretrained/sa-dmil/baseline.ckpt`). Every
series under DICOM_DIR (grouped by SeriesInstanceUID) is one scan; OUT_JSON maps each series UID
to {patient_id, probability, slices, rows, cols}. `--check` first runs the RSNA example slice of
`reference_tf.json` (cases a and d) and stops if this forward pass does not reproduce the
TensorFlow outputs recorded there, so the numbers written come from the same network.

The forward pass is written with TensorFlow's own ops on the checkpoint's variables (read with
`tf.train.load_checkpoint`): convolution with bias → ReLU → batch norm (ε = 0.001, moving
statistics) → 2×2 max-pool, six blocks; flatten (h, w, c); gated attention
`softmax((tanh(hV) ⊙ sigmoid(hU)) w)` over the padded bag; Dense 128; Dense 1; sigmoid
(`../shared/data/pretrained/sa-dmil/README.md`).

The fixture `crates/ich/tests/fixtures/sa_dmil_ctich256_tf.json` was made by this script from the
DICOM series that `crates/ich/tests/imported.rs` writes (run that test with
`ICH_CTICH256_DICOM=DIR` to keep them in DIR).

needs: tensorflow-cpu, opencv-python-headless, pydicom, numpy
"""
import argparse, glob, json, os, sys

import cv2
import numpy as np
import pydicom
import tensorflow as tf

PAD = 57


def windows(hu):
    brain = np.clip(hu, 0, 80) / 80
    sub = (np.clip(hu, -20, 180) + 20) / 200
    soft = (np.clip(hu, 15, 45) - 15) / 30
    return np.stack([brain, sub, soft], axis=-1).astype(np.float32)


def authors_input(hu):
    """The notebook's order: window, then resize the windowed floats."""
    x = windows(hu)
    if x.shape[:2] != (512, 512):
        x = cv2.resize(x, (512, 512), interpolation=cv2.INTER_LINEAR)
    return x


class Net:
    def __init__(self, ckpt):
        r = tf.train.load_checkpoint(ckpt)
        v = lambda n, a: tf.constant(
            r.get_tensor(f"layer_with_weights-{n}/{a}/.ATTRIBUTES/VARIABLE_VALUE"))
        self.blocks = []
        for b in range(6):
            c, n = 2 * b, 2 * b + 1
            self.blocks.append((v(c, "kernel"), v(c, "bias"), v(n, "gamma"), v(n, "beta"),
                                v(n, "moving_mean"), v(n, "moving_variance")))
        self.V, self.U, self.w = v(12, "v"), v(12, "u"), v(12, "w")
        self.d1 = (v(13, "kernel"), v(13, "bias"))
        self.d2 = (v(14, "kernel"), v(14, "bias"))

    def features(self, x):
        h = tf.constant(x)
        for i, (k, b, g, be, m, var) in enumerate(self.blocks):
            h = tf.nn.conv2d(h, k, strides=1, padding="SAME" if i == 0 else "VALID") + b
            h = tf.nn.relu(h)
            h = g * (h - m) / tf.sqrt(var + 1e-3) + be
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        return tf.reshape(h, (h.shape[0], -1))

    def probability(self, slices, pad=True):
        """`slices`: [n, 512, 512, 3] float32; the bag padded to 57 as the authors did."""
        n = slices.shape[0]
        if pad and n < PAD:
            slices = np.concatenate([slices, np.zeros((PAD - n, 512, 512, 3), np.float32)])
        hs = [self.features(slices[i:i + 8]) for i in range(0, slices.shape[0], 8)]
        h = tf.concat(hs, axis=0)
        s = tf.matmul(tf.tanh(h @ self.V) * tf.sigmoid(h @ self.U), self.w)
        a = tf.nn.softmax(tf.reshape(s, (1, -1)), axis=-1)
        pooled = a @ h
        z = (pooled @ self.d1[0] + self.d1[1]) @ self.d2[0] + self.d2[1]
        return float(tf.sigmoid(z)[0, 0])


def hu_of(ds):
    px = ds.pixel_array.astype(np.float64)
    return px * float(getattr(ds, "RescaleSlope", 1)) + float(getattr(ds, "RescaleIntercept", 0))


def check(net, ref_path):
    ref = json.load(open(ref_path))
    dcm = os.path.join(os.path.dirname(ref_path), "ID_000012eaf.dcm")
    x = authors_input(hu_of(pydicom.dcmread(dcm)))[None]
    for case, pad in (("a", False), ("d", True)):
        want = ref["models"]["baseline"][case]["probability"]
        got = net.probability(x, pad)
        print(f"check case {case}: {got:.8f} vs recorded {want:.8f}", file=sys.stderr)
        if abs(got - want) > 1e-5 * max(1.0, abs(want)) + 1e-7:
            sys.exit(f"the forward pass does not reproduce {ref_path} case {case}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("dicom")
    ap.add_argument("out")
    ap.add_argument("--check")
    a = ap.parse_args()
    net = Net(a.checkpoint)
    if a.check:
        check(net, a.check)
    series = {}
    for f in sorted(glob.glob(os.path.join(a.dicom, "**", "*.dcm"), recursive=True)):
        ds = pydicom.dcmread(f)
        z = float(ds.ImagePositionPatient[2]) if "ImagePositionPatient" in ds else 0.0
        series.setdefault(str(ds.SeriesInstanceUID), []).append((z, ds))
    out = {}
    for uid, sl in sorted(series.items()):
        sl.sort(key=lambda t: t[0])
        x = np.stack([authors_input(hu_of(ds)) for _, ds in sl])
        p = net.probability(x)
        rows, cols = sl[0][1].Rows, sl[0][1].Columns
        out[uid] = {"patient_id": str(sl[0][1].PatientID), "probability": p,
                    "slices": len(sl), "rows": rows, "cols": cols}
        print(f"{uid}: {len(sl)} slices {rows}x{cols}: {p:.6f}", file=sys.stderr)
    json.dump({"about": "TensorFlow " + tf.__version__ + " on the authors' preprocessing "
               "(window, then cv2 INTER_LINEAR to 512, bag padded to 57); "
               "scripts/bench/sa-dmil-tf-reference.py", "checkpoint": os.path.basename(a.checkpoint),
               "scans": out}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
