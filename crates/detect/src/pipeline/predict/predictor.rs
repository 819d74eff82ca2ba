//! A bundle opened for prediction ([`Predictor::open`]): scans predicted one at a time, from DICOM
//! files ([`Predictor::predict_dicom`]) or from a dataset ([`Predictor::predict_dataset_scan`]),
//! each returning a typed [`ScanPrediction`].

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use attcnn::inference::{Pixels, Trained};
use gphead::calibrate::Platt;
use gphead::pca::Pca;
use gphead::{GpModel, MilData};
use milbase::shard::fnv1a;
use preprocess::dataset::{Dataset, ScanMeta, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::{apply_labels, decode_scan_float_streamed, decode_scan_viewed};
use preprocess::scan::Scan;

use crate::bundle::Bundle;
use crate::error::{Error, Result};
use crate::pipeline::predict::{PredictOptions, ScanPrediction, Timing, CNN_ONLY};
use crate::report::{ModelInfo, ScanReport, SliceReport, Thresholds};

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
            nifti: meta.volume,
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
