//! What the benches share: the `ich` binary's allocator set-up, the numeric arguments and the
//! backends to run.

use burn::tensor::Device;

/// Set up as the `ich` binary runs: freed memory stays in the process (mimalloc's purge delay −1,
/// the option before `mi_option_use_numa_nodes`) unless `MIMALLOC_PURGE_DELAY` says otherwise,
/// and the GPU backends keep their compiled kernels on disk (`attcnn::gpu`).
pub fn set_up_as_ich() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option is thread-safe in mimalloc and takes plain integers
        unsafe { libmimalloc_sys::mi_option_set(libmimalloc_sys::mi_option_use_numa_nodes - 1, -1) }
    }
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    attcnn::gpu::keep_compiled_kernels();
}

/// The command line's numeric arguments, in order (cargo's own flags such as `--bench` skipped).
pub fn numbers() -> Vec<usize> {
    std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect()
}

/// Whether to run the backend `name`: all of them unless `BENCH_BACKENDS` lists some (comma
/// separated, e.g. `cuda` or `wgpu,cuda`), so that one process measures one backend's start-up
/// and peak memory.
pub fn wanted(name: &str) -> bool {
    match std::env::var("BENCH_BACKENDS") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|b| b.trim() == name),
        _ => true,
    }
}

/// A backend's name and how to open its device.
type Backend = (&'static str, fn() -> Device);

/// The GPU backends this bench was built with (features `wgpu`, `cuda`) that [`wanted`] lets
/// run, named; a device is made only for those.
pub fn gpus() -> Vec<(&'static str, Device)> {
    let built: &[Backend] = &[
        #[cfg(feature = "wgpu")]
        ("wgpu", || Device::wgpu(Default::default())),
        #[cfg(feature = "cuda")]
        ("cuda", || Device::cuda(0)),
    ];
    built
        .iter()
        .filter(|(name, _)| wanted(name))
        .map(|(name, open)| (*name, open()))
        .collect()
}
