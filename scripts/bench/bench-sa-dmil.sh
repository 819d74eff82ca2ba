#!/usr/bin/env bash
# Side-by-side CPU benchmark of the imported SA-DMIL network (issue 14): `ich predict` (burn-flex)
# against PyTorch (CPU, pip-installed into .venv-bench) running the same weights — exported from
# the TensorFlow checkpoint by `ich checkpoint --export-npy` — on the same preprocessed scans:
# SCANS synthetic 40-slice 512² scans (bleeds drawn into the real head CT of shared/data/ct),
# preprocessed once with `ich preprocess --preset sa-dmil`. Both run the network on the 40 slices
# and on one all-zero slice for the padding to 57, then attention and classifier; each scan once,
# in one process each, no warm-up. Prints seconds per scan for both, the ratio, and the largest
# difference between the two programs' scan probabilities.
# Usage: scripts/bench/bench-sa-dmil.sh [SCANS]     (THREADS=n pins both to n threads; default nproc)
set -euo pipefail
cd "$(dirname "$0")/../.."
shared="${ICH_SHARED_DATA:-../shared/data}"
scans="${1:-3}"
threads="${THREADS:-$(nproc)}"
cargo build --release --locked -p ich >/dev/null
ich="${CARGO_TARGET_DIR:-target}/release/ich"
if [ ! -x .venv-bench/bin/python ] || ! .venv-bench/bin/python -c "import torch, numpy" 2>/dev/null; then
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install -q torch numpy --index-url https://download.pytorch.org/whl/cpu 2>/dev/null \
    || .venv-bench/bin/pip install -q torch numpy
fi
w=bench-out/sa-dmil
rm -rf "$w"
mkdir -p "$w"
ckpt="$shared/pretrained/sa-dmil/baseline.ckpt"
"$ich" -q import "$ckpt" --out "$w/bundle" >/dev/null
"$ich" -q checkpoint "$ckpt" --export-npy "$w/npy" >/dev/null
"$ich" -q synth --out "$w/dicom" --scans "$scans" --slices 40 --size 512 --seed 5 \
  --base "$shared/ct/cranium_hu_i16le_108x256x256.raw.gz" >/dev/null
"$ich" -q preprocess "$w/dicom" --out "$w/ds" --preset sa-dmil >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $threads threads"
ours=$(RAYON_NUM_THREADS=$threads "$ich" -q predict --model "$w/bundle" "$w/ds" --out "$w/report" --no-html \
  | sed -n 's/^time:.* CNN \([0-9.]*\) s.*/\1/p')
echo "ich (burn-flex): CNN $ours s for $scans scans"
OMP_NUM_THREADS=$threads .venv-bench/bin/python scripts/bench/sa-dmil-torch.py "$w/npy" 57 "$w"/ds/scans/*.npz > "$w/torch.txt"
torch_s=$(sed -n 's/^mean //p' "$w/torch.txt")
torch_v=$(.venv-bench/bin/python -c "import torch; print(torch.__version__)")
echo "pytorch $torch_v: $torch_s s per scan"
awk -v o="$ours" -v n="$scans" -v t="$torch_s" \
  'BEGIN{printf "ich: %.3f s per scan; ratio ich ÷ pytorch: %.2f\n", o/n, (o/n)/t}'
# the two programs' probabilities, scan by scan
.venv-bench/bin/python - "$w/report/scans.csv" "$w/torch.txt" <<'PY'
import csv, sys
ours = {r["scan_id"]: float(r["probability"]) for r in csv.DictReader(open(sys.argv[1]))}
worst = 0.0
for line in open(sys.argv[2]):
    f = line.split()
    if f[0] == "mean":
        continue
    sid, p = f[0].removesuffix(".npz"), float(f[2])
    worst = max(worst, abs(ours[sid] - p) / max(p, 1e-12))
print(f"largest relative difference of scan probabilities, ich vs pytorch: {worst:.2e}")
PY
