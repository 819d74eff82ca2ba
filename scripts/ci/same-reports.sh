#!/usr/bin/env bash
# A refactor's check that behaviour did not change: two ich binaries (before and after) run the
# golden test's cohort (scripts/ci/golden-report.sh, with pages and DICOM results), and every file
# of their reports is compared by scripts/ci/same-reports.py, the run's own values (time, run id,
# new UIDs, paths, the bundle's hash) set aside. Then a copy of the second report with one slice's
# probability changed must be found different, or the comparison itself is reported broken.
#   bash scripts/ci/same-reports.sh OLD_ICH NEW_ICH
# Build OLD_ICH from a worktree of the earlier commit (git worktree add ../pre REV; cargo build
# -p ich there). Needs dcmdump (dcmtk, installed by scripts/setup-system.sh). Not run by CI: it
# takes two builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || { sed -n 2,10p "$0"; exit 2; }
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
bash scripts/ci/golden-report.sh "$1" "$W/old" >/dev/null
bash scripts/ci/golden-report.sh "$2" "$W/new" >/dev/null
python3 scripts/ci/same-reports.py "$W/old" "$W/new"
# The planted change: the first probability of slices.csv's first row moved by 0.1.
cp -r "$W/new" "$W/planted"
python3 - "$W/planted/report/slices.csv" <<'PY'
import csv, sys
path = sys.argv[1]
rows = list(csv.reader(open(path, newline="")))
col = rows[0].index("probability")
p = float(rows[1][col])
rows[1][col] = repr(p + 0.1 if p < 0.9 else p - 0.1)
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
PY
if python3 scripts/ci/same-reports.py "$W/new" "$W/planted" >/dev/null; then
  echo "same-reports: BROKEN: a slice's probability moved by 0.1 was not seen" >&2
  exit 1
fi
echo "same-reports: a planted change of one probability is seen"
