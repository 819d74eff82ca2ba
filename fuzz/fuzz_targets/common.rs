//! A scratch folder per fuzzing process, in memory where there is /dev/shm.

use std::path::PathBuf;

pub fn scratch() -> PathBuf {
    let base = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let d = base.join(format!("ich-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}
