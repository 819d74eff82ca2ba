//! Cross-fitted calibration data: every bag of a training set scored by a model that did not see
//! it. The bags are cut into k stratified folds; for each fold the chosen model (same parameters,
//! the number of epochs early stopping kept) is refitted on the other folds and predicts the fold.
//! A calibration map fitted on these out-of-fold draws rests on every training bag instead of the
//! few validation bags (15 scans in an RSNA half), and still on no bag the scoring model saw.

use milbase::{stratified_folds, Progress};
use rayon::prelude::*;

use crate::calibrate::{MapFamily, Platt, Shrunk};
use crate::data::MilData;
use crate::error::{GpError, Result};
use crate::fit::fit_valid;
use crate::params::ValidParams;

/// Out-of-fold bag labels and bag-rule draws, and every bag's instances' uncalibrated mean
/// probabilities (from the same draws), bag by bag in the order of the folds.
pub struct OutOfFold {
    pub labels: Vec<u8>,
    pub draws: Vec<Vec<f64>>,
    pub instances: Vec<Vec<f64>>,
    /// Each entry's bag index in the data.
    pub bags: Vec<usize>,
}

impl OutOfFold {
    /// The calibration map of `family` fitted on these draws ([`Platt::fit_shrunk`], its pull
    /// chosen by `folds`-fold cross-validation, seeded).
    pub fn map(&self, family: MapFamily, folds: usize, seed: u64) -> Shrunk {
        Platt::fit_shrunk(family, &self.labels, &self.draws, folds, seed)
    }
}

/// Scores every bag of `data` out of fold (`folds` stratified folds, `epochs` epochs per refit,
/// `samples` Monte Carlo draws per bag); the same seed gives the same folds and draws. The folds
/// are refitted in parallel (each with its own seed: the result does not depend on the order), one
/// `progress` step each; they share the memory budget of one fit for their B
/// ([`crate::FitParams::b_memory`]).
pub fn out_of_fold(
    params: &ValidParams,
    epochs: usize,
    data: &MilData,
    folds: usize,
    samples: usize,
    seed: u64,
    progress: &dyn Progress,
) -> Result<OutOfFold> {
    let labels = data.bag_labels();
    let parts =
        stratified_folds(&labels, folds, seed).map_err(|e| GpError::Param(e.to_string()))?;
    out_of_fold_in(params, epochs, data, &parts, samples, seed, progress)
}

/// As [`out_of_fold`], on folds given by the caller (bag indices of `data`, e.g. from
/// [`milbase::grouped_stratified_folds`], so that no bag is scored by a model that saw another
/// scan of its patient).
pub fn out_of_fold_in(
    params: &ValidParams,
    epochs: usize,
    data: &MilData,
    parts: &[Vec<usize>],
    samples: usize,
    seed: u64,
    progress: &dyn Progress,
) -> Result<OutOfFold> {
    let labels = data.bag_labels();
    if parts.iter().flatten().any(|&i| i >= labels.len()) {
        return Err(GpError::Param(format!(
            "a fold names a bag beyond the {} bags",
            labels.len()
        )));
    }
    let p = params
        .with_max_epochs(epochs.max(1))?
        .with_b_memory(params.b_memory / parts.len().max(1));
    let scored: Vec<Option<OutOfFold>> = parts
        .par_iter()
        .enumerate()
        .map(|(k, held)| {
            let r = score_fold(&p, data, parts, k, held, samples, seed);
            progress.inc(1);
            r
        })
        .collect::<Result<_>>()?;
    let mut out = OutOfFold {
        labels: Vec::with_capacity(labels.len()),
        draws: Vec::with_capacity(labels.len()),
        instances: Vec::with_capacity(labels.len()),
        bags: Vec::with_capacity(labels.len()),
    };
    for fold in scored.into_iter().flatten() {
        out.labels.extend(fold.labels);
        out.draws.extend(fold.draws);
        out.instances.extend(fold.instances);
        out.bags.extend(fold.bags);
    }
    if out.labels.is_empty() {
        return Err(GpError::Data(
            "cross-fitting: no fold had both bag labels to train on".into(),
        ));
    }
    Ok(out)
}

/// Fold `k` (bags `held`) scored by a model fitted on the other folds; `None` when the fold is
/// empty or the other folds lack one of the two labels.
fn score_fold(
    p: &ValidParams,
    data: &MilData,
    parts: &[Vec<usize>],
    k: usize,
    held: &[usize],
    samples: usize,
    seed: u64,
) -> Result<Option<OutOfFold>> {
    if held.is_empty() {
        return Ok(None);
    }
    let rest: Vec<usize> = parts
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != k)
        .flat_map(|(_, f)| f.iter().copied())
        .collect();
    let train = data.subset(&rest);
    if train.bags.iter().all(|b| b.label == 0) || train.bags.iter().all(|b| b.label == 1) {
        return Ok(None);
    }
    let heldout = data.subset(held);
    let fitted = fit_valid(p, &train, None)?;
    let d = fitted
        .model
        .bag_and_instance_draws(&heldout, samples, seed.wrapping_add(k as u64))?;
    Ok(Some(OutOfFold {
        labels: heldout.bag_labels(),
        draws: d.bags,
        instances: d.instances,
        bags: held.to_vec(),
    }))
}
