#!/usr/bin/env bash
# The main job on built-in demo data: synthesize a small cohort of head CT scans (DICOM) and
# preprocess them into a dataset. Output in ${1:-demo}/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
out="${1:-demo}"
cargo build --release --locked -p ich
ich=target/release/ich
"$ich" synth --out "$out/dicom" --scans 8 --slices 32 --size 256 --seed 1
"$ich" preprocess "$out/dicom" --out "$out/dataset" \
  --labels "$out/dicom/labels.csv" --labels "$out/dicom/slice_labels.csv"
echo "demo dataset: $out/dataset/dataset.json"
