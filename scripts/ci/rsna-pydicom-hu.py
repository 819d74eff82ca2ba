#!/usr/bin/env python3
"""pydicom's Hounsfield units of every file of ../shared/data/dicom-rsna, as the fixture
crates/preprocess/tests/rsna.rs compares ich's with: per file (by SOP Instance UID) its rows,
columns, and the sum, minimum, maximum and SHA-256 (int32 little-endian) of
pixel_array * RescaleSlope + RescaleIntercept. Run: python3 scripts/ci/rsna-pydicom-hu.py > tests/data/rsna-pydicom-hu.json
(pydicom 3 from PyPI)."""
import hashlib, json, os, sys
import numpy as np
import pydicom

root = os.environ.get("ICH_SHARED_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))
series = os.path.join(root, "dicom-rsna", "ID_3d2ee1643b")
out = {"pydicom": pydicom.__version__, "files": {}}
for name in sorted(os.listdir(series)):
    ds = pydicom.dcmread(os.path.join(series, name))
    hu = ds.pixel_array.astype(np.int64) * int(float(ds.RescaleSlope)) + int(float(ds.RescaleIntercept))
    hu = hu.astype("<i4")
    out["files"][name] = {
        "sop_instance_uid": str(ds.SOPInstanceUID),
        "rows": int(ds.Rows),
        "cols": int(ds.Columns),
        "sum": int(hu.astype(np.int64).sum()),
        "min": int(hu.min()),
        "max": int(hu.max()),
        "sha256": hashlib.sha256(hu.tobytes()).hexdigest(),
    }
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
