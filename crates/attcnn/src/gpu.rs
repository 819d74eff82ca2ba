//! Settings of the GPU backends (wgpu, CUDA) that outlive a process.
//!
//! cubecl, under burn's GPU backends, compiles every kernel the first time a process launches it
//! and autotunes the matrix products and convolutions for each new shape. Measured on an H200
//! (docs/BENCHMARKS.md), a 512² inference needed tens of seconds of NVRTC compilation in a fresh
//! process; with the compiled kernels kept on disk the next process gave its first scan in 0.46 s.
//! cubecl keeps its autotune results on disk by default but not its compiled kernels
//! (`[compilation] cache` is off unless a `cubecl.toml` turns it on), so `keep_compiled_kernels`
//! turns that on, unless the user has a cubecl configuration file of their own, which then rules.
//! Both caches live in cubecl's environment folder: `target/environment` of the outermost Cargo
//! project above the working directory, else `~/.cache/cubecl`, or the folder that
//! [`KERNEL_CACHE_VAR`] names. A folder filled on one machine serves another with the same GPU
//! model and driver: copied into a machine image and named by `ICH_KERNEL_CACHE`, it spares a
//! bare machine the minutes of compiling and autotuning before its first step (a kernel it lacks
//! is compiled and added as usual).

use std::path::{Path, PathBuf};

/// Whether `device` runs on a GPU through cubecl (wgpu or CUDA, or an autodiff device over one).
/// Always false in a build without the `wgpu` and `cuda` features.
pub fn is_gpu(device: &burn::tensor::Device) -> bool {
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    if device.identity().is_some() {
        return true;
    }
    let _ = device;
    false
}

/// The cubecl configuration file that cubecl would read when started in `dir`: the first of
/// `cubecl.toml`, `CubeCL.toml`, or a `burn.toml`/`Burn.toml` that has a `cubecl` section, in
/// `dir` or the nearest folder above it. `None` when there is none (cubecl's defaults apply).
pub fn user_config_file(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find_map(|d| {
        let own = ["cubecl.toml", "CubeCL.toml"]
            .iter()
            .map(|n| d.join(n))
            .find(|p| p.is_file());
        own.or_else(|| {
            ["burn.toml", "Burn.toml"]
                .iter()
                .map(|n| d.join(n))
                .find(|p| has_cubecl_section(p))
        })
    })
}

/// Whether the TOML file at `path` has a `[cubecl]` table (or a `[cubecl.…]` one).
fn has_cubecl_section(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("[cubecl]") || l.starts_with("[cubecl.")
        })
    })
}

/// The environment variable naming the folder that holds the compiled kernels and autotune
/// results (cubecl's environment), in place of cubecl's default folder.
pub const KERNEL_CACHE_VAR: &str = "ICH_KERNEL_CACHE";

/// The folder [`KERNEL_CACHE_VAR`] names, when it is set and not blank.
pub fn kernel_cache_dir() -> Option<PathBuf> {
    std::env::var_os(KERNEL_CACHE_VAR)
        .filter(|v| !v.to_string_lossy().trim().is_empty())
        .map(PathBuf::from)
}

/// Turns on cubecl's on-disk cache of compiled kernels for this process, so that the next process
/// on the machine loads them instead of compiling them again, in the folder [`KERNEL_CACHE_VAR`]
/// names if it is set. Call it before the first GPU device is opened; it does nothing when a
/// cubecl configuration file applies ([`user_config_file`] from the working directory) or when
/// cubecl's configuration was already read. Returns whether it turned the cache on. `CUBECL_*`
/// environment variables still apply.
#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub fn keep_compiled_kernels() -> bool {
    use burn::cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Some(file) = user_config_file(&cwd) {
        tracing::debug!(file = %file.display(), "cubecl configuration file applies");
        return false;
    }
    let config = with_kernel_cache(
        CubeClRuntimeConfig::default().override_from_env(),
        kernel_cache_dir(),
    );
    CubeClRuntimeConfig::try_set(config)
}

/// `config` with the compiled-kernel cache on, in `dir` when given (cubecl's environment folder
/// otherwise): what [`keep_compiled_kernels`] sets, with `dir` from [`KERNEL_CACHE_VAR`].
#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub fn with_kernel_cache(
    mut config: burn::cubecl::config::CubeClRuntimeConfig,
    dir: Option<PathBuf>,
) -> burn::cubecl::config::CubeClRuntimeConfig {
    config.compilation.cache = true;
    if let Some(dir) = dir {
        tracing::info!(folder = %dir.display(), "compiled kernels and autotune results kept in {KERNEL_CACHE_VAR}");
        config.environment.path = burn::cubecl::config::cache::CacheConfig::Directory(dir);
    }
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no cubecl configuration file above the working directory (`cargo test` runs in the
    /// crate's folder), cubecl's configuration ends up with the compiled-kernel cache on.
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    #[test]
    fn turns_the_compiled_kernel_cache_on() {
        use burn::cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(user_config_file(&cwd), None, "a cubecl.toml above {cwd:?}");
        assert!(
            !CubeClRuntimeConfig::default().compilation.cache,
            "cubecl's default"
        );
        assert!(keep_compiled_kernels());
        assert!(CubeClRuntimeConfig::get().compilation.cache);
        // cubecl's configuration is set once per process: a second call changes nothing
        assert!(!keep_compiled_kernels());
    }

    #[test]
    fn finds_the_nearest_cubecl_configuration() {
        let root = tempfile::tempdir().unwrap();
        let deep = root.path().join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(user_config_file(&deep), None, "no file anywhere");

        // a burn.toml without a cubecl section is not cubecl's configuration
        std::fs::write(root.path().join("a/burn.toml"), "[fusion]\nlevel = 1\n").unwrap();
        assert_eq!(user_config_file(&deep), None);

        // with one it is
        std::fs::write(
            root.path().join("a/burn.toml"),
            "[fusion]\n\n  [cubecl.compilation]\ncache = false\n",
        )
        .unwrap();
        assert_eq!(
            user_config_file(&deep),
            Some(root.path().join("a/burn.toml"))
        );

        // a cubecl.toml nearer the working directory wins
        std::fs::write(root.path().join("a/b/cubecl.toml"), "").unwrap();
        assert_eq!(
            user_config_file(&deep),
            Some(root.path().join("a/b/cubecl.toml"))
        );
        // and in the same folder it wins over burn.toml
        std::fs::write(root.path().join("a/cubecl.toml"), "").unwrap();
        assert_eq!(
            user_config_file(&root.path().join("a")),
            Some(root.path().join("a/cubecl.toml"))
        );
    }
}
