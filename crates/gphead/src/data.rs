//! MIL data: an N×D feature matrix, the bag of every instance, bag labels, optional instance
//! labels and names; readers for the feature files; z-scoring.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{GpError, Result};

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
            if let Some((f, v)) = row.iter().enumerate().find(|(_, v)| !v.is_finite()) {
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

    /// Reads a feature table, detecting the format: a header with `bag_name` and `feature_*`
    /// columns (the project's features file and `../shared/data/ich-features/`), or the
    /// header-less MIL benchmark CSV (bag label, bag id, features).
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| GpError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        let first = text.lines().next().unwrap_or("");
        if first.split(',').any(|c| c.trim() == "bag_name") {
            read_named(path, &text)
        } else {
            read_mil_benchmark(path, &text)
        }
    }
}

fn err(path: &Path, detail: impl Into<String>) -> GpError {
    GpError::Read {
        path: path.to_path_buf(),
        detail: detail.into(),
    }
}

fn parse_label(path: &Path, line: usize, s: &str) -> Result<u8> {
    match s.trim() {
        "0" | "0.0" | "False" | "false" => Ok(0),
        "1" | "1.0" | "True" | "true" => Ok(1),
        o => Err(err(path, format!("line {line}: label '{o}' is not 0 or 1"))),
    }
}

fn parse_f64(path: &Path, line: usize, col: &str, s: &str) -> Result<f64> {
    s.trim().parse::<f64>().map_err(|_| {
        err(
            path,
            format!("line {line}, column {col}: '{s}' is not a number"),
        )
    })
}

/// Named-column CSV: `bag_name`, `bag_label`, `feature_0..feature_{D-1}`, optional
/// `instance_name`, `instance_label` (empty = unknown) and per-bag numeric columns
/// (`bag_cnn_probability`, `bag_cnn_prediction`).
fn read_named(path: &Path, text: &str) -> Result<MilData> {
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| err(path, e.to_string()))?.clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let bag_col = col("bag_name").ok_or_else(|| err(path, "no bag_name column"))?;
    let label_col = col("bag_label").ok_or_else(|| err(path, "no bag_label column"))?;
    let mut feats: Vec<(usize, usize)> = headers
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            h.trim()
                .strip_prefix("feature_")
                .and_then(|k| k.parse().ok())
                .map(|k| (k, i))
        })
        .collect();
    feats.sort();
    if feats.is_empty() || feats.iter().enumerate().any(|(j, (k, _))| *k != j) {
        return Err(err(
            path,
            "feature columns must be feature_0 … feature_{D-1}",
        ));
    }
    let d = feats.len();
    let inst_name_col = col("instance_name");
    let inst_label_col = col("instance_label");
    let extra_cols: Vec<(String, usize)> = ["bag_cnn_probability", "bag_cnn_prediction"]
        .iter()
        .filter_map(|n| col(n).map(|c| (n.to_string(), c)))
        .collect();
    let mut x = Vec::new();
    let mut bag_names = Vec::new();
    let mut bag_labels = Vec::new();
    let mut inst_names = Vec::new();
    let mut inst_labels: Vec<Option<u8>> = Vec::new();
    let mut extra: Vec<HashMap<String, f64>> = Vec::new();
    let mut extra_by_bag: HashMap<String, HashMap<String, f64>> = HashMap::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| err(path, e.to_string()))?;
        let get = |c: usize| {
            rec.get(c)
                .ok_or_else(|| err(path, format!("line {line}: too few columns")))
        };
        for (k, c) in &feats {
            x.push(parse_f64(path, line, &format!("feature_{k}"), get(*c)?)?);
        }
        let bag = get(bag_col)?.to_string();
        bag_labels.push(parse_label(path, line, get(label_col)?)?);
        inst_names.push(match inst_name_col {
            Some(c) => get(c)?.to_string(),
            None => format!("{bag}#{i}"),
        });
        inst_labels.push(match inst_label_col {
            Some(c) if !get(c)?.trim().is_empty() => Some(parse_label(path, line, get(c)?)?),
            _ => None,
        });
        let mut e = HashMap::new();
        for (name, c) in &extra_cols {
            e.insert(name.clone(), parse_f64(path, line, name, get(*c)?)?);
        }
        extra_by_bag.entry(bag.clone()).or_insert_with(|| e.clone());
        extra.push(e);
        bag_names.push(bag);
    }
    if bag_names.is_empty() {
        return Err(err(path, "no instances"));
    }
    let labels = if inst_labels.iter().all(Option::is_some) {
        Some(
            inst_labels
                .into_iter()
                .map(|l| l.expect("checked"))
                .collect(),
        )
    } else {
        None
    };
    let mut data = MilData::from_instances(d, x, bag_names, bag_labels, labels, inst_names)
        .map_err(|e| err(path, e.to_string()))?;
    for (name, _) in &extra_cols {
        let v = data
            .bags
            .iter()
            .map(|b| extra_by_bag[&b.name][name])
            .collect();
        data.bag_extra.insert(name.clone(), v);
    }
    Ok(data)
}

/// Header-less MIL benchmark CSV: col 0 bag label, col 1 bag id, the rest features.
fn read_mil_benchmark(path: &Path, text: &str) -> Result<MilData> {
    let mut x = Vec::new();
    let mut bag_names = Vec::new();
    let mut bag_labels = Vec::new();
    let mut d = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split(',').collect();
        if cols.len() < 3 {
            return Err(err(
                path,
                format!("line {}: expected label, bag id and features", i + 1),
            ));
        }
        let nd = cols.len() - 2;
        if *d.get_or_insert(nd) != nd {
            return Err(err(
                path,
                format!(
                    "line {}: {nd} features, earlier lines had {}",
                    i + 1,
                    d.unwrap_or(0)
                ),
            ));
        }
        bag_labels.push(parse_label(path, i + 1, cols[0])?);
        bag_names.push(cols[1].trim().to_string());
        for (k, c) in cols[2..].iter().enumerate() {
            x.push(parse_f64(path, i + 1, &format!("{}", k + 2), c)?);
        }
    }
    let d = d.ok_or_else(|| err(path, "no instances"))?;
    let names = (0..bag_names.len())
        .map(|i| format!("{}#{i}", bag_names[i]))
        .collect();
    MilData::from_instances(d, x, bag_names, bag_labels, None, names)
        .map_err(|e| err(path, e.to_string()))
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
    use std::io::Write;

    #[test]
    fn named_columns_and_benchmark_csv() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "feature_1,feature_0,instance_label,instance_name,bag_name,bag_label,bag_cnn_probability").unwrap();
        writeln!(f, "2,1,0,a0,A,1,0.9\n4,3,1,a1,A,1,0.9\n6,5,0,b0,B,0,0.2").unwrap();
        let d = MilData::read(f.path()).unwrap();
        assert_eq!((d.n, d.d), (3, 2));
        assert_eq!(d.row(1), &[3.0, 4.0]); // columns put in feature order
        assert_eq!(d.bags.len(), 2);
        assert_eq!(d.bags[0].instances, vec![0, 1]);
        assert_eq!(d.instance_labels, Some(vec![0, 1, 0]));
        assert_eq!(d.bag_extra["bag_cnn_probability"], vec![0.9, 0.2]);
        let s = d.subset(&[1]);
        assert_eq!(
            (s.n, s.bags[0].name.as_str(), s.row(0)),
            (1, "B", &[5.0, 6.0][..])
        );

        let mut g = tempfile::NamedTempFile::new().unwrap();
        writeln!(g, "1,7,0.5,1\n1,7,1.5,2\n0,8,3,4").unwrap();
        let m = MilData::read(g.path()).unwrap();
        assert_eq!((m.n, m.d, m.bags.len()), (3, 2, 2));
        assert_eq!(m.bag_labels(), vec![1, 0]);
        assert!(m.instance_labels.is_none());
    }

    #[test]
    fn non_finite_features_are_rejected_with_the_instance_named() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            f,
            "feature_0,instance_name,bag_name,bag_label\n1,s1,A,0\nNaN,s2,A,0"
        )
        .unwrap();
        let e = MilData::read(f.path()).unwrap_err().to_string();
        assert!(
            e.contains("s2") && e.contains("NaN") && e.contains(&f.path().display().to_string()),
            "{e}"
        );
        let mut g = tempfile::NamedTempFile::new().unwrap();
        writeln!(g, "feature_0,bag_name,bag_label\nx,A,0").unwrap();
        assert!(MilData::read(g.path())
            .unwrap_err()
            .to_string()
            .contains("line 2"));
    }

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
