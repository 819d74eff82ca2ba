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

/// Writes every float32 model variable of `checkpoint` as a NumPy `.npy` file into `dir`
/// (created; each file atomically; name: the variable's with `/` as `__`), to run the same
/// weights in another framework. Returns how many were written.
pub fn export_npy(checkpoint: &tfckpt::Checkpoint, dir: &std::path::Path) -> Result<usize> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut n = 0;
    for npy in checkpoint.model_npy() {
        let (name, bytes) = npy?;
        let file = dir.join(name);
        milbase::write_atomic(&file, &bytes).map_err(|e| Error::io(&file, e))?;
        n += 1;
    }
    Ok(n)
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
