//! The bundles built into the binary: `sa-dmil` (the published SA-DMIL weights, the same files as
//! the repository's `models/sa-dmil`), so that `ich predict DICOM -o report` works from any
//! folder right after `cargo install`.
//!
//! `--model NAME` resolves as follows ([`resolve`]): a folder of that name (a bundle on disk) is
//! used as it is; otherwise a built-in bundle of that name is written once into the user's cache
//! (`$XDG_CACHE_HOME/ich/models/NAME-<manifest digest>`, else `~/.cache/…`, else the temporary
//! folder), into a fresh folder renamed into place, and opened from there with every checksum
//! checked like any bundle's. Anything else is refused, naming what exists.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A bundle carried in the binary: its name, what it is, and its files.
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pub files: &'static [(&'static str, &'static [u8])],
}

/// Every built-in bundle.
pub const BUILTIN: &[Builtin] = &[Builtin {
    name: "sa-dmil",
    about: "SA-DMIL (Wu et al., MICCAI 2023): the authors' published weights, trained on RSNA 2019 head CT (non-commercial research); the network's scores, not calibrated for your site (fit it with ich adapt)",
    files: &[
        ("manifest.json", include_bytes!("../../../../models/sa-dmil/manifest.json")),
        ("config.json", include_bytes!("../../../../models/sa-dmil/config.json")),
        ("model.bpk", include_bytes!("../../../../models/sa-dmil/model.bpk")),
        ("LICENSE.txt", include_bytes!("../../../../models/sa-dmil/LICENSE.txt")),
        ("README.md", include_bytes!("../../../../models/sa-dmil/README.md")),
    ],
}];

/// The model `ich predict` uses when `--model` is not given.
pub const DEFAULT_MODEL: &str = "sa-dmil";

/// Where built-in bundles are written: `$XDG_CACHE_HOME/ich/models`, else `$HOME/.cache/ich/
/// models`, else the temporary folder's `ich-models`.
pub fn cache_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    match (env("XDG_CACHE_HOME"), env("HOME")) {
        (Some(x), _) => x.join("ich").join("models"),
        (None, Some(h)) => h.join(".cache").join("ich").join("models"),
        (None, None) => std::env::temp_dir().join("ich-models"),
    }
}

fn digest(b: &Builtin) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (name, bytes) in b.files {
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize()[..6]
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// Whether `dir` is a real folder (no link) holding exactly the built-in bundle's bytes.
fn holds(dir: &Path, b: &Builtin) -> bool {
    std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
        && b.files.iter().all(|(name, bytes)| {
            let p = dir.join(name);
            std::fs::symlink_metadata(&p)
                .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
                && std::fs::read(&p).is_ok_and(|got| got == *bytes)
        })
}

/// The built-in bundle `b` on disk under `root`, written there first if it is not yet. A copy
/// that is not byte for byte the built-in one (a file changed, a link planted at its name) is
/// moved aside and written anew: the cache is ours, and what it holds is checked, not trusted.
pub fn materialise(b: &Builtin, root: &Path) -> Result<PathBuf> {
    let dir = root.join(format!("{}-{}", b.name, digest(b)));
    if holds(&dir, b) {
        return Ok(dir);
    }
    if std::fs::symlink_metadata(&dir).is_ok() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let aside = root.join(format!(".{}.{}-{nanos}.bad", b.name, std::process::id()));
        std::fs::rename(&dir, &aside).map_err(|e| Error::io(&dir, e))?;
        // a link is removed, never followed; a folder of ours goes with what it held
        let gone = match std::fs::symlink_metadata(&aside) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&aside),
            _ => std::fs::remove_file(&aside),
        };
        gone.map_err(|e| Error::io(&aside, e))?;
    }
    std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
    // a fresh folder of this process, filled, then renamed into place: a reader sees no bundle
    // or the whole one; when another process got there first, its copy is as good
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = root.join(format!(".{}.{}-{nanos}.tmp", b.name, std::process::id()));
    std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
    for (name, bytes) in b.files {
        milbase::atomic::write_atomic(&tmp.join(name), bytes).map_err(|e| Error::io(&tmp, e))?;
    }
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => Ok(dir),
        Err(_) if holds(&dir, b) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(dir)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(Error::io(&dir, e))
        }
    }
}

/// The built-in bundle `dir` is the cached copy of, by name (to show `--model sa-dmil` rather
/// than a cache path); `None` for any other folder.
pub fn name_of(dir: &Path) -> Option<&'static str> {
    let file = dir.file_name()?.to_str()?;
    BUILTIN
        .iter()
        .find(|b| file == format!("{}-{}", b.name, digest(b)))
        .map(|b| b.name)
}

/// The bundle `--model` names: a folder on disk, else a built-in bundle (written into
/// [`cache_dir`] once), else a refusal that names what exists.
pub fn resolve(model: &Path) -> Result<PathBuf> {
    if model.is_dir() {
        return Ok(model.to_path_buf());
    }
    let name = model.to_string_lossy();
    if let Some(b) = BUILTIN.iter().find(|b| b.name == name) {
        return materialise(b, &cache_dir());
    }
    let names: Vec<&str> = BUILTIN.iter().map(|b| b.name).collect();
    Err(Error::file(
        model,
        format!(
            "no model bundle here. Built into ich: {} (`--model {}`, the default); `ich models` lists them. \
             A bundle of your own is a folder: `ich adapt` fits one to your site, `ich import` \
             makes one from published weights, `ich train-cnn` writes one when training ends",
            names.join(", "),
            DEFAULT_MODEL
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in bundle is the repository's `models/sa-dmil`, byte for byte; it is written
    /// once into a cache and opens there with every checksum checked; a folder on disk wins
    /// over a name; an unknown name is refused naming the built-in bundle.
    #[test]
    fn the_built_in_bundle_is_the_shipped_one_and_opens_from_a_cache() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/sa-dmil");
        let b = &BUILTIN[0];
        for (name, bytes) in b.files {
            assert_eq!(std::fs::read(repo.join(name)).unwrap(), *bytes, "{name}");
        }
        let t = tempfile::tempdir().unwrap();
        let dir = materialise(b, t.path()).unwrap();
        assert!(crate::bundle::Bundle::open(&dir).is_ok());
        let again = materialise(b, t.path()).unwrap();
        assert_eq!(dir, again);
        assert_eq!(name_of(&dir), Some("sa-dmil"));
        assert_eq!(name_of(&repo), None);
        // a copy changed since (another bundle's weights) is replaced, not used
        std::fs::write(dir.join("model.bpk"), b"other weights").unwrap();
        let fixed = materialise(b, t.path()).unwrap();
        assert!(
            std::fs::read(fixed.join("model.bpk")).unwrap() == b.files[2].1,
            "a changed model.bpk was used, not replaced"
        );
        // a link planted at the cache's name, to another folder: removed, never followed, and
        // the folder it pointed to is left as it was
        let elsewhere = t.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("manifest.json"), b"{}").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
        let real = materialise(b, t.path()).unwrap();
        assert!(std::fs::symlink_metadata(&real).unwrap().is_dir());
        assert!(crate::bundle::Bundle::open(&real).is_ok());
        assert_eq!(
            std::fs::read(elsewhere.join("manifest.json")).unwrap(),
            b"{}"
        );
        let left: Vec<String> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert_eq!(
            left.len(),
            2,
            "the bundle and the folder a link pointed to: {left:?}"
        );
        assert!(
            !left.iter().any(|n| n.starts_with('.')),
            "no temporary left: {left:?}"
        );
        assert_eq!(resolve(&repo).unwrap(), repo);
        let e = resolve(Path::new("no-such-model")).unwrap_err().to_string();
        assert!(
            e.contains("no-such-model") && e.contains("sa-dmil") && e.contains("ich models"),
            "{e}"
        );
    }
}
