#!/usr/bin/env bash
# ich merge's peak memory against the cohort (docs/BENCHMARKS.md, "Growth with the cohort"):
# synthetic cohorts of SIZES scans (64², 8 slices) predicted as 4 shards from their dataset, then
# merged, under GNU time, beside the one-shot predict of the same dataset; checks that the merged
# slices.csv and scans.csv are the one-shot ones and that no spill file is left.
#   bash scripts/bench/bench-merge.sh        (SIZES="1000 5000"; work in bench-out/merge, deleted after)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked -p ich >/dev/null
t="${CARGO_TARGET_DIR:-target}"
case "$t" in /*) ;; *) t="$(pwd)/$t" ;; esac
ich="$t/release/ich"
w=bench-out/merge
rm -rf $w; mkdir -p $w
$ich -q synth --out $w/train --scans 100 --slices 8 --size 64 --seed 2 >/dev/null
$ich -q preprocess $w/train --out $w/train-ds --size 64 --labels $w/train/labels.csv >/dev/null
$ich -q train-cnn --dataset $w/train-ds --out $w/cnn --dim 8 --epochs 1 >/dev/null
for n in ${SIZES:-1000 5000}; do
  c=$w/c$n; mkdir -p $c
  $ich -q synth --out $c/dicom --scans $n --slices 8 --size 64 --seed 1 >/dev/null
  $ich -q preprocess $c/dicom --out $c/ds --size 64 --labels $c/dicom/labels.csv >/dev/null
  rm -rf $c/dicom
  $ich -q extract --model $w/cnn --dataset $c/ds --out $c/f.csv >/dev/null
  cp -r $w/cnn $c/bundle
  $ich -q fit-gp --features $c/f.csv --bundle $c/bundle --inducing 50 >/dev/null
  /usr/bin/time -f "$n predict-one-shot %e s %M KiB" -o $c/t1 $ich -q predict --model $c/bundle $c/ds --out $c/one >/dev/null
  cat $c/t1
  for i in 0 1 2 3; do
    $ich -q predict --model $c/bundle $c/ds --shard $i/4 --out $c/r$i >/dev/null
  done
  /usr/bin/time -f "$n merge-4-shards %e s %M KiB" -o $c/t2 $ich -q merge $c/r0 $c/r1 $c/r2 $c/r3 --out $c/merged >/dev/null
  cat $c/t2
  cmp $c/one/slices.csv $c/merged/slices.csv && cmp $c/one/scans.csv $c/merged/scans.csv && echo "$n: slices.csv and scans.csv identical"
  echo "$n: spill files left in the merged folder: $(ls -a $c/merged | grep -c spill || true)"
  rm -rf $c
done
rm -rf $w
