#!/usr/bin/env bash
# How ich's cost grows with the cohort (docs/BENCHMARKS.md, "Growth with the cohort"): synthetic
# cohorts of 100, 1,000, 5,000 and 25,000 scans (`ich synth`, 64², SLICES slices each, half
# positive), and on each `ich preprocess`, `extract`, `fit-gp` and `predict` (from the dataset,
# HTML pages included) with the release build: every stage's wall time, peak resident memory
# (GNU time's maximum RSS) and the disk its output takes (du), one row per cohort and stage in
# bench-out/growth/growth.tsv, then the plot docs/img/growth.svg (scripts/bench/growth-plot.py).
# The CNN (D = 8) is trained once, one epoch on the first cohort (the cost of extracting and
# predicting does not depend on the weights); each cohort fits its own GP head (VGPMIL, 50
# inducing points). A cohort is deleted once measured, so the largest (25,000 scans, 200,000
# DICOM files) needs about 8 GB of disk at a time. With SHARDS=N, one shard of N is measured too
# (`preprocess --shard 0/N` on the same DICOM, `predict` of that shard's dataset: rows
# preprocess-shard and predict-shard), the memory a job array's task needs. With STREAMED=1 the
# GP head is fitted a second time with `--b-memory-mib 0` (row fit-gp-streamed: B recomputed a
# block of instances at a time, never held).
#   bash scripts/bench/bench-growth.sh [SIZES]   (default "100 1000 5000 25000"; SLICES=8, SHARDS, STREAMED)
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes="${1:-100 1000 5000 25000}"
slices="${SLICES:-8}"
cargo build --release --locked -p ich >/dev/null
t="${CARGO_TARGET_DIR:-target}"
case "$t" in /*) ;; *) t="$(pwd)/$t" ;; esac
ich="$t/release/ich"
w=bench-out/growth
mkdir -p "$w"
tsv="$w/growth.tsv"
[ -f "$tsv" ] || printf 'scans\tslices\tstage\twall_s\tpeak_rss_mib\tdisk_mib\n' >"$tsv"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB"

# measure N STAGE OUTPUT COMMAND...: runs it under GNU time, appends its row
measure() {
  local n="$1" stage="$2" out="$3"
  shift 3
  /usr/bin/time -f '%e %M' -o "$w/time.txt" "$@" >"$w/$stage.log" 2>&1 || {
    echo "$stage on $n scans failed:" >&2
    tail -20 "$w/$stage.log" >&2
    exit 1
  }
  read -r wall rss <"$w/time.txt"
  local disk
  disk=$(du -sk "$out" | awk '{printf "%.1f", $1 / 1024}')
  awk -v n="$n" -v s="$slices" -v st="$stage" -v w="$wall" -v r="$rss" -v d="$disk" \
    'BEGIN { printf "%s\t%s\t%s\t%s\t%.1f\t%s\n", n, s, st, w, r / 1024, d }' | tee -a "$tsv"
}

first=""
for n in $sizes; do
  c="$w/c$n"
  rm -rf "$c"
  mkdir -p "$c"
  measure "$n" synth "$c/dicom" "$ich" -q synth --out "$c/dicom" --scans "$n" --slices "$slices" \
    --size 64 --seed 1
  measure "$n" preprocess "$c/ds" "$ich" -q preprocess "$c/dicom" --out "$c/ds" --size 64 \
    --labels "$c/dicom/labels.csv"
  if [ -n "${SHARDS:-}" ]; then
    measure "$n" preprocess-shard "$c/ds-shard" "$ich" -q preprocess "$c/dicom" \
      --out "$c/ds-shard" --size 64 --labels "$c/dicom/labels.csv" --shard "0/$SHARDS"
  fi
  rm -rf "$c/dicom"
  if [ -z "$first" ]; then
    rm -rf "$w/cnn"
    "$ich" -q train-cnn --dataset "$c/ds" --out "$w/cnn" --dim 8 --epochs 1 >/dev/null
    first="$n"
  fi
  measure "$n" extract "$c/features.csv" "$ich" -q extract --model "$w/cnn" --dataset "$c/ds" \
    --out "$c/features.csv"
  cp -r "$w/cnn" "$c/bundle"
  measure "$n" fit-gp "$c/bundle" "$ich" -q fit-gp --features "$c/features.csv" \
    --bundle "$c/bundle" --inducing 50
  if [ -n "${STREAMED:-}" ]; then
    cp -r "$w/cnn" "$c/bundle-streamed"
    measure "$n" fit-gp-streamed "$c/bundle-streamed" "$ich" -q fit-gp \
      --features "$c/features.csv" --bundle "$c/bundle-streamed" --inducing 50 --b-memory-mib 0
  fi
  measure "$n" predict "$c/reports" "$ich" -q predict --model "$c/bundle" "$c/ds" \
    --out "$c/reports"
  if [ -n "${SHARDS:-}" ]; then
    measure "$n" predict-shard "$c/reports-shard" "$ich" -q predict --model "$c/bundle" \
      "$c/ds-shard" --out "$c/reports-shard"
  fi
  du -sk "$c/reports/index.html" | awk -v n="$n" '{printf "index.html of %s scans: %.1f MiB\n", n, $1 / 1024}'
  rm -rf "$c"
done
python3 scripts/bench/growth-plot.py "$tsv" docs/img/growth.svg
echo "plot: docs/img/growth.svg"
