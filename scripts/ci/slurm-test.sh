#!/usr/bin/env bash
# The deploy/slurm recipes on a real Slurm: a single-node cluster on loopback (munged, slurmctld,
# slurmd, each with its files in a temporary folder), the job array of ich-shards.sbatch
# submitted as written, one task requeued while it runs (`scontrol requeue`: killed, then run
# again), the merge submitted `afterok` on the array, and its outputs compared with one run over
# the whole cohort: the features file and the CSV reports byte for byte, the dataset's scans.
# Needs root (the daemons run as root here) and `setup-system.sh --slurm`; ICH is the binary
# (default: the debug build under CARGO_TARGET_DIR or target/).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$(pwd)"
ICH="${ICH:-${CARGO_TARGET_DIR:-$repo/target}/debug/ich}"
ICH="$(cd "$(dirname "$ICH")" && pwd)/$(basename "$ICH")"
[ -x "$ICH" ] || { echo "slurm-test: no ich binary at $ICH (cargo build first)" >&2; exit 1; }
for c in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$c" >/dev/null 2>&1 || { echo "slurm-test: $c missing: bash scripts/setup-system.sh --slurm" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm-test: the daemons are started as root" >&2; exit 1; }

D="$(mktemp -d /tmp/ich-slurm.XXXXXX)"
export SLURM_CONF="$D/slurm.conf"
cleanup() {
  # every daemon of this test names its folder on its command line
  pkill -f "$D/" 2>/dev/null || true
  sleep 1
  pkill -9 -f "$D/" 2>/dev/null || true
  if [ "${KEEP:-}" = "" ]; then rm -rf "$D"; else echo "kept $D" >&2; fi
}
trap cleanup EXIT
fail() {
  echo "slurm-test: FAILED: $*" >&2
  for f in "$D"/slurmctld.log "$D"/slurmd.log "$D"/work/*.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }
  done
  exit 1
}
t0=$(date +%s)
export RUST_LOG="${RUST_LOG:-error}"

# munge, on a socket of its own
mkdir -p "$D/state" "$D/spool" "$D/work"
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 status=none
chmod 400 "$D/munge.key"
munged --force --key-file="$D/munge.key" --socket="$D/munge.sock" --pid-file="$D/munged.pid" \
  --log-file="$D/munged.log" --seed-file="$D/munged.seed"

# one node: this machine, under its short host name, on loopback ports of its own
node="$(hostname -s)"
mem_mib=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
cpus="$(nproc)"
# the recipe asks 2 CPUs and 4 GB a task (as written: it is not changed for the test)
[ "$cpus" -ge 2 ] && [ "$mem_mib" -ge 4096 ] \
  || { echo "slurm-test: this machine has $cpus CPUs and $mem_mib MiB to give; deploy/slurm asks 2 and 4096 a task" >&2; exit 1; }
port=$(( 20000 + RANDOM % 20000 ))
cat > "$SLURM_CONF" <<EOF
ClusterName=ichtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mib State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)' || fail "the node did not come up: $(sinfo 2>&1)"
echo "slurm-test: cluster up in $(( $(date +%s) - t0 )) s" >&2

# a small cohort, a small model, and the one-shot run to compare with
raw="$D/raw"; model="$D/model"; ds="$D/ds"
"$ICH" -q synth --out "$raw" --scans 12 --slices 4 --size 32 --seed 5 >/dev/null
"$ICH" -q preprocess "$raw" --out "$D/train" --size 32 --labels "$raw/labels.csv" >/dev/null
"$ICH" -q train-cnn --dataset "$D/train" --out "$model" --dim 8 --epochs 1 >/dev/null
"$ICH" -q extract --model "$model" --dataset "$D/train" --out "$D/fit.csv" >/dev/null
# the cohort as the array sees it (no labels)
"$ICH" -q preprocess "$raw" --out "$ds" --size 32 >/dev/null
"$ICH" -q fit-gp --features "$D/fit.csv" --bundle "$model" --inducing 8 >/dev/null
"$ICH" -q extract --model "$model" --dataset "$ds" --out "$D/features.csv" >/dev/null
"$ICH" -q predict --model "$model" "$ds" --out "$D/reports" >/dev/null

# the array as written, from the work folder (its logs land there)
work="$D/work"
cd "$work"
env_list="ALL,ICH=$ICH,INPUT=$raw,WORK=$work,MODEL=$model,PREPROCESS_ARGS=--size 32"
jid=$(sbatch --parsable --export="$env_list" "$repo/deploy/slurm/ich-shards.sbatch") || fail "sbatch of the array"
# task 1 requeued while it runs: killed, then run again from the start
requeued=""
for _ in $(seq 600); do
  st=$(squeue -h -j "${jid}_1" -o '%T' 2>/dev/null || true)
  if [ "$st" = "RUNNING" ]; then
    sleep 1
    scontrol requeue "${jid}_1" && requeued=1
    break
  fi
  [ -z "$st" ] && break
  sleep 0.2
done
[ -n "$requeued" ] || fail "task 1 was never seen running to requeue"
echo "slurm-test: task ${jid}_1 requeued while running" >&2
mid=$(sbatch --parsable --dependency="afterok:$jid" --kill-on-invalid-dep=yes \
  --export="ALL,ICH=$ICH,WORK=$work" "$repo/deploy/slurm/ich-merge.sbatch") || fail "sbatch of the merge"
# requeued jobs wait out a begin time; released here so that the test does not wait for it
for _ in $(seq 600); do
  scontrol release "${jid}_1" >/dev/null 2>&1 || true
  scontrol update jobid="${jid}_1" begintime=now >/dev/null 2>&1 || true
  left=$(squeue -h -j "$jid,$mid" 2>/dev/null | wc -l)
  [ "$left" -eq 0 ] && break
  sleep 1
done
[ "$(squeue -h -j "$jid,$mid" 2>/dev/null | wc -l)" -eq 0 ] || fail "jobs still queued after 10 min: $(squeue)"
cd "$repo"

# the merge's outputs are the one-shot run's
[ -f "$work/features.csv" ] || fail "the merge wrote no features file"
cmp "$D/features.csv" "$work/features.csv" || fail "merged features differ from the one-shot extraction"
for f in scans.csv slices.csv; do
  cmp "$D/reports/$f" "$work/reports/$f" || fail "merged $f differs from the one-shot run's"
done
python3 - "$ds" "$work/dataset" <<'EOF' || fail "the merged dataset's scans differ"
import json, sys
a, b = (json.load(open(d + "/dataset.json")) for d in sys.argv[1:3])
assert a["scans"] == b["scans"], "scans differ"
assert a["config"] == b["config"], "preprocessing differs"
EOF
# the requeued task ran twice: its log says so, and no lock or temporary is left behind
ls "$work"/ich-shards-"${jid}"_1.log >/dev/null 2>&1 || fail "no log of task 1"
left=$(find "$work" -name '.ich.lock' -o -name '*.tmp*' | wc -l)
[ "$left" -eq 0 ] || fail "left behind: $(find "$work" -name '.ich.lock' -o -name '*.tmp*')"
echo "slurm-test: passed in $(( $(date +%s) - t0 )) s (array of 4, task 1 requeued, merge afterok)" >&2
