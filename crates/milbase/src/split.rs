//! Seeded, stratified splits of bags (scans): the same seed gives the same split.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A split that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError(pub String);

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for SplitError {}

/// Indices of the negative and of the positive bags, each shuffled (seeded).
fn shuffled_by_class(labels: &[u8], seed: u64) -> [Vec<usize>; 2] {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    [0u8, 1].map(|class| {
        let mut idx: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        idx.shuffle(&mut rng);
        idx
    })
}

fn check_labels(labels: &[u8]) -> Result<(), SplitError> {
    match labels.iter().position(|&l| l > 1) {
        Some(i) => Err(SplitError(format!(
            "bag {i} has label {}; labels must be 0 or 1",
            labels[i]
        ))),
        None => Ok(()),
    }
}

/// Stratified assignment of bags to `k ≥ 1` folds (shuffled per class, dealt round-robin); each
/// fold's indices in ascending order.
pub fn stratified_folds(labels: &[u8], k: usize, seed: u64) -> Result<Vec<Vec<usize>>, SplitError> {
    check_labels(labels)?;
    if k == 0 {
        return Err(SplitError("the number of folds must be at least 1".into()));
    }
    let mut folds = vec![Vec::new(); k];
    for (offset, idx) in shuffled_by_class(labels, seed).into_iter().enumerate() {
        for (j, i) in idx.into_iter().enumerate() {
            folds[(j + offset) % k].push(i);
        }
    }
    folds.iter_mut().for_each(|f| f.sort_unstable());
    Ok(folds)
}

/// Stratified split of bag indices into (rest, held out `fraction`), `fraction` in [0, 1].
pub fn stratified_holdout(
    labels: &[u8],
    fraction: f64,
    seed: u64,
) -> Result<(Vec<usize>, Vec<usize>), SplitError> {
    check_labels(labels)?;
    if !(0.0..=1.0).contains(&fraction) {
        return Err(SplitError(format!(
            "the held-out fraction must be within [0, 1], got {fraction}"
        )));
    }
    let (mut rest, mut held) = (Vec::new(), Vec::new());
    for idx in shuffled_by_class(labels, seed) {
        let k = ((idx.len() as f64) * fraction).round() as usize;
        held.extend_from_slice(&idx[..k]);
        rest.extend_from_slice(&idx[k..]);
    }
    rest.sort_unstable();
    held.sort_unstable();
    Ok((rest, held))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holdout_is_stratified_seeded_and_a_partition() {
        let labels: Vec<u8> = (0..50).map(|i| (i % 5 == 0) as u8).collect(); // 10 positive
        let (rest, held) = stratified_holdout(&labels, 0.2, 3).unwrap();
        assert_eq!(held.len(), 10);
        assert_eq!(held.iter().filter(|&&i| labels[i] == 1).count(), 2);
        let mut all: Vec<usize> = rest.iter().chain(&held).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..50).collect::<Vec<_>>());
        assert_eq!(stratified_holdout(&labels, 0.2, 3).unwrap().1, held);
        assert_ne!(stratified_holdout(&labels, 0.2, 4).unwrap().1, held);
    }

    #[test]
    fn bad_fractions_labels_and_fold_counts_are_errors() {
        assert!(stratified_holdout(&[0, 1], 1.5, 0).is_err());
        assert!(stratified_holdout(&[0, 1], -0.1, 0).is_err());
        assert!(stratified_holdout(&[0, 1], f64::NAN, 0).is_err());
        assert!(stratified_holdout(&[0, 2], 0.5, 0).is_err());
        assert!(stratified_folds(&[0, 1], 0, 0).is_err());
    }

    #[test]
    fn folds_deal_each_class_round_robin() {
        let labels = [1u8, 1, 1, 0, 0, 0];
        let f = stratified_folds(&labels, 3, 0).unwrap();
        for fold in &f {
            assert_eq!(fold.len(), 2);
            assert_eq!(fold.iter().filter(|&&i| labels[i] == 1).count(), 1);
        }
    }
}
