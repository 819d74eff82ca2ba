# Sourced by the bench-*.sh runners.

# one_epoch_bundle ICH DIR: a bundle of the default input size (256², D = 32) in DIR/bundle,
# trained for one epoch on 8 synthetic scans (prediction costs the same whatever the weights);
# kept when DIR/bundle already has its GP head.
one_epoch_bundle() {
  local ich="$1" w="$2"
  [ -f "$w/bundle/gp.json" ] && return 0
  "$ich" -q synth --out "$w/train-dicom" --scans 8 --slices 8 --size 256 --seed 3 >/dev/null
  "$ich" -q preprocess "$w/train-dicom" --out "$w/train-ds" --size 256 \
    --labels "$w/train-dicom/labels.csv" >/dev/null
  "$ich" -q train-cnn --dataset "$w/train-ds" --out "$w/bundle" --dim 32 --epochs 1 >/dev/null
  "$ich" -q extract --model "$w/bundle" --dataset "$w/train-ds" --out "$w/features.csv" >/dev/null
  "$ich" -q fit-gp --features "$w/features.csv" --bundle "$w/bundle" --inducing 50 >/dev/null
}
