#!/usr/bin/env bash
# The GP heads on real data, on the fixed splits of ../shared/data/splits/ (the splits the upstream
# codes' figures in its README were measured on): MUSK1 and MUSK2 (5 splits each) and the real ICH
# features (split k: fit/valid/test bags of rsna_d8_fold{k}.csv, external test cq500_d8_fold{k}.csv).
# Every model of MODELS (default "vgpmil g-vgpmil"), default grid; extra arguments go to every
# `ich eval-gp` (e.g. --emax product, --H 1e12, --kernel-steps 0).
# Writes JSON/CSV reports under ${OUT:-bench-out}/ and prints a markdown table.
#   bash scripts/bench/bench-gp-real.sh [EVAL-GP ARGS...]        (ICH=path/to/ich to skip the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${ICH_SHARED_DATA:-../shared/data}"
out="${OUT:-bench-out}"
mkdir -p "$out"
if [ -z "${ICH:-}" ]; then
  cargo build --release --locked -p ich >/dev/null 2>&1
  ICH="${CARGO_TARGET_DIR:-target}/release/ich"
fi
models="${MODELS:-vgpmil g-vgpmil}"
for model in $models; do
  for set in musk1 musk2; do
    "$ICH" -q eval-gp --features "$data/mil/$set.csv" --splits "$data/splits/${set}_5split.csv" \
      --model "$model" "$@" --json "$out/$set-$model.json" --csv "$out/$set-$model.csv" >/dev/null
  done
  "$ICH" -q eval-gp --features "$data/ich-features/rsna_d8_fold{split}.csv" \
    --test "$data/ich-features/cq500_d8_fold{split}.csv" --splits "$data/splits/rsna_d8_halves.csv" \
    --model "$model" "$@" --json "$out/rsna-$model.json" --csv "$out/rsna-$model.csv" >/dev/null
done
python3 - "$out" $models <<'PY'
import json, sys
out, models = sys.argv[1], sys.argv[2:]
def rows(name):
    return {(r["set"], r["metric"]): r for r in json.load(open(f"{out}/{name}.json"))["summary"]}
def f(r, key):
    return f"{r[key]['mean']:.3f} ± {r[key]['std']:.3f}" if key in r else "–"
print("| data | model | bag AUC | bag AUC (cal.) | instance AUC | bag ECE (cal.) | bag log-lik (cal.) | slice ECE (cal.) | slice log-lik (cal.) | CNN bag AUC |")
print("|---|---|---|---|---|---|---|---|---|---|")
for model in models:
    for name, sets in [("musk1", [("test", "MUSK1")]), ("musk2", [("test", "MUSK2")]),
                       ("rsna", [("test", "RSNA test halves"), ("external", "CQ500")])]:
        r = rows(f"{name}-{model}")
        for s, label in sets:
            print(f"| {label} | {model} | {f(r,(s,'bag AUC'))} | {f(r,(s,'bag AUC (calibrated)'))} | {f(r,(s,'instance AUC'))} | {f(r,(s,'bag ECE (calibrated)'))} | "
                  f"{f(r,(s,'bag log-lik (calibrated)'))} | {f(r,(s,'instance ECE (calibrated)'))} | {f(r,(s,'instance log-lik (calibrated)'))} | {f(r,(s,'CNN bag AUC'))} |")
PY
