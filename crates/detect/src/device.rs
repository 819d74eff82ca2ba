//! Where the CNN runs.

use crate::error::{Error, Result};

/// The burn backend the CNN runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Backend {
    /// CPU (burn-flex).
    #[default]
    Cpu,
    /// GPU through wgpu (cargo feature `wgpu`; `WGPU_BACKEND=vulkan|gl|metal|dx12` pins the
    /// graphics API, else the runtime picks one).
    Wgpu,
    /// CPU through the deprecated burn-ndarray backend (cargo feature `ndarray`).
    Ndarray,
}

/// The device of `backend`, or an error (never a panic) when this build or machine lacks it.
pub fn device(backend: Backend) -> Result<burn::tensor::Device> {
    match backend {
        Backend::Cpu => Ok(attcnn::cpu_device()),
        #[cfg(feature = "wgpu")]
        Backend::Wgpu => wgpu_device(),
        #[cfg(not(feature = "wgpu"))]
        Backend::Wgpu => Err(Error::Invalid(
            "this build has no wgpu support: rebuild with `cargo build --release --features wgpu`"
                .into(),
        )),
        #[cfg(feature = "ndarray")]
        #[allow(deprecated)] // burn 0.22 deprecates burn-ndarray; kept for comparison
        Backend::Ndarray => Ok(burn::tensor::Device::ndarray()),
        #[cfg(not(feature = "ndarray"))]
        Backend::Ndarray => Err(Error::Invalid(
            "this build has no burn-ndarray support: rebuild with `cargo build --release --features ndarray`"
                .into(),
        )),
    }
}

/// The wgpu device, set up once per process on the graphics API that `WGPU_BACKEND` names
/// (`vulkan`, `gl`, `metal`, `dx12`; unset or `auto`: the runtime picks, Vulkan first). A machine
/// without a usable adapter gets an error, not a panic at the first tensor.
#[cfg(feature = "wgpu")]
fn wgpu_device() -> Result<burn::tensor::Device> {
    use burn::tensor::wgpu::WgpuBackend;
    static DEVICE: std::sync::OnceLock<burn::tensor::Device> = std::sync::OnceLock::new();
    if let Some(d) = DEVICE.get() {
        return Ok(d.clone());
    }
    let wanted = std::env::var("WGPU_BACKEND").unwrap_or_default();
    let api = match wanted.to_ascii_lowercase().as_str() {
        "" | "auto" => WgpuBackend::Auto,
        "vulkan" => WgpuBackend::Vulkan,
        "gl" | "opengl" => WgpuBackend::Gl,
        "metal" => WgpuBackend::Metal,
        "dx12" => WgpuBackend::Dx12,
        other => {
            return Err(Error::Invalid(format!(
                "WGPU_BACKEND={other}: expected vulkan, gl, metal, dx12 or auto"
            )))
        }
    };
    let device = burn::tensor::Device::wgpu_options()
        .graphics_api(api)
        .init()
        .map_err(|e| Error::Invalid(format!("no usable wgpu adapter ({api:?}): {e}")))?;
    tracing::info!(?api, "wgpu device ready");
    Ok(DEVICE.get_or_init(|| device).clone())
}
