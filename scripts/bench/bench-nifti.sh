#!/usr/bin/env bash
# Benchmark: reading NIfTI. SCANS synthetic head CTs of SLICES 512² int16 slices, written as
# .nii.gz (nibabel, from `ich synth`'s DICOM), preprocessed to SIZE² by `ich preprocess` and by the
# yardstick scripts/bench/nifti-yardstick.py (nibabel + the windowing and resizing of
# ../shared/bench/pydicom_preprocess.py, 2 worker processes), best of three each, side by side.
# Prints the figures; not a test. Usage: scripts/bench/bench-nifti.sh [SCANS] [SLICES] [SIZE_OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
scans="${1:-8}"; slices="${2:-40}"; out_size="${3:-256}"
cargo build --release --locked -p ich >/dev/null 2>&1
ich="${CARGO_TARGET_DIR:-target}/release/ich"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
if [ ! -x .venv-bench/bin/python ] || ! .venv-bench/bin/python -c "import pydicom, cv2, numpy, nibabel" 2>/dev/null; then
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install -q numpy pydicom opencv-python-headless nibabel
fi
py=.venv-bench/bin/python
"$ich" -q synth --out "$work/dicom" --scans "$scans" --slices "$slices" --size 512 --seed 42 >/dev/null
"$py" scripts/bench/nifti-yardstick.py --from-dicom "$work/dicom" "$work/nifti" >/dev/null
n=$((scans * slices))
echo "input: $n slices in $scans .nii.gz files, $(du -sb "$work/nifti" | cut -f1) bytes"
best() { # best of three wall times of "$@", after removing $out
  local b="" s t0 t1
  for run in 1 2 3; do
    rm -rf "$out"; sync
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
    if [ -z "$b" ] || awk -v s="$s" -v b="$b" 'BEGIN{exit !(s<b)}'; then b=$s; fi
  done
  echo "$b"
}
out="$work/ds"; a=$(best "$ich" -q preprocess "$work/nifti" --out "$out" --size "$out_size")
/usr/bin/time -f "%M" -o "$work/rss" "$ich" -q preprocess "$work/nifti" --out "$work/ds2" --size "$out_size" >/dev/null
out="$work/py"; b=$(best "$py" scripts/bench/nifti-yardstick.py "$work/nifti" "$out" --size "$out_size" --procs 2)
awk -v a="$a" -v b="$b" -v n="$n" -v size="$out_size" -v rss="$(cat "$work/rss")" -v cores="$(nproc)" 'BEGIN{
  printf "ich preprocess, NIfTI 512² → %s²: %d slices, best %.2f s (%.0f slices/s, peak %.0f MB) on %s cores\n", size, n, a, n/a, rss/1024, cores
  printf "nibabel + pydicom yardstick windowing/resizing (2 processes): best %.2f s; ich is %.2f× faster\n", b, b/a }'
