#!/usr/bin/env bash
# Benchmark: seconds per training step of the attention CNN for one 32-slice bag at 256² and 512²
# on the CPU backends (burn-flex, and burn-ndarray for comparison), against the same architecture
# in PyTorch (CPU, pip-installed into .venv-bench), printing ours ÷ PyTorch.
# Usage: scripts/bench/bench-cnn.sh [SLICES] [STEPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
slices="${1:-32}"; steps="${2:-3}"
out=$(cargo bench --locked -p attcnn --features ndarray --bench step -- "$slices" "$steps" 2>/dev/null | grep "per training step")
echo "$out"
if [ ! -x .venv-bench/bin/python ]; then
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install -q torch --index-url https://download.pytorch.org/whl/cpu 2>/dev/null \
    || .venv-bench/bin/pip install -q torch
fi
threads=$(nproc)
for size in 256 512; do
  torch_s=$(OMP_NUM_THREADS=$threads .venv-bench/bin/python scripts/bench/cnn-torch.py "$size" "$slices" "$steps")
  echo "pytorch  ${size}² × $slices slices: $torch_s s per training step"
  echo "$out" | grep " ${size}² " | while read -r name rest; do
    ours=$(echo "$rest" | awk '{for (i=1;i<=NF;i++) if ($i=="s") {print $(i-1); exit}}')
    awk -v n="$name" -v s="$size" -v o="$ours" -v t="$torch_s" 'BEGIN{printf "ratio    %s ÷ pytorch at %s²: %.2f\n", n, s, o/t}'
  done
done
