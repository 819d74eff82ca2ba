#!/usr/bin/env bash
# Whether the fused batch-norm test's wgpu build is in the build folder for this lock file and
# these manifests (profiles included): scripts/test.sh's time rule gives that test 50 minutes of
# CI when it is, 30 when it is not, since the build alone takes 40 to 50 minutes on 2 cores. A
# build left from another lock file or profile is not counted as cached: cargo rebuilds it all.
#   bash scripts/ci/wgpu-stamp.sh write   (after the build: scripts/ci/fused-bn-test.sh)
#   bash scripts/ci/wgpu-stamp.sh check   (exit 0: cached)
set -euo pipefail
cd "$(dirname "$0")/../.."
stamp="${CARGO_TARGET_DIR:-target}/ich-wgpu-build.stamp"
key=$(cat Cargo.lock Cargo.toml crates/attcnn/Cargo.toml | sha256sum | cut -d' ' -f1)
case "${1:-}" in
  write) mkdir -p "$(dirname "$stamp")" && echo "$key" > "$stamp" ;;
  check) [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] ;;
  *) echo "wgpu-stamp.sh: write or check" >&2; exit 2 ;;
esac
