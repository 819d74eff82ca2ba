//! ROC AUC.

/// ROC AUC by the Mann–Whitney statistic with average ranks for ties (a tie counts one half).
/// `None` when a class is absent. Labels other than 1 count as negative.
pub fn roc_auc(labels: &[u8], scores: &[f64]) -> Option<f64> {
    let n = labels.len().min(scores.len());
    let pos = labels[..n].iter().filter(|&&l| l == 1).count();
    let neg = n - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let mut rank_sum_pos = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && scores[idx[j + 1]] == scores[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0; // ranks are 1-based
        for &k in &idx[i..=j] {
            if labels[k] == 1 {
                rank_sum_pos += avg;
            }
        }
        i = j + 1;
    }
    let u = rank_sum_pos - (pos * (pos + 1)) as f64 / 2.0;
    Some(u / (pos as f64 * neg as f64))
}

#[cfg(test)]
mod tests {
    use super::roc_auc;

    #[test]
    fn by_hand() {
        // pairs (pos, neg): (0.9, 0.1) win, (0.9, 0.5) win, (0.5, 0.1) win, (0.5, 0.5) tie → 3.5/4
        assert_eq!(roc_auc(&[1, 1, 0, 0], &[0.9, 0.5, 0.5, 0.1]), Some(0.875));
        assert_eq!(roc_auc(&[0, 1], &[0.2, 0.1]), Some(0.0));
        assert_eq!(roc_auc(&[1, 1], &[0.2, 0.1]), None);
    }

    #[test]
    fn equals_pair_counting_on_many_ties() {
        let labels: Vec<u8> = (0..200).map(|i| ((i * 7) % 3 == 0) as u8).collect();
        let scores: Vec<f64> = (0..200).map(|i| ((i * 13) % 17) as f64 / 4.0).collect();
        let (mut u, mut pairs) = (0.0, 0.0);
        for i in 0..200 {
            for j in 0..200 {
                if labels[i] == 1 && labels[j] == 0 {
                    pairs += 1.0;
                    u += if scores[i] > scores[j] {
                        1.0
                    } else if scores[i] == scores[j] {
                        0.5
                    } else {
                        0.0
                    };
                }
            }
        }
        assert!((roc_auc(&labels, &scores).unwrap() - u / pairs).abs() < 1e-12);
    }
}
