#!/usr/bin/env bash
# The attention CNN on an NVIDIA GPU, burn's wgpu (Vulkan) and CUDA backends beside PyTorch CUDA
# in the same run, on the same card, same network and input (issue 40). Prints the whole table:
#   - training step (forward, backward, Adam; one bag) at 256² × 32, 512² × 32 and 512² × 64 slices,
#     each backend first checked against flex (same weights, three passes, two Adam steps), and
#     512² × 32 in bf16 (BENCH_PRECISION; checked against flex's f32 within bf16's rounding);
#   - inference of a 40-slice 512² scan as `ich predict` runs it, each backend's probabilities
#     checked against flex, in two processes one after the other: the first pays kernel
#     compilation and autotuning, the second reads their on-disk caches; then in bf16; each
#     process times ich's 8 slices at a time and then the whole scan at once, as PyTorch does
#     (slower on an H200: notes/2026-11-26-cuda-h200-4.md);
#   - peak GPU memory of every process (nvidia-smi, sampled every 50 ms, above the idle baseline);
#   - `ich train-cnn --device wgpu|cuda` (3 epochs, 16 scans × 16 slices at 256², no dropout) and
#     `ich extract` on that device against `--device cpu` from the same weights, and the network
#     it trained against the one `--device cpu` trains from the same seed.
# The binaries are built elsewhere and carried to the card (gpu-bin.tar.xz, git-ignored):
#   bash scripts/bench/gpu-binaries.sh              # builds, strips and packs step, infer and ich
# and there: tar -xJf gpu-bin.tar.xz && bash scripts/bench/gpu-bench.sh gpu-bin [STEPS]
# SECTIONS="check train infer cli" (the default) picks sections. "compile": a bare machine's first
# step and inference processes of every backend at once, and which backends got through.
# "shipped": a first process given only the kernel cache the earlier ones filled
# (ICH_KERNEL_CACHE). "bare": each backend's first
# 512² step from the process's start, on a machine with no kernel caches yet. "fused": the fused
# batch norm's kernel test, then steps with burn's batch norm and with ours, beside PyTorch's. "warm": every bench's first
# process at once (compilation), before the others. "check": each backend's agreement
# with flex and its dropout, at 64². "profile": a per-kernel profile of training steps at
# PROFILE_SIZE² × 32 (default 512) on each backend (PROFILE_BACKENDS) beside PyTorch's
# profiler. "demo": `ich demo --device` on the card (DEMO_DEVICES, default cuda).
# A fresh machine compiles the CUDA kernels for minutes (NVRTC, 1–2 s per matmul kernel, several
# per shape under autotune; notes/2026-11-26-cuda-h200.md). The compiled kernels and autotune
# results stay in target/environment, which a warm machine keeps between calls.
# TRAIN_BF16=0 / INFER_BF16=0 leave the bf16 rows of "train" / "infer" out (a second set of
# kernels to compile on a bare machine).
# PyTorch must be importable by python3 with CUDA; its NVRTC wheel (nvidia-cuda-nvrtc) is what the
# CUDA backend compiles with when no CUDA toolkit is installed.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin="$(cd "$1" && pwd)"; steps="${2:-3}"; sections="${SECTIONS:-check train infer cli}"
# untimed steps before a step bench times any: on a card whose autotune results are only partly
# on disk, autotune was still at work in a step after the first (0.751 s against 0.038 s)
# (notes/2026-11-26-cuda-h200-2.md)
export STEP_WARMUP="${STEP_WARMUP:-3}"
# the burn backends timed (GPU_BACKENDS="cuda" where the card has no Vulkan adapter)
backends="${GPU_BACKENDS:-wgpu cuda}"
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
# Vulkan: the loader (libvulkan.so.1) must be installed; where the NVIDIA driver is mounted outside
# the loader's search path (containers), its ICD file is named explicitly
# a machine image without the loader: the Debian packages carried in .gl/ (README's GPU section)
if ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1 && ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  echo "Vulkan loader unpacked from .gl/"
fi
ldconfig -p 2>/dev/null | grep -q libvulkan.so.1 || echo "no Vulkan loader (libvulkan.so.1): the wgpu rows will fail"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -e "$icd" ]; then export VK_DRIVER_FILES="$icd"; fi
nvidia-smi -L || { echo "no NVIDIA GPU here"; exit 1; }
nvidia-smi --query-gpu=driver_version,memory.total --format=csv,noheader
python3 -c 'import torch; print("PyTorch", torch.__version__, "CUDA", torch.version.cuda)' || true

# NVRTC for the CUDA backend: a toolkit's, else the one PyTorch's wheels brought
if ! ldconfig -p 2>/dev/null | grep -q libnvrtc.so; then
  nvrtc_dir=$(python3 - <<'EOF'
import glob, os, site
for d in site.getsitepackages():
    hits = sorted(glob.glob(os.path.join(d, "nvidia", "**", "libnvrtc.so*"), recursive=True))
    if hits:
        print(os.path.dirname(hits[0]))
        break
EOF
)
  if [ -n "$nvrtc_dir" ]; then
    export LD_LIBRARY_PATH="$nvrtc_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # cudarc looks for libnvrtc.so; a wheel may hold only libnvrtc.so.MAJOR
    if [ ! -e "$nvrtc_dir/libnvrtc.so" ]; then
      mkdir -p /tmp/nvrtc-link
      ln -sf "$(ls "$nvrtc_dir"/libnvrtc.so.* | grep -v builtins | head -1)" /tmp/nvrtc-link/libnvrtc.so
      export LD_LIBRARY_PATH="/tmp/nvrtc-link:$LD_LIBRARY_PATH"
    fi
    echo "NVRTC from $nvrtc_dir"
  else
    echo "no libnvrtc found: the cuda rows will fail"
  fi
fi

# every process is stopped after PROC_TIMEOUT seconds (default 300), so that one that hangs or
# compiles for minutes (a fresh CUDA process at 512²: more than 80 s on an H200) leaves the rest
# of the table to run; its row then ends "(rc 124)"
limit=${PROC_TIMEOUT:-300}
limited() {
  if declare -F "$1" >/dev/null; then "$@"; else timeout "$limit" "$@"; fi
}

# walltime LABEL CMD...: runs CMD, then prints LABEL and its wall-clock seconds (no /usr/bin/time
# needed)
walltime() {
  local label=$1 t0 rc; shift
  t0=$(date +%s.%N)
  limited "$@"; rc=$?
  echo "$label: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s wall (rc $rc)"
  return $rc
}

# runs "$@", then prints the peak GPU memory it used above the baseline (MiB)
peak() {
  local base log sampler rc
  base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0)
  log=$(mktemp)
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 50 >"$log" &
  sampler=$!
  limited "$@"; rc=$?
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  echo "         peak GPU memory: $(( $(sort -n "$log" | tail -1) - base )) MiB (rc $rc)"
  rm -f "$log"
  return $rc
}

case " $sections " in *" warm "*)
  # a fresh machine's kernel compilation, paid once: the first process of every bench below, all
  # at once (NVRTC compiles on the CPU, one core per process), each stopped after WARM_TIMEOUT
  # seconds; their walls are what a first process pays, on a busy card. The sections after it
  # then run with the compiled kernels and autotune results on disk, as a second process would.
  echo "== first processes, at once: compilation and autotuning (their timings are on a shared card)"
  # each process under WARM_TIMEOUT rather than PROC_TIMEOUT (walltime → limited)
  limit=${WARM_TIMEOUT:-300}
  wdir=$(mktemp -d)
  for b in $backends; do
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 walltime "first step process $b 32 × 256² 512²" \
      "$bin/step" 32 1 256 512 >"$wdir/step-$b-32" 2>&1 &
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 walltime "first step process $b 64 × 512²" \
      "$bin/step" 64 1 512 >"$wdir/step-$b-64" 2>&1 &
    BENCH_BACKENDS=$b INFER_SKIP_FLEX=1 walltime "first infer process $b 40 × 512²" \
      "$bin/infer" 40 1 512 >"$wdir/infer-$b" 2>&1 &
  done
  # bf16 compiles a second set of kernels: on a bare H200 its first inference took 216 s beside
  # five other compiling processes, and no step process got through its 64² checks in 230 s
  # (notes/2026-11-26-cuda-h200-3.md), so it joins only with WARM_BF16=1
  if [ "${WARM_BF16:-0}" = 1 ]; then
    BENCH_BACKENDS=cuda BENCH_PRECISION=bf16 STEP_SKIP_FLEX=1 walltime "first step process cuda bf16 32 × 512²" \
      "$bin/step" 32 1 512 >"$wdir/step-cuda-bf16" 2>&1 &
    BENCH_BACKENDS=cuda BENCH_PRECISION=bf16 INFER_SKIP_FLEX=1 walltime "first infer process cuda bf16 40 × 512²" \
      "$bin/infer" 40 1 512 >"$wdir/infer-cuda-bf16" 2>&1 &
  fi
  wait
  for f in "$wdir"/*; do echo "-- $(basename "$f")"; grep -v '^check' "$f" | tail -4; grep '^check' "$f"; done
  rm -rf "$wdir"
  limit=${PROC_TIMEOUT:-300}
  ;;
esac

case " $sections " in *" compile "*)
  # a bare machine's first processes, all at once (NVRTC compiles on the CPU, one core per
  # process): per backend one step process (COMPILE_SIZES, default "512 256": its first line is
  # the first 512² step from the process's start, checks against flex left out), one inference
  # process and one step process at 64² × 8 with its checks against flex ("check"), each stopped after COMPILE_TIMEOUT seconds (default 300). The environment records
  # every autotune (CUBECL_ENVIRONMENT_RECORDS=full: candidates and their walls). The backends
  # whose first 512² step finished are written to COMPILED_FILE (default /tmp/gpu-compiled), for
  # the calls after it (GPU_BACKENDS="$(cat /tmp/gpu-compiled)"). What these processes autotune
  # beside each other is tuned under contention and kept on disk: on an H200 wgpu's step was then
  # 1.5× slower than after tuning alone (notes/2026-11-28-gpu-h200.md), so time steps after
  # it with CUBECL_AUTOTUNE_CACHE=0, and fill a folder meant for shipping one process at a time.
  echo "== a bare machine's first processes, at once (CUBECL_AUTOTUNE_LEVEL=${CUBECL_AUTOTUNE_LEVEL:-balanced})"
  limit=${COMPILE_TIMEOUT:-300}
  compiled=${COMPILED_FILE:-/tmp/gpu-compiled}
  : >"$compiled"
  wdir=$(mktemp -d)
  for b in $backends; do
    CUBECL_ENVIRONMENT_RECORDS=full BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 STEP_SKIP_CHECK=1 STEP_WARMUP=2 \
      walltime "first step process $b 32 × ${COMPILE_SIZES:-512 256}" \
      "$bin/step" 32 3 ${COMPILE_SIZES:-512 256} >"$wdir/step-$b" 2>&1 &
    CUBECL_ENVIRONMENT_RECORDS=full BENCH_BACKENDS=$b INFER_SKIP_FLEX=1 \
      walltime "first infer process $b 40 × 512²" "$bin/infer" 40 1 512 >"$wdir/infer-$b" 2>&1 &
    # and the backend against flex, as the "check" section (64² × 8), beside them
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 walltime "check process $b 8 × 64²" "$bin/step" 8 1 64 \
      >"$wdir/zcheck-$b" 2>&1 &
  done
  wait
  for f in "$wdir"/*; do
    echo "-- $(basename "$f")"
    case $f in *zcheck*) grep -v '^$' "$f" | tail -30 ;; *) tail -6 "$f" ;; esac
  done
  for b in $backends; do
    if grep -q "^$b .* 512² × 32 slices: .* per training step" "$wdir/step-$b"; then
      printf '%s ' "$b" >>"$compiled"
    fi
  done
  echo "first 512² step finished on: $(cat "$compiled")"
  rm -rf "$wdir"
  limit=${PROC_TIMEOUT:-300}
  ;;
esac

case " $sections " in *" shipped "*)
  # a bare machine given the kernel cache of an earlier one (issue 57): the environment the
  # processes above filled (SHIPPED_FROM, default target/environment) copied to a fresh folder
  # and named by ICH_KERNEL_CACHE, with the driver's own caches off (CUDA_CACHE_DISABLE=1: PTX is
  # compiled to the card's code again; __GL_SHADER_DISK_CACHE=0: Vulkan pipelines likewise), so
  # the process has nothing of the machine's but the shipped folder; its first 512² step timed
  # from the process's start, then the first scan of an inference process
  src=${SHIPPED_FROM:-target/environment}
  ship=$(mktemp -d)
  cp -a "$src/." "$ship/"
  echo "== a bare machine with the kernel cache shipped: $(du -sh "$ship" | cut -f1) from $src"
  for b in $backends; do
    CUDA_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 ICH_KERNEL_CACHE="$ship" BENCH_BACKENDS=$b \
      STEP_SKIP_FLEX=1 STEP_SKIP_CHECK=1 STEP_WARMUP=1 \
      walltime "first step process $b 32 × 512², shipped cache" "$bin/step" 32 1 512
    CUDA_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 ICH_KERNEL_CACHE="$ship" BENCH_BACKENDS=$b \
      INFER_SKIP_FLEX=1 walltime "first infer process $b 40 × 512², shipped cache" "$bin/infer" 40 1 512
  done
  rm -rf "$ship"
  ;;
esac

case " $sections " in *" bare "*)
  # the first process of each backend on a machine whose kernel caches are empty: its first 512²
  # training step, timed from the process's start (checks against flex left out; they run in
  # "check" and in every step process of "fused"). CUBECL_AUTOTUNE_LEVEL applies (default balanced).
  echo "== a bare machine's first 512² × 32 training step (CUBECL_AUTOTUNE_LEVEL=${CUBECL_AUTOTUNE_LEVEL:-balanced})"
  for b in $backends; do
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 STEP_SKIP_CHECK=1 STEP_WARMUP=1 \
      walltime "first step process $b 32 × 512²" "$bin/step" 32 1 512
  done
  ;;
esac

case " $sections " in *" fused "*)
  # the fused batch norm (issue 57): its kernels against burn's batch norm and flex on the card,
  # then training steps with burn's batch norm (ICH_FUSED_BN=0) and ours, one process each, and
  # PyTorch's in the same call
  echo "== fused batch norm: kernel test on wgpu ($WGPU_BACKEND)"
  if [ -x "$bin/fused_bn" ]; then limited "$bin/fused_bn" --test-threads 1 2>&1 | tail -4; fi
  # FUSED_AB="1": ours alone
  echo "== training step, ICH_FUSED_BN in ${FUSED_AB:-0 1} (0: burn's batch norm, 1: ours), median of $steps after $STEP_WARMUP untimed"
  for b in $backends; do
    for f in ${FUSED_AB:-0 1}; do
      ICH_FUSED_BN=$f BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 32 "$steps" ${FUSED_SIZES:-256 512}
    done
  done
  for size in ${FUSED_SIZES:-256 512}; do
    peak bash -c "echo \"pytorch  cuda $size² × 32 slices: \$(python3 scripts/bench/cnn-torch.py $size 32 $steps cuda) s per training step\""
  done
  ;;
esac

case " $sections " in *" check "*)
  echo "== each backend against flex (training from the same weights, dropout's statistics), 64² × 8"
  for b in $backends; do
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 8 1 64
  done
  ;;
esac

case " $sections " in *" train "*)
  echo "== training step, one bag, median of $steps after $STEP_WARMUP untimed steps"
  for b in $backends; do
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 32 "$steps" 256 512
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 64 "$steps" 512
  done
  # bf16 on CUDA only: wgpu's kernels are WGSL, which has no bf16 (TRAIN_BF16=0 leaves it out: on a
  # bare machine its kernels are a second set to compile)
  if [ "${TRAIN_BF16:-1}" = 1 ]; then
    BENCH_BACKENDS=cuda BENCH_PRECISION=bf16 STEP_SKIP_FLEX=1 peak "$bin/step" 32 "$steps" 512
  fi
  for cfg in "256 32" "512 32" "512 64"; do
    set -- $cfg
    peak bash -c "echo \"pytorch  cuda $1² × $2 slices: \$(python3 scripts/bench/cnn-torch.py $1 $2 $steps cuda) s per training step\""
  done
  ;;
esac

case " $sections " in *" infer "*)
  echo "== inference of a 40-slice 512² scan (ich predict's CNN stage), two processes each"
  # INFER_RUNS="second": one process each, for a machine whose caches are already filled
  for b in $backends; do
    for run in ${INFER_RUNS:-first second}; do
      echo "-- $b, $run process"
      BENCH_BACKENDS=$b INFER_SKIP_FLEX=1 peak walltime "         process" "$bin/infer" 40 5 512
    done
  done
  if [ "${INFER_BF16:-1}" = 1 ]; then
    BENCH_BACKENDS=cuda BENCH_PRECISION=bf16 peak "$bin/infer" 40 5 512
  fi
  for run in ${INFER_RUNS:-first second}; do
    peak bash -c "read med first < <(python3 scripts/bench/cnn-torch.py 512 40 5 cuda scan); echo \"infer    pytorch cuda 512² × 40 slices ($run process): first scan \$first s, then \$med s per scan (median of 5)\""
  done
  ;;
esac

case " $sections " in *" cli "*)
  echo "== ich train-cnn / extract on each device against the CPU"
  w=$(mktemp -d)
  "$bin/ich" -q synth --out "$w/dicom" --scans 16 --slices 16 --size 256 --seed 3 >/dev/null
  "$bin/ich" -q preprocess "$w/dicom" --out "$w/ds" --size 256 \
    --labels "$w/dicom/labels.csv" --labels "$w/dicom/slice_labels.csv" >/dev/null
  # without dropout (the only draws made on the device) every device trains from the CPU's
  # initial weights on the same bags: the networks it trains must give the CPU-trained one's
  # features, to the device's rounding
  "$bin/ich" -q train-cnn --dataset "$w/ds" --out "$w/model-cpu" --dim 32 --epochs 3 \
    --conv-dropout 0 --head-dropout 0 --seed 0 --device cpu
  "$bin/ich" -q extract --model "$w/model-cpu" --dataset "$w/ds" --out "$w/f-cpu-trained.csv" --device cpu
  for b in $backends; do
    walltime "train-cnn $b" "$bin/ich" train-cnn --dataset "$w/ds" --out "$w/model-$b" \
      --dim 32 --epochs 3 --conv-dropout 0 --head-dropout 0 --seed 0 --device "$b" 2>&1 |
      grep -E "epoch|wall|rror" | tail -5
    "$bin/ich" -q extract --model "$w/model-$b" --dataset "$w/ds" --out "$w/f-$b.csv" --device "$b"
    "$bin/ich" -q extract --model "$w/model-$b" --dataset "$w/ds" --out "$w/f-$b-cpu.csv" --device cpu
    # CUDA runs f32 matrix products as TF32 (the benches' precision::tolerance)
    tol=1e-3; [ "$b" = cuda ] && tol=1e-2
    awk -F, -v label="extract $b vs cpu" -v tol="$tol" -f scripts/bench/features-diff.awk \
      "$w/f-$b-cpu.csv" "$w/f-$b.csv"
    # three epochs of Adam steps carry the first pass's rounding: a measurement (wgpu on llvmpipe, 2
    # epochs of 6 bags: 5.0e-5)
    awk -F, -v label="trained on $b vs trained on cpu" -v tol="$tol" -f scripts/bench/features-diff.awk \
      "$w/f-cpu-trained.csv" "$w/f-$b-cpu.csv"
  done
  rm -rf "$w"
  ;;
esac

case " $sections " in *" profile "*)
  # PROFILE_SIZE (default 512) and PROFILE_STEPS timed steps (default 4), after STEP_WARMUP
  psize=${PROFILE_SIZE:-512}; psteps=${PROFILE_STEPS:-4}
  echo "== per-kernel profile of a step bench process at ${psize}² × 32, the last $psteps (timed) steps"
  echo "   (their kernels' times only: the check, compilation and warm-up steps before them are left out)"
  # cubecl's profiling logger times every kernel it launches; its configuration is read from a
  # cubecl.toml in the working directory, here for this one process
  for b in ${PROFILE_BACKENDS:-cuda wgpu}; do
    log=$(mktemp)
    # (a cubecl.toml replaces ich's own settings, so it keeps the compiled-kernel cache on too)
    printf '[compilation]\ncache = true\n\n[profiling.logger]\nlevel = "basic"\nfile = "%s"\nappend = false\n' \
      "$log" >cubecl.toml
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 limited "$bin/step" 32 "$psteps" "$psize" | grep -v '^check'
    rm -f cubecl.toml
    sleep 1
    python3 scripts/bench/kernel-profile.py "$b" "$log" "${PROFILE_TOP:-15}" "$psteps"
    [ -n "${OUT:-}" ] && cp "$log" "$OUT/profile-$b-$psize.log"
    rm -f "$log"
  done
  python3 scripts/bench/cnn-torch.py "$psize" 32 "$psteps" cuda profile
  ;;
esac

case " $sections " in *" demo "*)
  # the README's main job with the CNN on the card; compare its figures with `ich demo` on the CPU
  for b in ${DEMO_DEVICES:-cuda}; do
    w=$(mktemp -d)
    walltime "demo --device $b" "$bin/ich" demo --out "$w/demo" --device "$b" 2>&1 |
      grep -E 'epoch=|best epoch|AUC|demo done|wall'
    rm -rf "$w"
  done
  ;;
esac

echo "== caches kept for the next process"
ls -d target/environment "${XDG_CACHE_HOME:-$HOME/.cache}/cubecl" 2>/dev/null | while read -r d; do du -sh "$d"; done
