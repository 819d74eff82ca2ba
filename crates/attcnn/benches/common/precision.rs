//! The float type of the timed backends (step and infer benches): `BENCH_PRECISION=bf16` or
//! `f16` (default f32). As in training and inference: f32 weights, the arithmetic on a copy cast
//! to that type.

use attcnn::Precision;

pub fn precision() -> Precision {
    match std::env::var("BENCH_PRECISION").as_deref() {
        Ok("bf16") => Precision::Bf16,
        Ok("f16") => Precision::F16,
        _ => Precision::F32,
    }
}

/// How far a timed backend may be from flex's f32 (logits, attention, probabilities): float
/// rounding in f32; on CUDA in f32 the rounding of TF32, in which cubek's matmuls (and so the
/// convolutions) run on tensor cores, as PyTorch's cuDNN convolutions do by default (10 bits of
/// mantissa: 3.2e-3 after two Adam steps of the step bench's first check, on an H200); the half precision type's
/// rounding otherwise (bf16 keeps 8 bits of mantissa).
pub fn tolerance(backend: &str) -> f64 {
    match (precision(), backend) {
        (Precision::F32, "cuda") => 1e-2,
        (Precision::F32, _) => 1e-3,
        _ => 5e-2,
    }
}
