#!/usr/bin/env bash
# Benchmark: preprocess throughput (slices per second) on 512² uncompressed CT (explicit VR little
# endian, 16-bit), DICOM → HU → three windows → 256² dataset. Prints the figure; not a test.
# Then the same input through the field's yardstick, ../shared/bench/pydicom_preprocess.py (pydicom +
# numpy + OpenCV, 2 worker processes; pip-installed into .venv-bench), best of three, and the
# ratio of the two wall times.
# Usage: scripts/bench/bench-preprocess.sh [SCANS] [SLICES] [SIZE_OUT] [ICH_OPTION...]
#   e.g. scripts/bench/bench-preprocess.sh 8 40 256 --uncompressed
set -euo pipefail
cd "$(dirname "$0")/../.."
scans="${1:-8}"; slices="${2:-40}"; out_size="${3:-256}"
extra=("${@:4}")
cargo build --release --locked -p ich >/dev/null 2>&1
ich="${CARGO_TARGET_DIR:-target}/release/ich"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$ich" -q synth --out "$work/dicom" --scans "$scans" --slices "$slices" --size 512 --seed 42 >/dev/null
n=$((scans * slices))
bytes=$(du -sb "$work/dicom" | cut -f1)
best=""
for run in 1 2 3; do
  rm -rf "$work/ds"; sync
  t0=$(date +%s.%N)
  "$ich" -q preprocess "$work/dicom" --out "$work/ds" --size "$out_size" "${extra[@]}" >/dev/null
  t1=$(date +%s.%N)
  s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
  echo "run $run: $n slices in ${s}s"
  if [ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN{exit !(s<b)}'; then best=$s; fi
done
ds_bytes=$(du -sb "$work/ds/scans" | cut -f1)
awk -v n="$n" -v best="$best" -v size="$out_size" -v cores="$(nproc)" -v inb="$bytes" -v dsb="$ds_bytes" \
  -v scans="$scans" -v slices="$slices" 'BEGIN{
  printf "preprocess 512² → %s²: %d slices, best %.2f s → %.0f slices/s on %s cores (input %.0f MB, dataset %.1f MB = %.2f MB per 40-slice scan)\n",
    size, n, best, n/best, cores, inb/1e6, dsb/1e6, dsb/1e6/scans*40/slices }'
# the yardstick on the same files
shared="${ICH_SHARED_DATA:-../shared/data}"
yard="$(dirname "$shared")/bench/pydicom_preprocess.py"
if [ ! -x .venv-bench/bin/python ] || ! .venv-bench/bin/python -c "import pydicom, cv2, numpy" 2>/dev/null; then
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install -q numpy pydicom opencv-python-headless
fi
ybest=""
for run in 1 2 3; do
  rm -rf "$work/py"
  t0=$(date +%s.%N)
  .venv-bench/bin/python "$yard" "$work/dicom" "$work/py" --size "$out_size" --procs 2 >/dev/null 2>&1
  t1=$(date +%s.%N)
  s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
  echo "yardstick run $run: ${s}s"
  if [ -z "$ybest" ] || awk -v s="$s" -v b="$ybest" 'BEGIN{exit !(s<b)}'; then ybest=$s; fi
done
awk -v a="$best" -v b="$ybest" 'BEGIN{printf "pydicom yardstick (2 processes) best %.2f s; ich is %.2f× faster\n", b, b/a}'
