#!/usr/bin/env bash
# The attention CNN on an NVIDIA GPU, burn's wgpu (Vulkan) and CUDA backends beside PyTorch CUDA
# in the same run, on the same card, same network and input (issue 40). Prints the whole table:
#   - training step (forward, backward, Adam; one bag) at 256² × 32, 512² × 32 and 512² × 64 slices,
#     each backend first checked against flex (same weights, three passes, two Adam steps), and
#     512² × 32 in bf16 (BENCH_PRECISION; checked against flex's f32 within bf16's rounding);
#   - inference of a 40-slice 512² scan as `ich predict` runs it, each backend's probabilities
#     checked against flex, in two processes one after the other: the first pays kernel
#     compilation and autotuning, the second reads their on-disk caches; then in bf16;
#   - peak GPU memory of every process (nvidia-smi, sampled every 50 ms, above the idle baseline);
#   - `ich train-cnn --device wgpu|cuda` (3 epochs, 16 scans × 16 slices at 256²) and `ich extract`
#     on that device against `--device cpu` from the same weights.
# The binaries are built elsewhere and carried to the card (gpu-bin.tar.xz, git-ignored):
#   bash scripts/gpu-binaries.sh              # builds, strips and packs step, infer and ich
# and there: tar -xJf gpu-bin.tar.xz && bash scripts/gpu-bench.sh gpu-bin [STEPS]
# SECTIONS="train infer cli" (the default) picks sections.
# PyTorch must be importable by python3 with CUDA; its NVRTC wheel (nvidia-cuda-nvrtc) is what the
# CUDA backend compiles with when no CUDA toolkit is installed.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="$(cd "$1" && pwd)"; steps="${2:-3}"; sections="${SECTIONS:-train infer cli}"
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
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

# runs "$@", then prints the peak GPU memory it used above the baseline (MiB)
peak() {
  local base log sampler rc
  base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0)
  log=$(mktemp)
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 50 >"$log" &
  sampler=$!
  "$@"; rc=$?
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  echo "         peak GPU memory: $(( $(sort -n "$log" | tail -1) - base )) MiB (rc $rc)"
  rm -f "$log"
  return $rc
}

case " $sections " in *" train "*)
  echo "== training step, one bag, median of $steps after a warm-up step"
  for b in wgpu cuda; do
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 32 "$steps" 256 512
    BENCH_BACKENDS=$b STEP_SKIP_FLEX=1 peak "$bin/step" 64 "$steps" 512
    BENCH_BACKENDS=$b BENCH_PRECISION=bf16 STEP_SKIP_FLEX=1 peak "$bin/step" 32 "$steps" 512
  done
  for cfg in "256 32" "512 32" "512 64"; do
    set -- $cfg
    peak bash -c "echo \"pytorch  cuda $1² × $2 slices: \$(python3 scripts/cnn_torch.py $1 $2 $steps cuda) s per training step\""
  done
  ;;
esac

case " $sections " in *" infer "*)
  echo "== inference of a 40-slice 512² scan (ich predict's CNN stage), two processes each"
  for b in wgpu cuda; do
    for run in first second; do
      echo "-- $b, $run process"
      BENCH_BACKENDS=$b INFER_SKIP_FLEX=1 peak /usr/bin/time -f "         process wall %e s" "$bin/infer" 40 5 512
    done
    BENCH_BACKENDS=$b BENCH_PRECISION=bf16 peak "$bin/infer" 40 5 512
  done
  for run in first second; do
    peak bash -c "read med first < <(python3 scripts/cnn_torch.py 512 40 5 cuda scan); echo \"infer    pytorch cuda 512² × 40 slices ($run process): first scan \$first s, then \$med s per scan (median of 5)\""
  done
  ;;
esac

case " $sections " in *" cli "*)
  echo "== ich train-cnn / extract on each device against the CPU"
  w=$(mktemp -d)
  "$bin/ich" -q synth --out "$w/dicom" --scans 16 --slices 16 --size 256 --seed 3 >/dev/null
  "$bin/ich" -q preprocess "$w/dicom" --out "$w/ds" --size 256 \
    --labels "$w/dicom/labels.csv" --labels "$w/dicom/slice_labels.csv" >/dev/null
  for b in wgpu cuda; do
    /usr/bin/time -f "train-cnn $b: %e s wall" "$bin/ich" train-cnn --dataset "$w/ds" --out "$w/model-$b" \
      --dim 32 --epochs 3 --device "$b" 2>&1 | grep -E "epoch|wall|rror" | tail -5
    "$bin/ich" -q extract --model "$w/model-$b" --dataset "$w/ds" --out "$w/f-$b.csv" --device "$b"
    "$bin/ich" -q extract --model "$w/model-$b" --dataset "$w/ds" --out "$w/f-$b-cpu.csv" --device cpu
    awk -F, -v label="extract $b vs cpu" -v tol=1e-3 -f scripts/features-diff.awk \
      "$w/f-$b-cpu.csv" "$w/f-$b.csv"
  done
  rm -rf "$w"
  ;;
esac
echo "== caches kept for the next process"
ls -d target/environment "${XDG_CACHE_HOME:-$HOME/.cache}/cubecl" 2>/dev/null | while read -r d; do du -sh "$d"; done
