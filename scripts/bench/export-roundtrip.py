#!/usr/bin/env python3
"""Why does the imported SA-DMIL network call ct-ich scans positive? Tests one suspect: the
ct-ich export (scanner -> brain and bone window JPEGs -> HU rebuilt by to_dicom.py).

Takes the real head CT without hemorrhage in ../shared/data/ct (InVesalius "Cranium", 108 slices
of 1.5 mm at 256²), keeps every 4th slice from the first that shows brain (6 mm apart, like
ct-ich's 5 mm), and writes it three ways, each a DICOM series at 512² (OpenCV bilinear):
  original/   the scanner's HU
  exported/   HU -> brain window (40/120) and bone window (700/3200) as 8-bit JPEG (quality Q)
              -> HU rebuilt exactly as ct-ich's to_dicom.py does
  shrunk/     the original with the head scaled to 80 % of its size (a wider field of view)
  thick/      each slice the mean of 4 consecutive 1.5 mm slices (6 mm thick, as a 5 mm scan
              averages: partial volume)
Then `ich predict --model BUNDLE` on each and prints the network's scan probability and its
highest one-slice probability. Figures in notes/2026-11-25-ct-ich-new-hospital.md ("Why the imported network
calls every scan positive").

usage: python3 scripts/bench/export-roundtrip.py ICH BUNDLE OUT [--quality 90]
needs: numpy, pillow, pydicom, opencv-python-headless
"""
import argparse, gzip, io, json, os, subprocess, sys

import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("ICH_SHARED_DATA", os.path.join(HERE, "..", "..", "..", "shared", "data"))
sys.path.insert(0, os.path.join(SHARED, "ct-ich"))
from to_dicom import hounsfield, write_slice  # noqa: E402  (the rebuild ct-ich's DICOM went through)
from pydicom.uid import generate_uid  # noqa: E402


def window_jpeg(hu, level, width, quality):
    g = np.clip((hu - (level - width / 2)) / width * 255, 0, 255).round().astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(g).save(buf, format="JPEG", quality=quality)
    return Image.open(io.BytesIO(buf.getvalue()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ich")
    ap.add_argument("bundle")
    ap.add_argument("out")
    ap.add_argument("--quality", type=int, default=90)
    a = ap.parse_args()
    raw = gzip.open(os.path.join(SHARED, "ct", "cranium_hu_i16le_108x256x256.raw.gz")).read()
    vol = np.frombuffer(raw, dtype="<i2").reshape(108, 256, 256)[:, ::-1, :].astype(np.float64)
    brain = [z for z in range(108) if ((vol[z] > 20) & (vol[z] < 60)).sum() > 2000]
    results = {}
    zs = list(range(brain[0], 105, 4))
    for variant in ("original", "exported", "shrunk", "thick"):
        d = os.path.join(a.out, variant)
        os.makedirs(os.path.join(d, "scan"), exist_ok=True)
        study = generate_uid(entropy_srcs=[f"roundtrip-study-{variant}"])
        series = generate_uid(entropy_srcs=[f"roundtrip-series-{variant}"])
        for k, z in enumerate(zs):
            hu = vol[z:z + 4].mean(axis=0) if variant == "thick" else vol[z]
            if variant == "exported":
                hu = hounsfield(window_jpeg(hu, 40, 120, a.quality), window_jpeg(hu, 700, 3200, a.quality))
            if variant == "shrunk":
                small = cv2.resize(hu.astype(np.float32), (205, 205), interpolation=cv2.INTER_LINEAR)
                hu = np.full((256, 256), -1000.0)
                hu[25:230, 25:230] = small
            hu = cv2.resize(hu.astype(np.float32), (512, 512), interpolation=cv2.INTER_LINEAR)
            sop = generate_uid(entropy_srcs=[f"roundtrip-{variant}-{z}"])
            write_slice(os.path.join(d, "scan", f"{k:03d}.dcm"), hu, study, series, sop, "cranium", k + 1, 250 / 512)
        rep = os.path.join(d, "report")
        subprocess.run([a.ich, "-q", "predict", "--model", a.bundle, os.path.join(d, "scan"), "--out", rep,
                        "--no-html", "--no-dicom"], check=True)
        s = json.load(open(os.path.join(rep, "report.json")))["scans"][0]
        results[variant] = (s["probability"], max(x["probability"] for x in s["slices"]), s["n_slices"])
    for v, (p, m, n) in results.items():
        print(f"{v:<9} {n} slices: scan probability {p:.4f}, highest one-slice probability {m:.4f}")


if __name__ == "__main__":
    main()
