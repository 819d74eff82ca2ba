#!/usr/bin/env python3
"""The NIfTI yardstick for `ich preprocess`: what a researcher writes today for NIfTI head CT,
nibabel to read, then exactly the windowing and resizing of ../shared/bench/pydicom_preprocess.py
(brain 40/80, blood 80/200, soft tissue 40/380; OpenCV area resize; uint8 [slices, 3, size, size],
one compressed .npz per scan). Volumes are brought to the closest canonical orientation
(nib.as_closest_canonical) and sliced along the inferior-superior axis, inferior first.

usage: nifti-yardstick.py IN_DIR OUT_DIR [--size 256] [--procs 1]
       nifti-yardstick.py --from-dicom DICOM_DIR NIFTI_DIR   (one .nii.gz per series, int16 HU)
needs: pip install numpy nibabel opencv-python-headless (and pydicom for --from-dicom)
"""
import argparse, os
from collections import defaultdict
from multiprocessing import Pool

import cv2
import nibabel as nib
import numpy as np

WINDOWS = [(40, 80), (80, 200), (40, 380)]


def do_scan(args):
    path, out, size = args
    img = nib.as_closest_canonical(nib.load(path))
    vol = img.get_fdata(dtype=np.float32)
    n = vol.shape[2]
    arr = np.empty((n, 3, size, size), np.uint8)
    for k in range(n):
        hu = np.ascontiguousarray(vol[::-1, ::-1, k].T)  # DICOM layout: rows A->P, columns R->L
        r = cv2.resize(hu, (size, size), interpolation=cv2.INTER_AREA)
        for c, (l, w) in enumerate(WINDOWS):
            lo = l - w / 2
            arr[k, c] = np.clip((r - lo) / w * 255.0 + 0.5, 0, 255).astype(np.uint8)
    name = os.path.basename(path).split(".")[0]
    np.savez_compressed(os.path.join(out, name + ".npz"), pixels=arr)
    return n


def from_dicom(src, dst):
    import pydicom
    series = defaultdict(list)
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".dcm"):
                d = pydicom.dcmread(os.path.join(root, f))
                series[str(d.SeriesInstanceUID)].append(d)
    os.makedirs(dst, exist_ok=True)
    for i, (uid, ds) in enumerate(sorted(series.items())):
        ds.sort(key=lambda d: float(d.ImagePositionPatient[2]))
        hu = np.stack([d.pixel_array.astype(np.float32) * float(d.RescaleSlope)
                       + float(d.RescaleIntercept) for d in ds])  # (k, row, col)
        vox = np.round(hu).astype(np.int16).transpose(2, 1, 0)  # (i = col, j = row, k)
        dr, dc = (float(x) for x in ds[0].PixelSpacing)
        dz = float(ds[1].ImagePositionPatient[2]) - float(ds[0].ImagePositionPatient[2])
        p0 = [float(x) for x in ds[0].ImagePositionPatient]
        aff = np.array([[-dc, 0, 0, -p0[0]], [0, -dr, 0, -p0[1]], [0, 0, dz, p0[2]], [0, 0, 0, 1]])
        img = nib.Nifti1Image(vox, aff)
        img.header.set_data_dtype(np.int16)
        nib.save(img, os.path.join(dst, f"scan{i:04d}.nii.gz"))
    print(f"{len(series)} series -> {dst}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp"); ap.add_argument("out")
    ap.add_argument("--size", type=int, default=256); ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--from-dicom", action="store_true")
    a = ap.parse_args()
    if a.from_dicom:
        return from_dicom(a.inp, a.out)
    os.makedirs(a.out, exist_ok=True)
    paths = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.inp) for f in fs
                   if f.endswith((".nii", ".nii.gz")))
    with Pool(a.procs) as p:
        n = sum(p.map(do_scan, [(q, a.out, a.size) for q in paths]))
    print(f"{n} slices in {len(paths)} scans")


if __name__ == "__main__":
    main()
