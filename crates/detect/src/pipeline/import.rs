//! `ich import`: published weights into a normal model bundle. Today one family: the SA-DMIL
//! TensorFlow 2 checkpoints of Wu et al. (MICCAI 2023), read with [`tfckpt`] (every CRC32C
//! checked), put into `attcnn`'s SA-DMIL architecture and saved as burn weights, with a
//! manifest that records where they came from (file names and SHA-256, licence and data terms),
//! the preprocessing they expect ([`PreprocessConfig::sa_dmil`]) and the architecture. The bundle
//! has no GP head: `ich predict` uses the network's classifier until `ich fit-gp --bundle` adds one.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::SystemTime;

use attcnn::import::{sa_dmil_from_variables, HostTensor};
use attcnn::AttCnnConfig;
use preprocess::PreprocessConfig;

use crate::bundle::{
    rfc3339, sha256_file, Bundle, CnnFolderConfig, Imported, Manifest, CNN_WEIGHTS, MODEL_FORMAT,
};
use crate::error::{Error, Result};

/// Where the SA-DMIL weights are published.
pub const SA_DMIL_SOURCE: &str = "https://github.com/YunanWu2168/SA-MIL";
pub const SA_DMIL_CITATION: &str = "Y. Wu et al., Smooth attention for deep multiple instance learning: application to CT intracranial hemorrhage detection, MICCAI 2023";
pub const SA_DMIL_LICENCE: &str = "Weights: MIT licence, as shipped in the authors' repository (LICENSE.txt; its copyright line names Othneil Drew, from the README template the repository uses). Trained on the RSNA 2019 Intracranial Hemorrhage Detection challenge data: RSNA's terms allow non-commercial research use only and ask to cite Flanders et al., Radiology: Artificial Intelligence 2020. Research software, not for diagnostic use.";

/// What [`export_npy`] wrote and left out.
#[derive(Debug, Clone, Default)]
pub struct NpyExport {
    /// (variable, file) of every file written, also listed in the folder's `index.json`.
    pub written: Vec<(String, String)>,
    /// (variable, file) of every variable whose bytes, dtype and shape are exactly another's
    /// (an alias): not written again, but listed in `index.json` with that variable's file, so
    /// no variable is lost.
    pub aliases: Vec<(String, String)>,
    /// Variables not written, with the reason (their bytes overlap another variable's in part,
    /// or with another shape; the export's bounds). `ich checkpoint` exits 1 when there are any.
    pub left_out: Vec<String>,
}

/// Files an export writes at most (a published checkpoint has a few hundred variables).
pub const MAX_NPY_FILES: usize = 10_000;

/// The file name of a variable: the name without `/.ATTRIBUTES/VARIABLE_VALUE`, `/` as `__`, when
/// that is a plain name (ASCII letters, digits, `.`, `_`, `-`, at most 200 bytes, not dots
/// alone); else, or when `taken` already holds that name (`a/b` and `a__b`), the plain part
/// followed by `~` and 16 hex digits of the name's SHA-256. No plain name holds a `~`, so the
/// mapping is injective (to SHA-256's collisions).
fn npy_name(var: &str, taken: &std::collections::HashSet<String>) -> String {
    let base = var
        .trim_end_matches("/.ATTRIBUTES/VARIABLE_VALUE")
        .replace('/', "__");
    let plain = base.len() <= 200
        && !base.is_empty()
        && base.bytes().any(|b| b != b'.')
        && base
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    let file = format!("{base}.npy");
    if plain && !taken.contains(&file) {
        return file;
    }
    let clean: String = base
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        .take(64)
        .collect();
    use sha2::Digest;
    let digest = sha2::Sha256::digest(var.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{clean}~{hex}.npy")
}

/// Writes every float32 model variable of `checkpoint` as a NumPy `.npy` file into `dir`
/// (created; each file atomically; names by `npy_name`), to run the same weights in another
/// framework, and `index.json` (variable → file). Each byte of the data file is written at most
/// once: a variable whose bytes overlap a variable already written (an alias; a hostile index
/// can name one tensor 20,000 times) is left out and said so, and at most [`MAX_NPY_FILES`]
/// files are written, so the export is never larger than the data file plus a header per file.
pub fn export_npy(checkpoint: &tfckpt::Checkpoint, dir: &std::path::Path) -> Result<NpyExport> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    // the folder's lock while the files are written, and what a killed export left swept away
    let (_lock, _) = milbase::atomic::lock_folder(dir, &[], "checkpoint --export-npy")
        .map_err(|e| Error::io(dir, e))?;
    let mut out = NpyExport::default();
    let mut taken = std::collections::HashSet::new();
    // the byte ranges written so far, per shard: (shard, start) → end; they never overlap, so
    // the one starting last before a range's end is the only one that can overlap it
    let mut ranges: std::collections::BTreeMap<(u64, u64), u64> = std::collections::BTreeMap::new();
    // the written variables by their exact range: (file, shape)
    let mut exact: std::collections::HashMap<(u64, u64, u64), (String, Vec<usize>)> =
        std::collections::HashMap::new();
    let overlaps =
        |ranges: &std::collections::BTreeMap<(u64, u64), u64>, shard: u64, a: u64, b: u64| {
            ranges
                .range((shard, 0)..(shard, b))
                .next_back()
                .is_some_and(|(_, &end)| end > a)
        };
    for (var, e) in checkpoint.entries() {
        if !tfckpt::is_model_variable(var) || e.dtype != tfckpt::DType::Float32 {
            continue;
        }
        // an empty tensor counts as one byte: two at one offset are aliases too
        let (a, b) = (e.offset, e.offset.saturating_add(e.size.max(1)));
        if overlaps(&ranges, e.shard_id, a, b) {
            match exact.get(&(e.shard_id, a, b)) {
                Some((file, shape)) if *shape == e.shape => {
                    out.aliases.push((var.clone(), file.clone()));
                }
                _ => out.left_out.push(format!(
                    "{var}: its bytes overlap another variable's in part or with another shape \
                     (written once, under the other's name)"
                )),
            }
            continue;
        }
        if out.written.len() >= MAX_NPY_FILES {
            out.left_out
                .push(format!("{var}: over {MAX_NPY_FILES} files"));
            continue;
        }
        let bytes = tfckpt::npy_f32(&checkpoint.tensor(var)?);
        let file = npy_name(var, &taken);
        let path = dir.join(&file);
        milbase::write_atomic(&path, &bytes).map_err(|err| Error::io(&path, err))?;
        ranges.insert((e.shard_id, a), b);
        exact.insert((e.shard_id, a, b), (file.clone(), e.shape.clone()));
        taken.insert(file.clone());
        out.written.push((var.clone(), file));
    }
    let index: std::collections::BTreeMap<&str, &str> = out
        .written
        .iter()
        .chain(&out.aliases)
        .map(|(v, f)| (v.as_str(), f.as_str()))
        .collect();
    let path = dir.join("index.json");
    let json = serde_json::to_vec_pretty(&index).map_err(|e| Error::Invalid(e.to_string()))?;
    milbase::write_atomic(&path, &json).map_err(|err| Error::io(&path, err))?;
    Ok(out)
}

/// An import job.
#[derive(Debug, Clone)]
pub struct ImportJob {
    /// The checkpoint prefix (`…/baseline.ckpt` for `baseline.ckpt.index` and its data shard).
    pub checkpoint: PathBuf,
    /// The bundle folder to write (created; an earlier bundle there is replaced).
    pub out: PathBuf,
    /// Pad every bag to 57 slices with all-zero slices, as the authors trained (default on).
    pub pad: bool,
}

/// What an import wrote.
pub struct ImportOutcome {
    pub manifest: Manifest,
    /// Variables in the checkpoint (all read, their CRCs checked).
    pub variables: usize,
    /// Of them, the model's (the rest are optimiser slots, counters and the object graph).
    pub model_variables: usize,
}

/// Imports a SA-DMIL checkpoint into a bundle.
pub fn import_sa_dmil(job: &ImportJob) -> Result<ImportOutcome> {
    let ckpt = tfckpt::Checkpoint::open(&job.checkpoint)?;
    let variables = ckpt.verify()?;
    let mut cfg = AttCnnConfig::sa_dmil();
    if !job.pad {
        cfg.pad_bag_to = None;
    }
    let mut used = 0;
    let model = sa_dmil_from_variables(
        &cfg,
        |name| {
            used += 1;
            ckpt.tensor(name)
                .map(|t| HostTensor {
                    shape: t.shape,
                    values: t.data,
                })
                .map_err(|e| e.to_string())
        },
        &attcnn::cpu_device(),
    )
    .map_err(|e| Error::file(ckpt.index_path(), e.to_string()))?;
    std::fs::create_dir_all(&job.out).map_err(|e| Error::io(&job.out, e))?;
    // one writer of the bundle at a time; what a killed import left in it is swept
    let (_lock, _) = milbase::atomic::lock_folder(&job.out, &[], "import")
        .map_err(|e| Error::io(&job.out, e))?;
    attcnn::training::save_atomic(model, &job.out.join(CNN_WEIGHTS))?;
    let cnn = CnnFolderConfig {
        format_version: MODEL_FORMAT,
        model: cfg,
        train: None,
        preprocess: PreprocessConfig::sa_dmil(),
        dataset: String::new(),
        train_scans: Vec::new(),
        valid_scans: Vec::new(),
    };
    cnn.save(&job.out)?;
    let mut sources = BTreeMap::new();
    for p in [ckpt.index_path(), ckpt.data_path()] {
        sources.insert(p.display().to_string(), sha256_file(p)?);
    }
    let variant = job
        .checkpoint
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".ckpt").to_string())
        .unwrap_or_default();
    let imported = Imported {
        name: format!("SA-DMIL {variant} (Wu et al., MICCAI 2023)"),
        published: SA_DMIL_SOURCE.into(),
        citation: SA_DMIL_CITATION.into(),
        licence: SA_DMIL_LICENCE.into(),
        sources,
        format: format!("TensorFlow 2 checkpoint (V2 bundle), {variables} entries"),
        imported: rfc3339(SystemTime::now()),
    };
    let manifest = Bundle::write_imported(&job.out, &cnn, imported)?;
    Ok(ImportOutcome {
        manifest,
        variables,
        model_variables: used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: &str = "/.ATTRIBUTES/VARIABLE_VALUE";

    #[test]
    fn an_export_writes_each_tensors_bytes_once_under_names_that_cannot_collide() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("c.ckpt");
        let l = "layer_with_weights-0";
        let (a, b, odd) = (
            format!("{l}/b{V}"),
            format!("{l}__b{V}"),
            format!("{l}/../../x\u{7}{V}"),
        );
        let big: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let aliases: Vec<String> = (0..2000).map(|i| format!("{l}/z-alias{i:04}{V}")).collect();
        let alias_refs: Vec<(&str, &str)> =
            aliases.iter().map(|n| (n.as_str(), a.as_str())).collect();
        testkit::checkpoint::write_f32(
            &p,
            &[
                (a.as_str(), vec![1000], big.clone()),
                (b.as_str(), vec![2], vec![7.0, 8.0]),
                (odd.as_str(), vec![1], vec![9.0]),
            ],
            &alias_refs,
        )
        .unwrap();
        let c = tfckpt::Checkpoint::open(&p).unwrap();
        let out = t.path().join("npy");
        let x = export_npy(&c, &out).unwrap();
        // three tensors, three files; the 2,000 aliases of the first are not written again but
        // listed with its file, so that no variable is lost
        assert_eq!(x.written.len(), 3, "{:?}", x.written);
        assert_eq!(x.aliases.len(), 2000);
        assert!(x.left_out.is_empty(), "{:?}", x.left_out);
        assert!(x
            .aliases
            .iter()
            .all(|(v, f)| v.contains("z-alias") && f == "layer_with_weights-0__b.npy"));
        // every file holds its own variable: a/b and a__b do not overwrite each other
        let files: std::collections::BTreeMap<String, String> = x.written.into_iter().collect();
        assert_eq!(files[&a], "layer_with_weights-0__b.npy");
        assert_ne!(files[&b], files[&a]);
        assert!(files[&b].contains('~'), "{}", files[&b]);
        assert!(!files[&odd].contains('/') && !files[&odd].contains('\u{7}'));
        let npy = |f: &str| std::fs::read(out.join(f)).unwrap();
        assert_eq!(npy(&files[&a]), tfckpt::npy_f32(&c.tensor(&a).unwrap()));
        assert_eq!(npy(&files[&b]), tfckpt::npy_f32(&c.tensor(&b).unwrap()));
        // the folder holds the three files and the index, and no more bytes than the data plus
        // a header per file
        let listed: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
        assert_eq!(listed.len(), 4);
        let total: u64 = listed
            .iter()
            .filter(|e| e.file_name() != "index.json")
            .map(|e| e.metadata().unwrap().len())
            .sum();
        assert!(total <= c.data_len() + 3 * 128, "{total}");
        let index: std::collections::BTreeMap<String, String> =
            serde_json::from_slice(&std::fs::read(out.join("index.json")).unwrap()).unwrap();
        let mut want = files.clone();
        want.extend(x.aliases.iter().cloned());
        assert_eq!(index.len(), 2003);
        assert_eq!(index, want);
    }
}
