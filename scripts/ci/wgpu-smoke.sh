#!/usr/bin/env bash
# Builds ich with the wgpu feature and trains the attention CNN for a few steps on whatever wgpu
# adapter exists: a GPU where there is one; on a CPU-only machine Mesa's OpenGL llvmpipe
# (WGPU_BACKEND=gl, which `ich --device wgpu` honours; Vulkan on lavapipe crashes in the driver).
# The features it extracts on wgpu must equal those of the CPU backend. Then it trains the same
# network on the CPU, from the same seed and without dropout (the only draws on the device):
# the two trained networks must give the same features (training's initial weights are drawn on
# the CPU for every backend; 5.0e-5 and 5.2e-5 apart in two runs on llvmpipe, 2026-11-26). Not
# part of the default CI run: building burn with wgpu takes ≈ 35 min on 2 cores, and the first GL
# run compiles kernels for minutes. ICH=BINARY uses an ich built with wgpu already (e.g. scripts/bench/gpu-binaries.sh's).
#   bash scripts/ci/wgpu-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v nvidia-smi >/dev/null 2>&1; then
  export WGPU_BACKEND="${WGPU_BACKEND:-gl}"
  if [ "$(id -u)" -eq 0 ] && ! dpkg -s libegl1 libgl1-mesa-dri >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq libegl1 libgl1-mesa-dri libegl-mesa0 >/dev/null
  fi
fi
if [ -n "${ICH:-}" ]; then
  ich="$ICH"
else
  cargo build --release --locked -p ich --features wgpu
  ich="${CARGO_TARGET_DIR:-target}/release/ich"
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$ich" -q synth --out "$work/dicom" --scans 8 --slices 8 --size 64 --seed 3
"$ich" -q preprocess "$work/dicom" --out "$work/ds" --size 64 \
  --labels "$work/dicom/labels.csv" --labels "$work/dicom/slice_labels.csv"
time "$ich" train-cnn --dataset "$work/ds" --out "$work/model" --dim 8 --epochs 2 \
  --conv-dropout 0 --head-dropout 0 --seed 0 --device wgpu
time "$ich" extract --model "$work/model" --dataset "$work/ds" --out "$work/features.csv" --device wgpu
# the same weights on the CPU backend must give the same features, CNN probabilities and attention
"$ich" -q extract --model "$work/model" --dataset "$work/ds" --out "$work/features-cpu.csv" --device cpu
awk -F, -v label="wgpu vs cpu" -v tol=1e-3 -f scripts/bench/features-diff.awk \
  "$work/features-cpu.csv" "$work/features.csv"
# training itself: the same seed on the CPU must train the same network
"$ich" -q train-cnn --dataset "$work/ds" --out "$work/model-cpu" --dim 8 --epochs 2 \
  --conv-dropout 0 --head-dropout 0 --seed 0 --device cpu
"$ich" -q extract --model "$work/model-cpu" --dataset "$work/ds" --out "$work/features-cpu-trained.csv" --device cpu
awk -F, -v label="trained on wgpu vs trained on cpu" -v tol=1e-3 -f scripts/bench/features-diff.awk \
  "$work/features-cpu-trained.csv" "$work/features-cpu.csv"
echo "wgpu smoke test passed (adapter backend: ${WGPU_BACKEND:-default})"
