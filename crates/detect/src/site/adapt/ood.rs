//! The out-of-distribution check of `ich adapt`: how many of the site's held-out bleeds and
//! negatives a bundle would flag, over random patient splits.

use super::*;

/// The site's summary fitted on `train`'s slices, `test`'s scans checked against it, counted
/// by label into `flags`.
/// Random patient splits over which the out-of-distribution flag's false flags are counted.
pub const OOD_SPLITS: usize = 10;

/// The out-of-distribution flag on the site's own scans over `splits` random patient splits,
/// each a `folds`-fold cross-validation of its own seed: every scan checked against the summary
/// of the other folds' scans.
pub(super) fn ood_over_splits(
    scans: &[SiteScan],
    folds: usize,
    splits: usize,
    seed: u64,
) -> Result<Vec<OodFlags>> {
    let labels: Vec<u8> = scans.iter().map(|s| s.label).collect();
    let patients: Vec<u64> = scans.iter().map(|s| s.patient).collect();
    let mut out = Vec::with_capacity(splits);
    for r in 0..splits {
        let split_seed = seed ^ (0x6f6f_6400 + r as u64);
        let parts = milbase::grouped_stratified_folds(&labels, &patients, folds, split_seed)
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let mut flags = OodFlags::default();
        for test_idx in &parts {
            let test: Vec<&SiteScan> = test_idx.iter().map(|&i| &scans[i]).collect();
            let train: Vec<&SiteScan> = (0..scans.len())
                .filter(|i| !test_idx.contains(i))
                .map(|i| &scans[i])
                .collect();
            ood_flags(&mut flags, &train, &test, split_seed)?;
        }
        out.push(flags);
    }
    Ok(out)
}

pub(super) fn ood_flags(
    flags: &mut OodFlags,
    train: &[&SiteScan],
    test: &[&SiteScan],
    seed: u64,
) -> Result<()> {
    let summary = OodSummary::fit(
        &train
            .iter()
            .map(|s| s.out.features.clone())
            .collect::<Vec<_>>(),
        seed,
    )?;
    for s in test {
        let flagged = summary.check_scan(&s.out.features)?.flagged;
        if s.label == 1 {
            flags.positive += 1;
            flags.positive_flagged += usize::from(flagged);
        } else {
            flags.negative += 1;
            flags.negative_flagged += usize::from(flagged);
        }
    }
    Ok(())
}
