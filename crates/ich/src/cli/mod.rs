//! The commands: their flags (clap derive, every number range-checked) and what they print. The
//! modules mirror the library's rooms (`detect`'s `pipeline`, `site`, `node`), beside the
//! commands of the stages (`preprocess`, `synth`) and `merge` of shards (datasets, features and
//! reports).

pub mod merge;
pub mod models;
pub mod pipeline;
pub mod preprocess;
pub mod range;
pub mod serve;
pub mod site;
pub mod synth;

/// Where the CNN runs and in which float type (train-cnn, extract, predict, serve, demo).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct DeviceArgs {
    /// Where the CNN runs (`wgpu`, `cuda` and `ndarray` need the cargo feature of the same name).
    #[arg(hide_short_help = true, long, value_enum, default_value = "cpu")]
    device: detect::Backend,
    /// The float type the CNN computes in (training keeps f32 weights). Half precision (bf16, f16)
    /// is meant for GPUs with matrix cores; on the CPU it is slower (docs/BENCHMARKS.md).
    #[arg(hide_short_help = true, long, value_enum, default_value = "f32")]
    precision: detect::Precision,
}

impl DeviceArgs {
    pub fn compute(&self) -> detect::Compute {
        detect::Compute {
            backend: self.device,
            precision: self.precision,
        }
    }
}
