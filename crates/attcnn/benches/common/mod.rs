//! What the benches share: the `ich` binary's allocator set-up and the numeric arguments.

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
