#!/usr/bin/env bash
# Benchmark of `ich serve` under load: 50 synthetic head CT studies of 40 slices (512², explicit VR
# little endian) pushed by dcmtk's storescu from 4 associations at once; ich predicts each study
# once it settles and sends its SR and Secondary Captures to dcmtk's storescp, which logs every
# object it receives. Printed for each number of workers: throughput, per-study latency (last
# instance → results sent) in the burst and for one study arriving alone afterwards, peak memory
# of the node (VmHWM), and whether every study was predicted and sent exactly once. Then the same
# studies through `ich predict --send` one by one, as a script calling ich per study would, on
# the same machine in the same run. Each number of workers runs twice: alone, and with SLOW peers
# trickling at the node all along (half of them an A-ASSOCIATE-RQ a byte every 2 s, reconnecting
# when closed; half bare idle connections, reopened when closed), as a hostile or broken host would.
# Usage: scripts/bench/bench-serve.sh [STUDIES] [SETTLE_S] ["WORKERS …"] [SLOW]
# (needs dcmtk: scripts/setup-system.sh --pacs)
set -euo pipefail
cd "$(dirname "$0")/../.."
studies="${1:-50}"
settle="${2:-5}"
workers_list="${3:-1 2}"
slow_peers="${4:-16}"
cargo build --release --locked -p ich >/dev/null
ich="$(realpath "${CARGO_TARGET_DIR:-target}/release/ich")"
w=bench-out/serve
mkdir -p "$w"
. scripts/bench/bench-common.sh
one_epoch_bundle "$ich" "$w"
if [ ! -f "$w/studies/labels.csv" ] || [ "$(ls -d "$w"/studies/scan-* | wc -l)" != "$studies" ]; then
  rm -rf "$w/studies"
  "$ich" -q synth --out "$w/studies" --scans "$studies" --slices 40 --size 512 --seed 21
fi
[ -d "$w/alone" ] || "$ich" -q synth --out "$w/alone" --scans 8 --slices 40 \
  --size 512 --seed 22 >/dev/null
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
dport=$(free_port)
rm -rf "$w/dest" "$w/received.txt" "$w/predict"
mkdir -p "$w/dest"
# the destination: every object it receives is one line of received.txt
storescp -q -aet PACS -od "$w/dest" -xcr "echo #f >> $(pwd)/$w/received.txt" "$dport" &
dest=$!
trap 'kill $dest 2>/dev/null || true; kill ${serve:-0} ${tricklers:-0} 2>/dev/null || true' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
mapfile -t dirs < <(ls -d "$w"/studies/scan-* | sort)
mapfile -t alone < <(ls -d "$w"/alone/scan-* | sort)
sent_count() {
  curl -sf "http://127.0.0.1:$1/status" | python3 -c \
    'import json,sys; print(json.load(sys.stdin)["queue"].get("sent", 0))'
}
# SLOW peers against 127.0.0.1:PORT until interrupted; then says how often the node closed them
trickle() {
  exec python3 - "$1" "$2" <<'PY'
import signal, socket, sys, threading, time
port, n = int(sys.argv[1]), int(sys.argv[2])
def rq():
    """An A-ASSOCIATE-RQ for verification (what a real sender's first PDU looks like)."""
    ae = lambda s: s.ljust(16).encode()
    item = lambda t, b: bytes([t, 0]) + len(b).to_bytes(2, "big") + b
    ctx = item(0x10, b"1.2.840.10008.3.1.1.1")
    pc = item(0x20, b"\x01\x00\x00\x00" + item(0x30, b"1.2.840.10008.1.1")
              + item(0x40, b"1.2.840.10008.1.2"))
    ui = item(0x50, item(0x51, (16384).to_bytes(4, "big")))
    body = b"\x00\x01\x00\x00" + ae("ICH") + ae("SLOW") + b"\x00" * 32 + ctx + pc + ui
    return b"\x01\x00" + len(body).to_bytes(4, "big") + body
closed = [0]
def peer(k):
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            if k % 2 == 0:
                for b in rq():
                    s.send(bytes([b]))
                    time.sleep(2)
            else:
                s.recv(1)
        except OSError:
            pass
        closed[0] += 1
        time.sleep(0.1)
for k in range(n):
    threading.Thread(target=peer, args=(k,), daemon=True).start()
signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
try:
    while True:
        time.sleep(1)
finally:
    print(f"  {n} slow peers: closed by the node {closed[0]} times", flush=True)
PY
}
run=0
for workers in $workers_list; do
for slow in 0 $slow_peers; do
  port=$(free_port); sport=$(free_port)
  rm -rf "$w/spool" "$w/serve.log"; : >"$w/received.txt"
  "$ich" --log-json serve --model "$w/bundle" --spool "$w/spool" --host 127.0.0.1 --port "$port" \
    --send "PACS@127.0.0.1:$dport" --settle "$settle" --status "127.0.0.1:$sport" \
    --max-queue 1000 --workers "$workers" 2>"$w/serve.log" >/dev/null &
  serve=$!
  until curl -sf "http://127.0.0.1:$sport/status" >/dev/null; do sleep 0.2; done
  tricklers=""
  if [ "$slow" != 0 ]; then
    trickle "$port" "$slow" >"$w/slow.txt" 2>&1 &
    tricklers=$!
    sleep 3
  fi
  echo "ich serve: $studies studies of 40 slices (512²), 4 associations at once, settle $settle s, $workers worker(s), $slow slow peers"
  t0=$(date +%s.%N)
  pushes=()
  for k in 0 1 2 3; do
    group=()
    for ((i = k; i < ${#dirs[@]}; i += 4)); do group+=("${dirs[$i]}"); done
    storescu -aet MODALITY -aec ICH +sd +r 127.0.0.1 "$port" "${group[@]}" &
    pushes+=($!)
  done
  for p in "${pushes[@]}"; do wait "$p"; done
  t_pushed=$(date +%s.%N)
  until [ "$(sent_count "$sport")" -ge "$studies" ]; do sleep 0.5; done
  t_done=$(date +%s.%N)
  # one more study, alone: its latency without a queue
  storescu -aet MODALITY -aec ICH +sd +r 127.0.0.1 "$port" "${alone[$run]}"
  until [ "$(sent_count "$sport")" -ge "$((studies + 1))" ]; do sleep 0.2; done
  run=$((run + 1))
  peak=$(grep VmHWM "/proc/$serve/status" | awk '{print $2}')
  if [ -n "$tricklers" ]; then
    kill -INT "$tricklers"; wait "$tricklers" 2>/dev/null || true
    cat "$w/slow.txt"
  fi
  kill -TERM "$serve"; wait "$serve" || true
  sleep 1
  python3 - "$w" "$studies" "$t0" "$t_pushed" "$t_done" "$peak" "$(basename "${alone[$((run - 1))]}")" <<'PY'
import json, glob, sys, statistics, collections
w, n, t0, tp, td, peak = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:6]), int(sys.argv[6])
states = [json.load(open(f)) for f in glob.glob(f"{w}/spool/studies/*/state.json")]
last = max(states, key=lambda s: s["first_received"])
burst = [s for s in states if s is not last]
sent_after = [s["sent_after_s"] for s in burst]
pred_after = [s["predicted_after_s"] for s in burst]
rounds = collections.Counter(s["round"] for s in states)
files = sum(len(s["files"]) for s in states)
lines = [l.strip() for l in open(f"{w}/received.txt")]
log = open(f"{w}/serve.log").read()
print(f"  pushed in {tp - t0:.1f} s; all {n} sent {td - t0:.1f} s after the first instance "
      f"({n / (td - t0) * 60:.1f} studies/min)")
print(f"  latency last instance → sent in the burst: median {statistics.median(sent_after):.1f} s, "
      f"max {max(sent_after):.1f} s (→ predicted: median {statistics.median(pred_after):.1f} s)")
print(f"  one study alone afterwards: sent {last['sent_after_s']:.1f} s after its last instance "
      f"(predicted after {last['predicted_after_s']:.1f} s, the settle time included)")
print(f"  peak RSS of ich serve: {peak / 1024:.0f} MB")
print(f"  studies {len(states)}, rounds {dict(rounds)}, 'predicted' log lines {log.count(chr(34) + 'predicted' + chr(34))}; "
      f"objects written {files}, received {len(lines)}, distinct {len(set(lines))}")
ok = len(states) == n + 1 and rounds == {1: n + 1} and len(lines) == len(set(lines)) == files
print("  exactly once:", "yes" if ok else "NO")
PY
done
done
# the same studies, one `ich predict --send` per study
mkdir -p "$w/predict"
t1=$(date +%s.%N)
maxrss=0
for d in "${dirs[@]}"; do
  r=$( { /usr/bin/time -f "%M" "$ich" -q predict --model "$w/bundle" "$d" \
          --out "$w/predict/$(basename "$d")" --send "PACS@127.0.0.1:$dport" >/dev/null; } 2>&1 | tail -1)
  [ "$r" -gt "$maxrss" ] && maxrss=$r
done
t2=$(date +%s.%N)
python3 -c "
n=$studies; s=$t2-$t1
print(f'ich predict one by one: {s:.1f} s for {n} studies ({n / s * 60:.1f} studies/min, {s / n:.2f} s per study, model load included), peak RSS {$maxrss / 1024:.0f} MB')
"
