//! `synth` → `preprocess`: labels and slice order survive exactly; the same seed gives the same
//! files; bleeds drawn into the real head CT look right in the windows.

use std::collections::HashMap;
use std::fs;

use preprocess::dataset::Dataset;
use preprocess::labels::Labels;
use preprocess::synth::{synth, SynthOptions};
use preprocess::{preprocess, PreprocessConfig, PreprocessOptions, Quiet};

fn csv_rows(path: &std::path::Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn round_trip_keeps_labels_and_order_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 6,
        slices: 12,
        size: 64,
        seed: 7,
        ..SynthOptions::default()
    };
    let scans = synth(&raw, &opts, &Quiet).unwrap();
    assert_eq!(scans.iter().filter(|s| s.label == 1).count(), 3);
    assert!(scans
        .iter()
        .all(|s| (s.label == 1) == (s.positive_slices > 0)));
    // file names are unrelated to slice position
    let s0 = &scans[0];
    let mut names: Vec<&str> = s0.slices.iter().map(|s| s.file.as_str()).collect();
    let in_z_order = names.clone();
    names.sort();
    assert_ne!(names, in_z_order);

    let mut labels = Labels::default();
    labels.load(&raw.join("labels.csv")).unwrap();
    labels.load(&raw.join("slice_labels.csv")).unwrap();
    let out = tmp.path().join("ds");
    let p = PreprocessOptions {
        config: PreprocessConfig {
            size: 32,
            ..PreprocessConfig::default()
        },
        labels,
        ..PreprocessOptions::default()
    };
    let summary = preprocess(std::slice::from_ref(&raw), &out, &p, &Quiet).unwrap();
    assert_eq!(summary.scans_written, 6);
    assert_eq!(summary.slices, 72);
    // labels.csv, slice_labels.csv and synth.json are the only non-DICOM files: tables beside
    // the images, passed over without a word
    assert!(summary.skipped.counts.is_empty(), "{:?}", summary.skipped);

    let ds = Dataset::open(&out).unwrap();
    let by_series: HashMap<String, _> = scans
        .iter()
        .map(|s| (s.series_instance_uid.clone(), s))
        .collect();
    let slice_csv: HashMap<String, (String, String)> = csv_rows(&raw.join("slice_labels.csv"))
        .into_iter()
        .map(|r| {
            (
                r["sop_instance_uid"].clone(),
                (r["label"].clone(), r["subtype"].clone()),
            )
        })
        .collect();
    for e in &ds.manifest.scans {
        let meta = ds.scan_meta(e).unwrap();
        let truth = by_series[&meta.series_instance_uid];
        assert_eq!(meta.label, Some(truth.label));
        // the series description is free text (a name may be typed there): a dataset keeps it
        // only with --keep-phi
        assert_eq!(meta.series_description, None);
        assert_eq!(e.label, Some(truth.label));
        // z order of the dataset = the order synth generated (inferior → superior)
        let got: Vec<&str> = meta
            .slices
            .iter()
            .map(|s| s.sop_instance_uid.as_str())
            .collect();
        let want: Vec<&str> = truth
            .slices
            .iter()
            .map(|s| s.sop_instance_uid.as_str())
            .collect();
        assert_eq!(got, want);
        for s in &meta.slices {
            let (l, sub) = &slice_csv[&s.sop_instance_uid];
            assert_eq!(s.label.unwrap().to_string(), *l);
            assert_eq!(s.subtype.as_deref().unwrap(), sub);
        }
        assert!(meta
            .slices
            .windows(2)
            .all(|w| w[0].z.unwrap() < w[1].z.unwrap()));
        let px = ds.scan_pixels(e).unwrap();
        assert_eq!((px.n_slices, px.size), (12, 32));
    }
}

#[test]
fn same_seed_same_files_other_seed_other_files() {
    let tmp = tempfile::tempdir().unwrap();
    let opts = SynthOptions {
        scans: 2,
        slices: 4,
        size: 32,
        seed: 3,
        ..SynthOptions::default()
    };
    synth(&tmp.path().join("a"), &opts, &Quiet).unwrap();
    synth(&tmp.path().join("b"), &opts, &Quiet).unwrap();
    synth(
        &tmp.path().join("c"),
        &SynthOptions { seed: 4, ..opts },
        &Quiet,
    )
    .unwrap();
    let read_all = |d: &str| {
        let mut files: Vec<_> = walk(&tmp.path().join(d));
        files.sort();
        files
            .iter()
            .map(|p| {
                (
                    p.strip_prefix(tmp.path().join(d)).unwrap().to_path_buf(),
                    fs::read(p).unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(read_all("a"), read_all("b"));
    assert_ne!(read_all("a"), read_all("c"));
}

fn walk(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn bleeds_are_denser_than_brain_on_positive_slices() {
    // Procedural head: on every positive slice, the blood window shows pixels of 50+ HU inside
    // the brain that the neighbouring negative scans do not have. Checked on HU from the DICOM.
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 4,
        slices: 10,
        size: 128,
        seed: 11,
        positive_fraction: 1.0,
        ..SynthOptions::default()
    };
    let scans = synth(&raw, &opts, &Quiet).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for s in &scans {
        assert_eq!(s.label, 1);
        for sl in &s.slices {
            let (_, img) =
                preprocess::read::read_hu(&raw.join(&s.folder).join(&sl.file), true).unwrap();
            // pixels of 48..100 HU: blood (brain tissue is ≤ 40 HU plus ≤ 10 HU noise ~ rarely above)
            let dense = img
                .hu
                .iter()
                .filter(|&&h| (48.0..100.0).contains(&h))
                .count();
            if sl.label == 1 {
                for t in sl.subtype.split(';') {
                    seen.insert(t.to_string());
                }
                assert!(
                    dense >= 3,
                    "{} {}: only {dense} dense pixels",
                    s.folder,
                    sl.subtype
                );
            }
        }
    }
    assert!(!seen.is_empty());
}

#[test]
fn real_head_ct_base_looks_right_in_the_windows() {
    let Some(base) = testkit::shared_data_or_skip("ct/cranium_hu_i16le_108x256x256.raw.gz") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 2,
        slices: 16,
        size: 256,
        seed: 5,
        positive_fraction: 0.5,
        base: Some(base),
        ..SynthOptions::default()
    };
    let scans = synth(&raw, &opts, &Quiet).unwrap();
    assert_eq!(scans.iter().filter(|s| s.label == 1).count(), 1);
    let out = tmp.path().join("ds");
    preprocess(&[raw], &out, &PreprocessOptions::default(), &Quiet).unwrap();
    let ds = Dataset::open(&out).unwrap();
    let n = 256;
    for e in &ds.manifest.scans {
        let px = ds.scan_pixels(e).unwrap();
        // a slice above the ventricles, through the cerebral hemispheres
        let k = px.n_slices * 2 / 3;
        let ch = |c: usize| &px.data[(k * 3 + c) * n * n..(k * 3 + c + 1) * n * n];
        let (brain, blood, soft) = (ch(0), ch(1), ch(2));
        // bone: soft tissue window saturated (> 230 HU) → brain and blood windows saturated too
        let bone: Vec<usize> = (0..n * n).filter(|&i| soft[i] == 255).collect();
        assert!(bone.len() > 1000, "skull present: {}", bone.len());
        assert!(bone.iter().all(|&i| brain[i] == 255 && blood[i] == 255));
        // inside the skull: the central third of the bone's bounding box is brain parenchyma,
        // mid-grey in the brain window: neither black (≤ 0 HU) nor saturated (≥ 80 HU). This CT's
        // white matter reads ≈ 23 HU (73/255); 15–50 HU is 48–160.
        let (mut r0, mut r1, mut c0, mut c1) = (n, 0, n, 0);
        for &i in &bone {
            r0 = r0.min(i / n);
            r1 = r1.max(i / n);
            c0 = c0.min(i % n);
            c1 = c1.max(i % n);
        }
        let (h, w) = (r1 - r0, c1 - c0);
        let mut vals: Vec<u8> = Vec::new();
        for r in r0 + h / 3..r1 - h / 3 {
            for c in c0 + w / 3..c1 - w / 3 {
                vals.push(brain[r * n + c]);
            }
        }
        vals.sort_unstable();
        let median = vals[vals.len() / 2];
        assert!((48..=160).contains(&median), "brain median {median}");
        let black = vals.iter().filter(|&&v| v == 0).count() as f64 / vals.len() as f64;
        assert!(black < 0.05, "brain centre mostly not black: {black}");
        let saturated = vals.iter().filter(|&&v| v == 255).count() as f64 / vals.len() as f64;
        assert!(
            saturated < 0.05,
            "brain centre mostly unsaturated: {saturated}"
        );
    }
}

#[test]
fn synth_draws_only_the_subtypes_asked_for() {
    use preprocess::synth::Subtype;
    let tmp = tempfile::tempdir().unwrap();
    let opts = SynthOptions {
        scans: 6,
        slices: 12,
        size: 64,
        seed: 3,
        positive_fraction: 1.0,
        subtypes: vec![Subtype::Intraparenchymal, Subtype::Subdural],
        ..SynthOptions::default()
    };
    let scans = synth(&tmp.path().join("raw"), &opts, &Quiet).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for s in &scans {
        assert_eq!(s.label, 1);
        for sl in &s.slices {
            for t in sl.subtype.split(';').filter(|t| !t.is_empty()) {
                seen.insert(t.to_string());
            }
        }
    }
    assert!(!seen.is_empty());
    assert!(
        seen.iter()
            .all(|t| t == "intraparenchymal" || t == "subdural"),
        "{seen:?}"
    );
    let none = SynthOptions {
        subtypes: vec![],
        ..opts
    };
    assert!(synth(&tmp.path().join("none"), &none, &Quiet).is_err());
}

/// `--uncompressed` writes the same pixels, stored instead of deflated (larger files).
#[test]
fn uncompressed_datasets_hold_the_same_pixels() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 2,
        slices: 4,
        size: 64,
        seed: 3,
        ..SynthOptions::default()
    };
    synth(&raw, &opts, &Quiet).unwrap();
    let run = |name: &str, uncompressed: bool| {
        let out = tmp.path().join(name);
        let p = PreprocessOptions {
            config: PreprocessConfig {
                size: 32,
                ..PreprocessConfig::default()
            },
            uncompressed,
            ..PreprocessOptions::default()
        };
        preprocess(std::slice::from_ref(&raw), &out, &p, &Quiet).unwrap();
        let ds = Dataset::open(&out).unwrap();
        let mut px: Vec<(String, Vec<u8>, u64)> = ds
            .manifest
            .scans
            .iter()
            .map(|e| {
                let bytes = fs::metadata(out.join(&e.pixels)).unwrap().len();
                (e.id.clone(), ds.scan_pixels(e).unwrap().data, bytes)
            })
            .collect();
        px.sort();
        px
    };
    let (c, u) = (run("c", false), run("u", true));
    assert_eq!(c.len(), 2);
    for ((ic, pc, bc), (iu, pu, bu)) in c.iter().zip(&u) {
        assert_eq!((ic, pc), (iu, pu));
        assert!(bu > bc && *bu as usize > pc.len(), "{bc} vs {bu}");
    }
}

/// `find_scans_in_shard` keeps the headers of its own shard's scans only: over the shards of a
/// cohort every scan comes once, with the same slices in the same order as without shards, and
/// a non-DICOM file is reported by every shard.
#[test]
fn shards_group_only_their_own_scans_and_together_give_every_scan_once() {
    use preprocess::pipeline::{find_scans, find_scans_in_shard};
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 9,
        slices: 3,
        size: 32,
        seed: 3,
        ..SynthOptions::default()
    };
    synth(&raw, &opts, &Quiet).unwrap();
    fs::write(raw.join("notes"), "not a DICOM file").unwrap();
    let inputs = [raw.clone()];
    let (whole, skipped) = find_scans(&inputs, &Quiet).unwrap();
    assert_eq!(whole.len(), 9);
    let paths = |s: &preprocess::scan::Scan| -> Vec<std::path::PathBuf> {
        s.slices.iter().map(|h| h.path.clone()).collect()
    };
    let want: HashMap<String, Vec<std::path::PathBuf>> =
        whole.iter().map(|s| (s.id.clone(), paths(s))).collect();
    let mut seen: HashMap<String, Vec<std::path::PathBuf>> = HashMap::new();
    for index in 0..4 {
        let shard = milbase::Shard { index, count: 4 };
        let (scans, sk) = find_scans_in_shard(&inputs, &Default::default(), shard, &Quiet).unwrap();
        assert_eq!(sk.counts, skipped.counts, "shard {index}");
        for s in &scans {
            assert!(
                shard.contains(&s.id),
                "scan {} is not of shard {index}",
                s.id
            );
            assert!(
                seen.insert(s.id.clone(), paths(s)).is_none(),
                "scan {} twice",
                s.id
            );
        }
    }
    assert_eq!(seen, want);
}

/// A run whose headers spill to disk (more slice files than it holds headers of) writes the
/// dataset the in-memory run writes, byte for byte, reports the same skipped file, and leaves
/// no spill behind; a shard spills alike. Its labels files are read for each bucket of scans,
/// keeping that bucket's rows (`Labels::files`), and label every scan as the whole files do.
#[test]
fn headers_spilled_to_disk_give_the_same_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let opts = SynthOptions {
        scans: 7,
        slices: 3,
        size: 32,
        seed: 5,
        ..SynthOptions::default()
    };
    synth(&raw, &opts, &Quiet).unwrap();
    fs::write(raw.join("notes"), "not a DICOM file").unwrap();
    let label_files = vec![raw.join("labels.csv"), raw.join("slice_labels.csv")];
    let mut whole = Labels::default();
    for f in &label_files {
        whole.load(f).unwrap();
    }
    assert_eq!((whole.n_scans(), whole.n_slices()), (7, 21));
    let options = |most: Option<usize>| PreprocessOptions {
        config: PreprocessConfig {
            size: 16,
            ..PreprocessConfig::default()
        },
        headers_in_memory: most,
        // in memory, every row loaded first; spilled, the files read for each bucket
        labels: match most {
            None => whole.clone(),
            Some(_) => Labels::files(label_files.clone()).unwrap(),
        },
        ..PreprocessOptions::default()
    };
    let run = |name: &str, most: Option<usize>, shard: milbase::Shard| {
        let out = tmp.path().join(name);
        let s = preprocess::pipeline::preprocess_shard(
            std::slice::from_ref(&raw),
            &out,
            &options(most),
            shard,
            &Quiet,
        )
        .unwrap();
        let mut files: Vec<(String, Vec<u8>)> = walk(&out)
            .into_iter()
            .filter(|p| !p.ends_with("dataset.json"))
            .map(|p| {
                let rel = p.strip_prefix(&out).unwrap().display().to_string();
                (rel, fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        let manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(out.join("dataset.json")).unwrap()).unwrap();
        (s, files, manifest["scans"].clone())
    };
    let all = milbase::Shard::ALL;
    let (s1, f1, m1) = run("memory", None, all);
    // 21 slice files, at most 4 headers at once: 6 buckets
    let (s2, f2, m2) = run("spilled", Some(4), all);
    assert_eq!(m1.as_array().unwrap().len(), 7);
    assert!(m1.as_array().unwrap().iter().all(|e| e["label"].is_u64()));
    // a bucket's labels are its scans' rows only
    let (scans, _) = preprocess::pipeline::find_scans(std::slice::from_ref(&raw), &Quiet).unwrap();
    let files = Labels::files(label_files.clone()).unwrap();
    let two = files.for_scans(&scans[..2]).unwrap();
    assert_eq!((two.n_scans(), two.n_slices()), (2, 6));
    // every row is still checked: a bad row of a scan in no bucket fails the run by line
    let bad = tmp.path().join("bad_slice_labels.csv");
    let text = fs::read_to_string(&label_files[1]).unwrap();
    fs::write(&bad, format!("{text}1.2.3.4.5,7,,\n")).unwrap();
    let mut p = options(Some(4));
    p.labels = Labels::files(vec![bad]).unwrap();
    let e = preprocess::pipeline::preprocess_shard(
        std::slice::from_ref(&raw),
        &tmp.path().join("bad"),
        &p,
        all,
        &Quiet,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("bad_slice_labels.csv") && e.contains("line 23"),
        "{e}"
    );
    // a missing file is refused before any scan is read
    assert!(Labels::files(vec![raw.join("no-such.csv")]).is_err());
    assert_eq!(m1, m2);
    assert_eq!(
        f1.iter().map(|f| &f.0).collect::<Vec<_>>(),
        f2.iter().map(|f| &f.0).collect::<Vec<_>>(),
        "a spill file is left, or a file is missing"
    );
    assert!(f1 == f2, "the files differ");
    assert_eq!((s1.slices, s2.slices), (21, 21));
    assert_eq!(s1.skipped.counts, s2.skipped.counts);
    // `notes`, reported once; what synth writes beside the DICOM (labels, synth.json) passed over
    let not_dicom = walk(&raw)
        .iter()
        .filter(|p| p.extension().is_none_or(|e| e != "dcm"))
        .filter(|p| !preprocess::pipeline::is_sidecar(p))
        .count();
    assert_eq!(not_dicom, 1);
    assert_eq!(s2.skipped.counts.values().sum::<usize>(), not_dicom);
    // one shard of two, spilled: the same scans as that shard in memory
    let half = milbase::Shard { index: 1, count: 2 };
    let (_, f3, m3) = run("half-memory", None, half);
    let (_, f4, m4) = run("half-spilled", Some(2), half);
    assert_eq!(m3, m4);
    assert!(f3 == f4);
}
