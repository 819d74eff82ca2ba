#!/usr/bin/env bash
# A hospital's recalibration, end to end, with the demo's bundle: "site B" draws its bleeds
# subtler than the training site did (--subtle-fraction, default 0.6; the demo trained on none),
# a shift the training site's calibration cannot know. Site B labels N scans of its own
# (default 300), extracts their features with the bundle's CNN and runs `ich recalibrate` on a
# copy of the bundle; then both bundles predict M other scans of site B (default 300, another
# seed) with their labels, and the script prints each one's scan and slice metrics.
#
#   bash scripts/investigations/site-recalibration.sh DEMO_OUT [WORK] [N] [M] [SUBTLE]
#
# DEMO_OUT is the folder of `bash scripts/demo.sh DEMO_OUT` (its model/ is the bundle; not
# changed). ICH defaults to the release build.
set -euo pipefail
demo="$1"
work="${2:-site-recalibration}"
n="${3:-300}"
m="${4:-300}"
subtle="${5:-0.6}"
ich="${ICH:-${CARGO_TARGET_DIR:-target}/release/ich}"
if [ ! -x "$ich" ]; then
  echo "no ich binary at $ich: cargo build --release -p ich, or set ICH" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"
common=(--slices 8 --size 128 --subtypes intraparenchymal,intraventricular --subtle-fraction "$subtle")
"$ich" -q synth --out "$work/calib-dicom" --scans "$n" --seed 101 "${common[@]}"
"$ich" -q synth --out "$work/eval-dicom" --scans "$m" --seed 202 "${common[@]}"
"$ich" -q preprocess "$work/calib-dicom" --out "$work/calib-ds" --size 64 --labels "$work/calib-dicom/labels.csv"
"$ich" -q extract --model "$demo/model" --dataset "$work/calib-ds" --out "$work/calib.csv"
cp -r "$demo/model" "$work/model-site"
"$ich" recalibrate --bundle "$work/model-site" --features "$work/calib.csv"
labels=(--labels "$work/eval-dicom/labels.csv" --labels "$work/eval-dicom/slice_labels.csv")
for b in "$demo/model" "$work/model-site"; do
  out="$work/report-$(basename "$b")"
  "$ich" -q predict --model "$b" "$work/eval-dicom" --out "$out" --no-html "${labels[@]}"
  python3 - "$b" "$out/report.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[2]))["metrics"]
for k in ("scan", "slice"):
    x = r[k]
    print(f"{sys.argv[1]}: {k}s: AUC {x['auc']:.3f}, log-lik {x['log_likelihood']:.4f}, ECE {x['ece']:.3f}")
EOF
done
