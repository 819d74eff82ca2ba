#!/usr/bin/env python3
"""Writes the NIfTI fixtures of crates/preprocess/tests/nifti.rs with nibabel, and what nibabel
makes of them: each volume brought to the closest canonical (RAS) orientation by
`nib.as_closest_canonical`, values through `get_fdata()` (scl_slope/scl_inter applied), then laid
out as a DICOM axial slice shows it (rows anterior -> posterior, columns right -> left), inferior
slice first. ich's reader must give the same slices.

usage: python3 scripts/ci/nifti-fixture.py [OUT_DIR]   (default crates/preprocess/tests/fixtures)
needs: pip install nibabel numpy
"""
import json, os, sys

import nibabel as nib
import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "crates", "preprocess", "tests", "fixtures")
rng = np.random.default_rng(7)


def rot_x(deg):
    t = np.deg2rad(deg)
    return np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])


def case(name, shape, axes, signs, spacing, tilt, form, slope, inter, dtype):
    # stored voxel values; file axis a runs along world axis axes[a] with sign signs[a]
    data = rng.integers(-1000, 1500, size=shape).astype(np.float64)
    stored = np.round((data - inter) / slope).astype(dtype)
    m = np.zeros((3, 3))
    for a in range(3):
        m[axes[a], a] = signs[a] * spacing[a]
    m = rot_x(tilt) @ m
    aff = np.eye(4)
    aff[:3, :3] = m
    aff[:3, 3] = [12.5, -30.0, 41.0]
    img = nib.Nifti1Image(stored, aff)
    img.header.set_data_dtype(dtype)
    img.header.set_slope_inter(slope, inter)
    if form == "qform":
        img.set_qform(aff, code=1)
        img.set_sform(None, code=0)
    else:
        img.set_sform(aff, code=1)
        img.set_qform(None, code=0)
    path = os.path.join(out, name)
    nib.save(img, path)
    back = nib.load(path)
    canon = nib.as_closest_canonical(back)
    v = canon.get_fdata()  # canonical RAS: i toward the patient's right, j anterior, k superior
    # a DICOM axial slice's columns run toward the patient's left (-x in RAS) and its rows toward
    # posterior (-y in RAS): both canonical in-plane axes reversed, rows first
    slices = [v[::-1, ::-1, k].T for k in range(v.shape[2])]
    return {
        "file": name,
        "axcodes": "".join(nib.aff2axcodes(back.affine)),
        "form": form,
        "rows": int(slices[0].shape[0]),
        "cols": int(slices[0].shape[1]),
        "slices": [s.ravel().round(4).tolist() for s in slices],
    }


cases = [
    # stored L-A-S (i runs toward the left), 4 degrees oblique, qform only, uint16 with an offset
    case("nibabel_las_qform.nii.gz", (6, 5, 3), (0, 1, 2), (-1, 1, 1), (0.8, 0.9, 5.0), 4.0,
         "qform", 1.0, -1024.0, np.uint16),
    # sagittal storage (i: superior->inferior, j: posterior->anterior, k: right->left), sform
    # only, float32 scaled by 0.5
    case("nibabel_sagittal_sform.nii", (4, 5, 6), (2, 1, 0), (-1, 1, -1), (5.0, 0.9, 0.8), 0.0,
         "sform", 0.5, 0.0, np.int16),
]
with open(os.path.join(out, "nibabel_slices.json"), "w") as f:
    json.dump({"tool": f"nibabel {nib.__version__}", "cases": cases}, f)
print("\n".join(f"{c['file']}: {c['axcodes']} {c['form']}, {len(c['slices'])} slices "
                f"{c['rows']}x{c['cols']}" for c in cases))
