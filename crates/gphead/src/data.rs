//! MIL data: an N×D feature matrix, the bag of every instance, bag labels, optional instance
//! labels and names (built from matrices: reading files is the caller's job); z-scoring.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::error::{GpError, Result};

/// The largest feature magnitude accepted: squares and sums of larger ones overflow f64 in the
/// standardisation (a CNN's features are O(1)–O(100)).
pub const MAX_FEATURE: f64 = 1e100;

/// One bag (a scan): its name, label and the indices of its instances (slices) in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Bag {
    pub name: String,
    pub label: u8,
    pub instances: Vec<usize>,
}

/// A MIL data set. `x` is row-major N×D.
#[derive(Debug, Clone, PartialEq)]
pub struct MilData {
    pub n: usize,
    pub d: usize,
    pub x: Vec<f64>,
    pub bags: Vec<Bag>,
    /// Bag index of every instance.
    pub bag_of: Vec<usize>,
    pub instance_labels: Option<Vec<u8>>,
    pub instance_names: Vec<String>,
    /// Per-bag numeric columns carried along (e.g. `bag_cnn_probability`).
    pub bag_extra: HashMap<String, Vec<f64>>,
}

impl MilData {
    /// Builds a data set from instances in any order; bags are numbered in first-seen order.
    pub fn from_instances(
        d: usize,
        x: Vec<f64>,
        bag_names: Vec<String>,
        bag_labels: Vec<u8>,
        instance_labels: Option<Vec<u8>>,
        instance_names: Vec<String>,
    ) -> Result<Self> {
        let n = bag_names.len();
        if x.len() != n * d || bag_labels.len() != n || instance_names.len() != n {
            return Err(GpError::Data("inconsistent instance counts".into()));
        }
        if let Some(l) = &instance_labels {
            if l.len() != n {
                return Err(GpError::Data("inconsistent instance label count".into()));
            }
        }
        for (i, row) in x.chunks(d.max(1)).enumerate() {
            if let Some((f, v)) = row
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && v.abs() <= MAX_FEATURE))
            {
                return Err(GpError::NonFinite {
                    instance: i,
                    name: instance_names[i].clone(),
                    feature: f,
                    value: *v,
                });
            }
        }
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut bags: Vec<Bag> = Vec::new();
        let mut bag_of = Vec::with_capacity(n);
        for i in 0..n {
            let b = *index.entry(bag_names[i].as_str()).or_insert_with(|| {
                bags.push(Bag {
                    name: bag_names[i].clone(),
                    label: bag_labels[i],
                    instances: Vec::new(),
                });
                bags.len() - 1
            });
            if bags[b].label != bag_labels[i] {
                return Err(GpError::Data(format!(
                    "bag {} has instances with different bag labels",
                    bags[b].name
                )));
            }
            bags[b].instances.push(i);
            bag_of.push(b);
        }
        Ok(Self {
            n,
            d,
            x,
            bags,
            bag_of,
            instance_labels,
            instance_names,
            bag_extra: HashMap::new(),
        })
    }

    pub fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.d..(i + 1) * self.d]
    }

    pub fn bag_labels(&self) -> Vec<u8> {
        self.bags.iter().map(|b| b.label).collect()
    }

    /// The data of the given bags (in that order), instances renumbered.
    pub fn subset(&self, bag_ids: &[usize]) -> MilData {
        let mut x = Vec::new();
        let mut bags = Vec::with_capacity(bag_ids.len());
        let mut bag_of = Vec::new();
        let mut il = self.instance_labels.as_ref().map(|_| Vec::new());
        let mut names = Vec::new();
        let mut extra: HashMap<String, Vec<f64>> = self
            .bag_extra
            .keys()
            .map(|k| (k.clone(), Vec::new()))
            .collect();
        for (nb, &b) in bag_ids.iter().enumerate() {
            let bag = &self.bags[b];
            let mut idx = Vec::with_capacity(bag.instances.len());
            for &i in &bag.instances {
                idx.push(names.len());
                x.extend_from_slice(self.row(i));
                bag_of.push(nb);
                names.push(self.instance_names[i].clone());
                if let (Some(out), Some(src)) = (il.as_mut(), self.instance_labels.as_ref()) {
                    out.push(src[i]);
                }
            }
            for (k, v) in &self.bag_extra {
                extra.get_mut(k).expect("same keys").push(v[b]);
            }
            bags.push(Bag {
                name: bag.name.clone(),
                label: bag.label,
                instances: idx,
            });
        }
        MilData {
            n: names.len(),
            d: self.d,
            x,
            bags,
            bag_of,
            instance_labels: il,
            instance_names: names,
            bag_extra: extra,
        }
    }
}

/// Z-scoring with the training set's statistics (a zero standard deviation counts as 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standardizer {
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
}

impl Standardizer {
    pub fn fit(data: &MilData) -> Self {
        let (n, d) = (data.n as f64, data.d);
        let mut mean = vec![0.0; d];
        for i in 0..data.n {
            for (m, v) in mean.iter_mut().zip(data.row(i)) {
                *m += v;
            }
        }
        mean.iter_mut().for_each(|m| *m /= n);
        let mut var = vec![0.0; d];
        for i in 0..data.n {
            for ((s, v), m) in var.iter_mut().zip(data.row(i)).zip(&mean) {
                *s += (v - m) * (v - m);
            }
        }
        let std = var
            .into_iter()
            .map(|s| {
                let sd = (s / n).sqrt();
                if sd > 1e-12 {
                    sd
                } else {
                    1.0
                }
            })
            .collect();
        Self { mean, std }
    }

    /// The standardised feature matrix, row-major.
    pub fn apply(&self, data: &MilData) -> Vec<f64> {
        let mut out = data.x.clone();
        for row in out.chunks_mut(data.d) {
            for ((v, m), s) in row.iter_mut().zip(&self.mean).zip(&self.std) {
                *v = (*v - m) / s;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zscore_uses_training_statistics() {
        let d = MilData::from_instances(
            2,
            vec![1.0, 5.0, 3.0, 5.0],
            vec!["a".into(), "a".into()],
            vec![0, 0],
            None,
            vec!["0".into(), "1".into()],
        )
        .unwrap();
        let s = Standardizer::fit(&d);
        assert_eq!(s.mean, vec![2.0, 5.0]);
        assert_eq!(s.std, vec![1.0, 1.0]); // second feature constant → std 1
        assert_eq!(s.apply(&d), vec![-1.0, 0.0, 1.0, 0.0]);
    }
}
