#!/usr/bin/env bash
# The fused batch-norm kernels (crates/attcnn/src/norm) against burn's own batch norm and burn-flex,
# forward, running statistics and gradients, on a wgpu adapter (crates/attcnn/tests/fused_bn.rs):
# on a machine without a GPU, Mesa's llvmpipe through OpenGL (WGPU_BACKEND=gl; Vulkan on lavapipe
# crashes in the driver), whose packages this installs when run as root. Part of README's test
# command (scripts/test.sh), so CI runs it.
#   bash scripts/ci/fused-bn-test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v nvidia-smi >/dev/null 2>&1; then
  export WGPU_BACKEND="${WGPU_BACKEND:-gl}"
  if [ "$(id -u)" -eq 0 ] && ! dpkg -s libegl1 libgl1-mesa-dri libegl-mesa0 >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq libegl1 libgl1-mesa-dri libegl-mesa0 >/dev/null
  fi
fi
# built first, and the build marked as cached for scripts/test.sh's time rule, whatever the test
# then says
cargo test --locked -p attcnn --features wgpu --test fused_bn --no-run
bash scripts/ci/wgpu-stamp.sh write
cargo test --locked -p attcnn --features wgpu --test fused_bn -- --test-threads 1
