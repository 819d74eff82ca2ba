# one card call (not committed): demo beside the warm-up, then train, infer, profile at 256²
tar -xJf gpu-bin.tar.xz
export GPU_BACKENDS=cuda
t0=$(date +%s); mark() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi -L; command -v nsys ncu
mark demo+warm
(SECTIONS=demo bash scripts/gpu-bench.sh gpu-bin > $OUT/demo.log 2>&1; mark demo done >> $OUT/demo.log) &
SECTIONS=warm WARM_TIMEOUT=${WT:-230} bash scripts/gpu-bench.sh gpu-bin > $OUT/warm.log 2>&1
mark train
SECTIONS=train PROC_TIMEOUT=100 bash scripts/gpu-bench.sh gpu-bin 5 > $OUT/train.log 2>&1
wait
mark infer
SECTIONS=infer PROC_TIMEOUT=60 bash scripts/gpu-bench.sh gpu-bin > $OUT/infer.log 2>&1
mark profile
PROFILE_SIZE=256 PROFILE_BACKENDS=cuda SECTIONS=profile PROC_TIMEOUT=80 bash scripts/gpu-bench.sh gpu-bin > $OUT/profile.log 2>&1
mark end
