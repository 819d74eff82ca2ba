#!/usr/bin/env bash
# The main job on built-in demo data: `ich demo` synthesizes a training and a held-out cohort of
# head CT scans (DICOM), preprocesses, trains the attention CNN, extracts features, fits a calibrated
# VGPMIL head into a model bundle, predicts on the held-out DICOM folders and prints the metrics and the path
# of the report's index page. Output in ${1:-demo}/; extra arguments go to `ich demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
out="${1:-demo}"
shift || true
cargo build --release --locked -p ich
"${CARGO_TARGET_DIR:-target}/release/ich" demo --out "$out" "$@"
