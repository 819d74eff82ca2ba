#!/usr/bin/env bash
# GPU measurements (issue 15) on a machine with an NVIDIA GPU, from binaries built elsewhere with
# `--features wgpu` (the step bench and `ich`): the training-step bench on flex (this machine's
# CPU) and on wgpu (Vulkan), wgpu first checked against flex; PyTorch CUDA on the same architecture
# (scripts/cnn_torch.py); and a short `ich train-cnn --device wgpu` with an extract on both
# backends compared. Build the binaries with:
#   cargo bench --no-run --locked -p attcnn -p ich --features attcnn/wgpu,ich/wgpu --bench step
#   cargo build --release --locked -p ich --features wgpu
# Usage: scripts/gpu-bench.sh BIN_DIR (holding `step` and `ich`) [SLICES] [STEPS]
set -uo pipefail
bin="$1"; slices="${2:-32}"; steps="${3:-3}"
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
nvidia-smi -L || true
echo "== step bench: $slices slices, $steps steps, 256² and 512² (flex on $(nproc) CPU cores, wgpu on the GPU)"
"$bin/step" "$slices" "$steps" 256 512
echo "== PyTorch CUDA, same layers"
for size in 256 512; do
  echo "pytorch cuda ${size}² × $slices slices: $(python3 scripts/cnn_torch.py "$size" "$slices" "$steps" cuda) s per training step"
done
echo "== train-cnn --device wgpu"
w=$(mktemp -d)
"$bin/ich" -q synth --out "$w/dicom" --scans 16 --slices 16 --size 256 --seed 3 >/dev/null
"$bin/ich" -q preprocess "$w/dicom" --out "$w/ds" --size 256 \
  --labels "$w/dicom/labels.csv" --labels "$w/dicom/slice_labels.csv" >/dev/null
/usr/bin/time -f "train-cnn wgpu: %e s wall" "$bin/ich" train-cnn --dataset "$w/ds" --out "$w/model" \
  --dim 32 --epochs 3 --device wgpu 2>&1 | grep -vi "warn" | tail -8
"$bin/ich" -q extract --model "$w/model" --dataset "$w/ds" --out "$w/f-gpu.csv" --device wgpu
"$bin/ich" -q extract --model "$w/model" --dataset "$w/ds" --out "$w/f-cpu.csv" --device cpu
awk -F, 'NR == FNR { for (i = 1; i <= NF; i++) a[FNR, i] = $i; next }
  FNR == 1 { for (i = 1; i <= NF; i++) num[i] = ($i ~ /^feature_/ || $i == "bag_cnn_probability" || $i == "cnn_attention"); next }
  { for (i = 1; i <= NF; i++) if (num[i]) { d = $i - a[FNR, i]; if (d < 0) d = -d; if (d > max) max = d }; rows++ }
  END { printf "extract wgpu vs cpu on %d slices: largest difference %.2e\n", rows, max }' \
  "$w/f-cpu.csv" "$w/f-gpu.csv"
