#!/usr/bin/env bash
# The output folder's lock across hosts and PID namespaces, for real (not a unit test's fake
# holder): writers started with `unshare --uts --pid --fork --mount-proc`, each a "node" with a
# hostname of its own and its own PID namespace (where it is PID 1), all on one folder, as on
# storage shared by the nodes of a cluster or the pods of a Kubernetes job.
#
#   bash scripts/ci/lock-namespaces-test.sh        (as root: unshare needs it; ICH= the binary)
#
# 1. `ich serve` on node-a holds the spool.
# 2. `ich serve` on node-b, same spool: refused while node-a's heartbeat goes on, naming node-a.
# 3. node-a is killed (SIGKILL): its lock stays behind, naming PID 1 on node-a.
# 4. node-a again in a new PID namespace (a pod retry: the same hostname, the same PID 1 in a
#    namespace of its own): takes the lock over and serves. Killed too, node-d takes over once
#    the heartbeat has stood still for a lease, not before.
# 5. SIGTERM: it stops and leaves no lock behind.
# The lease is 2 s here (ICH_LOCK_LEASE_SECS). About 15 s.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
ICH="${ICH:-${CARGO_TARGET_DIR:-$repo/target}/debug/ich}"
[ -x "$ICH" ] || { echo "no ich binary at $ICH (cargo build, or set ICH)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "lock-namespaces-test.sh: unshare needs root" >&2; exit 1; }
command -v unshare >/dev/null || { echo "needs unshare (util-linux)" >&2; exit 1; }
# a container without the right to make namespaces cannot run this test at all: said loudly
if ! unshare --uts --pid --fork --mount-proc true 2>/dev/null; then
  echo "WARNING: lock-namespaces-test.sh left out: this machine does not let root make UTS and PID namespaces (unshare failed)" >&2
  exit 0
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAILED: $*" >&2; for f in "$work"/*.log; do echo "--- $f" >&2; cat "$f" >&2 || true; done; exit 1; }
export ICH_LOCK_LEASE_SECS=2
spool="$work/spool"
mkdir -p "$spool"
model="$repo/models/sa-dmil"
port() { echo $(( 20000 + RANDOM % 20000 )); }
node() { # node NAME LOG PORT: ich serve on a node of its own, in the background
  unshare --uts --pid --fork --mount-proc bash -c \
    "hostname $1 && exec '$ICH' serve --model '$model' --ae ICH --port $3 --spool '$spool'" \
    >"$work/$2" 2>&1 &
  pids+=($!)
}
wait_for() { # wait_for FILE TEXT SECONDS
  local t=0
  while ! grep -q "$2" "$1" 2>/dev/null; do
    sleep 0.1; t=$((t + 1))
    [ "$t" -lt $(($3 * 10)) ] || return 1
  done
}

# 1. node-a holds the spool
node node-a a.log "$(port)"
wait_for "$work/a.log" "listening" 60 || fail "node-a did not start"
grep -aq "host=node-a" "$spool/.ich.lock" || fail "the lock does not name node-a"
grep -aq "^pid=1$" "$spool/.ich.lock" || fail "node-a is not PID 1 in its namespace"
token_a=$(grep -a "^token=" "$spool/.ich.lock")

# 2. node-b: refused while node-a beats, naming it
set +e
unshare --uts --pid --fork --mount-proc bash -c \
  "hostname node-b && exec '$ICH' serve --model '$model' --ae ICH --port $(port) --spool '$spool'" \
  >"$work/b.log" 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || fail "node-b served the spool node-a holds"
grep -q "being written by another ich process" "$work/b.log" || fail "node-b's refusal says not why"
grep -q "node-a" "$work/b.log" || fail "node-b's refusal does not name node-a"
echo "ok: a live writer on another node excludes the second (exit $code)"

# 3. node-a dies without a word (the ich process, PID 1 of its namespace, and the unshare)
pkill -9 -f -- "^$ICH serve .*--spool $spool" || fail "no node-a process to kill"
kill -9 "${pids[0]}" 2>/dev/null || true
sleep 0.2
[ -f "$spool/.ich.lock" ] || fail "the killed node's lock is gone"

# 4. the pod retry: node-a again, PID 1 again, in a new PID namespace. Where the kernel gave the
#    new namespace the dead one's number, the lock is judged from /proc at once (PID 1 there is
#    the retry itself, started later); otherwise once the heartbeat has stood still for a lease
ns_a=$(grep -a "^pidns=" "$spool/.ich.lock")
start=$(date +%s%3N)
node node-a c.log "$(port)"
wait_for "$work/c.log" "listening" 60 || fail "the retry did not take over the dead node's lock"
waited=$(( $(date +%s%3N) - start ))
grep -aq "^token=" "$spool/.ich.lock" || fail "no lock while the retry serves"
[ "$(grep -a "^token=" "$spool/.ich.lock")" != "$token_a" ] || fail "the lock still holds the dead node's token"
if [ "$(grep -a "^pidns=" "$spool/.ich.lock")" != "$ns_a" ]; then
  [ "$waited" -ge 1500 ] || fail "the retry, in another namespace, took the lock after ${waited} ms, before the 2 s lease ran out"
fi
echo "ok: a pod retry (same host, PID 1 in a new namespace) takes over after ${waited} ms"

# 4b. the retry dies too; a writer on another node takes over after a lease, not before
pkill -9 -f -- "^$ICH serve .*--spool $spool" || fail "no retried node to kill"
sleep 0.2
start=$(date +%s%3N)
node node-d d.log "$(port)"
wait_for "$work/d.log" "listening" 60 || fail "node-d did not take over the dead retry's lock"
waited=$(( $(date +%s%3N) - start ))
[ "$waited" -ge 1500 ] || fail "node-d took the lock after ${waited} ms, before the 2 s lease ran out"
grep -aq "host=node-d" "$spool/.ich.lock" || fail "the lock does not name node-d"
echo "ok: another node takes a dead node's lock over after ${waited} ms (lease 2 s)"

# 5. a clean stop leaves no lock
c=$(pgrep -f -- "^$ICH serve .*--spool $spool") || fail "no node to stop"
kill -TERM "$c"
for _ in $(seq 1 100); do kill -0 "$c" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$c" 2>/dev/null || fail "the node did not stop on SIGTERM"
[ ! -e "$spool/.ich.lock" ] || fail "a stopped node left its lock"
echo "ok: lock-namespaces-test.sh passed"
