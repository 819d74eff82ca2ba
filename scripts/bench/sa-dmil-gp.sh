#!/usr/bin/env bash
# GP heads on the imported SA-DMIL features (issue 14): what a hospital with a few dozen labelled
# scans of its own gets. The published baseline weights are imported; synthetic bleeds are drawn
# into the real head CT of shared/data/ct (`ich synth --base`): TRAIN labelled scans to fit on,
# TEST others to judge on, 24 slices of 512² each. The network's 1152 features per slice are
# projected by PCA (fitted on the training bags) onto K dimensions and a calibrated VGPMIL head is
# fitted into the bundle; then both the network alone (no head) and network + GP head predict the
# test scans. Prints the fit time and both sets of metrics (scan and slice AUC, ECE).
# Usage: scripts/bench/sa-dmil-gp.sh [TRAIN] [TEST] [K]
set -euo pipefail
cd "$(dirname "$0")/../.."
shared="${ICH_SHARED_DATA:-../shared/data}"
train="${1:-40}"
test="${2:-20}"
k="${3:-32}"
cargo build --release --locked -p ich >/dev/null
ich="${CARGO_TARGET_DIR:-target}/release/ich"
w=bench-out/sa-dmil-gp
rm -rf "$w"
mkdir -p "$w"
base="$shared/ct/cranium_hu_i16le_108x256x256.raw.gz"
"$ich" -q import "$shared/pretrained/sa-dmil/baseline.ckpt" --out "$w/network" >/dev/null
for set in train test; do
  n=$train; seed=1
  if [ "$set" = test ]; then n=$test; seed=2; fi
  "$ich" -q synth --out "$w/$set-dicom" --scans "$n" --slices 24 --size 512 --seed "$seed" --base "$base" >/dev/null
  "$ich" -q preprocess "$w/$set-dicom" --out "$w/$set-ds" --preset sa-dmil \
    --labels "$w/$set-dicom/labels.csv" --labels "$w/$set-dicom/slice_labels.csv" >/dev/null
done
echo "== the imported network alone on $test test scans (its own classifier, bags padded to 57)"
"$ich" -q predict --model "$w/network" "$w/test-ds" --out "$w/report-network" --no-html | grep -E "AUC|time:"
cp -r "$w/network" "$w/with-gp"
/usr/bin/time -f "extract: %e s" "$ich" -q extract --model "$w/with-gp" --dataset "$w/train-ds" --out "$w/train-features.csv"
echo "== VGPMIL head on PCA-$k of the 1152 features, fitted on $train training scans"
/usr/bin/time -f "fit-gp: %e s wall" "$ich" -q fit-gp --features "$w/train-features.csv" --bundle "$w/with-gp" \
  --project "$k" --calibrate
echo "== network + GP head on the same $test test scans"
"$ich" -q predict --model "$w/with-gp" "$w/test-ds" --out "$w/report-gp" --no-html | grep -E "AUC|time:"
