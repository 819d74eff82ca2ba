//! Prediction: open a bundle once ([`Predictor::open`]), then predict scans one at a time, from
//! DICOM files ([`Predictor::predict_dicom`]) or from a dataset ([`Predictor::predict_dataset_scan`]),
//! each returning a typed [`ScanPrediction`]; [`run`] does a whole `ich predict` job (inputs
//! found and grouped, every scan predicted, reports written).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use attcnn::inference::{Pixels, Trained};
use gphead::calibrate::Platt;
use gphead::pca::Pca;
use gphead::{GpModel, MilData};
use milbase::Progress;
use pacs::{Destination, SendOptions, SendReport};
use preprocess::dataset::{write_atomic, Dataset, ScanMeta, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::{
    apply_labels, decode_scan_float_streamed, decode_scan_viewed, find_scans_counting_others,
    find_scans_within,
};
use preprocess::scan::Scan;

use crate::bundle::{rfc3339, Bundle};
use crate::error::{Error, Result};
use crate::pipeline::device::Compute;
use crate::report::dicomout::{
    pull_study, send_all, write_scan, DicomOptions, DicomOutcome, ModelIdentity, Pull,
};
use crate::report::html::{scan_page, Picture, SlicePictures};
use crate::report::images;
use crate::report::slices::{Extent, SliceStore};
use crate::report::write::{metrics_with, scan_order, write_reports_with};
use crate::report::{
    ModelInfo, Report, ScanReport, SliceReport, Thresholds, INDEX_HTML, REPORT_FORMAT, SCAN_PAGES,
};

/// How predictions are made and flagged. Defaults: positive at p ≥ 0.5, uncertain at sd ≥ 0.1,
/// 1000 Monte Carlo samples, seed 0, no patient name or ID, CPU.
#[derive(Debug, Clone)]
pub struct PredictOptions {
    /// A slice or scan is flagged positive when its probability is at least this (in [0, 1]).
    pub positive_threshold: f64,
    /// A slice or scan is flagged uncertain when the sd of its probability is at least this (≥ 0).
    pub uncertain_sd: f64,
    /// Monte Carlo samples per scan (≥ 1).
    pub samples: usize,
    pub seed: u64,
    /// Keep patient name and ID in the reports.
    pub keep_phi: bool,
    /// Predict every series, even those the bundle's envelope leaves out (too few slices,
    /// contrast, not axial, a thin series beside its study's thick one): each is then flagged
    /// with why, and its call is unsure. Default: left out, with the reason in the report.
    pub all_series: bool,
    /// Call at the bundle's operating point (`ich adapt --sensitivity`) where it has one, in
    /// place of `positive_threshold`; `ich predict --positive-threshold` turns this off.
    pub operating_point: bool,
    pub compute: Compute,
    /// Ceilings on one DICOM file's size and one slice's decoded size.
    pub limits: preprocess::read::Limits,
    /// The viewer's address of a study, `{study}` and `{series}` standing for the UIDs
    /// ([`crate::report::viewer_url_template`]): each DICOM scan's page and index row link there.
    pub viewer_url: Option<String>,
}

impl Default for PredictOptions {
    fn default() -> Self {
        Self {
            positive_threshold: 0.5,
            uncertain_sd: 0.1,
            samples: 1000,
            seed: 0,
            keep_phi: false,
            all_series: false,
            operating_point: true,
            compute: Compute::cpu(),
            limits: Default::default(),
            viewer_url: None,
        }
    }
}

impl PredictOptions {
    pub fn validate(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.positive_threshold) {
            return Err(Error::Invalid(format!(
                "the positive threshold must be within [0, 1], got {}",
                self.positive_threshold
            )));
        }
        if self.uncertain_sd.is_nan() || self.uncertain_sd < 0.0 {
            return Err(Error::Invalid(format!(
                "the uncertain sd must be ≥ 0, got {}",
                self.uncertain_sd
            )));
        }
        if self.samples == 0 {
            return Err(Error::Invalid(
                "at least one Monte Carlo sample is needed".into(),
            ));
        }
        if let Some(t) = &self.viewer_url {
            crate::report::viewer_url_template(t)?;
        }
        Ok(())
    }
}

/// Time spent per stage.
#[derive(Debug, Clone, Default)]
pub struct Timing {
    pub load: Duration,
    pub preprocess: Duration,
    pub cnn: Duration,
    pub gp: Duration,
    pub reports: Duration,
}

pub use crate::report::ScanPrediction;

pub use crate::report::CNN_ONLY;

/// One scan's subtypes, and each of its slices'.
type Subtypes = (
    Vec<crate::report::SubtypeProbability>,
    Vec<Vec<crate::report::SubtypeProbability>>,
);

/// A bundle opened for prediction.
pub struct Predictor {
    bundle: Bundle,
    net: Trained,
    /// The GP head; without one, probabilities are the CNN classifier's (no uncertainty).
    gp: Option<GpModel>,
    /// One head per subtype, on the same features as `gp`, or beside the network in a site
    /// bundle without `gp` (none: subtypes not available).
    subtype_heads: Vec<(String, GpModel)>,
    projection: Option<Pca>,
    /// What the head's evidence is, and the summary of its training slices (if kept).
    evidence: crate::bundle::evidence::Evidence,
    ood: Option<crate::bundle::evidence::OodSummary>,
    opts: PredictOptions,
    /// How long opening took.
    pub load_time: Duration,
}

impl Predictor {
    /// Opens and verifies a bundle and loads the CNN on the options' backend. A bundle with a GP
    /// head predicts with it; one without (imported weights) with the CNN's own classifier.
    pub fn open(dir: &Path, mut opts: PredictOptions) -> Result<Self> {
        opts.validate()?;
        let t = Instant::now();
        let bundle = Bundle::open(dir)?;
        if let Some(op) = bundle
            .manifest
            .operating_point
            .as_ref()
            .filter(|_| opts.operating_point)
        {
            opts.positive_threshold = op.threshold;
        }
        let gp = match bundle.manifest.gp {
            Some(_) => Some(bundle.gp()?),
            None if bundle.manifest.cnn.imported.is_some()
                || bundle.manifest.cnn.site.is_some() =>
            {
                None
            }
            // a bundle we trained ourselves always gets its head before predicting
            None => Some(bundle.gp()?),
        };
        let subtype_heads = bundle.subtype_heads()?;
        let projection = bundle.projection()?;
        let ood = bundle.ood()?;
        let evidence = bundle.evidence();
        let dev = opts.compute.device()?;
        let net = Trained::load(bundle.cnn.model.clone(), &bundle.weights(), &dev)?
            .with_precision(opts.compute.precision);
        Ok(Self {
            bundle,
            net,
            gp,
            subtype_heads,
            projection,
            evidence,
            ood,
            opts,
            load_time: t.elapsed(),
        })
    }

    pub fn bundle(&self) -> &Bundle {
        &self.bundle
    }

    pub fn options(&self) -> &PredictOptions {
        &self.opts
    }

    /// What the reports say of the model.
    pub fn model_info(&self) -> ModelInfo {
        let m = &self.bundle.manifest;
        let imported = m.cnn.imported.as_ref().map(|i| i.name.clone());
        match &self.gp {
            Some(gp) => ModelInfo {
                bundle: self.bundle.dir.display().to_string(),
                created: m.created.clone(),
                gp_family: gp.model.name().to_string(),
                feature_dim: gp.d,
                image_size: m.preprocess.size,
                bag_rule: format!("{:?}", gp.bag_rule),
                calibrated: gp.calibration.is_some(),
                site_calibration: m
                    .gp
                    .as_ref()
                    .and_then(|p| p.site_calibration.as_ref())
                    .map(|s| {
                        format!(
                            "recalibrated on {} labelled scans ({} positive) of {} on {}; their scan ECE {:.3} before, {:.3} after ({}-fold cross-fitted)",
                            s.scans, s.positive, s.source, s.date, s.before.ece, s.cross_fitted.ece, s.folds
                        )
                    }),
                uncertainty: true,
                imported,
                subtypes: self.subtype_heads.iter().map(|(n, _)| n.clone()).collect(),
                interval: Some(format!(
                    "the 5th and 95th percentiles of {} Monte Carlo draws of the GP head's posterior{}, the same draws as the probability and its sd",
                    self.opts.samples,
                    if gp.calibration.is_some() { ", each through its calibration map" } else { "" }
                )),
                calibration: Some(self.calibration()),
                operating_point: self.operating_point(),
                notice: crate::report::RESEARCH_NOTICE.into(),
                terms: m.cnn.imported.as_ref().map(|i| i.licence.clone()),
            },
            None => ModelInfo {
                bundle: self.bundle.dir.display().to_string(),
                created: m.created.clone(),
                gp_family: CNN_ONLY.into(),
                feature_dim: m.cnn.dim,
                image_size: m.preprocess.size,
                bag_rule: match self.bundle.cnn.model.pad_bag_to {
                    Some(p) => format!("attention pooling, bags padded to {p} zero slices"),
                    None => "attention pooling".into(),
                },
                calibrated: m.cnn.site.is_some(),
                site_calibration: m.cnn.site.as_ref().map(|s| {
                    format!(
                        "the network as it came, its scan probability through a Platt map and its \
                         slice probabilities through a map fitted on {} labelled scans ({} \
                         positive) of {} by the multiple-instance likelihood",
                        s.training.train_scans, s.training.train_positive, s.training.source
                    )
                }),
                uncertainty: self.network_spread(),
                imported,
                subtypes: self.subtype_heads.iter().map(|(n, _)| n.clone()).collect(),
                interval: self.network_interval(),
                calibration: Some(self.calibration()),
                operating_point: self.operating_point(),
                notice: crate::report::RESEARCH_NOTICE.into(),
                terms: m.cnn.imported.as_ref().map(|i| i.licence.clone()),
            },
        }
    }

    /// The operating point the calls are made at, when it is the bundle's.
    fn operating_point(&self) -> Option<crate::bundle::operating::OperatingPoint> {
        let op = self.bundle.manifest.operating_point.as_ref()?;
        (self.opts.operating_point && self.opts.positive_threshold == op.threshold)
            .then(|| op.clone())
    }

    /// Whether the network's probabilities get a spread: dropout passes of its classifier, or
    /// the site maps' bootstrap pairs.
    fn network_spread(&self) -> bool {
        let dropout = self.net.dropout_rate() > 0.0 && self.opts.samples > 0;
        NetworkMapsAt::of(self.bundle.manifest.cnn.site.as_ref()).spread(dropout)
    }

    /// How a network bundle's intervals are made, in words.
    fn network_interval(&self) -> Option<String> {
        let site = self.bundle.manifest.cnn.site.as_ref();
        let maps = site.map_or(0, |s| s.map_draws.len());
        let p = self.net.dropout_rate();
        let dropout = (p > 0.0).then(|| {
            format!(
                "{} Monte Carlo dropout passes of the network's classifier (rate {p}, the dropout it was trained with; the slices are encoded once)",
                self.opts.samples
            )
        });
        let mapped = match (site, maps) {
            (Some(_), 0) => Some("each through the site's maps".to_string()),
            (Some(_), n) => Some(format!(
                "each through one of {n} pairs of the site's maps refitted on bootstrap resamples of its patients (the maps' own uncertainty)"
            )),
            (None, _) => None,
        };
        match (dropout, mapped) {
            (None, None) => None,
            (Some(d), None) => Some(format!("the 5th and 95th percentiles of {d}, the same draws as the probability and its sd")),
            (Some(d), Some(m)) => Some(format!("the 5th and 95th percentiles of {d}, {m}: the same draws as the probability and its sd")),
            (None, Some(m)) => Some(format!("the network's probability {m}: the 5th and 95th percentiles of those, the same draws as the probability and its sd")),
        }
    }

    /// What this bundle's probabilities are calibrated for.
    pub fn calibration(&self) -> crate::report::Calibration {
        use crate::report::{Calibration, CalibrationKind};
        let m = &self.bundle.manifest;
        let adapted = |reports: &[String]| reports.iter().any(|r| r == "adapt.json");
        let (kind, text) = match (&self.gp, &m.gp, &m.cnn.site) {
            (None, _, Some(s)) => (
                CalibrationKind::Site,
                format!(
                    "calibrated for the site whose {} labelled scans ({} positive) `ich adapt` fitted it to ({})",
                    s.training.train_scans, s.training.train_positive, s.training.source
                ),
            ),
            (Some(_), Some(g), _) if g.site_calibration.is_some() || adapted(&g.reports) => (
                CalibrationKind::Site,
                format!(
                    "calibrated for the site whose labelled scans fitted it ({})",
                    g.site_calibration.as_ref().map_or(g.training.source.clone(), |c| c.source.clone())
                ),
            ),
            (Some(gp), Some(g), _) if gp.calibration.is_some() => (
                CalibrationKind::Validation,
                format!(
                    "calibrated on the validation scans of {}; not fitted to another site: on scans from elsewhere run `ich adapt`",
                    g.training.source
                ),
            ),
            _ => {
                let what = match &m.cnn.imported {
                    Some(i) => format!("the scores of {}", i.name),
                    None => "the model's scores".to_string(),
                };
                (
                    CalibrationKind::None,
                    format!(
                        "NOT CALIBRATED FOR THIS SITE: {what}, not probabilities a site has checked; fit it to your own labelled scans with `ich adapt --model {} DICOM --labels labels.csv -o MODEL-site`",
                        crate::bundle::builtin::name_of(&self.bundle.dir)
                            .map_or_else(|| self.bundle.dir.display().to_string(), str::to_string)
                    ),
                )
            }
        };
        Calibration { kind, text }
    }

    /// The Monte Carlo draws behind the numbers: none without a GP head or subtype heads (the
    /// CNN's point estimates draw nothing).
    pub fn sampling(&self) -> Option<crate::report::Sampling> {
        (self.gp.is_some() || !self.subtype_heads.is_empty() || self.network_spread()).then_some(
            crate::report::Sampling {
                samples: self.opts.samples,
                seed: self.opts.seed,
            },
        )
    }

    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            positive: self.opts.positive_threshold,
            uncertain_sd: self.opts.uncertain_sd,
        }
    }

    /// Decodes one scan of DICOM files with the bundle's preprocessing and predicts it. Slices
    /// that fail to decode are added to `skipped`; the scan goes on without them.
    pub fn predict_dicom(
        &self,
        scan: &Scan,
        labels: &Labels,
        skipped: &Mutex<Skipped>,
        time: &mut Timing,
    ) -> Result<ScanPrediction> {
        let t = Instant::now();
        let pre = &self.bundle.manifest.preprocess;
        // exact window values for the network alone (the numbers its authors' framework gives);
        // a GP head was fitted on features of dataset bytes, so with one the input is bytes too,
        // and so are a site's maps of the network's outputs (`ich adapt` fits them on bytes)
        let cnn = &self.bundle.manifest.cnn;
        if cnn.float_input && self.gp.is_none() && cnn.site.is_none() {
            // encoded as they are decoded, a chunk of slices at a time: the scan's windowed
            // floats are never all held (a 238-slice 512² series' would be 748 MB)
            let per = 3 * pre.size * pre.size;
            let mut bytes: Vec<u8> = Vec::new();
            let mut features: Vec<Vec<f32>> = Vec::new();
            let mut encoding = std::time::Duration::ZERO;
            let mut take = |chunk: &[f32]| -> preprocess::Result<()> {
                bytes.extend(chunk.iter().map(|&v| preprocess::window::to_u8(v)));
                let e = Instant::now();
                features.extend(
                    self.net
                        .encode_features(chunk.len() / per, Pixels::Floats(chunk))
                        .map_err(|e| preprocess::Error::Invalid(e.to_string()))?,
                );
                encoding += e.elapsed();
                Ok(())
            };
            let (meta, views) = decode_scan_float_streamed(
                scan,
                pre,
                &self.opts.limits,
                self.opts.keep_phi,
                (&milbase::Quiet, skipped),
                self.net.encode_chunk(),
                &mut take,
            )
            .and_then(|(meta, rest, views)| {
                // a NIfTI volume comes back whole
                if !rest.is_empty() {
                    take(&rest)?;
                }
                Ok((meta, views))
            })
            .map_err(|e| Error::scan(&scan.id, e))?;
            let t2 = Instant::now();
            let encoded = self
                .net
                .outputs_from_features(&features)
                .map_err(|e| Error::scan(&scan.id, e))?;
            drop(features);
            time.cnn += encoding + t2.elapsed();
            time.preprocess += t.elapsed().saturating_sub(encoding + t2.elapsed());
            return self.predict_input(meta, bytes, views, Some(encoded), labels, time);
        }
        let (meta, pixels, views) = decode_scan_viewed(
            scan,
            pre,
            &self.opts.limits,
            self.opts.keep_phi,
            &milbase::Quiet,
            skipped,
        )
        .map_err(|e| Error::scan(&scan.id, e))?;
        time.preprocess += t.elapsed();
        self.predict_input(meta, pixels, views, None, labels, time)
    }

    /// Predicts scan `i` of a dataset (checked against the bundle's preprocessing by the caller,
    /// see [`Bundle::check_preprocess`]).
    pub fn predict_dataset_scan(
        &self,
        ds: &Dataset,
        i: usize,
        labels: &Labels,
        time: &mut Timing,
    ) -> Result<ScanPrediction> {
        let t = Instant::now();
        let e = ds
            .manifest
            .scans
            .get(i)
            .ok_or_else(|| Error::Invalid(format!("the dataset has no scan {i}")))?;
        let meta = ds.scan_meta(e).map_err(|x| Error::scan(&e.id, x))?;
        let pixels = ds.scan_pixels(e).map_err(|x| Error::scan(&e.id, x))?.data;
        time.preprocess += t.elapsed();
        self.predict_meta(meta, pixels, labels, time)
    }

    /// CNN then GP head on one preprocessed scan.
    pub fn predict_meta(
        &self,
        meta: ScanMeta,
        pixels: Vec<u8>,
        labels: &Labels,
        time: &mut Timing,
    ) -> Result<ScanPrediction> {
        self.predict_input(meta, pixels, Vec::new(), None, labels, time)
    }

    /// CNN then head on one scan: `pixels` as bytes (the network's input unless `encoded` holds
    /// what the network made of the exact window values already), `views` its source slices for
    /// the pictures (empty: none).
    fn predict_input(
        &self,
        mut meta: ScanMeta,
        pixels: Vec<u8>,
        views: Vec<preprocess::view::SliceView>,
        encoded: Option<attcnn::inference::ScanOutput>,
        labels: &Labels,
        time: &mut Timing,
    ) -> Result<ScanPrediction> {
        if !labels.is_empty() {
            apply_labels(&mut meta, labels)
                .map_err(|e| Error::scan(&meta.id, Error::Invalid(e)))?;
        }
        let opts = &self.opts;
        let id = meta.id.clone();
        crate::check_scan_id(&id)?;
        let t = Instant::now();
        let n = meta.n_slices;
        if meta.slices.len() != n {
            return Err(Error::scan(
                &id,
                Error::Invalid(format!(
                    "{} slice records for {n} slices",
                    meta.slices.len()
                )),
            ));
        }
        let cnn = match encoded {
            Some(c) => c,
            None => self
                .net
                .scan_pixels(n, Pixels::Bytes(&pixels))
                .map_err(|e| Error::scan(&id, e))?,
        };
        time.cnn += t.elapsed();
        let thr = self.thresholds();

        let Some(gp) = &self.gp else {
            // no GP head: the network's own probabilities, point estimates without a spread;
            // through the site's maps where `ich adapt` shipped the network with them, and the
            // subtype heads it carried beside them on the same slices
            let t = Instant::now();
            let (scan_subtypes, mut slice_subtypes) = match self.subtype_heads.first() {
                Some((_, head)) => {
                    let data = self.head_data(&meta, &cnn, head.d)?;
                    self.subtypes(&meta, &data)?
                }
                None => (Vec::new(), vec![Vec::new(); n]),
            };
            time.gp += t.elapsed();
            // the network's own spread: dropout passes of its classifier, each through the
            // site's maps (pass t through bootstrap pair t mod n: the maps' own uncertainty)
            let draws = self
                .net
                .dropout_draws(&cnn, opts.samples, opts.seed ^ fnv1a(&id))
                .map_err(|e| Error::scan(&id, e))?;
            let site = self.bundle.manifest.cnn.site.as_ref();
            let maps = NetworkMapsAt::of(site);
            let slices = meta
                .slices
                .iter()
                .zip(&cnn.slice_probability)
                .zip(&cnn.attention)
                .enumerate()
                .map(|(i, ((s, &p), &att))| {
                    let d = draws.as_ref().map(|d| d.slices[i].as_slice());
                    let mut r = slice_report(i, s, maps.summary(d, p, false), att, &thr);
                    r.subtypes = std::mem::take(&mut slice_subtypes[i]);
                    r
                })
                .collect();
            let d = draws.as_ref().map(|d| d.scan.as_slice());
            let est = maps.summary(d, cnn.probability, true);
            let report = self.scan_report(meta, (slices, scan_subtypes), est, &cnn, &thr, &pixels);
            return Ok(ScanPrediction {
                report,
                pixels,
                views,
            });
        };

        let t = Instant::now();
        let data = self.head_data(&meta, &cnn, gp.d)?;
        let pred = gp
            .predict(&data, opts.samples, opts.seed ^ fnv1a(&id))
            .map_err(|e| Error::scan(&id, e))?;
        let (scan_subtypes, slice_subtypes) = self.subtypes(&meta, &data)?;
        time.gp += t.elapsed();

        let slices: Vec<SliceReport> = meta
            .slices
            .iter()
            .zip(&pred.instances)
            .zip(&cnn.attention)
            .zip(slice_subtypes)
            .enumerate()
            .map(|(i, (((s, p), &att), subs))| {
                let mut r = slice_report(i, s, (p.mean, p.sd, p.lo, p.hi), att, &thr);
                r.subtypes = subs;
                r
            })
            .collect();
        let bag = pred.bags[0].get(gp.bag_rule);
        let est = (bag.mean, bag.sd, bag.lo, bag.hi);
        let report = self.scan_report(meta, (slices, scan_subtypes), est, &cnn, &thr, &pixels);
        Ok(ScanPrediction {
            report,
            pixels,
            views,
        })
    }

    /// The heads' data for one scan: the evidence of its slices, projected where the bundle
    /// projects it, which must give the `want` inputs the heads take.
    fn head_data(
        &self,
        meta: &ScanMeta,
        cnn: &attcnn::inference::ScanOutput,
        want: usize,
    ) -> Result<MilData> {
        let (id, n) = (&meta.id, meta.n_slices);
        let mut x = self.evidence.rows(cnn);
        let mut d = self
            .evidence
            .dim(cnn.features.first().map_or(0, |f| f.len()));
        if let Some(p) = &self.projection {
            x = x.chunks(d).flat_map(|r| p.project(r)).collect();
            d = p.k;
        }
        if d != want {
            return Err(Error::scan(
                id,
                Error::Invalid(format!(
                    "the CNN gives {d} features, the GP head takes {want}"
                )),
            ));
        }
        MilData::from_instances(
            want,
            x,
            vec![id.clone(); n],
            vec![meta.label.unwrap_or(0); n],
            None,
            meta.slices
                .iter()
                .map(|s| s.sop_instance_uid.clone())
                .collect(),
        )
        .map_err(|e| Error::scan(id, e))
    }

    /// Each subtype head on one scan's `data` (its own seed, so that heads do not share draws):
    /// the scan's subtypes, and each slice's.
    fn subtypes(&self, meta: &ScanMeta, data: &MilData) -> Result<Subtypes> {
        let (opts, thr, id, n) = (&self.opts, self.thresholds(), &meta.id, meta.n_slices);
        let labels = crate::features::SubtypeLabels::of(meta);
        let mut scan_subtypes = Vec::with_capacity(self.subtype_heads.len());
        let mut slice_subtypes = vec![Vec::with_capacity(self.subtype_heads.len()); n];
        for (name, head) in &self.subtype_heads {
            let sp = head
                .predict(data, opts.samples, opts.seed ^ fnv1a(id) ^ fnv1a(name))
                .map_err(|e| Error::scan(id, e))?;
            let one = |p: f64, sd: f64, lo: f64, hi: f64, label: Option<u8>| {
                crate::report::SubtypeProbability {
                    name: name.clone(),
                    probability: p,
                    sd,
                    lo,
                    hi,
                    positive: thr.positive(p),
                    uncertain: thr.uncertain(sd, lo, hi),
                    label,
                }
            };
            let b = sp.bags[0].get(head.bag_rule);
            scan_subtypes.push(one(b.mean, b.sd, b.lo, b.hi, labels.scan(name)));
            for (k, q) in sp.instances.iter().enumerate().take(n) {
                slice_subtypes[k].push(one(q.mean, q.sd, q.lo, q.hi, labels.slice(k, name)));
            }
        }
        Ok((scan_subtypes, slice_subtypes))
    }

    /// What the probabilities were fitted on: the GP head's training data, or the CNN's when it
    /// predicts alone.
    fn trained_on(&self) -> Option<&crate::bundle::DataSummary> {
        let m = &self.bundle.manifest;
        match (&self.gp, &m.gp) {
            (Some(_), Some(g)) => Some(&g.training),
            _ => m
                .cnn
                .site
                .as_ref()
                .map(|s| &s.training)
                .or(m.cnn.training.as_ref()),
        }
    }

    /// A scan's report from its slices and its (probability, sd, lo, hi); the scan's windowed
    /// `pixels` are checked for what no model can read ([`crate::pipeline::sanity`]).
    fn scan_report(
        &self,
        meta: ScanMeta,
        (slices, mut scan_subtypes): (Vec<SliceReport>, Vec<crate::report::SubtypeProbability>),
        (p, sd, lo, hi): (f64, f64, f64, f64),
        cnn: &attcnn::inference::ScanOutput,
        thr: &Thresholds,
        pixels: &[u8],
    ) -> ScanReport {
        let opts = &self.opts;
        let mut warnings = meta.warnings;
        let mut slices = slices;
        let (mut uncertain, ood) = (thr.uncertain(sd, lo, hi), self.ood_check(&meta.id, cnn));
        // what makes the scan or a slice uncertain for what it is (out of distribution, blank,
        // unreadable), not for its own interval, makes each subtype of it uncertain too
        let (mut forced_scan, mut forced_slices) = (false, vec![false; slices.len()]);
        if let Some(o) = ood.filter(|o| o.flagged) {
            let w = format!(
                "outside what the model was fitted on: its slices' median score is {:.1}× that of the most unusual of the {} training scans, {:.0} % of its slices lie outside their slices' range; its probabilities are not to be trusted",
                o.score,
                self.ood.as_ref().map_or(0, |s| s.scans),
                100.0 * o.outside_fraction
            );
            tracing::warn!("scan {}: {w}", meta.id);
            warnings.push(w);
            uncertain = true;
            forced_scan = true;
            forced_slices.iter_mut().for_each(|f| *f = true);
        }
        if let Some(w) = self
            .trained_on()
            .and_then(|t| t.slice_warning(meta.n_slices))
        {
            tracing::warn!("scan {}: {w}", meta.id);
            warnings.push(w);
        }
        let sane = crate::pipeline::sanity::check(
            meta.original_rows,
            meta.original_cols,
            pixels,
            meta.n_slices,
            meta.size,
            self.trained_on(),
        );
        for w in sane.warnings {
            tracing::warn!("scan {}: {w}", meta.id);
            warnings.push(w);
        }
        uncertain |= sane.scan_uncertain;
        forced_scan |= sane.scan_uncertain;
        for (k, s) in slices.iter_mut().enumerate() {
            let forced = forced_slices[k]
                || sane.all_slices_uncertain
                || sane.blank.get(k).copied().unwrap_or(false);
            s.uncertain |= forced;
            for sub in &mut s.subtypes {
                sub.uncertain |= forced;
            }
        }
        for sub in &mut scan_subtypes {
            sub.uncertain |= forced_scan;
        }
        let why = crate::report::why_no_slice(thr.positive(p), &slices, thr.positive);
        ScanReport {
            n_slices: meta.n_slices,
            probability: p,
            sd,
            lo,
            hi,
            positive: thr.positive(p),
            uncertain,
            cnn_probability: cnn.probability,
            out_of_distribution: ood,
            positive_slices: slices.iter().filter(|s| s.positive).count(),
            uncertain_slices: slices.iter().filter(|s| s.uncertain).count(),
            label: meta.label,
            study_instance_uid: Some(meta.study_instance_uid).filter(|u| is_uid(u)),
            series_instance_uid: Some(meta.series_instance_uid).filter(|u| is_uid(u)),
            series_description: meta.series_description.filter(|_| opts.keep_phi),
            patient_name: meta.patient_name.filter(|_| opts.keep_phi),
            patient_id: meta.patient_id.filter(|_| opts.keep_phi),
            nifti: meta.nifti,
            warnings,
            why,
            page: None,
            dicom: None,
            subtypes: scan_subtypes,
            id: meta.id,
            slices,
        }
    }

    /// The scan's slices against the head's training slices, when the bundle keeps their
    /// summary (a failure is logged and leaves the scan unchecked).
    fn ood_check(
        &self,
        id: &str,
        cnn: &attcnn::inference::ScanOutput,
    ) -> Option<crate::bundle::evidence::OodCheck> {
        let o = self.ood.as_ref()?;
        match o.check_scan(&cnn.features) {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::warn!("scan {id}: out-of-distribution check failed: {e}");
                None
            }
        }
    }

    /// The HTML page of one predicted scan: each slice's tile, and its panels enlarged
    /// ([`crate::report::images`]).
    pub fn scan_page(&self, head: &Report, p: &ScanPrediction) -> Result<String> {
        let size = self.bundle.manifest.preprocess.size;
        let pictures = (0..p.report.slices.len())
            .map(|k| {
                let panels = images::panels(p, k, size)?;
                let tile = Picture::of(&images::tile(&panels[0]))?;
                let large = panels.iter().map(Picture::of).collect::<Result<Vec<_>>>()?;
                Ok(SlicePictures { tile, large })
            })
            .collect::<Result<Vec<_>>>()?;
        let note = images::source(p).note(size);
        Ok(scan_page(head, &p.report, &pictures, &note))
    }
}

/// An output folder that is an input, or holds one, is refused before anything is written: the
/// run's sweep of stale temporaries and its rerun's removal of what an earlier run wrote would
/// reach the user's own files, and the next run would read this one's results as input.
pub fn refuse_out_over_inputs(out: &Path, inputs: &[PathBuf]) -> Result<()> {
    let Ok(o) = out.canonicalize() else {
        return Ok(()); // not there yet: it holds nothing
    };
    for i in inputs {
        let Ok(c) = i.canonicalize() else { continue };
        if c.starts_with(&o) {
            return Err(Error::Invalid(format!(
                "--out {} {} the input {}: write the report to a folder of its own (e.g. {}-report)",
                out.display(),
                if c == o { "is" } else { "holds" },
                i.display(),
                i.display()
            )));
        }
    }
    Ok(())
}

/// Whether `rel`, a path in an output folder, is one that a run of predict writes (over).
fn writes_over(rel: &str) -> bool {
    matches!(rel, "scans.csv" | "slices.csv" | "report.json")
        || crate::report::html::is_index_page(rel)
        || rel.starts_with(&format!("{SCAN_PAGES}/"))
        || rel.starts_with(&format!("{}/", crate::report::dicomout::DICOM_DIR))
}

/// What a folder without a CT scan held, in words, and what to do about it.
pub fn what_was_found(counts: &std::collections::BTreeMap<String, usize>) -> String {
    if counts.is_empty() {
        return "no file at all: give a folder of DICOM files (.dcm, any layout) or a NIfTI volume (.nii, .nii.gz)".into();
    }
    let files: Vec<String> = counts
        .iter()
        .map(|(why, n)| format!("{n} file(s) {why}"))
        .collect();
    let mut s = format!("{} and none a head CT image", files.join(", "));
    let has = |k: &str| counts.contains_key(k);
    if has("not DICOM") {
        s.push_str(". ich reads DICOM files and NIfTI volumes; pictures (JPEG, PNG) hold no Hounsfield units: export the series from the PACS or the scanner as DICOM (or as NIfTI, e.g. with dcm2niix)");
    }
    if has("not a CT image") || has("not a head CT") {
        s.push_str(". Only CT series of the head are predicted: check that the folder holds the head CT series, not another modality or body part");
    }
    s
}

/// The site's maps of a network bundle as each dropout pass sees them.
struct NetworkMapsAt<'a> {
    main: Option<(Platt, Platt)>,
    draws: &'a [crate::bundle::MapPair],
}

impl<'a> NetworkMapsAt<'a> {
    fn of(site: Option<&'a crate::bundle::NetworkSite>) -> Self {
        Self {
            main: site.map(|s| (s.scan_map, s.slice_map)),
            draws: site.map_or(&[], |s| s.map_draws.as_slice()),
        }
    }

    /// The map pass `t` goes through: bootstrap pair `t mod n`, else the site's map, else none.
    fn map(&self, t: usize, scan: bool) -> Platt {
        let pick = |s: Platt, l: Platt| if scan { s } else { l };
        match (self.draws.len(), self.main) {
            (0, Some((s, l))) => pick(s, l),
            (0, None) => Platt::IDENTITY,
            (n, _) => pick(self.draws[t % n].scan, self.draws[t % n].slice),
        }
    }

    /// (mean, sd, lo, hi) of a probability: from the network's dropout passes through the maps
    /// (`draws`); without passes (a network without dropout) from the point `p` through each
    /// bootstrap map; with neither, the point through the site's map, with no spread.
    fn summary(&self, draws: Option<&[f64]>, p: f64, scan: bool) -> (f64, f64, f64, f64) {
        let mut v: Vec<f64> = match draws {
            Some(d) => d
                .iter()
                .enumerate()
                .map(|(t, &q)| self.map(t, scan).apply(q))
                .collect(),
            None => (0..self.draws.len())
                .map(|t| self.map(t, scan).apply(p))
                .collect(),
        };
        if v.is_empty() {
            let q = self.map(0, scan).apply(p);
            return (q, 0.0, q, q);
        }
        let s = gphead::predict::Summary::of(&mut v);
        (s.mean, s.sd, s.lo, s.hi)
    }

    /// Whether the probabilities get a spread at all.
    fn spread(&self, dropout: bool) -> bool {
        dropout || !self.draws.is_empty()
    }
}

/// A whole prediction job: what `ich predict` does.
#[derive(Debug, Clone)]
pub struct PredictJob {
    /// The model bundle.
    pub model: PathBuf,
    /// DICOM files or folders (searched recursively), or datasets (folders with dataset.json).
    pub inputs: Vec<PathBuf>,
    /// Output folder.
    pub out: PathBuf,
    /// Label files (labels.csv / slice_labels.csv of `ich synth`, or the RSNA csv).
    pub labels: Vec<PathBuf>,
    /// Write HTML pages (index and one per scan).
    pub html: bool,
    pub options: PredictOptions,
    /// DICOM results, sending them, pulling a study.
    pub pacs: PacsJob,
    /// Only the scans of this shard (`Shard::ALL`: every scan; `ich predict --shard I/N`). A
    /// dataset written by `ich preprocess --shard` brings its own; the report names the shard,
    /// and `ich merge` joins the shards' folders into the one-shot run's reports.
    pub shard: milbase::Shard,
    /// Write over files in `out` that no `ich` run wrote (`ich predict --force`); without it
    /// they are refused by name before anything is written.
    pub force: bool,
}

/// The PACS side of a job. Default: DICOM results written (UIDs under `2.25`), nothing sent,
/// nothing pulled.
#[derive(Debug, Clone)]
pub struct PacsJob {
    /// Write the SR and the Secondary Captures of every scan predicted from DICOM (None: don't).
    pub dicom: Option<DicomOptions>,
    /// Send them here (each destination gets every file).
    pub send: Vec<Destination>,
    pub send_options: SendOptions,
    /// Predict a study pulled from a PACS (besides the inputs).
    pub pull: Option<Pull>,
    /// (NIfTI name, folder): the DICOM series each NIfTI file was converted from, whose UIDs its
    /// DICOM results then reference ([`matching_series`]).
    pub nifti_dicom: Vec<(String, PathBuf)>,
}

impl Default for PacsJob {
    fn default() -> Self {
        Self {
            dicom: Some(DicomOptions::default()),
            send: Vec::new(),
            send_options: SendOptions::default(),
            pull: None,
            nifti_dicom: Vec::new(),
        }
    }
}

/// The series among `candidates` that a NIfTI scan was converted from: as many slices of the
/// same size, each slice's first pixel within 1 mm of the NIfTI slice's (both inferior first);
/// `Err` says why none is.
pub fn matching_series<'a>(
    nifti: &Scan,
    candidates: &'a [Scan],
) -> std::result::Result<&'a Scan, String> {
    let pos = |s: &Scan| -> Option<Vec<[f64; 3]>> { s.slices.iter().map(|h| h.position).collect() };
    let Some(want) = pos(nifti) else {
        return Err("the NIfTI scan has no slice positions".into());
    };
    let same = |c: &Scan| {
        c.nifti.is_none()
            && c.slices.len() == nifti.slices.len()
            && c.slices
                .iter()
                .zip(&nifti.slices)
                .all(|(a, b)| (a.rows, a.cols) == (b.rows, b.cols))
            && pos(c).is_some_and(|p| {
                p.iter().zip(&want).all(|(a, b)| {
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
                        <= 1.0
                })
            })
    };
    let found: Vec<&Scan> = candidates.iter().filter(|c| same(c)).collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "none of its {} DICOM series has its {} slices of {}×{} at its slices' positions \
             (within 1 mm)",
            candidates.len(),
            nifti.slices.len(),
            nifti.slices.first().map_or(0, |h| h.rows),
            nifti.slices.first().map_or(0, |h| h.cols)
        )),
        many => Err(format!(
            "{} of its DICOM series lie where the NIfTI's slices do; which one it came from \
             cannot be told",
            many.len()
        )),
    }
}

/// What a job produced.
pub struct Outcome {
    /// The report as written, its scans without their slices (those are in `slices.csv` and
    /// `report.json`: a run holds every scan's summary, not every slice's row).
    pub report: Report,
    /// `index.html` (written only with `html`).
    pub index: PathBuf,
    pub timing: Timing,
    /// The scans that could not be processed, each with its reason (also in `report.skipped`).
    pub failed: Vec<String>,
    /// Scans whose DICOM results could not be written, with the reason (their predictions are in
    /// the reports, the reason also in their warnings).
    pub dicom_failed: Vec<String>,
    /// The DICOM results written (SR and Secondary Captures of every scan).
    pub dicom_files: Vec<PathBuf>,
    /// One per destination.
    pub sent: Vec<SendReport>,
}

/// Where a scan comes from.
enum Source<'a> {
    Dataset(&'a Dataset, usize),
    Dicom(Scan),
}

/// What a run predicts, gathered from its inputs: the study pulled from a PACS (an input like the
/// others), the datasets, the DICOM and NIfTI scans found (a shard's own only), their labels, and
/// the series screened against what the model was made for.
struct Gathered {
    inputs: Vec<PathBuf>,
    /// A study that could not be retrieved, beside other inputs (alone, it is the run's error).
    pull_failed: Option<String>,
    datasets: Vec<Dataset>,
    shard: milbase::Shard,
    scans: Vec<Scan>,
    /// Files that belong to no scan, and how many files of other shards' scans were passed over.
    skipped: Skipped,
    others: usize,
    /// Files of this shard's own scans that were skipped.
    own: Skipped,
    labels: Labels,
    /// The series left out as outside the model's envelope, each with its reason.
    outside: Vec<String>,
    /// What is unusual about each scan kept that lies near the envelope's edge.
    unusual: std::collections::HashMap<String, Vec<String>>,
}

fn gather(
    predictor: &Predictor,
    job: &PredictJob,
    time: &mut Timing,
    progress: &dyn Progress,
) -> Result<Gathered> {
    let mut inputs = job.inputs.clone();
    // a study that cannot be retrieved (server down, hostile answer) is one failed input: with
    // other inputs the run goes on and says so; alone, it is the run's error
    let mut pull_failed = None;
    if let Some(pull) = &job.pacs.pull {
        match pull_study(&job.out, pull) {
            Ok(dir) => inputs.push(dir),
            Err(e) if !inputs.is_empty() => {
                let msg = format!("study {}: not retrieved: {e}", pull.study_uid);
                tracing::warn!("{msg}");
                pull_failed = Some(msg);
            }
            Err(e) => return Err(e),
        }
    }
    let (ds_paths, dicom_paths): (Vec<PathBuf>, Vec<PathBuf>) = inputs
        .iter()
        .cloned()
        .partition(|p| p.join("dataset.json").is_file());
    let mut datasets = Vec::new();
    let mut shard = job.shard;
    for p in &ds_paths {
        let ds = Dataset::open(p)?;
        predictor
            .bundle()
            .check_preprocess(p, &ds.manifest.config)?;
        shard = crate::pipeline::extract::dataset_shard(p, ds.manifest.shard.as_deref(), shard)?;
        datasets.push(ds);
    }
    let t = Instant::now();
    // a shard keeps the headers of its own scans only, dropping the others' as they are read
    let (scans, skipped, others, own) = if dicom_paths.is_empty() {
        (Vec::new(), Skipped::default(), 0, Skipped::default())
    } else {
        find_scans_counting_others(&dicom_paths, &predictor.opts.limits, shard, progress)?
    };
    time.preprocess += t.elapsed();
    // the labels of this run's scans only (a cohort's labels file costs this run's rows); a
    // dataset's scans are known by their files, so with datasets every row is kept
    let mut labels = if datasets.is_empty() {
        Labels::only(preprocess::labels::Wanted::of(&scans))
    } else {
        Labels::default()
    };
    for f in &job.labels {
        labels.load(f)?;
    }
    // series outside what the model was made for: left out with the reason, or flagged
    let (scans, outside) = crate::bundle::envelope::screen(
        scans,
        predictor.bundle().manifest.cnn.envelope.as_ref(),
        !predictor.opts.all_series,
    );
    for w in &outside {
        tracing::warn!("{w}");
    }
    let (scans, unusual): (Vec<Scan>, std::collections::HashMap<String, Vec<String>>) = {
        let mut u = std::collections::HashMap::new();
        let s = scans
            .into_iter()
            .map(|(scan, flags)| {
                if !flags.is_empty() {
                    u.insert(scan.id.clone(), flags);
                }
                scan
            })
            .collect();
        (s, u)
    };
    Ok(Gathered {
        inputs,
        pull_failed,
        datasets,
        shard,
        scans,
        skipped,
        others,
        own,
        labels,
        outside,
        unusual,
    })
}

/// The head of a run's report: what made it (tool, model, thresholds, sampling, options); its
/// scans, skipped inputs and metrics are filled in as the run goes.
fn report_head(
    predictor: &Predictor,
    job: &PredictJob,
    run: &str,
    shard: milbase::Shard,
) -> Report {
    Report {
        format_version: REPORT_FORMAT,
        run: run.to_string(),
        tool: format!("ich {}", env!("CARGO_PKG_VERSION")),
        created: rfc3339(SystemTime::now()),
        model: ModelInfo {
            bundle: job.model.display().to_string(),
            ..predictor.model_info()
        },
        thresholds: predictor.thresholds(),
        scans: Vec::new(),
        metrics: None,
        skipped: Vec::new(),
        shard: (!shard.is_all()).then(|| shard.to_string()),
        sampling: predictor.sampling(),
        options: Some(crate::report::ReportOptions {
            keep_phi: job.options.keep_phi,
            labels: !job.labels.is_empty(),
            dicom: job.pacs.dicom.is_some(),
        }),
        viewer_url: job.options.viewer_url.clone(),
        warnings: Vec::new(),
    }
}

/// The DICOM results of a run (`--dicom`): each scan predicted from DICOM gets its Structured
/// Report and Secondary Captures, referencing the series it came from (a NIfTI volume's, the
/// DICOM series given for it with `--nifti-dicom`). A scan whose results cannot be written keeps
/// its prediction in the reports, with a warning, and fails the job at its end.
struct DicomResults<'a> {
    out: &'a Path,
    held: &'a milbase::atomic::DirLock,
    opts: &'a DicomOptions,
    identity: ModelIdentity,
    size: usize,
    /// The DICOM series NIfTI files came from, read once each (a folder that cannot be read
    /// fails the NIfTI scans named with it, not the run).
    nifti_series: std::collections::HashMap<&'a str, std::result::Result<Vec<Scan>, String>>,
    written: Vec<PathBuf>,
    failed: Vec<String>,
}

impl<'a> DicomResults<'a> {
    /// None when the job asks for no DICOM results.
    fn new(
        predictor: &Predictor,
        job: &'a PredictJob,
        held: &'a milbase::atomic::DirLock,
        progress: &dyn Progress,
    ) -> Result<Option<DicomResults<'a>>> {
        let Some(opts) = &job.pacs.dicom else {
            return Ok(None);
        };
        let identity = ModelIdentity::of_bundle(&job.model, predictor.model_info())?;
        let mut nifti_series = std::collections::HashMap::new();
        for (name, dir) in &job.pacs.nifti_dicom {
            let r = find_scans_within(std::slice::from_ref(dir), &predictor.opts.limits, progress)
                .map(|(s, _)| s)
                .map_err(|e| e.to_string());
            nifti_series.insert(name.as_str(), r);
        }
        Ok(Some(DicomResults {
            out: &job.out,
            held,
            opts,
            identity,
            size: predictor.bundle().manifest.preprocess.size,
            nifti_series,
            written: Vec::new(),
            failed: Vec::new(),
        }))
    }

    /// Writes the results of one scan predicted from `scan`, and notes them in its report.
    fn scan(&mut self, scan: &Scan, p: &mut ScanPrediction, thresholds: &Thresholds) {
        let (opts, out) = (self.opts, self.out);
        // a NIfTI scan's results reference the DICOM series it came from, when given
        let source = match scan.nifti.as_ref().map(|n| n.name.as_str()) {
            Some(name) => match self.nifti_series.get(name) {
                Some(Ok(series)) => matching_series(scan, series)
                    .map_err(|why| format!("the DICOM folder given for {name}: {why}")),
                Some(Err(e)) => Err(format!("the DICOM folder given for {name}: {e}")),
                None => Ok(scan),
            },
            None => Ok(scan),
        };
        // a NIfTI volume read as slabs: the series it came from, read the same way
        let slabbed;
        let source = match source {
            Ok(series) if scan.nifti.is_some() && scan.slab > 1 => {
                slabbed = series.clone().into_slabs(scan.slab);
                Ok(&slabbed)
            }
            other => other,
        };
        let outcome = match source {
            Ok(source) => {
                // a NIfTI scan's slices take the UIDs of the series it came from, in
                // the same (inferior first) order: each row its slice, or its slab's
                // middle slice, as the volume's rows are named
                if scan.nifti.is_some() {
                    for (row, s) in p.report.slices.iter_mut().enumerate() {
                        if let Some(h) = source.slices.get(scan.slab_middle(row)) {
                            s.sop_instance_uid = h.sop_uid.clone();
                        }
                    }
                }
                write_scan(
                    (out, self.held),
                    opts,
                    &self.identity,
                    thresholds,
                    source,
                    p,
                    self.size,
                )
            }
            Err(why) => Ok(DicomOutcome::NotApplicable(why)),
        };
        match outcome {
            Ok(DicomOutcome::NotApplicable(why)) => {
                let msg = format!("no DICOM results: {why}");
                tracing::warn!("scan {}: {msg}", p.report.id);
                p.report.warnings.push(msg);
            }
            Ok(DicomOutcome::Written(w)) => {
                let rel = |f: &PathBuf| f.strip_prefix(out).unwrap_or(f).display().to_string();
                let supersedes = opts
                    .supersede
                    .iter()
                    .filter(|s| {
                        p.report.series_instance_uid.as_deref()
                            == Some(s.source_series_uid.as_str())
                    })
                    .map(|s| s.sop_instance_uid.clone())
                    .collect();
                p.report.dicom = Some(crate::report::DicomFiles {
                    sr: rel(&w.sr),
                    sc: w.sc.iter().map(rel).collect(),
                    supersedes,
                });
                self.written.extend(w.all());
            }
            // the prediction stands in the reports; the missing DICOM results fail the job
            Err(e) => {
                let msg = format!("scan {}: DICOM results not written: {e}", p.report.id);
                tracing::warn!("{msg}");
                p.report.warnings.push(msg.clone());
                self.failed.push(msg);
            }
        }
    }

    /// The files written, and the scans whose results could not be.
    fn finish(self) -> (Vec<PathBuf>, Vec<String>) {
        (self.written, self.failed)
    }
}

/// Runs a prediction job: every scan of the inputs is predicted (a scan that fails is named in
/// `skipped` and the rest go on); reports sorted by scan probability, highest first.
pub fn run(job: &PredictJob, progress: &dyn Progress) -> Result<Outcome> {
    let predictor = Predictor::open(&job.model, job.options.clone())?;
    run_with(&predictor, job, progress)
}

/// [`run`] with a bundle already opened (`job.model` must be the folder it was opened from, and
/// `job.options` are those it was opened with): what a node predicting study after study does.
pub fn run_with(
    predictor: &Predictor,
    job: &PredictJob,
    progress: &dyn Progress,
) -> Result<Outcome> {
    // the folder's lock and run mark before anything is written into it
    refuse_out_over_inputs(&job.out, &job.inputs)?;
    let previous = crate::runmark::RunMark::read(&job.out).ok().flatten();
    if !job.force {
        crate::runmark::refuse_foreign_files(&job.out, previous.as_ref(), writes_over)?;
    }
    let run_mark = crate::runmark::Run::start(&job.out, "predict")?;
    let mut produced: Vec<PathBuf> = Vec::new();
    let mut time = Timing {
        load: predictor.load_time,
        ..Timing::default()
    };
    let Gathered {
        inputs,
        pull_failed,
        datasets,
        shard,
        scans,
        skipped,
        others,
        own,
        labels,
        outside,
        unusual,
    } = gather(predictor, job, &mut time, progress)?;
    let mut work: Vec<Source> = Vec::new();
    for ds in &datasets {
        work.extend((0..ds.manifest.scans.len()).map(|i| Source::Dataset(ds, i)));
    }
    let in_datasets = work.len();
    if !shard.is_all() {
        work.retain(|src| match src {
            Source::Dataset(ds, i) => shard.contains(&ds.manifest.scans[*i].id),
            Source::Dicom(scan) => shard.contains(&scan.id),
        });
    }
    let (kept, from_dicom) = (work.len(), scans.len());
    work.extend(scans.into_iter().map(Source::Dicom));
    if !shard.is_all() {
        tracing::info!(
            "shard {shard}: {} scan(s): {kept} of the datasets' {in_datasets}, {from_dicom} from \
             DICOM ({others} file(s) of other shards' scans not kept)",
            work.len()
        );
    }
    // a shard may hold none of a small cohort's scans: its reports are empty, not an error
    // (the files of other shards' scans, or a dataset that `preprocess --shard` wrote empty)
    let shard_datasets = datasets.iter().any(|d| d.manifest.shard.is_some());
    if in_datasets == 0 && from_dicom == 0 && others == 0 && !shard_datasets {
        let named = inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let why = match predictor.bundle().manifest.cnn.envelope.as_ref() {
            Some(e) if !outside.is_empty() => format!(
                "every series lies outside what the model was made for ({}): {}",
                e.made_for,
                outside.join("; ")
            ),
            _ => what_was_found(&skipped.counts),
        };
        return Err(Error::NoScan(format!("{named}: {why}")));
    }
    let pages = job.out.join(SCAN_PAGES);
    let dir = if job.html { &pages } else { &job.out };
    milbase::atomic::create_dir_under(&job.out, dir).map_err(|e| Error::io(dir, e))?;
    // each scan's slice rows wait on disk until the reports are written: memory holds the scans'
    // summaries, not every slice
    let mut store = SliceStore::create(&job.out, run_mark.lock())?;
    let mut extents = Vec::new();

    let mut report = report_head(predictor, job, run_mark.id(), shard);
    // files that belong to no scan are reported by one shard, the first
    let mut skipped = if shard.index == 0 {
        skipped
    } else {
        Skipped::default()
    };
    // ...and those of a scan of this shard (a NIfTI name clash), by this shard
    skipped.absorb(own);
    let skipped = Mutex::new(skipped);
    let mut failed: Vec<String> = pull_failed.into_iter().collect();
    report.skipped.extend(failed.iter().cloned());
    report.skipped.extend(outside.iter().cloned());
    if job.pacs.dicom.is_some() && !datasets.is_empty() {
        tracing::info!(
            "DICOM results are written for scans predicted from DICOM files only, not from datasets"
        );
    }
    let mut dicom = DicomResults::new(predictor, job, run_mark.lock(), progress)?;
    progress.stage("predicting scans", work.len() as u64);
    for src in &work {
        let one = match src {
            Source::Dataset(ds, i) => predictor.predict_dataset_scan(ds, *i, &labels, &mut time),
            Source::Dicom(scan) => predictor.predict_dicom(scan, &labels, &skipped, &mut time),
        };
        // a scan that cannot be read or predicted is reported and skipped; the rest go on
        let done = one.and_then(|mut p| {
            // what is unusual about a series the model was not made for, and its call unsure
            if let Some(flags) = unusual.get(&p.report.id) {
                for f in flags {
                    let w = format!("outside what the model was made for: {f}");
                    tracing::warn!("scan {}: {w}", p.report.id);
                    p.report.warnings.push(w);
                }
                p.report.uncertain = true;
            }
            let t = Instant::now();
            // the page is made now, so that no scan's thumbnails stay in memory; it is written
            // below, where a failure to write is the run's (the disk), not the scan's
            let mut page = None;
            if job.html {
                let rel = format!("{SCAN_PAGES}/{}.html", p.report.id);
                p.report.page = Some(rel.clone());
                page = Some((job.out.join(&rel), predictor.scan_page(&report, &p)?));
            }
            if let (Some(d), Source::Dicom(scan)) = (dicom.as_mut(), src) {
                d.scan(scan, &mut p, &report.thresholds);
            }
            time.reports += t.elapsed();
            Ok((p.report, page))
        });
        match done {
            Ok((mut sr, page)) => {
                if let Some((path, html)) = page {
                    // an output that cannot be written (a full disk) fails the run as an I/O
                    // error, which passes: never "a scan skipped" for what its content did not do
                    write_atomic(&path, html.as_bytes())?;
                    produced.push(path);
                }
                extents.push(store.put(&std::mem::take(&mut sr.slices))?);
                report.scans.push(sr);
            }
            Err(e) => {
                tracing::warn!("skipped: {e}");
                report.skipped.push(e.to_string());
                failed.push(e.to_string());
            }
        }
        progress.inc(1);
    }
    progress.done();
    let sk = skipped.into_inner().unwrap_or_else(|p| p.into_inner());
    report.skipped.extend(sk.files);

    let t = Instant::now();
    let mut scans: Vec<(ScanReport, Extent)> = report.scans.drain(..).zip(extents).collect();
    scans.sort_by(|x, y| scan_order(&x.0, &y.0));
    let extents: Vec<Extent>;
    (report.scans, extents) = scans.into_iter().unzip();
    report.skipped.sort();
    report.warnings = crate::report::site_check(&report.model, &report.scans);
    for w in &report.warnings {
        tracing::warn!("{w}");
    }
    let slices_of = store.loader(&extents);
    report.metrics = metrics_with(&report.scans, &slices_of)?;
    produced.extend(write_reports_with(&report, &slices_of, &job.out, job.html)?);
    drop(slices_of);
    drop(store);
    time.reports += t.elapsed();
    // sending last: every report is on disk whatever the network does
    let (written, dicom_failed) = dicom.map(DicomResults::finish).unwrap_or_default();
    let sent = send_all(&written, &job.pacs.send, &job.pacs.send_options, progress);
    produced.extend(written.iter().cloned());
    run_mark.finish(&produced)?;
    crate::runmark::remove_stale(&job.out, previous.as_ref(), &produced);
    Ok(Outcome {
        index: job.out.join(INDEX_HTML),
        report,
        timing: time,
        failed,
        dicom_failed,
        dicom_files: written,
        sent,
    })
}

/// A DICOM UID as a report shows it: digits and dots (not a NIfTI scan's stand-in, not empty).
fn is_uid(u: &str) -> bool {
    !u.is_empty() && u.len() <= 64 && u.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// One slice's report from its (probability, sd, lo, hi) and attention.
fn slice_report(
    index: usize,
    s: &preprocess::dataset::SliceMeta,
    (p, sd, lo, hi): (f64, f64, f64, f64),
    attention: f32,
    thr: &Thresholds,
) -> SliceReport {
    SliceReport {
        index,
        sop_instance_uid: s.sop_instance_uid.clone(),
        z: s.z,
        probability: p,
        sd,
        lo,
        hi,
        positive: thr.positive(p),
        uncertain: thr.uncertain(sd, lo, hi),
        attention: attention as f64,
        label: s.label,
        subtypes: Vec::new(),
    }
}

/// A scan's Monte Carlo seed depends on its id, not on the order the inputs came in (nor on the
/// shard it falls in).
fn fnv1a(s: &str) -> u64 {
    milbase::shard::fnv1a(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_of_published_vectors() {
        // FNV-1a 64-bit test vectors (Fowler, Noll, Vo)
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn options_out_of_range_are_refused() {
        assert!(PredictOptions::default().validate().is_ok());
        for o in [
            PredictOptions {
                positive_threshold: 1.5,
                ..Default::default()
            },
            PredictOptions {
                positive_threshold: f64::NAN,
                ..Default::default()
            },
            PredictOptions {
                uncertain_sd: -0.1,
                ..Default::default()
            },
            PredictOptions {
                samples: 0,
                ..Default::default()
            },
            PredictOptions {
                viewer_url: Some("javascript:alert(1)//{study}".into()),
                ..Default::default()
            },
        ] {
            assert!(o.validate().is_err(), "{o:?}");
        }
    }
}
