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
    /// graphics API, else the runtime picks one). Compiled kernels and autotune results are kept
    /// on disk, in the folder `ICH_KERNEL_CACHE` names if it is set.
    Wgpu,
    /// CPU through the deprecated burn-ndarray backend (cargo feature `ndarray`).
    Ndarray,
    /// NVIDIA GPU through CUDA (cargo feature `cuda`): kernels compiled by NVRTC, the driver's
    /// `libcuda` and NVRTC's `libnvrtc` loaded at run time (`LD_LIBRARY_PATH`). `CUDA_VISIBLE_DEVICES`
    /// picks the card; the first visible one is used. Compiled kernels and autotune results are
    /// kept as for wgpu (`ICH_KERNEL_CACHE`).
    Cuda,
}

pub use attcnn::Precision;

/// Where and in which float type the CNN runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Compute {
    pub backend: Backend,
    pub precision: Precision,
}

impl Compute {
    /// The CPU in f32 (the default).
    pub fn cpu() -> Self {
        Self::default()
    }

    /// The command-line flags that ask for this compute (`--device`, `--precision`), each only
    /// where it is not the default, with a leading space; empty for the CPU in f32.
    pub fn flags(&self) -> String {
        let mut f = String::new();
        if self.backend != Backend::Cpu {
            f += &format!(" --device {}", format!("{:?}", self.backend).to_lowercase());
        }
        if self.precision != Precision::F32 {
            f += &format!(
                " --precision {}",
                format!("{:?}", self.precision).to_lowercase()
            );
        }
        f
    }

    /// The device to run on, or an error (never a panic) when this build, this machine or the
    /// backend cannot compute in the float type asked for: wgpu compiles its kernels to WGSL,
    /// which has no bf16 (cubecl-wgpu panics on its first bf16 kernel).
    pub fn device(&self) -> Result<burn::tensor::Device> {
        if self.backend == Backend::Wgpu && self.precision == Precision::Bf16 {
            return Err(Error::Invalid(
                "--precision bf16 does not run on --device wgpu: its kernels are WGSL, which has \
                 no bf16 type (use --device cuda, or f16 where the adapter has shader-f16)"
                    .into(),
            ));
        }
        device(self.backend)
    }
}

/// The device of `backend`, or an error (never a panic) when this build or machine lacks it. (The
/// float type is the network's: `Trained::with_precision`, `TrainConfig::precision`.)
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
        #[cfg(feature = "cuda")]
        Backend::Cuda => cuda_device(),
        #[cfg(not(feature = "cuda"))]
        Backend::Cuda => Err(Error::Invalid(
            "this build has no CUDA support: rebuild with `cargo build --release --features cuda`"
                .into(),
        )),
    }
}

/// The CUDA device, opened once per process. The libraries are looked for first, so that a
/// machine without the driver or NVRTC gets an error naming them; opening the device itself
/// runs under `catch_unwind`, because the CUDA runtime panics on a failed `cuInit` (no card, a
/// driver too old for the PTX NVRTC writes).
#[cfg(feature = "cuda")]
fn cuda_device() -> Result<burn::tensor::Device> {
    static DEVICE: std::sync::OnceLock<std::result::Result<burn::tensor::Device, String>> =
        std::sync::OnceLock::new();
    let opened = DEVICE.get_or_init(|| {
        // SAFETY: only tries to dlopen the libraries by their usual names, calling nothing in them.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(
                "no CUDA driver: libcuda.so was not found (install the NVIDIA driver, or add its \
                 folder to LD_LIBRARY_PATH)"
                    .into(),
            );
        }
        // SAFETY: as above.
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            return Err(
                "no NVRTC: libnvrtc.so was not found (it comes with the CUDA toolkit, or with \
                 PyTorch's `nvidia-cuda-nvrtc` wheel; add its folder to LD_LIBRARY_PATH)"
                    .into(),
            );
        }
        attcnn::gpu::keep_compiled_kernels();
        let device = burn::tensor::Device::cuda(0);
        let probe = device.clone();
        match std::panic::catch_unwind(move || probe.identity()) {
            Ok(identity) => {
                let name = identity.map(|i| i.name).unwrap_or_default();
                tracing::info!(%name, "CUDA device ready");
                Ok(device)
            }
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("the CUDA runtime failed to start");
                Err(format!("no usable CUDA device: {why}"))
            }
        }
    });
    opened.clone().map_err(Error::Invalid)
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
    attcnn::gpu::keep_compiled_kernels();
    let device = burn::tensor::Device::wgpu_options()
        .graphics_api(api)
        .init()
        .map_err(|e| Error::Invalid(format!("no usable wgpu adapter ({api:?}): {e}")))?;
    tracing::info!(?api, "wgpu device ready");
    Ok(DEVICE.get_or_init(|| device).clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags echo the command line that asks for the same compute.
    #[test]
    fn flags_name_what_is_not_the_default() {
        assert_eq!(Compute::cpu().flags(), "");
        let cuda = Compute {
            backend: Backend::Cuda,
            precision: Precision::Bf16,
        };
        assert_eq!(cuda.flags(), " --device cuda --precision bf16");
        let f16 = Compute {
            backend: Backend::Cpu,
            precision: Precision::F16,
        };
        assert_eq!(f16.flags(), " --precision f16");
    }

    /// bf16 on wgpu is refused before any device opens, in every build.
    #[test]
    fn bf16_on_wgpu_is_refused() {
        let compute = Compute {
            backend: Backend::Wgpu,
            precision: Precision::Bf16,
        };
        let msg = compute.device().unwrap_err().to_string();
        assert!(msg.contains("bf16") && msg.contains("WGSL"), "{msg}");
    }

    /// `--device cuda` where the build or the machine lacks CUDA is an error that says what is
    /// missing (the cargo feature; the driver's libcuda or NVRTC's libnvrtc), never a panic; where
    /// both are there, the device opens.
    #[test]
    fn cuda_is_opened_or_refused_with_what_is_missing() {
        let built = cfg!(feature = "cuda");
        match device(Backend::Cuda) {
            Ok(_) => assert!(built, "a build without CUDA opened a CUDA device"),
            Err(e) => {
                let msg = e.to_string();
                let named = if built {
                    ["libcuda.so", "libnvrtc.so", "no usable CUDA device"]
                        .iter()
                        .any(|m| msg.contains(m))
                } else {
                    msg.contains("--features cuda")
                };
                assert!(named, "{msg}");
                // asked again, the same answer (the device is opened once per process)
                assert_eq!(device(Backend::Cuda).unwrap_err().to_string(), msg);
            }
        }
    }
}
