#!/usr/bin/env python3
"""DICOM seeds for the `dicom` fuzz target of the hostile classes of docs/ROBUSTNESS.md, made here
from nothing (pydicom): a small CT slice with its standard attributes stored as VR UN, and the same
slice with sequences nested 1,800 deep (once a stack overflow).

    python3 scripts/ci/fuzz-seeds.py OUT_DIR
"""
import struct
import sys
from pathlib import Path

import numpy as np
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.uid import ExplicitVRLittleEndian

CT = "1.2.840.10008.5.1.4.1.1.2"


def slice_(uid: str) -> Dataset:
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = CT
    meta.MediaStorageSOPInstanceUID = uid
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = Dataset()
    ds.file_meta = meta
    ds.SOPClassUID = CT
    ds.SOPInstanceUID = uid
    ds.StudyInstanceUID = "1.2.826.0.1.3680043.10.1.1"
    ds.SeriesInstanceUID = "1.2.826.0.1.3680043.10.1.2"
    ds.Modality = "CT"
    ds.InstanceNumber = 1
    ds.ImagePositionPatient = [0, 0, 0]
    ds.ImageOrientationPatient = [1, 0, 0, 0, 1, 0]
    ds.PixelSpacing = [0.5, 0.5]
    ds.SliceThickness = 5
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = "MONOCHROME2"
    ds.Rows = ds.Columns = 16
    ds.BitsAllocated = 16
    ds.BitsStored = 16
    ds.HighBit = 15
    ds.PixelRepresentation = 1
    ds.RescaleSlope = 1
    ds.RescaleIntercept = -1024
    ds.PixelData = (np.arange(256, dtype=np.int16) * 8).tobytes()
    return ds


def as_un(path: Path) -> None:
    """The file at `path` with its standard geometry and rescale attributes as a router that
    drops VRs leaves them: VR UN (explicit, 4-byte length), the same value bytes."""
    data = path.read_bytes()
    for group, element in [(0x0028, 0x1053), (0x0028, 0x1052), (0x0020, 0x0032),
                           (0x0020, 0x0037), (0x0028, 0x0030), (0x0018, 0x0050)]:
        head = struct.pack("<HH", group, element)
        i = data.index(head, 132)
        length = struct.unpack("<H", data[i + 6:i + 8])[0]
        un = head + b"UN" + b"\0\0" + struct.pack("<I", length)
        data = data[:i] + un + data[i + 8:]
    path.write_bytes(data)


def nested(path: Path, depth: int) -> None:
    """The slice with a ContentSequence (0040,A730) nested `depth` deep, undefined lengths."""
    ds = slice_("1.2.826.0.1.3680043.10.1.4")
    pixels = ds.PixelData
    del ds.PixelData
    ds.save_as(path, enforce_file_format=True)
    sq = struct.pack("<HH2sHI", 0x0040, 0xA730, b"SQ", 0, 0xFFFFFFFF)
    item = struct.pack("<HHI", 0xFFFE, 0xE000, 0xFFFFFFFF)
    close = struct.pack("<HHI", 0xFFFE, 0xE00D, 0) + struct.pack("<HHI", 0xFFFE, 0xE0DD, 0)
    px = struct.pack("<HH2sHI", 0x7FE0, 0x0010, b"OW", 0, len(pixels)) + pixels
    with open(path, "ab") as f:
        f.write((sq + item) * depth + close * depth + px)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    un = out / "un-vr-standard-attributes.dcm"
    slice_("1.2.826.0.1.3680043.10.1.3").save_as(un, enforce_file_format=True)
    as_un(un)
    nested(out / "sequences-nested-1800-deep.dcm", 1800)


if __name__ == "__main__":
    main()
