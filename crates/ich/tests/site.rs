//! `ich adapt` end to end on real scans of a site no model has seen: a few patients of
//! `../shared/data/ct-ich` written as CT DICOM series at 256² (a port of its `to_dicom.py`: HU
//! rebuilt from the brain and bone window JPEGs), the imported SA-DMIL baseline adapted on them
//! by the site command, the report's figures recomputed from its own per-scan predictions by an
//! independent computation here, and the adapted bundle predicting the site's scans.

mod common;

use common::{ct_ich_dicom, element_text as text, ok, pair_auc as auc, s};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn shared(rel: &str) -> Option<PathBuf> {
    testkit::shared_data_or_skip(rel)
}

/// A copy of the series in `dicom/scan` as `dicom/scan-fu`: new study, series and SOP Instance
/// UIDs, the same patient; its scan and slice label rows appended to the labels files.
fn follow_up(dicom: &Path, scan: &str) {
    use dicom_core::{DataElement, PrimitiveValue, VR};
    use dicom_dictionary_std::tags;
    let (from, to) = (dicom.join(scan), dicom.join(format!("{scan}-fu")));
    std::fs::create_dir_all(&to).unwrap();
    let slice_rows = std::fs::read_to_string(dicom.join("slice_labels.csv")).unwrap();
    let (mut scan_rows, mut new_slices) = (String::new(), String::new());
    let mut names: Vec<_> = std::fs::read_dir(&from)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    names.sort();
    for n in names {
        let mut o = dicom_object::open_file(from.join(&n)).unwrap();
        let (study, series, sop) = (
            text(&o, tags::STUDY_INSTANCE_UID),
            text(&o, tags::SERIES_INSTANCE_UID),
            text(&o, tags::SOP_INSTANCE_UID),
        );
        let (study2, series2, sop2) =
            (format!("{study}9"), format!("{series}9"), format!("{sop}9"));
        for (t, v) in [
            (tags::STUDY_INSTANCE_UID, &study2),
            (tags::SERIES_INSTANCE_UID, &series2),
            (tags::SOP_INSTANCE_UID, &sop2),
        ] {
            o.put(DataElement::new(
                t,
                VR::UI,
                PrimitiveValue::from(v.as_str()),
            ));
        }
        o.update_meta(|m| m.media_storage_sop_instance_uid = sop2.clone());
        o.write_to_file(to.join(&n)).unwrap();
        let row = slice_rows
            .lines()
            .find(|l| l.split(',').nth(1) == Some(sop.as_str()))
            .unwrap();
        let label = row.split(',').nth(2).unwrap();
        new_slices.push_str(&format!("{scan}-fu,{sop2},{label},\n"));
        if scan_rows.is_empty() {
            let scans = std::fs::read_to_string(dicom.join("labels.csv")).unwrap();
            let l = scans
                .lines()
                .find(|l| l.split(',').nth(2) == Some(series.as_str()))
                .unwrap()
                .split(',')
                .nth(3)
                .unwrap()
                .to_string();
            scan_rows = format!("{scan}-fu,{study2},{series2},{l},\n");
        }
    }
    let append = |f: &str, rows: &str| {
        let p = dicom.join(f);
        let mut all = std::fs::read_to_string(&p).unwrap();
        all.push_str(rows);
        std::fs::write(p, all).unwrap();
    };
    append("labels.csv", &scan_rows);
    append("slice_labels.csv", &new_slices);
}

/// The scan id ich gives the series in `dir`.
fn scan_id_of(dir: &Path) -> String {
    let f = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let o = dicom_object::open_file(f).unwrap();
    preprocess::scan::scan_id(
        &text(&o, dicom_dictionary_std::tags::STUDY_INSTANCE_UID),
        &text(&o, dicom_dictionary_std::tags::SERIES_INSTANCE_UID),
    )
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// Mean Bernoulli log-likelihood, probabilities clipped to [1e-12, 1 − 1e-12] as ich does.
fn loglik(y: &[u8], p: &[f64]) -> f64 {
    y.iter()
        .zip(p)
        .map(|(&y, &p)| {
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            if y == 1 {
                p.ln()
            } else {
                (1.0 - p).ln()
            }
        })
        .sum::<f64>()
        / y.len() as f64
}

/// Expected calibration error over 10 equal-width bins (p = 1 in the last).
fn ece(y: &[u8], p: &[f64]) -> f64 {
    let mut bins = vec![(0.0, 0.0, 0usize); 10];
    for (&y, &p) in y.iter().zip(p) {
        let b = ((p * 10.0) as usize).min(9);
        bins[b].0 += p;
        bins[b].1 += y as f64;
        bins[b].2 += 1;
    }
    bins.iter()
        .filter(|b| b.2 > 0)
        .map(|b| (b.0 - b.1).abs())
        .sum::<f64>()
        / y.len() as f64
}

fn close(a: f64, b: &serde_json::Value, what: &str) {
    let b = b.as_f64().unwrap_or_else(|| panic!("{what}: {b}"));
    assert!((a - b).abs() < 1e-9, "{what}: recomputed {a}, report {b}");
}

#[test]
fn a_site_adapts_the_imported_network_and_the_report_holds_up() {
    let (Some(src), Some(w)) = (shared("ct-ich"), shared("pretrained/sa-dmil")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (dicom, sa, site) = (
        tmp.path().join("dicom"),
        tmp.path().join("sa-dmil"),
        tmp.path().join("site"),
    );
    // six patients with hemorrhage, six without (the first of each in patient order)
    let patients = [53, 66, 67, 68, 70, 71, 54, 56, 57, 59, 60, 63];
    let labels = ct_ich_dicom(&src, &dicom, &patients, 256);
    assert_eq!(labels.values().filter(|&&l| l == 1).count(), 6);
    // a follow-up scan of one patient with a bleed and of one without: a series of its own in a
    // study of its own, the same PatientID (the folds must keep each patient whole)
    follow_up(&dicom, "ctich_053");
    follow_up(&dicom, "ctich_054");
    ok(&["-q", "import", s(&w.join("baseline.ckpt")), "--out", s(&sa)]);
    let (l1, l2) = (dicom.join("labels.csv"), dicom.join("slice_labels.csv"));
    let out = ok(&[
        "-q",
        "adapt",
        "--model",
        s(&sa),
        s(&dicom),
        "--labels",
        s(&l1),
        "--labels",
        s(&l2),
        "--out",
        s(&site),
        "--folds",
        "3",
        "--inner-folds",
        "3",
        "--inducing",
        "20",
        "--samples",
        "100",
        "--curve",
        "6",
        "--evidence",
        "logit,logit-scan",
        "--sensitivity",
        "0.9",
    ]);
    assert!(
        out.contains("14 site scans (7 positive)"),
        "{out}\n{}",
        std::fs::read_to_string(&l1).unwrap()
    );

    // the adapted bundle: the head (a GP head on its evidence, or the network as it came with
    // the site's maps), the site's summary and the report, checksummed
    let m = json(&site.join("manifest.json"));
    let r = json(&site.join("adapt.json"));
    let network_shipped = r["chosen"] == detect::site::adapt::NETWORK;
    let gp = &m["gp"];
    let mut files = vec!["ood.json", "adapt.json", "adapt.html"];
    if network_shipped {
        assert!(gp.is_null(), "{gp}");
        assert_eq!(m["cnn"]["site"]["ood"], "ood.json");
    } else {
        assert!(
            ["logit", "logit-scan"].contains(&gp["evidence"].as_str().unwrap_or("features")),
            "{gp}"
        );
        assert_eq!(gp["ood"], "ood.json");
        assert!(m["cnn"]["site"].is_null());
        files.push("gp.json");
    }
    for f in files {
        let want = detect::bundle::sha256_file(&site.join(f)).unwrap();
        assert_eq!(m["files"][f], want.as_str(), "{f}");
    }
    // the source bundle is left as it was: no head
    let src_m = json(&sa.join("manifest.json"));
    assert!(src_m["gp"].is_null());
    // fine-tuning was cross-validated beside the network as it came; the bundle carries the
    // fine-tuned weights exactly when the report says it was kept
    let kept = r["fine_tune"]["kept"].as_bool().unwrap();
    let same_weights = m["files"]["model.bpk"] == src_m["files"]["model.bpk"];
    // (the network as it came, when shipped, keeps its own weights)
    assert_eq!(kept && !network_shipped, !same_weights, "kept {kept}");
    assert_eq!(kept && !network_shipped, !m["cnn"]["fine_tuned"].is_null());
    let (t, p) = (&r["fine_tune"]["head"], &r["fine_tune"]["plain_head"]);
    let better = t["scan"]["log_likelihood"].as_f64().unwrap()
        > p["scan"]["log_likelihood"].as_f64().unwrap();
    assert_eq!(kept, better);
    assert_eq!(&r["head"], if kept { t } else { p });

    // every scan predicted once, by the fold that held it out; the folds split the patients
    let preds = r["predictions"].as_array().unwrap();
    assert_eq!(preds.len(), 14);
    let ids: BTreeSet<&str> = preds.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 14);
    assert_eq!(
        (r["patients"].as_u64(), r["positive_patients"].as_u64()),
        (Some(12), Some(6))
    );
    // a patient's two scans are tested in the same fold
    for (scan, again) in [("ctich_053", "ctich_053-fu"), ("ctich_054", "ctich_054-fu")] {
        let fold_of = |d: &str| {
            let id = scan_id_of(&dicom.join(d));
            let p = preds.iter().find(|p| p["id"] == id.as_str()).unwrap();
            p["fold"].as_u64().unwrap()
        };
        assert_eq!(fold_of(scan), fold_of(again), "{scan}: in two folds");
    }
    let html = std::fs::read_to_string(site.join("adapt.html")).unwrap();
    assert!(
        html.contains("of 12 patients"),
        "the report counts patients"
    );
    let folds: BTreeSet<u64> = preds.iter().map(|p| p["fold"].as_u64().unwrap()).collect();
    assert_eq!(folds, BTreeSet::from([0, 1, 2]));
    assert_eq!(r["chosen_per_fold"].as_array().unwrap().len(), 3);

    // the figures, recomputed here from the predictions
    let y: Vec<u8> = preds
        .iter()
        .map(|p| p["label"].as_u64().unwrap() as u8)
        .collect();
    let scan_p: Vec<f64> = preds.iter().map(|p| p["p"][0].as_f64().unwrap()).collect();
    let cnn_p: Vec<f64> = preds.iter().map(|p| p["cnn"].as_f64().unwrap()).collect();
    let (mut sy, mut sp, mut cp) = (Vec::new(), Vec::new(), Vec::new());
    for p in preds {
        let n = p["slices"].as_array().unwrap().len();
        assert_eq!(p["slice_labels"].as_array().unwrap().len(), n);
        assert_eq!(p["cnn_slices"].as_array().unwrap().len(), n);
        for k in 0..n {
            sy.push(p["slice_labels"][k].as_u64().unwrap() as u8);
            let q = &p["slices"][k];
            let (m, lo, hi) = (
                q[0].as_f64().unwrap(),
                q[2].as_f64().unwrap(),
                q[3].as_f64().unwrap(),
            );
            // the interval is of the same draws as the probability
            assert!(lo <= m + 1e-12 && m <= hi + 1e-12, "{q}");
            sp.push(m);
            cp.push(p["cnn_slices"][k].as_f64().unwrap());
        }
    }
    let labelled = sy.len();
    assert_eq!(r["labelled_slices"].as_u64().unwrap() as usize, labelled);

    // "unsure" earns its place or not: the figures of a head with a spread (each fold's own,
    // or its best GP head where the network was chosen), recomputed here from its predictions
    let u = &r["unsure"];
    assert_eq!(u["heads"].as_array().unwrap().len(), 3);
    let up = u["predictions"].as_array().unwrap();
    assert_eq!(up.len(), 14);
    let cases: Vec<(u8, [f64; 4])> = up
        .iter()
        .map(|p| {
            let q = |k: usize| p["p"][k].as_f64().unwrap();
            (p["label"].as_u64().unwrap() as u8, [q(0), q(1), q(2), q(3)])
        })
        .collect();
    let unsure = |c: &[f64; 4]| (c[2] < 0.5 && 0.5 <= c[3]) || c[1] >= 0.1;
    let wrong = |c: &(u8, [f64; 4])| (c.1[0] >= 0.5) != (c.0 == 1);
    let (un, su): (Vec<_>, Vec<_>) = cases.iter().partition(|c| unsure(&c.1));
    let e = &u["scans"];
    assert_eq!(e["cases"], 14);
    assert_eq!(
        (e["unsure"].as_u64(), e["sure"].as_u64()),
        (Some(un.len() as u64), Some(su.len() as u64))
    );
    if !su.is_empty() {
        let rate = su.iter().filter(|c| wrong(c)).count() as f64 / su.len() as f64;
        close(rate, &e["sure_error"], "sure scans' error");
    }
    if !un.is_empty() {
        let rate = un.iter().filter(|c| wrong(c)).count() as f64 / un.len() as f64;
        close(rate, &e["unsure_error"], "unsure scans' error");
    }
    let (ly, lp): (Vec<u8>, Vec<f64>) = cases.iter().map(|c| (c.0, c.1[0])).unzip();
    close(auc(&ly, &lp), &e["auc"], "spread head's scan AUC");
    // the curve starts with nothing set aside: every case, the same AUC
    assert_eq!(e["curve"][0]["kept"], 14);
    assert_eq!(e["curve"][0]["model"]["auc"], e["auc"]);
    assert!(html.contains("Does \"unsure\" earn its place?"));
    let h = &r["head"];
    close(auc(&y, &scan_p), &h["scan"]["auc"], "scan AUC");
    close(
        loglik(&y, &scan_p),
        &h["scan"]["log_likelihood"],
        "scan log-lik",
    );
    close(ece(&y, &scan_p), &h["scan"]["ece"], "scan ECE");
    close(auc(&sy, &sp), &h["slice"]["auc"], "slice AUC");
    close(
        loglik(&sy, &sp),
        &h["slice"]["log_likelihood"],
        "slice log-lik",
    );
    close(ece(&sy, &sp), &h["slice"]["ece"], "slice ECE");
    close(
        auc(&y, &cnn_p),
        &r["cnn"]["scan"]["auc"],
        "network scan AUC",
    );
    close(
        auc(&sy, &cp),
        &r["cnn"]["slice"]["auc"],
        "network slice AUC",
    );
    // the imported network on its own calls these real scans positive (docs/BENCHMARKS.md)
    assert!(
        cnn_p.iter().filter(|&&p| p >= 0.5).count() >= 10,
        "{cnn_p:?}"
    );
    // the adapted head's scan probabilities are calibrated on the site's labels: not all positive
    assert!(scan_p.iter().any(|&p| p < 0.5), "{scan_p:?}");

    // never worse than the network: the network as it came is a candidate, a candidate whose
    // cross-fitted scan or slice AUC falls below the network's by more than one standard error
    // is not eligible, and the choice is the best log-likelihood among the eligible, per fold
    // and for the bundle
    let rounds = r["fold_choices"]
        .as_array()
        .unwrap()
        .iter()
        .zip(r["chosen_per_fold"].as_array().unwrap())
        .map(|(c, n)| (c.clone(), n.clone()))
        .chain([(r["final_choices"].clone(), r["chosen"].clone())]);
    for (choices, chosen) in rounds {
        let choices = choices.as_array().unwrap();
        assert!(choices
            .iter()
            .any(|c| c["candidate"] == detect::site::adapt::NETWORK));
        let worse = |d: &serde_json::Value| {
            d.as_array()
                .is_some_and(|v| v[0].as_f64().unwrap() < -v[1].as_f64().unwrap())
        };
        for c in choices {
            let eligible = !worse(&c["scan_auc_difference"]) && !worse(&c["slice_auc_difference"]);
            assert_eq!(c["eligible"].as_bool(), Some(eligible), "{c}");
        }
        let best = choices
            .iter()
            .filter(|c| c["eligible"] == true)
            .max_by(|a, b| {
                let ll = |c: &serde_json::Value| c["log_likelihood"].as_f64().unwrap();
                ll(a).total_cmp(&ll(b))
            })
            .unwrap();
        assert_eq!(best["candidate"], chosen);
    }
    // the report's comparison with the network, recomputed from the predictions
    let cmp = r["comparison"].as_array().unwrap();
    assert_eq!(cmp.len(), 4);
    close(auc(&y, &scan_p), &cmp[0]["shipped"], "shipped scan AUC");
    close(auc(&y, &cnn_p), &cmp[0]["network"], "network scan AUC");
    close(auc(&sy, &sp), &cmp[1]["shipped"], "shipped slice AUC");
    close(auc(&sy, &cp), &cmp[1]["network"], "network slice AUC");
    // within folds: only a positive and a negative scan of the same fold make a pair
    let fold: Vec<u64> = preds.iter().map(|p| p["fold"].as_u64().unwrap()).collect();
    let within = |v: &[f64]| {
        let (mut won, mut n) = (0.0, 0.0);
        for i in 0..v.len() {
            for j in 0..v.len() {
                if fold[i] == fold[j] && y[i] == 1 && y[j] == 0 {
                    n += 1.0;
                    won += if v[i] > v[j] {
                        1.0
                    } else if v[i] == v[j] {
                        0.5
                    } else {
                        0.0
                    };
                }
            }
        }
        won / n
    };
    assert_eq!(cmp[2]["what"], "scan AUC within folds");
    close(
        within(&scan_p),
        &cmp[2]["shipped"],
        "shipped scan AUC within folds",
    );
    close(
        within(&cnn_p),
        &cmp[2]["network"],
        "network scan AUC within folds",
    );
    for d in cmp {
        let (lo, hi) = (
            d["interval"][0].as_f64().unwrap(),
            d["interval"][1].as_f64().unwrap(),
        );
        // (0 within folds where the network was chosen in every fold: its maps keep its order)
        assert!(lo <= hi && d["se"].as_f64().unwrap() >= 0.0, "{d}");
    }

    // the network's slice map of each fold, fitted on the other folds' scan labels by the
    // multiple-instance likelihood, recomputed here by another optimiser (alternating golden
    // section searches on the same penalised noisy-OR likelihood) from the report's own
    // network outputs (the noisy-OR over stretches of the slices' correlation length, also
    // recomputed here), and applied to the fold's slices
    let mut worst = 0.0f64;
    for f in 0..3u64 {
        let train: Vec<(u8, Vec<f64>)> = preds
            .iter()
            .filter(|p| p["fold"].as_u64() != Some(f))
            .map(|p| (p["label"].as_u64().unwrap() as u8, floats(&p["cnn_slices"])))
            .collect();
        let (a, b) = mil_slice_map(&train, correlation_length(&train), 1.0);
        for p in preds.iter().filter(|p| p["fold"].as_u64() == Some(f)) {
            for (raw, got) in floats(&p["cnn_slices"])
                .into_iter()
                .zip(floats(&p["cnn_platt_slices"]))
            {
                let want = sigmoid(a * logit(raw) + b);
                worst = worst.max((want - got).abs());
            }
        }
    }
    assert!(worst < 2e-3, "slice map differs by {worst}");
    // the map brings the network's slices toward their labels' rate (it says 0.5 and more of
    // most slices; a few in ten bleed)
    let cps: Vec<f64> = preds
        .iter()
        .flat_map(|p| floats(&p["cnn_platt_slices"]))
        .collect();
    assert!(
        ece(&sy, &cps) < ece(&sy, &cp),
        "{} vs {}",
        ece(&sy, &cps),
        ece(&sy, &cp)
    );
    // the out-of-distribution flags on held-out scans are counted by label, every scan once
    let o = &r["ood_flags"];
    assert_eq!(
        o["positive"].as_u64().unwrap() + o["negative"].as_u64().unwrap(),
        14
    );

    // the adapted bundle predicts the site's scans; they lie inside what it was fitted on
    let rep = tmp.path().join("report");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&site),
        s(&dicom),
        "--out",
        s(&rep),
        "--no-html",
        "--no-dicom",
    ]);
    let pr = json(&rep.join("report.json"));
    let scans = pr["scans"].as_array().unwrap();
    assert_eq!(scans.len(), 14);
    let flagged = scans
        .iter()
        .filter(|s| s["out_of_distribution"]["flagged"].as_bool().unwrap())
        .count();
    assert!(flagged <= 1, "{flagged} of the site's own scans flagged");
    // the operating point: --sensitivity 0.9 of 7 positive scans must catch ceil(6.3) = 7, so
    // the threshold is the lowest cross-fitted probability of a positive scan; predict calls at
    // it and says what to expect there
    let op = &m["operating_point"];
    let lowest = preds
        .iter()
        .filter(|p| p["label"] == 1)
        .map(|p| p["p"][0].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(op["threshold"].as_f64().unwrap(), lowest, "{op}");
    assert_eq!(op["target_sensitivity"], 0.9);
    let sens = &op["sensitivity"];
    assert!(sens["lo"].as_f64().unwrap() <= sens["value"].as_f64().unwrap());
    assert_eq!(r["operating_point"], *op);
    let table = r["trade_off"].as_array().unwrap();
    assert_eq!(table.len(), 5);
    for w in table.windows(2) {
        assert!(w[1]["threshold"].as_f64().unwrap() <= w[0]["threshold"].as_f64().unwrap());
    }
    assert_eq!(pr["thresholds"]["positive"], op["threshold"]);
    assert_eq!(pr["model"]["operating_point"], *op, "{}", pr["model"]);
    // the label-free check knows the operating point: a high-sensitivity threshold calls many
    // scans positive, which is no sign of another site
    let sens_hi = op["sensitivity"]["hi"].as_f64().unwrap();
    let spec_lo = op["specificity"]["lo"].as_f64().unwrap();
    let positive = scans.iter().filter(|s| s["positive"] == true).count() as f64;
    let most = (0.5 * (sens_hi + 1.0 - spec_lo)).max(0.5);
    assert_eq!(
        pr["warnings"].is_null(),
        positive <= most * scans.len() as f64,
        "{}",
        pr["warnings"]
    );
    // every probability of the adapted network has an interval: its dropout passes through the
    // site's bootstrap maps
    for sc in scans {
        for x in std::iter::once(sc).chain(sc["slices"].as_array().unwrap()) {
            let f = |k: &str| x[k].as_f64().unwrap();
            assert!(
                f("sd") > 0.0 && f("lo") < f("probability") && f("probability") < f("hi"),
                "{x}"
            );
        }
    }
    assert_eq!(pr["model"]["calibration"]["kind"], "site");
    // the out-of-distribution flag's false flags over more random patient splits
    let splits = r["ood_splits"].as_array().unwrap();
    assert_eq!(splits.len(), detect::site::adapt::OOD_SPLITS);
    for o in splits {
        assert_eq!(
            o["positive"].as_u64().unwrap() + o["negative"].as_u64().unwrap(),
            14
        );
    }
    assert!(std::fs::read_to_string(rep.join("scans.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .contains("out_of_distribution"));
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (p / (1.0 - p)).ln()
}

/// The integrated autocorrelation time of the slices' logits along z (deviations from each
/// scan's mean, pooled): 1 + 2 Σ ρ(lag) while ρ > 0.05.
fn correlation_length(scans: &[(u8, Vec<f64>)]) -> f64 {
    let dev: Vec<Vec<f64>> = scans
        .iter()
        .map(|(_, p)| {
            let l: Vec<f64> = p.iter().map(|&q| logit(q)).collect();
            let m = l.iter().sum::<f64>() / l.len() as f64;
            l.iter().map(|v| v - m).collect()
        })
        .collect();
    let var: f64 = dev.iter().flatten().map(|d| d * d).sum();
    let mut tau = 1.0;
    for lag in 1.. {
        let mut c = 0.0;
        for d in &dev {
            for i in lag..d.len() {
                c += d[i] * d[i - lag];
            }
        }
        if c / var <= 0.05 {
            break;
        }
        tau += 2.0 * c / var;
    }
    tau
}

/// The slice map `σ(a · logit p + b)` maximising Σ scans [y log P + (1 − y) log(1 − P)],
/// P = 1 − Π (1 − slice)^(1/τ), less `ridge/2 · ((a − 1)² + b²)`: alternating golden-section
/// searches over a in [0.001, 10] and b in [−30, 30] until neither moves.
fn mil_slice_map(scans: &[(u8, Vec<f64>)], tau: f64, ridge: f64) -> (f64, f64) {
    let x: Vec<(u8, Vec<f64>)> = scans
        .iter()
        .map(|(y, p)| (*y, p.iter().map(|&q| logit(q)).collect()))
        .collect();
    let f = |a: f64, b: f64| -> f64 {
        let mut ll = 0.0;
        for (y, l) in &x {
            let log_none: f64 = l
                .iter()
                .map(|&v| (-sigmoid(a * v + b)).ln_1p())
                .sum::<f64>()
                / tau;
            ll += if *y == 1 {
                (-log_none.exp_m1()).max(1e-300).ln()
            } else {
                log_none
            };
        }
        ll - 0.5 * ridge * ((a - 1.0).powi(2) + b * b)
    };
    let golden = |g: &dyn Fn(f64) -> f64, mut lo: f64, mut hi: f64| {
        let r = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..80 {
            let (m1, m2) = (hi - r * (hi - lo), lo + r * (hi - lo));
            if g(m1) > g(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        (lo + hi) / 2.0
    };
    let (mut a, mut b) = (1.0, 0.0);
    for _ in 0..200 {
        let (a0, b0) = (a, b);
        a = golden(&|v| f(v, b), 1e-3, 10.0);
        b = golden(&|v| f(a, v), -30.0, 30.0);
        if (a - a0).abs() < 1e-9 && (b - b0).abs() < 1e-9 {
            break;
        }
    }
    (a, b)
}
