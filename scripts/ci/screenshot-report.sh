#!/usr/bin/env bash
# Opens an HTML report of `ich predict` in headless Chromium (Debian's `chromium`) and saves a PNG.
#
#   bash scripts/ci/screenshot-report.sh REPORT.html OUT.png [WIDTHxHEIGHT]
#
# Installs chromium with apt when it is missing (needs root or sudo). Nothing is fetched by the
# page itself: reports are self-contained.
set -euo pipefail
html=${1:?usage: screenshot-report.sh REPORT.html OUT.png [WIDTHxHEIGHT]}
out=${2:?usage: screenshot-report.sh REPORT.html OUT.png [WIDTHxHEIGHT]}
size=${3:-1280x1400}
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (apt)…" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium >/dev/null
fi
[ -f "$html" ] || { echo "no such report: $html" >&2; exit 1; }
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
mkdir -p "$(dirname "$out")"
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --no-first-run --disable-extensions --window-size="${size/x/,}" \
  --screenshot="$out_abs" "file://$abs" >/dev/null 2>&1
[ -s "$out_abs" ] || { echo "chromium wrote no screenshot" >&2; exit 1; }
echo "$out_abs"
