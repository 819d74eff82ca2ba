//! The commands: their flags (clap derive, every number range-checked) and what they print.

pub mod adapt;
pub mod checkpoint;
pub mod cnn;
pub mod demo;
pub mod gp;
pub mod pacs;
pub mod predict;
pub mod preprocess;
pub mod range;
pub mod synth;

/// Where the CNN runs (`wgpu` and `ndarray` need the cargo feature of the same name).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum DeviceArg {
    /// CPU (burn-flex).
    Cpu,
    /// GPU through wgpu (build with `--features wgpu`; `WGPU_BACKEND=vulkan|gl|metal|dx12` pins the
    /// graphics API, else the runtime picks one).
    Wgpu,
    /// CPU through the deprecated burn-ndarray backend, 4–6× slower than flex on this model
    /// (build with `--features ndarray`).
    Ndarray,
}

impl From<DeviceArg> for detect::Backend {
    fn from(d: DeviceArg) -> Self {
        match d {
            DeviceArg::Cpu => detect::Backend::Cpu,
            DeviceArg::Wgpu => detect::Backend::Wgpu,
            DeviceArg::Ndarray => detect::Backend::Ndarray,
        }
    }
}
