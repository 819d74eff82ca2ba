# one card call: warm-up (compilation), training steps, inference (whole scan and chunks of 8),
# per-kernel profile at 512², then train-cnn/extract against the CPU; every section to its own log
tar -xJf gpu-bin.tar.xz
export GPU_BACKENDS=cuda TRAIN_BF16=0 INFER_BF16=0
t0=$(date +%s); mark() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi -L; command -v nsys ncu; nproc
mark warm
SECTIONS=warm WARM_TIMEOUT=${WT:-200} bash scripts/gpu-bench.sh gpu-bin > $OUT/warm.log 2>&1
mark train
SECTIONS=train PROC_TIMEOUT=80 bash scripts/gpu-bench.sh gpu-bin 5 > $OUT/train.log 2>&1
mark infer
SECTIONS=infer PROC_TIMEOUT=45 bash scripts/gpu-bench.sh gpu-bin > $OUT/infer.log 2>&1
mark profile
PROFILE_SIZE=512 PROFILE_BACKENDS=cuda SECTIONS=profile PROC_TIMEOUT=60 bash scripts/gpu-bench.sh gpu-bin > $OUT/profile.log 2>&1
mark cli
SECTIONS=cli PROC_TIMEOUT=60 bash scripts/gpu-bench.sh gpu-bin > $OUT/cli.log 2>&1
mark end
