//! `ich extract`: the bundle's slice encoder (attention and classifier stripped) on every slice of
//! a dataset, written as the features file scan by scan; the CNN's own scan probability and
//! attention come along as extra columns.

use std::path::{Path, PathBuf};

use attcnn::inference::Trained;
use milbase::Progress;
use preprocess::dataset::Dataset;

use crate::bundle::Bundle;
use crate::error::{Error, Result};
use crate::features::{FeatureRow, FeaturesWriter};
use crate::pipeline::device::Compute;

/// An extraction job.
#[derive(Debug, Clone)]
pub struct ExtractJob {
    /// The bundle of `ich train-cnn`.
    pub model: PathBuf,
    /// A dataset of `ich preprocess` with the bundle's preprocessing.
    pub dataset: PathBuf,
    /// The features file to write.
    pub out: PathBuf,
    pub compute: Compute,
    /// Only the dataset's scans in this shard (`Shard::ALL`: every scan). The features file
    /// gets a `<out>.shard.json` beside it naming the shard (`0/1`: every scan), its rows and
    /// its SHA-256, which `ich merge` checks.
    pub shard: milbase::Shard,
}

/// What was written.
#[derive(Debug, Clone, Copy)]
pub struct Extracted {
    pub scans: usize,
    pub slices: usize,
}

/// The shard to read of a dataset whose manifest names `own` (a dataset of `ich preprocess
/// --shard`) when `asked` is asked for: the one asked for, else the dataset's own; refused when
/// they differ.
pub(crate) fn dataset_shard(
    dataset: &Path,
    own: Option<&str>,
    asked: milbase::Shard,
) -> Result<milbase::Shard> {
    let own: Option<milbase::Shard> = match own {
        None => None,
        Some(s) => Some(s.parse().map_err(|e: String| Error::file(dataset, e))?),
    };
    match own {
        Some(s) if !asked.is_all() && s != asked => Err(Error::file(
            dataset,
            format!("the dataset is shard {s}; --shard {asked} asks for another split"),
        )),
        Some(s) => Ok(s),
        None => Ok(asked),
    }
}

/// Runs the job; the features file appears whole or not at all.
pub fn extract(job: &ExtractJob, progress: &dyn Progress) -> Result<Extracted> {
    let bundle = Bundle::open(&job.model)?;
    let ds = Dataset::open(&job.dataset)?;
    bundle.check_preprocess(&job.dataset, &ds.manifest.config)?;
    let dev = job.compute.device()?;
    let net = Trained::load(bundle.cnn.model.clone(), &bundle.weights(), &dev)?
        .with_precision(job.compute.precision);
    let shard = dataset_shard(&job.dataset, ds.manifest.shard.as_deref(), job.shard)?;
    let scans: Vec<_> = ds
        .manifest
        .scans
        .iter()
        .filter(|e| shard.contains(&e.id))
        .collect();
    let _lock = crate::features::lock_features_file(&job.out, "extract")?;
    let mut w = FeaturesWriter::create(&job.out, bundle.cnn.model.dim)?;
    progress.stage("extracting features", scans.len() as u64);
    for e in scans.iter().copied() {
        let meta = ds.scan_meta(e)?;
        let px = ds.scan_pixels(e)?;
        if meta.slices.len() != px.n_slices {
            return Err(Error::file(
                &job.dataset,
                format!(
                    "scan {}: its JSON lists {} slices, its pixel file holds {}",
                    e.id,
                    meta.slices.len(),
                    px.n_slices
                ),
            ));
        }
        let out = net.scan(px.n_slices, &px.data)?;
        // a slice's subtypes when it has a label; the scan's by the rule `ich predict` and
        // `ich train-cnn` use (features::SubtypeLabels), known when known for every subtype
        let slice_subtypes: Vec<Option<Vec<&str>>> = meta
            .slices
            .iter()
            .map(|s| {
                s.label
                    .map(|_| crate::features::subtypes_in(s.subtype.as_deref().unwrap_or("")))
            })
            .collect();
        let known = crate::features::SubtypeLabels::of(&meta);
        let bag_subtypes: Option<Vec<&str>> = crate::features::SUBTYPES
            .into_iter()
            .map(|n| known.scan(n).map(|l| (n, l)))
            .collect::<Option<Vec<_>>>()
            .map(|v| {
                v.into_iter()
                    .filter(|(_, l)| *l == 1)
                    .map(|(n, _)| n)
                    .collect()
            });
        for (k, s) in meta.slices.iter().enumerate() {
            // a slice without a UID (read from NIfTI) is named by its scan and place
            let unnamed;
            let name = if s.sop_instance_uid.is_empty() {
                unnamed = format!("{}#{k}", e.id);
                &unnamed
            } else {
                &s.sop_instance_uid
            };
            w.write(&FeatureRow {
                features: &out.features[k],
                instance_name: name,
                instance_label: s.label,
                instance_subtypes: slice_subtypes[k].as_deref(),
                bag_subtypes: bag_subtypes.as_deref(),
                bag_name: &e.id,
                bag_label: e.label,
                cnn_probability: out.probability,
                cnn_attention: out.attention[k],
                z: s.z,
            })?;
        }
        progress.inc(1);
    }
    progress.done();
    let slices = w.finish()?;
    crate::features::write_shard_note(&job.out, shard, slices, &[])?;
    Ok(Extracted {
        scans: scans.len(),
        slices,
    })
}
