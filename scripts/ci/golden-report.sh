#!/usr/bin/env bash
# Writes the golden prediction report of crates/ich/tests/golden.rs: a small synthetic cohort through
# synth → preprocess → train-cnn → extract → fit-gp → predict with fixed seeds. The test runs the
# same steps and compares its report with the stored one; rerun this only when a change of numbers
# is intended (and say so in the commit).
#   bash scripts/ci/golden-report.sh [ICH_BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
ICH="${1:-${CARGO_TARGET_DIR:-target}/debug/ich}"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
"$ICH" -q synth --out "$W/dicom" --scans 12 --slices 4 --size 64 --seed 5 \
  --subtypes intraparenchymal,intraventricular --subtle-fraction 0
"$ICH" -q preprocess "$W/dicom" --out "$W/ds" --size 32 \
  --labels "$W/dicom/labels.csv" --labels "$W/dicom/slice_labels.csv"
"$ICH" -q train-cnn --dataset "$W/ds" --out "$W/model" --dim 8 --epochs 2 --lr 2e-4 --patience 2 --seed 0 --no-subtypes
"$ICH" -q extract --model "$W/model" --dataset "$W/ds" --out "$W/features.csv"
"$ICH" -q fit-gp --features "$W/features.csv" --bundle "$W/model" --model g-vgpmil --inducing 8 \
  --calibrate --seed 0
KEEP="${2:-}"
PAGES=(--no-html)
[ -n "$KEEP" ] && PAGES=()
"$ICH" -q predict --model "$W/model" "$W/dicom" --out "$W/report" --samples 200 "${PAGES[@]}" \
  --labels "$W/dicom/labels.csv" --labels "$W/dicom/slice_labels.csv"
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP"
  cp -r "$W/report" "$KEEP/"
  echo "$W" >"$KEEP/W"
  exit 0
fi
cp "$W/report/report.json" "$W/report/slices.csv" "$W/report/scans.csv" crates/ich/tests/golden/
echo "golden report written to crates/ich/tests/golden/"
