#!/usr/bin/env bash
# Fuzzing (docs/ROBUSTNESS.md). Needs nightly and cargo-fuzz (`cargo install cargo-fuzz`).
#   bash scripts/ci/fuzz.sh corpus                  seed corpora under fuzz/corpus/<target>/
#   bash scripts/ci/fuzz.sh build                   the fuzz binaries (fuzz/target/.../release/)
#   bash scripts/ci/fuzz.sh run TARGET SECONDS      one target for SECONDS (crashes: fuzz/artifacts/)
# Targets: dicom dataset features bundle gp_model, and the network: pdu association dicomweb store
# (their seeds recorded from dcmtk's echoscu/storescu, `setup-system.sh --pacs`). A crash found is copied to
# fuzz/regressions/<target>/ and replayed by `cargo test` (crates/testkit/tests/fuzz_regressions.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${ICH_SHARED_DATA:-../shared/data}"
cmd="${1:-}"
sep() { printf '\xff\xfe'; }
case "$cmd" in
corpus)
  cargo build --workspace --locked -q
  ICH="${CARGO_TARGET_DIR:-target}/debug/ich"
  W="$(mktemp -d)"
  trap 'rm -rf "$W"' EXIT
  rm -rf fuzz/corpus && mkdir -p fuzz/corpus/{dicom,dataset,features,bundle,gp_model,pdu,association,dicomweb,store}
  # DICOM: the shared pydicom corpus and synthetic CT slices
  cp "$data"/dicom/*.dcm fuzz/corpus/dicom/
  "$ICH" -q synth --out "$W/dicom" --scans 4 --slices 4 --size 32 --seed 1
  i=0; for f in $(find "$W/dicom" -name '*.dcm' | sort | head -8); do cp "$f" "fuzz/corpus/dicom/synth$i.dcm"; i=$((i+1)); done
  # the hostile classes' seeds: standard attributes stored as VR UN, sequences nested 1,800 deep
  python3 scripts/ci/fuzz-seeds.py fuzz/corpus/dicom
  # the network: a sender's and an SCP's PDUs (recorded), DICOMweb answers around a synth slice
  python3 scripts/ci/fuzz-net-seeds.py fuzz/corpus fuzz/corpus/dicom/synth0.dcm "$ICH"
  # a dataset, a bundle with a GP head and a features file made from them
  "$ICH" -q preprocess "$W/dicom" --out "$W/ds" --size 16 --labels "$W/dicom/labels.csv" \
    --labels "$W/dicom/slice_labels.csv"
  "$ICH" -q train-cnn --dataset "$W/ds" --out "$W/model" --dim 8 --epochs 1 --seed 0
  "$ICH" -q extract --model "$W/model" --dataset "$W/ds" --out "$W/features.csv"
  "$ICH" -q fit-gp --features "$W/features.csv" --bundle "$W/model" --inducing 4 --calibrate --seed 0
  meta=$(find "$W/ds/scans" -name '*.json' | sort | head -1)
  npz=$(find "$W/ds/scans" -name '*.npz' | sort | head -1)
  { cat "$W/ds/dataset.json"; sep; cat "$meta"; sep; cat "$npz"; } > fuzz/corpus/dataset/synth
  { cat "$W/model/manifest.json"; sep; cat "$W/model/config.json"; sep; cat "$W/model/gp.json"; } > fuzz/corpus/bundle/synth
  cp "$W/model/gp.json" fuzz/corpus/gp_model/synth.json
  cp "$W/features.csv" fuzz/corpus/features/synth.csv
  head -40 "$data/mil/musk1.csv" > fuzz/corpus/features/musk1_head.csv
  head -40 "$data/ich-features/rsna_d8_fold0.csv" > fuzz/corpus/features/rsna_head.csv
  head -20 "$data/splits/rsna_d8_halves.csv" > fuzz/corpus/features/splits_head.csv
  # labels files (the features target reads them too)
  head -40 "$W/dicom/labels.csv" > fuzz/corpus/features/labels_head.csv
  head -40 "$W/dicom/slice_labels.csv" > fuzz/corpus/features/slice_labels_head.csv
  { echo ID,Label; for s in any epidural intraparenchymal intraventricular subarachnoid subdural; do
      echo "ID_12cadc6af_$s,$([ $s = any ] || [ $s = subdural ] && echo 1 || echo 0)"; done; } \
    > fuzz/corpus/features/rsna_labels.csv
  du -sh fuzz/corpus/*
  ;;
build)
  cd fuzz && cargo +nightly fuzz build --release --debug-assertions
  ;;
run)
  target="$2"; secs="$3"
  mkdir -p "fuzz/artifacts/$target"
  cd fuzz && cargo +nightly fuzz run --release --debug-assertions "$target" "corpus/$target" -- \
    -max_total_time="$secs" -rss_limit_mb=2048 -max_len=1048576 -timeout=20
  ;;
*)
  sed -n 2,7p "$0"; exit 2 ;;
esac
