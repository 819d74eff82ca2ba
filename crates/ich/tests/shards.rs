//! Sharding over a cluster's job array (deploy/): the Slurm array script and the Kubernetes
//! Indexed Job are parsed and their command lines run here, one local process per task, then
//! their merge step; the merged dataset, features file and reports must be the one-shot run's
//! (features, CSV reports and scan pages byte for byte, the dataset's scans file for file,
//! report.json and index.html but for the run's id and date). A missing shard makes the merge
//! fail and name it; rerunning that task alone completes the set.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text after `key:` on the first line that has it (quotes dropped).
fn yaml_value(yaml: &str, key: &str) -> String {
    yaml.lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key}: in the manifest"))
        .trim()
        .trim_matches('"')
        .to_string()
}

/// The value of the container's environment variable `name` (`- name: X` then `value: …`).
fn yaml_env(yaml: &str, name: &str) -> String {
    let lines: Vec<&str> = yaml.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("no env {name}"));
    yaml_value(lines[i + 1], "value")
}

/// The script of the container: the `- |` block under `args:`, unindented.
fn yaml_script(yaml: &str) -> String {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "- |")
        .expect("a literal block under args")
        + 1;
    let indent = lines[start].len() - lines[start].trim_start().len();
    lines[start..]
        .iter()
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
        .map(|l| l.get(indent..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `program args` with `env`, asserting success unless `fail` (then returns its output).
fn run(program: &str, args: &[&str], env: &[(&str, String)], fail: bool) -> String {
    let o = Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("RUST_LOG", "warn")
        .current_dir(repo())
        .output()
        .expect("run");
    let t = text(&o);
    assert_eq!(o.status.success(), !fail, "{program} {args:?}:\n{t}");
    t
}

/// The one-shot dataset and the merged one list the same scans, and every scan's files are the
/// same bytes.
fn same_dataset(one: &Path, merged: &Path) {
    let read = |d: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(d.join("dataset.json")).unwrap()).unwrap()
    };
    let (a, b) = (read(one), read(merged));
    assert_eq!(a["scans"], b["scans"]);
    assert_eq!(a["config"], b["config"]);
    assert_eq!(a["skipped"], b["skipped"]);
    assert!(b.get("shard").is_none());
    let scans = a["scans"].as_array().unwrap();
    assert!(scans.len() >= 10);
    for e in scans {
        for f in ["pixels", "meta"] {
            let rel = e[f].as_str().unwrap();
            assert_eq!(
                std::fs::read(one.join(rel)).unwrap(),
                std::fs::read(merged.join(rel)).unwrap(),
                "{rel}"
            );
        }
    }
}

/// The merged reports are the one-shot run's: the CSV files and every scan page byte for byte,
/// report.json and index.html once the run's id and date are set aside.
fn same_reports(one: &Path, merged: &Path) {
    for f in ["slices.csv", "scans.csv"] {
        let (a, b) = (
            std::fs::read_to_string(one.join(f)).unwrap(),
            std::fs::read_to_string(merged.join(f)).unwrap(),
        );
        if let Some((x, y)) = a.lines().zip(b.lines()).find(|(x, y)| x != y) {
            panic!("{f} differs:\none-shot: {x}\nmerged:   {y}");
        }
        assert_eq!(a, b, "{f}");
    }
    let read = |d: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(d.join("report.json")).unwrap()).unwrap()
    };
    let (mut a, mut b) = (read(one), read(merged));
    assert!(b.get("shard").is_none());
    assert!(a["scans"].as_array().unwrap().len() >= 10);
    let index = |d: &Path, created: &str| {
        std::fs::read_to_string(d.join("index.html"))
            .unwrap()
            .replace(created, "CREATED")
    };
    assert_eq!(
        index(one, a["created"].as_str().unwrap()),
        index(merged, b["created"].as_str().unwrap())
    );
    for r in [&mut a, &mut b] {
        r["created"] = serde_json::Value::Null;
        r["run"] = serde_json::Value::Null;
    }
    assert_eq!(a, b);
    let pages = |d: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<_> = std::fs::read_dir(d.join("scans"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let (p, q) = (pages(one), pages(merged));
    assert_eq!(p.len(), a["scans"].as_array().unwrap().len());
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&p), names(&q));
    for (x, y) in p.iter().zip(&q) {
        assert!(x.1 == y.1, "scan page {} differs", x.0);
    }
    // the slices kept on disk while predict and merge ran are gone
    for d in [one, merged] {
        let left: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("spill"))
            .collect();
        assert!(left.is_empty(), "{}: {left:?}", d.display());
    }
}

/// `ich predict` of a whole dataset into `out`.
fn predict(bundle: &Path, ds: &Path, out: &Path) {
    ok(&[
        "-q",
        "predict",
        "--model",
        s(bundle),
        s(ds),
        "--out",
        s(out),
    ]);
}

#[test]
fn slurm_array_and_kubernetes_indexed_job_merge_to_the_one_shot_run() {
    let t = tempfile::tempdir().unwrap();
    let raw = t.path().join("raw");
    synth(&raw, "14", "4", "32", "5");
    let labels = format!(
        "{} {}",
        s(&raw.join("labels.csv")),
        s(&raw.join("slice_labels.csv"))
    );
    // the one-shot runs: with the labels (as the Slurm script is given them) and without
    let ds = t.path().join("ds");
    preprocess(&raw, &ds, "32", &[]);
    let bundle = t.path().join("bundle");
    small_cnn(&ds, &bundle);
    // the one-shot features, then a GP head on them (the reports' Monte Carlo is seeded by scan)
    let feats = t.path().join("features.csv");
    gp_head(&bundle, &ds, &feats, &["--inducing", "8"]);
    let reports = t.path().join("reports");
    predict(&bundle, &ds, &reports);
    let ds_nl = t.path().join("ds-nolabels");
    ok(&[
        "-q",
        "preprocess",
        s(&raw),
        "--out",
        s(&ds_nl),
        "--size",
        "32",
    ]);
    let feats_nl = t.path().join("features-nolabels.csv");
    ok(&[
        "-q",
        "extract",
        "--model",
        s(&bundle),
        "--dataset",
        s(&ds_nl),
        "--out",
        s(&feats_nl),
    ]);
    let reports_nl = t.path().join("reports-nolabels");
    predict(&bundle, &ds_nl, &reports_nl);
    let bin = env!("CARGO_BIN_EXE_ich").to_string();

    // Slurm: the array's size from its #SBATCH line, one process per task
    let sbatch = repo().join("deploy/slurm/ich-shards.sbatch");
    let text_of = |p: &Path| std::fs::read_to_string(p).unwrap();
    let array = text_of(&sbatch)
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array=").map(str::to_string))
        .expect("an --array line");
    let (lo, hi) = array.split_once('-').unwrap();
    let (lo, hi): (usize, usize) = (lo.parse().unwrap(), hi.parse().unwrap());
    let n = hi - lo + 1;
    assert_eq!((lo, n), (0, 4));
    // the script's number of shards is the array's
    assert!(text_of(&sbatch).contains(&format!("N=\"${{SHARDS:-{n}}}\"")));
    let work = t.path().join("slurm");
    let env = |i: usize| {
        vec![
            ("SLURM_ARRAY_TASK_ID", i.to_string()),
            ("ICH", bin.clone()),
            ("INPUT", s(&raw).to_string()),
            ("WORK", s(&work).to_string()),
            ("MODEL", s(&bundle).to_string()),
            ("LABELS", labels.clone()),
            ("PREPROCESS_ARGS", "--size 32".to_string()),
        ]
    };
    for i in lo..=hi {
        run("bash", &[s(&sbatch)], &env(i), false);
    }
    let merge = repo().join("deploy/slurm/ich-merge.sbatch");
    // every shard holds some scans, none holds them all
    for i in 0..n {
        let m: serde_json::Value = serde_json::from_slice(
            &std::fs::read(work.join(format!("dataset-{i}/dataset.json"))).unwrap(),
        )
        .unwrap();
        let k = m["scans"].as_array().unwrap().len();
        assert!(k > 0 && k < 14, "shard {i}: {k} scans");
        assert_eq!(m["shard"], format!("{i}/{n}"));
        let r: serde_json::Value = serde_json::from_slice(
            &std::fs::read(work.join(format!("reports-{i}/report.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(r["scans"].as_array().unwrap().len(), k);
        assert_eq!(r["shard"], format!("{i}/{n}"));
    }
    run("bash", &[s(&merge)], &env(0), false);
    same_dataset(&ds, &work.join("dataset"));
    assert_eq!(
        std::fs::read(&feats).unwrap(),
        std::fs::read(work.join("features.csv")).unwrap(),
        "merged features differ from the one-shot extraction"
    );
    same_reports(&reports, &work.join("reports"));
    // one shard predicted straight from the DICOM folders (keeping only its own scans'
    // headers): the scans and probabilities its dataset gave
    let direct = t.path().join("direct-1");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(&bundle),
        s(&raw),
        "--out",
        s(&direct),
        "--shard",
        "1/4",
        "--no-html",
        "--no-dicom",
    ]);
    let scans_of = |dir: &Path| -> Vec<(String, f64)> {
        let r: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
        assert_eq!(r["shard"], "1/4");
        let mut v: Vec<(String, f64)> = r["scans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                let id = x["id"].as_str().unwrap().to_string();
                (id, x["probability"].as_f64().unwrap())
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let (a, b) = (scans_of(&direct), scans_of(&work.join("reports-1")));
    assert_eq!(
        a.iter().map(|x| &x.0).collect::<Vec<_>>(),
        b.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    for (x, y) in a.iter().zip(&b) {
        assert!((x.1 - y.1).abs() < 1e-9, "{x:?} against {y:?}");
    }
    refuses_bad_report_shards(&work, &reports, n, &bundle);
    refuses_bad_feature_shards(&work, &feats, n);
    refuses_bad_dataset_merges(&work, n);

    // a failed task: the merge names its shard; the task rerun alone completes the set
    for p in [
        "dataset-2",
        "dataset",
        "features-2.csv",
        "features-2.csv.shard.json",
        "features.csv",
        "reports-2",
        "reports",
    ] {
        let p = work.join(p);
        if p.is_dir() {
            std::fs::remove_dir_all(&p).unwrap();
        } else {
            std::fs::remove_file(&p).unwrap();
        }
    }
    let out = run("bash", &[s(&merge)], &env(0), true);
    assert!(out.contains("shard(s) 2 of 4 missing"), "{out}");
    // a partial merge of the shards there are: its dataset says which shard it lacks
    ok(&[
        "-q",
        "merge",
        s(&work.join("dataset-0")),
        s(&work.join("dataset-1")),
        s(&work.join("dataset-3")),
        "--out",
        s(&work.join("dataset")),
        "--partial",
    ]);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(work.join("dataset/dataset.json")).unwrap()).unwrap();
    assert_eq!(m["merged"]["missing_shards"], serde_json::json!([2]), "{m}");
    // the task rerun alone, then the merge again over its own earlier output
    run("bash", &[s(&sbatch)], &env(2), false);
    run("bash", &[s(&merge)], &env(0), false);
    same_dataset(&ds, &work.join("dataset"));
    assert_eq!(
        std::fs::read(&feats).unwrap(),
        std::fs::read(work.join("features.csv")).unwrap()
    );
    same_reports(&reports, &work.join("reports"));

    // Kubernetes: an Indexed Job of `completions` pods, each its script with its index
    let job = text_of(&repo().join("deploy/kubernetes/ich-indexed-job.yaml"));
    assert_eq!(yaml_value(&job, "completionMode"), "Indexed");
    let completions: usize = yaml_value(&job, "completions").parse().unwrap();
    assert_eq!(yaml_env(&job, "SHARDS"), completions.to_string());
    let script = yaml_script(&job);
    let work = t.path().join("k8s");
    let env = |i: usize| {
        vec![
            ("JOB_COMPLETION_INDEX", i.to_string()),
            ("SHARDS", completions.to_string()),
            ("PREPROCESS_ARGS", "--size 32".to_string()),
            ("ICH", bin.clone()),
            ("INPUT", s(&raw).to_string()),
            ("WORK", s(&work).to_string()),
            ("MODEL", s(&bundle).to_string()),
        ]
    };
    for i in 0..completions {
        run("sh", &["-c", &script], &env(i), false);
    }
    let merge = yaml_script(&text_of(
        &repo().join("deploy/kubernetes/ich-merge-job.yaml"),
    ));
    run("sh", &["-c", &merge], &env(0), false);
    same_dataset(&ds_nl, &work.join("dataset"));
    assert_eq!(
        std::fs::read(&feats_nl).unwrap(),
        std::fs::read(work.join("features.csv")).unwrap()
    );
    same_reports(&reports_nl, &work.join("reports"));
}

/// `ich merge` of features files refuses, naming the file: an `--out` that is one of the shards,
/// a shard cut short since `ich extract` wrote it (its note's rows and SHA-256); a partial merge's
/// note names the shard it lacks, and the merge of every shard is the one-shot extraction.
fn refuses_bad_feature_shards(work: &Path, whole: &Path, n: usize) {
    let shard = |i: usize| work.join(format!("features-{i}.csv"));
    let all: Vec<PathBuf> = (0..n).map(shard).collect();
    let merge_into = |inputs: &[PathBuf], out: &Path, extra: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(inputs.iter().map(|p| s(p).to_string()));
        args.extend(["--out".to_string(), s(out).to_string()]);
        args.extend(extra.iter().map(|x| x.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ich(&args)
    };
    let before = std::fs::read(shard(1)).unwrap();
    let o = merge_into(&all, &shard(1), &[]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("is one of the files to merge"),
        "{}",
        text(&o)
    );
    // the shard and its note are as they were
    assert_eq!(std::fs::read(shard(1)).unwrap(), before);
    assert!(work.join("features-1.csv.shard.json").is_file());
    // a copy of shard 1, its last row cut off
    let cut = work.join("cut-1.csv");
    let text_of = String::from_utf8(before.clone()).unwrap();
    let body = text_of.trim_end_matches('\n');
    let shorter = &body[..body.rfind('\n').unwrap() + 1];
    std::fs::write(&cut, shorter).unwrap();
    std::fs::copy(
        work.join("features-1.csv.shard.json"),
        work.join("cut-1.csv.shard.json"),
    )
    .unwrap();
    let mut with_cut = all.clone();
    with_cut[1] = cut.clone();
    let out = work.join("merged-features.csv");
    let o = merge_into(&with_cut, &out, &[]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("cut-1.csv") && t.contains("cut short"), "{t}");
    // partial: the note says which shard is missing
    let o = merge_into(&all[1..], &out, &["--partial"]);
    assert!(o.status.success(), "{}", text(&o));
    let note: serde_json::Value = serde_json::from_slice(
        &std::fs::read(work.join("merged-features.csv.shard.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(note["missing_shards"], serde_json::json!([0]), "{note}");
    // every shard: the one-shot file, and a note of its rows and checksum without a gap
    let o = merge_into(&all, &out, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(whole).unwrap());
    let note: serde_json::Value = serde_json::from_slice(
        &std::fs::read(work.join("merged-features.csv.shard.json")).unwrap(),
    )
    .unwrap();
    assert!(note.get("missing_shards").is_none(), "{note}");
    let rows = std::fs::read_to_string(whole).unwrap().lines().count() - 1;
    assert_eq!(note["rows"], rows, "{note}");
    for p in [cut, work.join("cut-1.csv.shard.json")] {
        std::fs::remove_file(p).unwrap();
    }
}

/// `ich merge` of datasets never writes into one of its inputs, nor over a dataset that
/// `ich preprocess` wrote.
fn refuses_bad_dataset_merges(work: &Path, n: usize) {
    let all: Vec<String> = (0..n)
        .map(|i| s(&work.join(format!("dataset-{i}"))).to_string())
        .collect();
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(all.iter().map(String::as_str));
    let mut into_input = args.clone();
    into_input.extend(["--out", all[2].as_str()]);
    let o = ich(&into_input);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("is one of the datasets to merge"),
        "{}",
        text(&o)
    );
}

/// `ich merge` of report folders refuses, naming the folder: a shard whose run did not finish,
/// a file changed since its run, a shard given twice, a shard of other Monte Carlo draws, the
/// report of a whole cohort, an output folder holding other results; a missing shard is named, and --partial says it in the report.
fn refuses_bad_report_shards(work: &Path, whole: &Path, n: usize, model: &Path) {
    let shard = |i: usize| work.join(format!("reports-{i}"));
    let all: Vec<PathBuf> = (0..n).map(shard).collect();
    let merge_into = |inputs: &[PathBuf], out: &Path, extra: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(inputs.iter().map(|p| s(p).to_string()));
        args.extend(["--out".to_string(), s(out).to_string()]);
        args.extend(extra.iter().map(|x| x.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ich(&args)
    };
    let refused = |inputs: &[PathBuf], out: &Path, want: &str| {
        let o = merge_into(inputs, out, &[]);
        assert!(!o.status.success());
        assert!(text(&o).contains(want), "want {want:?}:\n{}", text(&o));
    };
    let out = work.join("m");
    // a copy of shard 1 to spoil
    let copy = work.join("copy-1");
    let cp = Command::new("cp")
        .args(["-a", s(&shard(1)), s(&copy)])
        .status()
        .unwrap();
    assert!(cp.success());
    let mut with_copy = all.clone();
    with_copy[1] = copy.clone();
    let run_json = copy.join("run.json");
    let mark = std::fs::read_to_string(&run_json).unwrap();
    std::fs::write(&run_json, mark.replace("\"complete\"", "\"running\"")).unwrap();
    refused(&with_copy, &out, "did not finish: rerun that shard");
    std::fs::write(&run_json, &mark).unwrap();
    let page = std::fs::read_dir(copy.join("scans"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&page, "<html>not ours</html>").unwrap();
    refused(&with_copy, &out, "changed since its run");
    refused(&[shard(0), shard(0)], &out, "given more than once");
    // a shard whose viewer address was edited into a script, its checksum recomputed: refused
    // as --viewer-url refuses it, before it becomes links in the merged index
    let js = work.join("js-0");
    let cp = Command::new("cp")
        .args(["-a", s(&shard(0)), s(&js)])
        .status()
        .unwrap();
    assert!(cp.success());
    let sha = |p: &Path| {
        let o = Command::new("sha256sum").arg(p).output().unwrap();
        String::from_utf8(o.stdout).unwrap()[..64].to_string()
    };
    let rj = js.join("report.json");
    let before = sha(&rj);
    let mut r: serde_json::Value = serde_json::from_slice(&std::fs::read(&rj).unwrap()).unwrap();
    r["viewer_url"] = serde_json::json!("javascript:alert(1)//{study}");
    std::fs::write(&rj, serde_json::to_vec_pretty(&r).unwrap()).unwrap();
    let mark = std::fs::read_to_string(js.join("run.json")).unwrap();
    assert!(mark.contains(&before));
    std::fs::write(js.join("run.json"), mark.replace(&before, &sha(&rj))).unwrap();
    let mut js_set = all.clone();
    js_set[0] = js.clone();
    refused(&js_set, &out, "viewer URL \"javascript:");
    // shard 1 predicted again from its dataset, with other Monte Carlo draws
    let reseeded = work.join("reseeded-1");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(model),
        s(&work.join("dataset-1")),
        "--out",
        s(&reseeded),
        "--seed",
        "7",
    ]);
    let mut reseeded_set = all.clone();
    reseeded_set[1] = reseeded.clone();
    refused(
        &reseeded_set,
        &out,
        "the Monte Carlo samples or seed differ(s)",
    );
    // shard 1 predicted again keeping patient names: a report of other options
    let phi = work.join("phi-1");
    ok(&[
        "-q",
        "predict",
        "--model",
        s(model),
        s(&work.join("dataset-1")),
        "--out",
        s(&phi),
        "--keep-phi",
    ]);
    let mut phi_set = all.clone();
    phi_set[1] = phi.clone();
    refused(&phi_set, &out, "run with other options (keep-phi true");
    refused(&[whole.to_path_buf()], &out, "not of a shard");
    refused(
        &all,
        &work.join("dataset-0"),
        "not empty and not an earlier merge",
    );
    let o = merge_into(&all[1..], &out, &[]);
    assert!(!o.status.success());
    assert!(text(&o).contains("shard(s) 0 of 4 missing"), "{}", text(&o));
    let o = merge_into(&all[1..], &out, &["--partial"]);
    assert!(o.status.success(), "{}", text(&o));
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert!(r["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x.as_str().unwrap().starts_with("shard 0/4: missing")));
    // a merge's folder takes a later merge, which replaces it
    let o = merge_into(&all, &out, &[]);
    assert!(o.status.success(), "{}", text(&o));
    same_reports(whole, &out);
    std::fs::remove_dir_all(&copy).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

/// `ich merge` refuses a scan given twice and shards of different counts, naming the files.
#[test]
fn merge_refuses_overlaps_and_mixed_counts() {
    let t = tempfile::tempdir().unwrap();
    let raw = t.path().join("raw");
    synth(&raw, "6", "3", "32", "2");
    let shard = |spec: &str, name: &str| {
        let d = t.path().join(name);
        ok(&[
            "-q",
            "preprocess",
            s(&raw),
            "--out",
            s(&d),
            "--size",
            "16",
            "--shard",
            spec,
        ]);
        d
    };
    let a = shard("0/2", "a");
    let b = shard("0/2", "b");
    let o = ich(&["merge", s(&a), s(&b), "--out", s(&t.path().join("m1"))]);
    assert!(!o.status.success());
    assert!(text(&o).contains("given more than once"), "{}", text(&o));
    let c = shard("1/3", "c");
    let o = ich(&["merge", s(&a), s(&c), "--out", s(&t.path().join("m2"))]);
    assert!(!o.status.success());
    assert!(text(&o).contains("is not one of 2"), "{}", text(&o));
    // a shard of 2 alone: its gap is named; --partial joins it
    let o = ich(&["merge", s(&a), "--out", s(&t.path().join("m3"))]);
    assert!(text(&o).contains("shard(s) 1 of 2 missing"), "{}", text(&o));
    let out = ok(&[
        "merge",
        s(&a),
        "--out",
        s(&t.path().join("m4")),
        "--partial",
    ]);
    assert!(out.contains("missing shard(s), left out: 1/2"), "{out}");
    // a bad shard is refused by the command line
    let o = ich(&[
        "preprocess",
        s(&raw),
        "--out",
        s(&t.path().join("x")),
        "--shard",
        "2/2",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("below 2"), "{}", text(&o));
}
