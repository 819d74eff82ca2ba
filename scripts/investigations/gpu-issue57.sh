#!/usr/bin/env bash
# Issue 57's second GPU session in one device call (about 9 minutes), on a bare machine with the
# binaries of scripts/bench/gpu-binaries.sh (gpu-bin.tar.xz) and the Vulkan loader (.gl/) carried:
#   1. compile: every backend's first step and inference processes at once, timed from their
#      start, the environment recording each autotune (CUBECL_AUTOTUNE_LEVEL, default minimal);
#   2. steps: 512² and 256² × 32 training steps with our batch norm on the backends that got
#      through 1, then PyTorch CUDA's, alone on the card. Each step process autotunes again
#      (CUBECL_AUTOTUNE_CACHE=0): what stage 1 tuned beside other processes was measured slower
#      (2026-11-28: wgpu 0.197 s against 0.132 s tuned alone, notes/2026-11-28-gpu-h200.md);
#      added after that session, not yet run on a card;
#   3. profile: the per-kernel profile of a 512² step on those backends beside PyTorch's;
#   4. shipped: a first process given only the kernel cache the earlier ones filled;
#   5. infer: a 40-slice 512² scan on those backends and on PyTorch.
# Each stage is skipped when fewer than its seconds are left of BUDGET (default 540) since the
# script started. Logs go to $OUT (or /tmp/gpu-out), with the environment (compiled kernels,
# autotune results and records) packed as environment.tar.xz where it is under 16 MiB.
# Usage (device call): bash scripts/investigations/gpu-issue57.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
budget=${BUDGET:-540}
left() { echo $((budget - ($(date +%s) - start))); }
# runs stage NAME (needing SECONDS) with the rest as its command, logged to $out/NAME.log
stage() {
  local name=$1 need=$2; shift 2
  if [ "$(left)" -lt "$need" ]; then
    echo "== $name skipped: $(left) s left of $budget, it needs $need" | tee "$out/$name.log"
    return
  fi
  echo "== $name at $(($(date +%s) - start)) s"
  "$@" 2>&1 | tee "$out/$name.log"
}
[ -d gpu-bin ] || tar -xJf gpu-bin.tar.xz
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
export GPU_BACKENDS="${GPU_BACKENDS:-cuda wgpu}" CUBECL_AUTOTUNE_LEVEL="${CUBECL_AUTOTUNE_LEVEL:-minimal}"
export TRAIN_BF16=0 INFER_BF16=0 COMPILED_FILE=/tmp/gpu-compiled
stage 1-compile 200 env SECTIONS=compile COMPILE_TIMEOUT="${COMPILE_TIMEOUT:-270}" bash scripts/bench/gpu-bench.sh gpu-bin
ok=$(cat "$COMPILED_FILE" 2>/dev/null)
echo "backends past their first 512² step: ${ok:-none}"
if [ -n "${ok// /}" ]; then
  export GPU_BACKENDS="$ok"
  stage 2-steps 150 env SECTIONS=fused FUSED_AB=1 FUSED_SIZES="512 256" PROC_TIMEOUT=120 \
    CUBECL_AUTOTUNE_CACHE=0 STEP_WARMUP=5 bash scripts/bench/gpu-bench.sh gpu-bin 5
  # the raw profiling logs, packed into one file ($OUT brings back 8 files at most)
  mkdir -p /tmp/profiles
  stage 3-profile 80 env SECTIONS=profile PROFILE_BACKENDS="$ok" PROFILE_SIZE=512 PROFILE_STEPS=4 \
    PROC_TIMEOUT=60 OUT=/tmp/profiles bash scripts/bench/gpu-bench.sh gpu-bin
  tar -C /tmp/profiles -cf - . | xz -6 -T0 >"$out/profiles.tar.xz"
  stage 4-shipped 60 env SECTIONS=shipped PROC_TIMEOUT=60 bash scripts/bench/gpu-bench.sh gpu-bin
  stage 5-infer 45 env SECTIONS=infer INFER_RUNS=second PROC_TIMEOUT=40 bash scripts/bench/gpu-bench.sh gpu-bin
fi
if [ -d target/environment ]; then
  du -sh target/environment
  tar -C target -cf - environment | xz -3 -T0 >/tmp/environment.tar.xz
  if [ "$(stat -c %s /tmp/environment.tar.xz)" -lt 16000000 ]; then
    cp /tmp/environment.tar.xz "$out/"
  else
    ls -l /tmp/environment.tar.xz
  fi
fi
echo "== done at $(($(date +%s) - start)) s"
ls -l "$out"
