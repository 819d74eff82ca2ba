#!/usr/bin/env bash
# Builds what scripts/bench/gpu-bench.sh runs on a GPU machine: the step and infer benches, `ich` and the
# fused batch norm's test (tests/fused_bn.rs),
# all with the wgpu and cuda backends (bench profile; on this 2-core machine 18 min for the
# dependencies, then 3.5 min with them built, 2026-11-26), stripped and packed into
# gpu-bin.tar.xz and gpu-ich.tar.xz (git-ignored), each small enough to carry to the card.
# Usage: scripts/bench/gpu-binaries.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
features=attcnn/wgpu,attcnn/cuda,ich/wgpu,ich/cuda
rm -rf gpu-bin && mkdir gpu-bin
# one build (the bench profile, so that the benches and `ich` share every compiled crate); the
# executables as cargo names them
cargo build --profile bench --locked -p attcnn -p ich --features "$features" \
  --bin ich --bench step --bench infer --test fused_bn --message-format=json | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("ich", "step", "infer", "fused_bn"):
        shutil.copy(m["executable"], "gpu-bin/" + m["target"]["name"])
'
strip gpu-bin/*
# a device call carries at most 64 MiB with the working tree: the benches and the kernel test in
# one archive (53 MB with xz -9 on 2026-11-27; GPU_PACK="step infer" leaves the kernel test out:
# 37 MB on 2026-11-28), `ich` in another (for SECTIONS=cli/demo; carry the one a call needs)
tar -cf - $(for b in ${GPU_PACK:-step infer fused_bn}; do echo "gpu-bin/$b"; done) | xz -9 -T2 > gpu-bin.tar.xz
tar -cf - gpu-bin/ich | xz -9 -T2 > gpu-ich.tar.xz
ls -l gpu-bin gpu-bin.tar.xz gpu-ich.tar.xz
