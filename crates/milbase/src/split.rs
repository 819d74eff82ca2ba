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

/// Stratified folds of bags that keep each group whole: every bag of a group (a patient's
/// scans) lands in one fold, so that no fold trains on a patient another fold tests on. The
/// groups are stratified by their label (positive when any of their bags is), shuffled per
/// class (seeded), and dealt largest first, each to the fold with the fewest bags of that class
/// so far; each fold's indices in ascending order. With one bag per group it deals as
/// [`stratified_folds`] does up to the order of the groups.
pub fn grouped_stratified_folds(
    labels: &[u8],
    groups: &[u64],
    k: usize,
    seed: u64,
) -> Result<Vec<Vec<usize>>, SplitError> {
    check_labels(labels)?;
    if k == 0 {
        return Err(SplitError("the number of folds must be at least 1".into()));
    }
    if groups.len() != labels.len() {
        return Err(SplitError(format!(
            "{} groups for {} bags",
            groups.len(),
            labels.len()
        )));
    }
    // the groups in order of first appearance, with their bags and label
    let mut index: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let j = *index.entry(*g).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[j].push(i);
    }
    let group_labels: Vec<u8> = members
        .iter()
        .map(|m| m.iter().any(|&i| labels[i] == 1) as u8)
        .collect();
    let mut folds = vec![Vec::new(); k];
    let mut count = vec![[0usize; 2]; k];
    for (class, mut idx) in shuffled_by_class(&group_labels, seed)
        .into_iter()
        .enumerate()
    {
        // largest groups first (a stable sort keeps the seeded order among equals)
        idx.sort_by_key(|&g| std::cmp::Reverse(members[g].len()));
        for g in idx {
            let f = (0..k)
                .min_by_key(|&f| (count[f][class], folds[f].len(), (f + class) % k))
                .unwrap_or(0);
            count[f][class] += members[g].len();
            folds[f].extend_from_slice(&members[g]);
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
    fn grouped_folds_keep_each_patient_whole_and_stay_stratified() {
        // 16 patients: 4 with a positive scan among their 3, 12 negative with 1–3 scans
        let mut labels = Vec::new();
        let mut groups = Vec::new();
        for p in 0..16u64 {
            let n = 1 + (p % 3) as usize;
            for j in 0..n {
                groups.push(p * 7 + 100);
                labels.push((p < 4 && j == 0) as u8);
            }
        }
        let folds = grouped_stratified_folds(&labels, &groups, 4, 5).unwrap();
        let mut all: Vec<usize> = folds.concat();
        all.sort_unstable();
        assert_eq!(all, (0..labels.len()).collect::<Vec<_>>());
        for f in &folds {
            // a positive patient in each fold (4 of them, 4 folds)
            assert_eq!(
                f.iter().filter(|&&i| labels[i] == 1).count(),
                1,
                "{folds:?}"
            );
        }
        for (a, fa) in folds.iter().enumerate() {
            for fb in &folds[a + 1..] {
                assert!(
                    fa.iter()
                        .all(|&i| fb.iter().all(|&j| groups[i] != groups[j])),
                    "a patient in two folds: {folds:?}"
                );
            }
        }
        assert_eq!(
            grouped_stratified_folds(&labels, &groups, 4, 5).unwrap(),
            folds
        );
        assert!(grouped_stratified_folds(&labels, &groups[1..], 4, 5).is_err());
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
