#!/usr/bin/env python3
"""Are two `ich predict` report folders the same, but for what differs between two runs by design?

    python3 scripts/ci/same-reports.py A B

A and B are folders kept by `scripts/ci/golden-report.sh ICH KEEP_DIR` (KEEP_DIR/report and
KEEP_DIR/W). Every file is compared: text as text, DICOM through dcmtk's `dcmdump +L`. Before the
comparison, each side's own values of what two runs of one binary never share are replaced by a
name: its work folder's path, its run id, its bundle's manifest hash (the bundle records when it
was made), new UIDs (2.25.…), dates and times, the process id, the run mark's file hashes and the
DICOM lengths that follow from those. Anything else that differs, a number, a word, a file more or
less, is printed, and the exit code is 1.
"""
import difflib
import json
import os
import re
import subprocess
import sys


def dump(path):
    try:
        out = subprocess.run(["dcmdump", "+L", path], capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("same-reports: dcmdump not found: install dcmtk (bash scripts/setup-system.sh)")
    if out.returncode != 0:
        sys.exit(f"same-reports: dcmdump could not read {path}: {out.stderr.strip()}")
    return out.stdout


def own_values(keep):
    """This run's values of what differs between runs by design, with the names they become."""
    report = os.path.join(keep, "report")
    work = open(os.path.join(keep, "W"), encoding="utf-8").read().strip()
    run = json.load(open(os.path.join(report, "report.json"), encoding="utf-8"))["run"]
    pairs = [(work, "WORK"), (run, "RUN")]
    srs = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(os.path.join(report, "dicom")) for f in fs
        if f == "sr.dcm"
    )
    if srs:
        m = re.search(r"manifest SHA-256 ([0-9a-f]{64})", dump(srs[0]))
        if m:
            pairs += [(m.group(1), "BUNDLE"), (m.group(1)[:16], "BUNDLE16")]
    return pairs


def normalised(path, pairs):
    if path.endswith(".dcm"):
        t = dump(path)
    else:
        t = open(path, encoding="utf-8", errors="replace").read()
    for value, name in pairs:
        t = t.replace(value, name)
    t = re.sub(r"2\.25\.\d+", "UID", t)
    t = re.sub(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "TIME", t)
    t = re.sub(r"(TM|DT|DA) \[[0-9.+-]+\]", r"\1 [T]", t)
    t = re.sub(r"\] *# *\d+,", "] #,", t)
    t = re.sub(r"(\(0002,0000\) UL) \d+", r"\1 N", t)
    t = re.sub(r'"pid": \d+', '"pid": N', t)
    t = re.sub(r'"sha256": "[0-9a-f]{64}"', '"sha256": "H"', t)
    return t


def files(report):
    return sorted(
        os.path.relpath(os.path.join(d, f), report) for d, _, fs in os.walk(report) for f in fs
    )


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = sys.argv[1], sys.argv[2]
    pa, pb = own_values(a), own_values(b)
    ra, rb = os.path.join(a, "report"), os.path.join(b, "report")
    fa, fb = files(ra), files(rb)
    bad = 0
    for rel in sorted(set(fa) ^ set(fb)):
        print(f"only in {a if rel in fa else b}: {rel}")
        bad += 1
    both = sorted(set(fa) & set(fb))
    for rel in both:
        ta = normalised(os.path.join(ra, rel), pa)
        tb = normalised(os.path.join(rb, rel), pb)
        if ta != tb:
            bad += 1
            print(f"differs: {rel}")
            diff = difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), a, b, n=0)
            sys.stdout.writelines(list(diff)[:12])
    if bad:
        print(f"same-reports: {bad} difference(s) in {len(set(fa) | set(fb))} files")
        sys.exit(1)
    print(f"same-reports: all {len(both)} files the same but for the run's own values")


if __name__ == "__main__":
    main()
