//! Prediction in-process, through the library alone: a small synthetic cohort is synthesized,
//! preprocessed, trained on, extracted and fitted into a bundle with the library's own calls;
//! then a [`Predictor`] predicts scans from DICOM and from the dataset.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use attcnn::{AttCnnConfig, TrainConfig};
use detect::pipeline::extract::{extract, ExtractJob};
use detect::pipeline::fit::{fit_gp, FitJob};
use detect::pipeline::predict::{run, PredictJob, PredictOptions, Predictor, Timing};
use detect::pipeline::train::{train_cnn, TrainJob};
use detect::Compute;
use milbase::Quiet;
use preprocess::dataset::{Dataset, Skipped};
use preprocess::labels::Labels;
use preprocess::pipeline::find_scans;
use preprocess::synth::{synth, Subtype, SynthOptions};
use preprocess::{PreprocessConfig, PreprocessOptions};

struct Cohort {
    _tmp: tempfile::TempDir,
    dicom: PathBuf,
    dataset: PathBuf,
    bundle: PathBuf,
    labels: Labels,
}

/// What a run reports to its progress bar: the stages begun, the steps, the stages ended.
#[derive(Default)]
struct Count {
    stages: Mutex<Vec<(String, u64)>>,
    steps: std::sync::atomic::AtomicU64,
    done: std::sync::atomic::AtomicU64,
}

impl milbase::Progress for Count {
    fn stage(&self, name: &str, len: u64) {
        self.stages.lock().unwrap().push((name.to_string(), len));
    }
    fn inc(&self, n: u64) {
        self.steps.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
    }
    fn done(&self) {
        self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// 12 scans of 4 slices: DICOM, a dataset at 32², a bundle with a CNN (2 epochs) and a G-VGPMIL
/// head.
fn cohort() -> Cohort {
    let tmp = tempfile::tempdir().unwrap();
    let w = tmp.path().to_path_buf();
    let (dicom, dataset, bundle, features) = (
        w.join("dicom"),
        w.join("ds"),
        w.join("model"),
        w.join("features.csv"),
    );
    synth(
        &dicom,
        &SynthOptions {
            scans: 12,
            slices: 4,
            size: 64,
            seed: 5,
            subtypes: vec![Subtype::Intraparenchymal, Subtype::Intraventricular],
            subtle_fraction: 0.0,
            ..SynthOptions::default()
        },
        &Quiet,
    )
    .unwrap();
    let mut labels = Labels::default();
    labels.load(&dicom.join("labels.csv")).unwrap();
    labels.load(&dicom.join("slice_labels.csv")).unwrap();
    preprocess::preprocess(
        std::slice::from_ref(&dicom),
        &dataset,
        &PreprocessOptions {
            config: PreprocessConfig {
                size: 32,
                ..PreprocessConfig::default()
            },
            labels: labels.clone(),
            ..PreprocessOptions::default()
        },
        &Quiet,
    )
    .unwrap();
    train_cnn(
        &TrainJob {
            dataset: dataset.clone(),
            out: bundle.clone(),
            model: AttCnnConfig {
                dim: 8,
                ..AttCnnConfig::default()
            },
            train: TrainConfig {
                epochs: 2,
                lr: 2e-4,
                patience: 2,
                ..TrainConfig::default()
            },
            valid_fraction: 0.2,
            resume: false,
            compute: Compute::cpu(),
            subtypes: false,
        },
        &|_| {},
        &|_| {},
    )
    .unwrap();
    extract(
        &ExtractJob {
            model: bundle.clone(),
            dataset: dataset.clone(),
            out: features.clone(),
            compute: Compute::cpu(),
            shard: milbase::Shard::ALL,
        },
        &Quiet,
    )
    .unwrap();
    let fits = Count::default();
    fit_gp(
        &FitJob {
            features,
            params: gphead::FitParams {
                model: gphead::Model::G_VGPMIL,
                inducing: 8,
                ..gphead::FitParams::default()
            },
            valid_fraction: 0.2,
            calibrate: true,
            calibration_folds: 5,
            calibration_map: gphead::calibrate::MapFamily::Platt,
            samples: 200,
            out: None,
            bundle: Some(bundle.clone()),
            project: None,
            subtypes: false,
        },
        &|_| {},
        &fits,
    )
    .unwrap();
    // the bar counts the head's fit and the 5 cross-fitting refits, and ends
    assert_eq!(
        *fits.stages.lock().unwrap(),
        vec![("GP fits".to_string(), 6)]
    );
    assert_eq!(fits.steps.load(std::sync::atomic::Ordering::SeqCst), 6);
    assert_eq!(fits.done.load(std::sync::atomic::Ordering::SeqCst), 1);
    Cohort {
        _tmp: tmp,
        dicom,
        dataset,
        bundle,
        labels,
    }
}

fn opts() -> PredictOptions {
    PredictOptions {
        samples: 300,
        ..PredictOptions::default()
    }
}

#[test]
fn predictor_gives_typed_reports_the_same_from_dicom_and_from_the_dataset() {
    let c = cohort();
    let p = Predictor::open(&c.bundle, opts()).unwrap();
    assert_eq!(p.model_info().feature_dim, 8);
    assert_eq!(p.model_info().image_size, 32);
    let ds = Dataset::open(&c.dataset).unwrap();
    let (scans, _) = find_scans(std::slice::from_ref(&c.dicom), &Quiet).unwrap();
    assert_eq!(scans.len(), 12);
    let skipped = Mutex::new(Skipped::default());
    let mut time = Timing::default();
    for scan in &scans {
        let a = p
            .predict_dicom(scan, &c.labels, &skipped, &mut time)
            .unwrap();
        let i = ds
            .manifest
            .scans
            .iter()
            .position(|e| e.id == scan.id)
            .unwrap();
        let b = p
            .predict_dataset_scan(&ds, i, &c.labels, &mut time)
            .unwrap();
        let (ra, rb) = (&a.report, &b.report);
        assert_eq!(ra.id, rb.id);
        assert_eq!(ra.n_slices, 4);
        assert_eq!(a.pixels.len(), 4 * 3 * 32 * 32);
        // the same pixels give the same numbers: the Monte Carlo seed follows the scan id
        assert_eq!(a.pixels, b.pixels);
        assert_eq!(ra.probability, rb.probability);
        assert_eq!(ra.sd, rb.sd);
        assert!((0.0..=1.0).contains(&ra.probability) && ra.sd >= 0.0);
        assert_eq!(ra.positive, ra.probability >= 0.5);
        // uncertain: the 90 % interval reaches across the threshold, or the sd is large
        assert!(ra.lo <= ra.hi && (0.0..=1.0).contains(&ra.lo) && ra.hi <= 1.0);
        assert_eq!(
            ra.uncertain,
            (ra.lo < 0.5 && 0.5 <= ra.hi) || ra.sd >= 0.1,
            "{} ± {} [{}, {}]",
            ra.probability,
            ra.sd,
            ra.lo,
            ra.hi
        );
        assert_eq!(
            ra.positive_slices,
            ra.slices.iter().filter(|s| s.probability >= 0.5).count()
        );
        let att: f64 = ra.slices.iter().map(|s| s.attention).sum();
        assert!((att - 1.0).abs() < 1e-5, "attention sums to {att}");
        // labels came along, and no patient data without keep_phi
        assert!(ra.label.is_some());
        assert!(ra.slices.iter().all(|s| s.label.is_some()));
        assert!(ra.patient_name.is_none() && ra.patient_id.is_none());
        // slices in z order
        let z: Vec<f64> = ra.slices.iter().map(|s| s.z.unwrap()).collect();
        assert!(z.windows(2).all(|w| w[0] <= w[1]), "{z:?}");
    }
    assert!(skipped.into_inner().unwrap().files.is_empty());

    // nonsense gets no confident answer: an all-zero scan is uncertain, every slice of it too,
    // whatever the network says of it
    let e = &ds.manifest.scans[0];
    let meta = ds.scan_meta(e).unwrap();
    let zeros = vec![0u8; 4 * 3 * 32 * 32];
    let r = p
        .predict_meta(meta.clone(), zeros, &c.labels, &mut time)
        .unwrap()
        .report;
    assert!(r.uncertain && r.slices.iter().all(|s| s.uncertain), "{r:?}");
    assert!(r
        .warnings
        .iter()
        .any(|w| w.starts_with("4 of 4 slices show nothing")));
    // the same pixels from 2×2 source slices: every slice uncertain, the reason given
    let pixels = ds.scan_pixels(e).unwrap().data;
    let tiny = preprocess::dataset::ScanMeta {
        original_rows: 2,
        original_cols: 2,
        ..meta.clone()
    };
    let r = p
        .predict_meta(tiny, pixels.clone(), &c.labels, &mut time)
        .unwrap()
        .report;
    assert!(r.uncertain && r.slices.iter().all(|s| s.uncertain));
    assert!(
        r.warnings.iter().any(|w| w.contains("2×2 pixels")),
        "{:?}",
        r.warnings
    );
    // and from the cohort's 64² sources they are what they were
    let r = p
        .predict_meta(meta, pixels, &c.labels, &mut time)
        .unwrap()
        .report;
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_job_writes_every_report_and_refuses_a_hostile_scan_id() {
    let c = cohort();
    let out = c._tmp.path().join("report");
    let job = PredictJob {
        model: c.bundle.clone(),
        inputs: vec![c.dataset.clone()],
        out: out.clone(),
        labels: vec![],
        html: true,
        options: opts(),
        pacs: Default::default(),
        shard: milbase::Shard::ALL,
        force: false,
    };
    let o = run(&job, &Quiet).unwrap();
    assert_eq!(o.report.scans.len(), 12);
    let probs: Vec<f64> = o.report.scans.iter().map(|s| s.probability).collect();
    assert!(
        probs.windows(2).all(|w| w[0] >= w[1]),
        "sorted, highest first"
    );
    for f in ["slices.csv", "scans.csv", "report.json", "index.html"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    for s in &o.report.scans {
        assert!(out.join(s.page.as_ref().unwrap()).is_file());
    }
    let m = o.report.metrics.as_ref().unwrap();
    assert_eq!((m.scans, m.slices), (12, 48));
    // the slices waited on disk while the run went on: report.json and slices.csv have every
    // one, the outcome keeps the scans' summaries only, and the store is gone
    let written: detect::report::Report =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert!(written
        .scans
        .iter()
        .all(|s| s.n_slices == 4 && s.slices.len() == 4));
    let rows = std::fs::read_to_string(out.join("slices.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1 + 48);
    assert!(o.report.scans.iter().all(|s| s.slices.is_empty()));
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("spill"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // same job again: same numbers
    let again = run(&job, &Quiet).unwrap();
    assert_eq!(
        again
            .report
            .scans
            .iter()
            .map(|s| s.probability)
            .collect::<Vec<_>>(),
        probs
    );

    // a dataset whose scan JSON names itself ../../x: that scan is skipped, nothing escapes
    let ds = c.dataset.clone();
    let manifest: PathBuf = ds.join("dataset.json");
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let meta_rel = v["scans"][0]["meta"].as_str().unwrap().to_string();
    let meta_path = ds.join(&meta_rel);
    let mut meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&meta_path).unwrap()).unwrap();
    meta["id"] = "../../escaped".into();
    std::fs::write(&meta_path, serde_json::to_vec(&meta).unwrap()).unwrap();
    v["scans"][0]["id"] = "../../escaped".into();
    std::fs::write(&manifest, serde_json::to_vec(&v).unwrap()).unwrap();
    let out2 = c._tmp.path().join("r2");
    let o = run(
        &PredictJob {
            out: out2.clone(),
            ..job
        },
        &Quiet,
    )
    .unwrap();
    assert_eq!(o.report.scans.len(), 11);
    assert!(
        o.report.skipped.iter().any(|s| s.contains("escaped")),
        "{:?}",
        o.report.skipped
    );
    assert!(!Path::new(&c._tmp.path().join("escaped.html")).exists());
    assert!(!out2.join("../../escaped.html").exists());
}

/// The bundle records the slices per scan its head was fitted on (the cohort: 4 each); scans of
/// that length are predicted without a warning, a scan of 6 slices with one naming its length and
/// the range (in report.json, and marked in the index page), and its numbers are still given.
#[test]
fn a_scan_longer_than_any_trained_on_is_predicted_with_a_warning() {
    let c = cohort();
    let b = detect::bundle::Bundle::open(&c.bundle).unwrap();
    let gp = b.manifest.gp.as_ref().unwrap();
    assert_eq!(gp.training.slices_per_scan, Some([4, 4]));
    let cnn = b.manifest.cnn.training.as_ref().unwrap();
    assert_eq!(cnn.slices_per_scan, Some([4, 4]));
    let longer = c._tmp.path().join("dicom6");
    synth(
        &longer,
        &SynthOptions {
            scans: 1,
            slices: 6,
            size: 64,
            seed: 77,
            subtypes: vec![Subtype::Intraparenchymal],
            subtle_fraction: 0.0,
            ..SynthOptions::default()
        },
        &Quiet,
    )
    .unwrap();
    let job = PredictJob {
        model: c.bundle.clone(),
        inputs: vec![c.dicom.clone(), longer],
        out: c._tmp.path().join("report6"),
        labels: vec![],
        html: true,
        options: opts(),
        pacs: Default::default(),
        shard: milbase::Shard::ALL,
        force: false,
    };
    let o = run(&job, &Quiet).unwrap();
    assert_eq!(o.report.scans.len(), 13);
    let outside: Vec<_> = o
        .report
        .scans
        .iter()
        .filter(|s| {
            s.warnings
                .iter()
                .any(|w| w.contains("outside the 4–4 slices"))
        })
        .collect();
    assert_eq!(outside.len(), 1);
    let s = outside[0];
    assert_eq!(s.n_slices, 6);
    assert!(
        s.warnings.iter().any(|w| w.starts_with("6 slices")),
        "{:?}",
        s.warnings
    );
    assert!((0.0..=1.0).contains(&s.probability));
    // the warning reaches the files a program reads
    let json = std::fs::read_to_string(c._tmp.path().join("report6/report.json")).unwrap();
    assert!(json.contains("outside the 4–4 slices per scan"));
    // and the index page a radiologist reads: one scan marked, the text on hover
    let index = std::fs::read_to_string(c._tmp.path().join("report6/index.html")).unwrap();
    assert_eq!(index.matches(">1 warning</span>").count(), 1, "{index}");
    assert!(index.contains("title=\"6 slices, outside the 4–4 slices per scan"));

    // the folder is marked as the run's: run.json complete, the same id as report.json, every
    // file it wrote listed with its hash
    let out = c._tmp.path().join("report6");
    let mark = detect::runmark::RunMark::read(&out).unwrap().unwrap();
    assert_eq!(mark.state, detect::runmark::RunState::Complete);
    assert_eq!(mark.run, o.report.run);
    for f in ["report.json", "slices.csv", "scans.csv", "index.html"] {
        assert!(mark.holds(&out, f), "{f}");
    }
    let with_dicom: Vec<_> = o
        .report
        .scans
        .iter()
        .filter(|s| s.dicom.is_some())
        .collect();
    assert_eq!(with_dicom.len(), 13);
    for s in &with_dicom {
        assert!(mark.holds(&out, &s.dicom.as_ref().unwrap().sr), "{}", s.id);
    }
    // a scan whose DICOM results fail to be written (a folder where a capture file is) keeps no
    // SR, its report says so, and the rerun's mark does not list its folder
    let victim = &with_dicom[0].id;
    let blocker = out.join("dicom").join(victim).join("sc-9999.dcm");
    std::fs::create_dir_all(blocker.join("x")).unwrap();
    let o2 = run(&job, &Quiet).unwrap();
    assert_eq!(o2.dicom_failed.len(), 1, "{:?}", o2.dicom_failed);
    assert!(o2.dicom_failed[0].contains(victim.as_str()));
    assert!(!out.join("dicom").join(victim).join("sr.dcm").exists());
    let again = o2.report.scans.iter().find(|s| &s.id == victim).unwrap();
    assert!(again.dicom.is_none());
    assert!(again
        .warnings
        .iter()
        .any(|w| w.contains("DICOM results not written")));
    let mark2 = detect::runmark::RunMark::read(&out).unwrap().unwrap();
    assert_ne!(mark2.run, mark.run);
    assert!(!mark2
        .files
        .iter()
        .any(|f| f.path.contains(&format!("dicom/{victim}/"))));
    assert_eq!(
        mark2
            .files
            .iter()
            .filter(|f| f.path.ends_with("sr.dcm"))
            .count(),
        12
    );
}

/// Writes a features file of D = 8: per bag its name, label and slices.
fn write_features(path: &Path, bags: &[(String, u8, Vec<[f64; 8]>)]) {
    let mut w = detect::features::FeaturesWriter::create(path, 8).unwrap();
    for (name, label, slices) in bags {
        for (k, x) in slices.iter().enumerate() {
            let f = x.map(|v| v as f32);
            w.write(&detect::features::FeatureRow {
                features: &f,
                instance_name: &format!("{name}-{k}"),
                instance_label: None,
                bag_name: name,
                bag_label: Some(*label),
                cnn_probability: 0.5,
                cnn_attention: 0.25,
                z: None,
                instance_subtypes: None,
                bag_subtypes: None,
            })
            .unwrap();
        }
    }
    w.finish().unwrap();
}

/// A hospital recalibrates a bundle on its own labelled scans. The cohort's bundle gets a VGPMIL
/// head fitted on 80 feature-level scans whose one bleeding slice stands out in feature 0; the
/// site's 300 scans have a most suspicious slice anywhere between, so the head's own
/// probabilities spread over (0, 1), and their labels follow a known distortion of those
/// probabilities (the truth: P(bleed | p) = σ(0.4 ln p − 2 ln(1 − p) − 1), a beta map). The new
/// map follows the truth, the cross-fitted figures show the gain, the bundle reopens with the map
/// and its provenance, the ranking is the head's, a rerun gives the same map, and too few scans
/// of a label are refused with the file's name.
#[test]
fn a_bundle_recalibrated_on_a_sites_scans_follows_what_the_site_sees() {
    use detect::site::recalibrate::{recalibrate, RecalibrateJob};
    use gphead::calibrate::{MapFamily, Platt};
    let c = cohort();
    // a seeded generator (64-bit LCG, top 53 bits) and standard normals by Box–Muller
    let mut state = 12_345u64;
    let mut uniform = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    let mut scan = |name: String, label: u8, top: Option<f64>| {
        let mut slices: Vec<[f64; 8]> = (0..4)
            .map(|_| {
                std::array::from_fn(|_| {
                    let (u, v) = (uniform(), uniform());
                    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
                })
            })
            .collect();
        if let Some(t) = top {
            slices[0][0] = t;
        }
        (name, label, slices)
    };
    let train: Vec<_> = (0..80)
        .map(|b| {
            let pos = b % 2 == 0;
            scan(format!("train-{b:02}"), u8::from(pos), pos.then_some(4.0))
        })
        .collect();
    let train_file = c._tmp.path().join("train8.csv");
    write_features(&train_file, &train);
    fit_gp(
        &FitJob {
            features: train_file,
            params: gphead::FitParams {
                model: gphead::Model::Vgpmil,
                inducing: 16,
                kernel_steps: None,
                ..gphead::FitParams::default()
            },
            valid_fraction: 0.25,
            calibrate: true,
            calibration_folds: 0,
            calibration_map: gphead::calibrate::MapFamily::Platt,
            samples: 200,
            out: None,
            bundle: Some(c.bundle.clone()),
            project: None,
            subtypes: false,
        },
        &|_| {},
        &Quiet,
    )
    .unwrap();
    let head = detect::bundle::Bundle::open(&c.bundle)
        .unwrap()
        .gp()
        .unwrap();
    let scans = 300;
    let mut site: Vec<_> = (0..scans)
        .map(|b| {
            scan(
                format!("site-{b:03}"),
                0,
                Some(-1.0 + 6.0 * b as f64 / scans as f64),
            )
        })
        .collect();
    let as_data = |bags: &[(String, u8, Vec<[f64; 8]>)]| {
        let mut x = Vec::new();
        let (mut names, mut labels, mut inst) = (Vec::new(), Vec::new(), Vec::new());
        for (name, label, slices) in bags {
            for (k, s) in slices.iter().enumerate() {
                x.extend_from_slice(s);
                names.push(name.clone());
                labels.push(*label);
                inst.push(format!("{name}-{k}"));
            }
        }
        gphead::MilData::from_instances(8, x, names, labels, None, inst).unwrap()
    };
    let raw: Vec<f64> = head
        .bag_rule_draws(&as_data(&site), 200, 0)
        .unwrap()
        .iter()
        .map(|d| d.iter().sum::<f64>() / d.len() as f64)
        .collect();
    let truth = Platt {
        a: 0.4,
        b: -1.0,
        c: Some(2.0),
    };
    for (bag, &p) in site.iter_mut().zip(&raw) {
        bag.1 = u8::from(uniform() < truth.apply(p));
    }
    let labels: Vec<u8> = site.iter().map(|b| b.1).collect();
    // the head's probabilities spread
    let mut sorted = raw.clone();
    sorted.sort_by(f64::total_cmp);
    assert!(
        sorted[270] - sorted[30] > 0.25,
        "{:?}",
        [sorted[30], sorted[270]]
    );
    let site_file = c._tmp.path().join("site.csv");
    write_features(&site_file, &site);
    let job = RecalibrateJob {
        bundle: c.bundle.clone(),
        features: site_file.clone(),
        family: MapFamily::Beta,
        folds: 5,
        samples: 200,
        seed: 0,
        dry_run: false,
    };
    // a dry run gives the same figures and writes nothing
    let manifest_before = std::fs::read(c.bundle.join("manifest.json")).unwrap();
    let dry = recalibrate(&RecalibrateJob {
        dry_run: true,
        ..job.clone()
    })
    .unwrap();
    assert_eq!(
        std::fs::read(c.bundle.join("manifest.json")).unwrap(),
        manifest_before
    );
    assert!(!c.bundle.join("gp.json.new").exists());
    let r = recalibrate(&job).unwrap();
    assert_eq!(
        (dry.site.map, dry.site.cross_fitted),
        (r.site.map, r.site.cross_fitted)
    );
    let s = &r.site;
    let positive = labels.iter().filter(|&&l| l == 1).count();
    assert_eq!((s.scans, s.positive, s.folds), (scans, positive, 5));
    assert_eq!(s.previous, head.calibration);
    assert_eq!(s.map.family(), MapFamily::Beta);
    // the map follows the truth where the site's scans are
    let gap = raw
        .iter()
        .map(|&p| (s.map.apply(p) - truth.apply(p)).abs())
        .sum::<f64>()
        / scans as f64;
    assert!(gap < 0.05, "mean |map − truth| = {gap}, {:?}", s.map);
    // the site's scans are better described by the cross-fitted new map than by the old one
    assert!(
        s.cross_fitted.log_likelihood > s.before.log_likelihood + 0.02,
        "{:?} vs {:?}",
        s.cross_fitted,
        s.before
    );
    assert!(s.cross_fitted.ece < s.before.ece, "{s:?}");
    // the bundle reopens (checksums verified) with the new map and its provenance
    let reopened = detect::bundle::Bundle::open(&c.bundle).unwrap();
    // (the JSON reader may round a parameter's last bit)
    let same = |m: Platt, n: Platt| {
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(1.0);
        close(m.a, n.a) && close(m.b, n.b) && close(m.c.unwrap(), n.c.unwrap())
    };
    let stored = reopened.manifest.gp.as_ref().unwrap();
    let stored = stored.site_calibration.as_ref().unwrap();
    assert!(same(stored.map, s.map), "{:?} vs {:?}", stored.map, s.map);
    assert_eq!(
        (
            stored.scans,
            stored.positive,
            &stored.source,
            stored.cross_fitted.ece
        ),
        (s.scans, s.positive, &s.source, s.cross_fitted.ece)
    );
    assert_eq!(
        stored.features_sha256,
        detect::bundle::sha256_file(&site_file).unwrap()
    );
    let head2 = reopened.gp().unwrap();
    assert!(same(head2.calibration.unwrap(), s.map));
    // its probabilities are the new map's and rank the scans as the head's own did
    let p2 = head2.predict(&as_data(&site), 200, 0).unwrap();
    let cal = p2.bag_probabilities(head2.bag_rule);
    for (q, &p) in cal.iter().zip(&raw) {
        assert!((q - s.map.apply(p)).abs() < 0.05, "{q} vs map({p})");
    }
    // (the same up to Jensen: a probability is the mean of mapped draws, not the map of a mean)
    let auc = |p: &[f64]| gphead::metrics::roc_auc(&labels, p).unwrap();
    assert!(
        (auc(&raw) - auc(&cal)).abs() < 0.002,
        "{} vs {}",
        auc(&raw),
        auc(&cal)
    );
    // the reports say so (report.json's model, the index page's header)
    let info = Predictor::open(&c.bundle, opts()).unwrap().model_info();
    let said = info.site_calibration.unwrap();
    assert!(
        said.starts_with(&format!(
            "recalibrated on 300 labelled scans ({positive} positive) of {}",
            site_file.display()
        )),
        "{said}"
    );
    // a rerun starts again from the head's own probabilities: the same map
    assert!(same(recalibrate(&job).unwrap().site.map, s.map));
    // too few positive scans: refused, the file named, the bundle untouched
    for (b, bag) in site.iter_mut().enumerate() {
        bag.1 = u8::from(b < 5);
    }
    let few = c._tmp.path().join("few.csv");
    write_features(&few, &site);
    let err = recalibrate(&RecalibrateJob {
        features: few.clone(),
        ..job
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("few.csv") && err.contains("at least 10"),
        "{err}"
    );
    let kept = detect::bundle::Bundle::open(&c.bundle).unwrap();
    assert!(same(
        kept.manifest.gp.unwrap().site_calibration.unwrap().map,
        s.map
    ));

    // an update interrupted after its manifest was written (the new head staged as gp.json.new,
    // the manifest naming its checksum): the next open finishes it
    let (gp_path, staged, mp) = (
        c.bundle.join("gp.json"),
        c.bundle.join("gp.json.new"),
        c.bundle.join("manifest.json"),
    );
    let mut other = head2.clone();
    other.calibration = None;
    other.save(&staged).unwrap();
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&mp).unwrap()).unwrap();
    manifest["files"]["gp.json"] = detect::bundle::sha256_file(&staged).unwrap().into();
    std::fs::write(&mp, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let b = detect::bundle::Bundle::open(&c.bundle).unwrap();
    assert_eq!(b.gp().unwrap().calibration, None);
    assert!(!staged.exists());
    // one interrupted before (a staged file the manifest does not name): the bundle as it was
    let before = std::fs::read(&gp_path).unwrap();
    head2.save(&staged).unwrap();
    // ...but while a live writer holds the bundle (its update under way, not interrupted) a
    // reader neither finishes nor drops it: refused, naming the writer
    {
        let writer = milbase::atomic::DirLock::take(&c.bundle, "fit-gp").unwrap();
        let err = detect::bundle::Bundle::open(&c.bundle)
            .err()
            .expect("opened during a live update")
            .to_string();
        assert!(err.contains("fit-gp"), "{err}");
        assert!(staged.exists());
        // the writer itself reads its bundle under its own lock
        drop(writer);
        let (_b, _lock) =
            detect::bundle::Bundle::open_for_update(&c.bundle, "recalibrate").unwrap();
        assert!(!staged.exists());
        head2.save(&staged).unwrap();
    }
    let b = detect::bundle::Bundle::open(&c.bundle).unwrap();
    assert_eq!(b.gp().unwrap().calibration, None);
    assert!(!staged.exists());
    assert_eq!(std::fs::read(&gp_path).unwrap(), before);
}
