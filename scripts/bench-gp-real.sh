#!/usr/bin/env bash
# The GP head on real data (docs/BENCHMARKS.md): MUSK1 and MUSK2 (5 stratified splits, M = 200),
# and the real ICH features: train on half of the bags of rsna_d8_fold{k}.csv, test on the other
# half and on cq500_d8_fold{k}.csv, k = 0..4 (default grid). Every model (MODELS="vgpmil
# g-vgpmil probit probit-gibbs lm-vgpmil" by default); extra arguments go to every `ich eval-gp`
# (e.g. --emax loo-max, --H 1e12).
# Writes JSON/CSV reports under ${OUT:-bench-out}/ and prints a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${ICH_SHARED_DATA:-../shared/data}"
out="${OUT:-bench-out}"
mkdir -p "$out"
cargo build --release --locked -p ich >/dev/null 2>&1
ich="${CARGO_TARGET_DIR:-target}/release/ich"
models="${MODELS:-vgpmil g-vgpmil probit probit-gibbs lm-vgpmil}"
for model in $models; do
  for set in musk1 musk2; do
    "$ich" -q eval-gp --features "$data/mil/$set.csv" --model "$model" --inducing 200 "$@" \
      --json "$out/$set-$model.json" --csv "$out/$set-$model.csv" >/dev/null
  done
  for k in 0 1 2 3 4; do
    "$ich" -q eval-gp --features "$data/ich-features/rsna_d8_fold$k.csv" --holdout 0.5 \
      --test "$data/ich-features/cq500_d8_fold$k.csv" --model "$model" "$@" \
      --json "$out/ich$k-$model.json" --csv "$out/ich$k-$model.csv" >/dev/null
  done
done
python3 - "$out" $models <<'PY'
import json, sys, statistics as st
out = sys.argv[1]
models = sys.argv[2:]
def rows(name):
    return {(r["set"], r["metric"]): r for r in json.load(open(f"{out}/{name}.json"))["summary"]}
def fmt(vals):
    return f"{st.mean(vals):.3f} ± {st.stdev(vals) if len(vals) > 1 else 0:.3f}"
print("| data | model | bag AUC | bag AUC (other rule) | instance AUC | CNN bag AUC | bag log-lik → Platt | fit s |")
print("|---|---|---|---|---|---|---|---|")
for model in models:
    for s in ["musk1", "musk2"]:
        r = rows(f"{s}-{model}")
        print(f"| {s.upper()} (5 splits) | {model} | {fmt(r['test','bag AUC']['values'])} | {fmt(r['test','bag AUC (other rule)']['values'])} | – | – | "
              f"{r['test','bag log-lik']['mean']:.3f} → {r['test','bag log-lik (Platt)']['mean']:.3f} | {r['fit','seconds']['mean']:.2f} |")
    for setname, label in [("test", "RSNA half"), ("external", "CQ500")]:
        get = lambda key: [rows(f"ich{k}-{model}")[(setname, key)]["values"][0] for k in range(5) if (setname, key) in rows(f"ich{k}-{model}")]
        inst = get("instance AUC")
        print(f"| {label} (folds 0–4) | {model} | {fmt(get('bag AUC'))} | {fmt(get('bag AUC (other rule)'))} | {fmt(inst) if inst else '–'} | {fmt(get('CNN bag AUC'))} | "
              f"{st.mean(get('bag log-lik')):.3f} → {st.mean(get('bag log-lik (Platt)')):.3f} | {st.mean([rows(f'ich{k}-{model}')[('fit','seconds')]['values'][0] for k in range(5)]):.2f} |")
PY
