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
