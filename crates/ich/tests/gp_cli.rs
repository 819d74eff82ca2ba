//! `ich fit-gp` and `ich eval-gp` on temporary folders.

mod common;

use common::{csv_rows, features_shifted, ich, pair_auc, text};

/// A features file: 40 bags of 6 slices, D = 3; positive bags carry one slice shifted by +4 on
/// feature 0 (a deterministic pattern, no RNG).
fn features() -> String {
    features_shifted(40, 0.0)
}

/// A temporary folder holding `features()` as `features.csv`.
fn features_file() -> (tempfile::TempDir, std::path::PathBuf) {
    features_file_of(&features())
}

/// A temporary folder holding `features.csv` with `text`.
fn features_file_of(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("features.csv");
    std::fs::write(&f, text).unwrap();
    (tmp, f)
}

#[test]
fn too_few_bags_to_hold_any_out_give_no_held_out_figures() {
    // 4 bags and the default validation fraction: none is held out. Before, the summary printed
    // an empty set's figures (AUC NaN, log-likelihood -0.0000, ECE -0.0000) and the model kept
    // them as if measured.
    let (tmp, f) = features_file_of(&features_shifted(4, 0.0));
    let model = tmp.path().join("gp.json");
    let o = ich(&[
        "fit-gp",
        "--features",
        f.to_str().unwrap(),
        "--inducing",
        "4",
        "--calibrate",
        "--out",
        model.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("validating on 0"), "{t}");
    assert!(t.contains("validation bags: none held out"), "{t}");
    assert!(t.contains("calibration map ("), "{t}");
    assert!(!t.contains("NaN") && !t.contains("-0.0000"), "{t}");
}

#[test]
fn fit_and_eval_write_their_files() {
    let (tmp, f) = features_file();
    let model = tmp.path().join("gp.json");
    let o = ich(&[
        "fit-gp",
        "--features",
        f.to_str().unwrap(),
        "--model",
        "g-vgpmil",
        "--inducing",
        "10",
        "--calibrate",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("validation bags: AUC"), "{}", text(&o));
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&model).unwrap()).unwrap();
    assert_eq!(m["version"], 1);
    assert_eq!(m["d"], 3);
    assert!(m["calibration"]["a"].is_number());
    assert!(m["calibration"].get("c").is_none(), "Platt's map has no c");
    assert!(tmp.path().join("gp.json.trace.csv").exists());
    // beta calibration's map carries its third parameter
    let beta = tmp.path().join("gp-beta.json");
    let o = ich(&[
        "fit-gp",
        "--features",
        f.to_str().unwrap(),
        "--inducing",
        "10",
        "--calibrate",
        "--calibration-map",
        "beta",
        "--out",
        beta.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("calibration map (beta a = "),
        "{}",
        text(&o)
    );
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&beta).unwrap()).unwrap();
    assert!(
        m["calibration"]["c"].as_f64().unwrap() > 0.0,
        "{}",
        m["calibration"]
    );

    let json = tmp.path().join("r.json");
    let csv = tmp.path().join("r.csv");
    let o = ich(&[
        "eval-gp",
        "--features",
        f.to_str().unwrap(),
        "--model",
        "vgpmil",
        "--splits",
        "3",
        "--inducing",
        "10",
        "--json",
        json.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("bag AUC") && out.contains("instance AUC"),
        "{out}"
    );
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["report"]["splits"].as_array().unwrap().len(), 3);
    // each split records and prints the kernel its kept model ended with
    for s in r["report"]["splits"].as_array().unwrap() {
        let k = &s["kernel"];
        assert!(k["variance"].as_f64().unwrap() > 0.0, "{s}");
        assert!(k["lengthscale"].as_f64().unwrap() > 0.0, "{s}");
    }
    assert_eq!(out.matches(", kernel v = ").count(), 3, "{out}");
    let auc = r["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["metric"] == "bag AUC")
        .unwrap()["mean"]
        .as_f64()
        .unwrap();
    assert!(auc > 0.9, "an easy problem: bag AUC {auc}");
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .starts_with("set,metric,mean,std,values"));
}

/// `--predictions`: with 3 folds every bag is tested once, so the file has a row per bag, with its
/// label and size, a calibrated probability inside its 90 % interval — and the split's bag AUC
/// in the report is the AUC of the file's raw probabilities. `--slice-predictions`: a row per
/// slice with its label, and each scan's probability is its most suspicious slice's.
#[test]
fn eval_writes_every_test_bag_prediction() {
    let (tmp, f) = features_file();
    let json = tmp.path().join("r.json");
    let pred = tmp.path().join("bags.csv");
    let slices = tmp.path().join("slices.csv");
    let o = ich(&[
        "eval-gp",
        "--features",
        f.to_str().unwrap(),
        "--splits",
        "3",
        "--inducing",
        "10",
        "--kernel-steps",
        "0",
        "--json",
        json.to_str().unwrap(),
        "--predictions",
        pred.to_str().unwrap(),
        "--slice-predictions",
        slices.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = csv_rows(&pred);
    assert_eq!(rows.len(), 40);
    let mut seen: Vec<usize> = rows
        .iter()
        .map(|r| r["bag"].trim_start_matches("scan").parse().unwrap())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..40).collect::<Vec<_>>());
    let num =
        |r: &std::collections::HashMap<String, String>, k: &str| -> f64 { r[k].parse().unwrap() };
    for r in &rows {
        let b: usize = r["bag"].trim_start_matches("scan").parse().unwrap();
        assert_eq!(r["set"], "test");
        assert_eq!(r["label"], (b % 2).to_string(), "{r:?}");
        assert_eq!(r["instances"], "6");
        let (p, lo, hi, sd) = (
            num(r, "probability"),
            num(r, "lo90"),
            num(r, "hi90"),
            num(r, "sd"),
        );
        assert!(
            (0.0..=1.0).contains(&lo) && lo <= p && p <= hi && hi <= 1.0,
            "{r:?}"
        );
        assert!(sd >= 0.0 && (0.0..=1.0).contains(&num(r, "probability_raw")));
    }
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let summary_values = |metric: &str| -> Vec<f64> {
        let values: Vec<f64> = report["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["set"] == "test" && x["metric"] == metric)
            .unwrap_or_else(|| panic!("no row {metric}"))["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(values.len(), 3, "{metric}");
        values
    };
    let split_rows = |k: usize| -> Vec<_> {
        rows.iter()
            .filter(|r| r["split"] == k.to_string())
            .collect()
    };
    // each split's reported AUC is the file's: of the raw probabilities, and of the calibrated
    // ones (means of mapped draws, whose order may differ from the raw means')
    for (metric, col) in [
        ("bag AUC", "probability_raw"),
        ("bag AUC (calibrated)", "probability"),
    ] {
        for (k, want) in summary_values(metric).iter().enumerate() {
            let split = split_rows(k);
            let labels: Vec<u8> = split.iter().map(|r| r["label"].parse().unwrap()).collect();
            let p: Vec<f64> = split.iter().map(|r| num(r, col)).collect();
            assert!(
                (pair_auc(&labels, &p) - want).abs() < 1e-12,
                "{metric}, split {k}"
            );
        }
    }
    // the calibrated ECE is the file's (10 equal-width bins, worked out here), and beside it a
    // Monte Carlo p-value of 200 draws: in [1/201, 1]
    for (k, want) in summary_values("bag ECE (calibrated)").iter().enumerate() {
        let (mut conf, mut acc) = ([0.0f64; 10], [0.0f64; 10]);
        let split = split_rows(k);
        for r in &split {
            let p = num(r, "probability");
            let b = ((p * 10.0) as usize).min(9);
            conf[b] += p;
            acc[b] += num(r, "label");
        }
        let ece: f64 = (0..10).map(|b| (acc[b] - conf[b]).abs()).sum::<f64>() / split.len() as f64;
        assert!((ece - want).abs() < 1e-12, "split {k}: {ece} vs {want}");
    }
    let p_values = summary_values("bag ECE p (calibrated)");
    assert!(
        p_values
            .iter()
            .all(|p| (1.0 / 201.0 - 1e-12..=1.0).contains(p)),
        "{p_values:?}"
    );
    // a row per slice, with its label; a scan's probability, raw and calibrated, is its most
    // suspicious slice's (the max rule; the map is monotone)
    let srows = csv_rows(&slices);
    assert_eq!(srows.len(), 240);
    for r in &srows {
        let (b, i): (usize, usize) = {
            let (b, i) = r["instance"]
                .trim_start_matches('s')
                .split_once('_')
                .unwrap();
            (b.parse().unwrap(), i.parse().unwrap())
        };
        assert_eq!(r["bag"], format!("scan{b}"));
        assert_eq!(r["index"], i.to_string());
        assert_eq!(
            r["label"],
            u8::from(b % 2 == 1 && i == 2).to_string(),
            "{r:?}"
        );
        let (p, lo, hi) = (num(r, "probability"), num(r, "lo90"), num(r, "hi90"));
        assert!(lo <= p && p <= hi, "{r:?}");
    }
    for r in &rows {
        let of_bag: Vec<_> = srows.iter().filter(|s| s["bag"] == r["bag"]).collect();
        assert_eq!(of_bag.len(), 6);
        for col in ["probability_raw", "probability"] {
            let top = of_bag.iter().map(|s| num(s, col)).fold(f64::MIN, f64::max);
            assert!((num(r, col) - top).abs() < 1e-12, "{col}: {r:?}");
        }
    }
}

#[test]
fn bad_features_fail_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("bad.csv");
    std::fs::write(&f, "feature_0,bag_name,bag_label\n1,a,0\ninf,a,0\n").unwrap();
    let o = ich(&[
        "fit-gp",
        "--features",
        f.to_str().unwrap(),
        "--out",
        tmp.path().join("m.json").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("bad.csv") && text(&o).contains("finite"),
        "{}",
        text(&o)
    );
    for cmd in ["fit-gp", "eval-gp"] {
        let o = ich(&[cmd, "--help"]);
        assert!(o.status.success() && text(&o).contains("Usage"));
    }
}

/// `ich eval-gp … | head -1`: the reader closes the pipe after one line. The run ends without a
/// panic (a panic exits with 101 and prints a backtrace) and its report files are complete.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_loses_nothing() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let (tmp, f) = features_file();
    let json = tmp.path().join("r.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ich"))
        .args(["eval-gp", "--features", f.to_str().unwrap()])
        .args(["--splits", "3", "--inducing", "10"])
        .args(["--json", json.to_str().unwrap()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // the reader is gone now; the rest of the table goes to a closed pipe
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(first.starts_with("vgpmil on "), "{first}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.status.success() || out.status.signal() == Some(13),
        "{:?}: {stderr}",
        out.status
    );
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["report"]["splits"].as_array().unwrap().len(), 3);
}

/// `--site-calibration`: the external scans come from another site whose every slice reads
/// higher on feature 0, so the training site's map over-calls them; recalibrating on the
/// external scans' own labels, each scan scored by a map fitted on the other folds, describes
/// them better. The external rows of `--predictions` carry that probability, the test rows none.
#[test]
fn eval_measures_a_sites_recalibration_out_of_fold() {
    let (tmp, f) = features_file();
    let ext = tmp.path().join("other-site.csv");
    std::fs::write(&ext, features_shifted(200, 1.5)).unwrap();
    let json = tmp.path().join("r.json");
    let pred = tmp.path().join("bags.csv");
    let o = ich(&[
        "eval-gp",
        "--features",
        f.to_str().unwrap(),
        "--test",
        ext.to_str().unwrap(),
        "--holdout",
        "0.25",
        "--inducing",
        "10",
        "--kernel-steps",
        "0",
        "--site-calibration",
        "5",
        "--json",
        json.to_str().unwrap(),
        "--predictions",
        pred.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("bag ECE (site-calibrated)"),
        "{}",
        text(&o)
    );
    let rows = csv_rows(&pred);
    let (test, external): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r["set"] == "test");
    assert_eq!((test.len(), external.len()), (10, 200));
    assert!(test.iter().all(|r| r["probability_site"].is_empty()));
    let site: Vec<f64> = external
        .iter()
        .map(|r| r["probability_site"].parse().unwrap())
        .collect();
    assert!(site.iter().all(|p| (0.0..=1.0).contains(p)));
    // the figures from the file, by hand, and the report's
    let labels: Vec<u8> = external
        .iter()
        .map(|r| r["label"].parse().unwrap())
        .collect();
    let cal: Vec<f64> = external
        .iter()
        .map(|r| r["probability"].parse().unwrap())
        .collect();
    let ll = |p: &[f64]| {
        labels
            .iter()
            .zip(p)
            .map(|(&y, &q)| {
                let q = q.clamp(1e-12, 1.0 - 1e-12);
                if y == 1 {
                    q.ln()
                } else {
                    (1.0 - q).ln()
                }
            })
            .sum::<f64>()
            / p.len() as f64
    };
    assert!(ll(&site) > ll(&cal) + 0.05, "{} vs {}", ll(&site), ll(&cal));
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let metric = |name: &str| {
        report["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["set"] == "external" && x["metric"] == name)
            .unwrap()["mean"]
            .as_f64()
            .unwrap()
    };
    assert!((metric("bag log-lik (site-calibrated)") - ll(&site)).abs() < 1e-9);
    assert!(metric("bag ECE (site-calibrated)") < metric("bag ECE (calibrated)"));
    // without --test there is no site to recalibrate on
    let o = ich(&[
        "eval-gp",
        "--features",
        f.to_str().unwrap(),
        "--site-calibration",
        "5",
    ]);
    assert!(!o.status.success());
    // --site-scans with the site calibration turned off would be ignored: refused instead
    let o = ich(&[
        "eval-gp",
        "--features",
        f.to_str().unwrap(),
        "--test",
        ext.to_str().unwrap(),
        "--site-calibration",
        "0",
        "--site-scans",
        "50",
    ]);
    assert!(
        !o.status.success() && text(&o).contains("--site-scans needs --site-calibration"),
        "{}",
        text(&o)
    );
}

/// `eval-gp` on MUSK1's fixed splits, quickly (no kernel steps, M = 50, the map on the
/// validation bags): the arguments, `--features` at index 3; `None` where the data are absent.
fn musk1_quick() -> Option<Vec<String>> {
    let musk = testkit::shared_data_or_skip("mil/musk1.csv")?;
    let splits = testkit::shared_data_or_skip("splits/musk1_5split.csv")?;
    let (musk, splits) = (musk.to_str()?, splits.to_str()?);
    let args = [
        "-q",
        "eval-gp",
        "--features",
        musk,
        "--splits",
        splits,
        "--kernel-steps",
        "0",
        "--inducing",
        "50",
        "--calibration-folds",
        "0",
    ];
    Some(args.map(String::from).to_vec())
}

/// A head that ranks its validation bags worse than chance is flagged, not reported as if it were
/// a result. On MUSK1's fixed splits G-VGPMIL with α = 0.5, β = 4 falls into a bad fixed point
/// (its first update sends every latent negative; validation bag AUC 0.20, 0.57, 0.39, 0.39, …,
/// test bag AUC 0.36, measured 2026-11-23); VGPMIL on the same splits is not flagged.
#[test]
fn a_head_worse_than_chance_is_flagged() {
    let Some(base) = musk1_quick() else {
        return;
    };
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let run = |extra: &[&str]| {
        let o = ich(&[&base[..], extra].concat());
        assert!(o.status.success(), "{}", text(&o));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let bad = run(&["--model", "g-vgpmil", "--alpha", "0.5", "--beta", "4"]);
    assert!(
        bad.contains("split 0's chosen head ranks its validation bags worse than chance"),
        "{bad}"
    );
    let good = run(&[]);
    assert!(!good.contains("worse than chance"), "{good}");
}

/// `--lengthscale-grid` and `--variance-grid` are more axes of the grid chosen on the validation
/// bags: per split the grid keeps the starting value whose own run (`--lengthscale L`,
/// `--variance V`) has the best validation bag AUC (ties: validation log-likelihood), and reports
/// exactly that run's test figures. Checked against separate single-value runs on MUSK1's fixed
/// splits (there a short length scale and a large variance rank bags better: VGPMIL 0.788 at
/// l = D = 166, v = 0.5; 0.863 with l chosen from 20, 40, 83, 166, 0.850 with v chosen from 0.5,
/// 1, 2, 4, 8, with the full grid of M, measured 2026-11-24).
#[test]
fn a_kernel_grid_keeps_the_validation_bags_choice() {
    let Some(base) = musk1_quick() else {
        return;
    };
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let musk = base[3];
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| -> serde_json::Value {
        let json = tmp.path().join(format!("{name}.json"));
        let out = ["--json", json.to_str().unwrap()];
        let o = ich(&[&base[..], &out[..], extra].concat());
        assert!(o.status.success(), "{}", text(&o));
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
    };
    fn split(r: &serde_json::Value, s: usize) -> &serde_json::Value {
        &r["report"]["splits"][s]
    }
    let test_auc = |r: &serde_json::Value, s: usize| split(r, s)["test"]["bag"]["auc"].as_f64();
    // which values the grids chose, to see that the comparison covered both orders
    let mut chose = std::collections::BTreeSet::<(&str, usize)>::new();
    for (flag, values, field) in [
        ("lengthscale", ["166", "20"], "lengthscale"),
        ("variance", ["4", "8"], "variance"),
    ] {
        let single: Vec<serde_json::Value> = values
            .iter()
            .map(|x| run(&format!("{flag}{x}"), &[&format!("--{flag}"), x]))
            .collect();
        let grid = run(
            &format!("{flag}-grid"),
            &[&format!("--{flag}-grid"), &values.join(",")],
        );
        for s in 0..5 {
            let key = |r: &serde_json::Value| {
                let sp = split(r, s);
                (
                    sp["valid_bag_auc"].as_f64().unwrap(),
                    sp["valid_log_likelihood_before"].as_f64().unwrap(),
                )
            };
            let (a, b) = (key(&single[0]), key(&single[1]));
            // the first grid point wins ties, as in the grid's own order
            let best = usize::from(b.0 > a.0 + 1e-12 || ((b.0 - a.0).abs() <= 1e-12 && b.1 > a.1));
            let g = split(&grid, s);
            assert_eq!(
                g[format!("start_{field}")].as_f64(),
                Some(values[best].parse::<f64>().unwrap()),
                "{flag}, split {s}"
            );
            assert_eq!(g["kernel"], split(&single[best], s)["kernel"]);
            assert_eq!(
                test_auc(&grid, s),
                test_auc(&single[best], s),
                "{flag}, split {s}"
            );
            chose.insert((flag, best));
        }
        // the check above means something only if the two runs differ
        assert!(
            (0..5).any(|s| test_auc(&single[0], s) != test_auc(&single[1], s)),
            "both {flag} values gave the same test AUC in every split"
        );
        // a run without the grid records no starting value; the grid beside the single value
        // is refused, and so is a value out of range
        assert!(split(&single[0], 0).get(format!("start_{field}")).is_none());
        let o = ich(&[
            "eval-gp",
            "--features",
            musk,
            &format!("--{flag}"),
            values[0],
            &format!("--{flag}-grid"),
            &values.join(","),
        ]);
        assert!(!o.status.success());
        assert!(text(&o).contains("cannot be used with"), "{}", text(&o));
        let bad = format!("{},0", values[0]);
        let o = ich(&[
            "eval-gp",
            "--features",
            musk,
            &format!("--{flag}-grid"),
            &bad,
        ]);
        assert!(!o.status.success());
        assert!(text(&o).contains(&format!("{flag}-grid")), "{}", text(&o));
    }
    // l = 20 (the second) in every split; v = 8 in splits 0–2 and 4 in 3–4 (measured)
    assert!(chose.contains(&("lengthscale", 1)), "{chose:?}");
    assert!(
        chose.contains(&("variance", 0)) && chose.contains(&("variance", 1)),
        "{chose:?}"
    );
}
