#!/usr/bin/env bash
# The whole test suite: unit, integration (the real binary on temporary folders) and the tests on
# ../shared/data (skipped with a message when it is absent, except under CI where that fails).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh --pacs
cargo test --workspace --locked
