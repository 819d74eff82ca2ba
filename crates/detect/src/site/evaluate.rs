//! `ich eval-gp`'s flow: the features (one table, or one per split of a fixed-splits file), the
//! evaluation protocol of [`gphead::evaluation`], and its files — the summary CSV, a row per bag
//! (`--predictions`), a row per slice (`--slice-predictions`) and the JSON report
//! (docs/GPHEAD.md).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gphead::evaluation::{
    evaluate, evaluate_fixed, EvalOptions, EvalReport, SetResult, SummaryRow,
};
use gphead::MilData;
use milbase::Progress;

use crate::error::{Error, Result};

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct EvalJob {
    /// The features; with `splits_file`, `{split}` in the path is replaced by each split's number.
    pub features: PathBuf,
    /// An external test set (same `{split}` rule).
    pub test: Option<PathBuf>,
    /// Fixed splits (`../shared/data/splits/…`); None: `opts.splits` stratified folds.
    pub splits_file: Option<PathBuf>,
    pub opts: EvalOptions,
}

/// The report and a line saying what was evaluated.
#[derive(Debug)]
pub struct Evaluated {
    pub report: EvalReport,
    pub heading: String,
}

/// `{split}` in a path replaced by the split's number.
pub fn for_split(p: &Path, k: usize) -> PathBuf {
    PathBuf::from(p.display().to_string().replace("{split}", &k.to_string()))
}

/// Reads the features and runs the protocol.
pub fn run(job: &EvalJob, model_name: &str, progress: &dyn Progress) -> Result<Evaluated> {
    let external_text = job
        .test
        .as_ref()
        .map(|t| format!(", external test {}", t.display()))
        .unwrap_or_default();
    if let Some(sf) = &job.splits_file {
        let splits = crate::features::read_splits(sf)?;
        // each table once, however many splits name it
        let mut tables: BTreeMap<PathBuf, MilData> = BTreeMap::new();
        for (k, _) in &splits {
            for p in std::iter::once(&job.features).chain(job.test.as_ref()) {
                let path = for_split(p, *k);
                if let std::collections::btree_map::Entry::Vacant(e) = tables.entry(path) {
                    let t = crate::features::read(e.key())?;
                    e.insert(t);
                }
            }
        }
        let get = |p: PathBuf| {
            tables
                .get(&p)
                .ok_or_else(|| gphead::GpError::Data(format!("{} not read", p.display())))
        };
        let report = evaluate_fixed(
            &splits,
            |k| get(for_split(&job.features, k)),
            |k| job.test.as_ref().map(|t| get(for_split(t, k))).transpose(),
            &job.opts,
            progress,
        )?;
        return Ok(Evaluated {
            report,
            heading: format!(
                "{model_name} on {} with the splits of {} ({} splits){external_text}",
                job.features.display(),
                sf.display(),
                splits.len(),
            ),
        });
    }
    let data = crate::features::read(&job.features)?;
    let external = job.test.as_deref().map(crate::features::read).transpose()?;
    let report = evaluate(&data, external.as_ref(), &job.opts, progress)?;
    Ok(Evaluated {
        report,
        heading: format!(
            "{model_name} on {} ({} bags, {} instances){external_text}",
            job.features.display(),
            data.bags.len(),
            data.n,
        ),
    })
}

/// Where the protocol's files go (each optional).
#[derive(Debug, Clone, Default)]
pub struct EvalFiles {
    /// The summary: a row per set and metric, with the per-split values.
    pub csv: Option<PathBuf>,
    pub predictions: Option<PathBuf>,
    pub slice_predictions: Option<PathBuf>,
    pub json: Option<PathBuf>,
}

/// Writes the files asked for, each atomically.
pub fn write_files(report: &EvalReport, rows: &[SummaryRow], files: &EvalFiles) -> Result<()> {
    // each file locked while written (the folder may hold a user's other files), what a killed
    // writer of it left swept
    let write = |p: &Path, bytes: Vec<u8>| {
        let (_lock, _) =
            milbase::atomic::lock_file(p, &[], "eval-gp").map_err(|e| Error::io(p, e))?;
        milbase::write_atomic(p, &bytes).map_err(|e| Error::io(p, e))
    };
    if let Some(p) = &files.csv {
        write(p, summary_csv(rows)?)?;
    }
    if let Some(p) = &files.predictions {
        write(p, predictions_csv(report)?)?;
    }
    if let Some(p) = &files.slice_predictions {
        write(p, slice_predictions_csv(report)?)?;
    }
    if let Some(p) = &files.json {
        let v = serde_json::json!({ "report": report, "summary": rows });
        let bytes = serde_json::to_vec_pretty(&v)
            .map_err(|e| Error::Invalid(format!("serialising the report: {e}")))?;
        write(p, bytes)?;
    }
    Ok(())
}

fn csv_error(e: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("writing CSV: {e}"))
}

/// `set, metric, mean, std, values` (the per-split values joined by `;`).
pub fn summary_csv(rows: &[SummaryRow]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["set", "metric", "mean", "std", "values"])
        .map_err(csv_error)?;
    for r in rows {
        let vals: Vec<String> = r.values.iter().map(|v| format!("{v:.6}")).collect();
        w.write_record([
            r.set.clone(),
            r.metric.clone(),
            r.mean.to_string(),
            r.std.to_string(),
            vals.join(";"),
        ])
        .map_err(csv_error)?;
    }
    w.into_inner().map_err(csv_error)
}

/// A CSV of a row per item of every split's test and external sets: `split, set`, then `header`
/// with `cells(item)`, then the probabilities (`probability_raw, probability, sd, lo90, hi90`),
/// then `tail` (cells that may be empty).
fn per_set_csv<T>(
    report: &EvalReport,
    [header, tail]: [&[&str]; 2],
    items: impl Fn(&SetResult) -> &[T],
    cells: impl Fn(&T) -> (Vec<String>, f64, gphead::predict::Summary, Vec<String>),
) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let probs = ["probability_raw", "probability", "sd", "lo90", "hi90"];
    w.write_record(
        ["split", "set"]
            .iter()
            .chain(header)
            .chain(&probs)
            .chain(tail),
    )
    .map_err(csv_error)?;
    for s in &report.splits {
        for (set, r) in [("test", &s.test), ("external", &s.external)] {
            for item in r.iter().flat_map(&items) {
                let (named, raw, c, last) = cells(item);
                let mut row = vec![s.split.to_string(), set.to_string()];
                row.extend(named);
                row.extend([raw, c.mean, c.sd, c.lo, c.hi].map(|v| v.to_string()));
                row.extend(last);
                w.write_record(&row).map_err(csv_error)?;
            }
        }
    }
    w.into_inner().map_err(csv_error)
}

/// `--predictions`: a row per bag (with `probability_site` where a site calibration was measured).
pub fn predictions_csv(report: &EvalReport) -> Result<Vec<u8>> {
    let site = report.options.site_calibration_folds >= 2;
    let tail: &[&str] = if site { &["probability_site"] } else { &[] };
    per_set_csv(
        report,
        [&["bag", "label", "instances"], tail],
        |r| &r.bags,
        |b| {
            let named = vec![b.bag.clone(), b.label.to_string(), b.instances.to_string()];
            let last = if site {
                vec![b.site_calibrated.map(|p| p.to_string()).unwrap_or_default()]
            } else {
                Vec::new()
            };
            (named, b.raw, b.calibrated, last)
        },
    )
}

/// `--slice-predictions`: a row per instance.
pub fn slice_predictions_csv(report: &EvalReport) -> Result<Vec<u8>> {
    per_set_csv(
        report,
        [&["bag", "instance", "index", "label"], &[]],
        |r| &r.instances,
        |i| {
            let named = vec![
                i.bag.clone(),
                i.instance.clone(),
                i.index.to_string(),
                i.label.map(|l| l.to_string()).unwrap_or_default(),
            ];
            (named, i.raw, i.calibrated, Vec::new())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_numbers_replace_the_placeholder() {
        assert_eq!(
            for_split(Path::new("d/rsna_d8_fold{split}.csv"), 3),
            PathBuf::from("d/rsna_d8_fold3.csv")
        );
        assert_eq!(
            for_split(Path::new("plain.csv"), 3),
            PathBuf::from("plain.csv")
        );
    }

    #[test]
    fn the_summary_csv_has_a_row_per_set_and_metric() {
        let rows = vec![SummaryRow {
            set: "test".into(),
            metric: "bag_auc".into(),
            values: vec![0.5, 1.0],
            mean: 0.75,
            std: 0.25,
        }];
        let text = String::from_utf8(summary_csv(&rows).unwrap()).unwrap();
        assert_eq!(
            text,
            "set,metric,mean,std,values\ntest,bag_auc,0.75,0.25,0.500000;1.000000\n"
        );
    }
}
