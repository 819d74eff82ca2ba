#!/usr/bin/env bash
# Benchmark of `ich predict`: one 40-slice 512² uncompressed CT scan (synthetic DICOM, explicit VR
# little endian), DICOM to reports, with a bundle of the default input size (256², D = 32), on this
# machine's CPU. The model is loaded first (its time is printed apart); each stage's time is
# printed by `ich predict` itself. Usage: scripts/bench/bench-predict.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-3}"
cargo build --release --locked -p ich >/dev/null
ich="${CARGO_TARGET_DIR:-target}/release/ich"
w=bench-out/predict
mkdir -p "$w"
. scripts/bench/bench-common.sh
one_epoch_bundle "$ich" "$w"
rm -rf "$w/scan"
"$ich" -q synth --out "$w/scan" --scans 1 --slices 40 --size 512 --seed 11 --positive-fraction 1
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "run $i: wall %e s (process, model load included), max RSS %M KB" \
    "$ich" -q predict --model "$w/bundle" "$w/scan" --out "$w/report" 2>&1 | grep -E "^time:|^run"
done
