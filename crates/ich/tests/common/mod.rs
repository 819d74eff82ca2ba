//! Running the real `ich` binary from integration tests.
#![allow(dead_code)]

pub mod browser;
pub mod orthanc;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `ich` with warnings-only logging.
pub fn ich(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ich"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run ich")
}

/// Standard output and error together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `ich`, asserting success; returns its output.
pub fn ok(args: &[&str]) -> String {
    let o = ich(args);
    let t = text(&o);
    assert!(o.status.success(), "ich {args:?} failed:\n{t}");
    t
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `ich synth` of `scans` scans of `slices` slices, `size`² pixels, into `raw`.
pub fn synth(raw: &Path, scans: &str, slices: &str, size: &str, seed: &str) {
    ok(&[
        "-q",
        "synth",
        "--out",
        s(raw),
        "--scans",
        scans,
        "--slices",
        slices,
        "--size",
        size,
        "--seed",
        seed,
    ]);
}

/// `ich preprocess` of `raw` (with its scan and slice labels) into `ds` at `size`², plus `extra`
/// options.
pub fn preprocess(raw: &Path, ds: &Path, size: &str, extra: &[&str]) {
    let (labels, slice_labels) = (raw.join("labels.csv"), raw.join("slice_labels.csv"));
    let mut args = vec![
        "-q",
        "preprocess",
        s(raw),
        "--out",
        s(ds),
        "--size",
        size,
        "--labels",
        s(&labels),
        "--labels",
        s(&slice_labels),
    ];
    args.extend_from_slice(extra);
    ok(&args);
}

/// `scans` synthetic scans of 6 slices (64², seed `seed`) in `t/raw`, and a [`small_bundle`]
/// trained on them in `t/bundle`: (raw, bundle).
pub fn cohort_and_bundle(
    t: &Path,
    scans: &str,
    seed: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let raw = t.join("raw");
    synth(&raw, scans, "6", "64", seed);
    let ds = t.join("ds");
    preprocess(&raw, &ds, "32", &[]);
    let bundle = t.join("bundle");
    small_bundle(&ds, &bundle);
    (raw, bundle)
}

/// A small bundle on dataset `ds`: the CNN (D = 8) trained one epoch, its features, a VGPMIL head
/// with 8 inducing points (the mechanics of prediction, not its accuracy).
pub fn small_bundle(ds: &Path, bundle: &Path) {
    small_cnn(ds, bundle);
    gp_head(
        bundle,
        ds,
        &bundle.with_extension("features.csv"),
        &["--inducing", "8"],
    );
}

/// The CNN of [`small_bundle`] alone: D = 8, one epoch on `ds`, into `bundle`.
pub fn small_cnn(ds: &Path, bundle: &Path) {
    ok(&[
        "-q",
        "train-cnn",
        "--dataset",
        s(ds),
        "--out",
        s(bundle),
        "--dim",
        "8",
        "--epochs",
        "1",
    ]);
}

/// Extracts the features of `ds` with `bundle`'s CNN into `feats` and fits a GP head into the
/// bundle with `ich fit-gp` and the options `fit`.
pub fn gp_head(bundle: &Path, ds: &Path, feats: &Path, fit: &[&str]) {
    ok(&[
        "-q",
        "extract",
        "--model",
        s(bundle),
        "--dataset",
        s(ds),
        "--out",
        s(feats),
    ]);
    let mut args = vec![
        "-q",
        "fit-gp",
        "--features",
        s(feats),
        "--bundle",
        s(bundle),
    ];
    args.extend_from_slice(fit);
    ok(&args);
}

/// The rows of a CSV file, each as column → text.
pub fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// ROC AUC by counting pairs, ties counting half (independent of the crates' implementation).
pub fn pair_auc(labels: &[u8], scores: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (i, &li) in labels.iter().enumerate() {
        for (j, &lj) in labels.iter().enumerate() {
            if li == 1 && lj == 0 {
                den += 1.0;
                num += if scores[i] > scores[j] {
                    1.0
                } else if scores[i] == scores[j] {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    num / den
}

/// A DICOM element's text without its NUL padding.
pub fn element_text(o: &dicom_object::DefaultDicomObject, tag: dicom_core::Tag) -> String {
    o.element(tag)
        .unwrap()
        .to_str()
        .unwrap()
        .trim_end_matches('\0')
        .to_string()
}

/// Grey levels of an 8-bit greyscale JPEG, with its height and width.
pub fn gray(p: &Path) -> (Vec<u8>, usize, usize) {
    let mut d =
        jpeg_decoder::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    let px = d.decode().unwrap();
    let info = d.info().unwrap();
    assert_eq!(
        info.pixel_format,
        jpeg_decoder::PixelFormat::L8,
        "{}",
        p.display()
    );
    (px, info.height as usize, info.width as usize)
}

/// One ct-ich patient's slices at `size`² as `to_dicom.py` rebuilds them: (slice number,
/// slice label, Hounsfield units rounded to the int16 a file stores), in the authors' order.
pub fn ct_ich_hu(src: &Path, pt: u32, size: usize) -> Vec<(u32, u8, Vec<i16>)> {
    let rows = std::fs::read_to_string(src.join("hemorrhage_diagnosis.csv")).unwrap();
    let rows = rows.trim_start_matches('\u{feff}');
    let mut slice_label: BTreeMap<(u32, u32), u8> = BTreeMap::new();
    for line in rows.lines().skip(1) {
        let f: Vec<u32> = line.split(',').map(|x| x.trim().parse().unwrap()).collect();
        // PatientNumber, SliceNumber, 5 subtypes, No_Hemorrhage, Fracture
        slice_label.insert((f[0], f[1]), 1 - f[7] as u8);
    }
    let folder = src.join("Patients_CT").join(format!("{pt:03}"));
    let mut out = Vec::new();
    for (&(p, n), &y) in slice_label.range((pt, 0)..(pt + 1, 0)) {
        assert_eq!(p, pt);
        let (brain, bone) = (
            folder.join("brain").join(format!("{n}.jpg")),
            folder.join("bone").join(format!("{n}.jpg")),
        );
        if !brain.exists() || !bone.exists() {
            continue;
        }
        let (b, rows, cols) = gray(&brain);
        let (o, _, _) = gray(&bone);
        let hu: Vec<f32> = b
            .iter()
            .zip(&o)
            .map(|(&b, &o)| {
                if b > 2 && b < 253 {
                    -20.0 + b as f32 * 120.0 / 255.0
                } else {
                    -900.0 + o as f32 * 3200.0 / 255.0
                }
            })
            .collect();
        let hu = preprocess::resample::resize(&hu, rows, cols, size, size);
        let hu = hu
            .iter()
            .map(|&h| h.clamp(-1024.0, 3071.0).round() as i16)
            .collect();
        out.push((n, y, hu));
    }
    out
}

/// `to_dicom.py` of the given patients at `size`²: one series per patient, `labels.csv` (scan,
/// study and series UID, label) and `slice_labels.csv` (scan, SOP instance UID, label). Returns
/// the patients' scan labels.
pub fn ct_ich_dicom(src: &Path, out: &Path, patients: &[u32], size: usize) -> BTreeMap<u32, u8> {
    let mut scans = String::from("scan,study_instance_uid,series_instance_uid,label,subtypes\n");
    let mut slices = String::from("scan,sop_instance_uid,label,subtype\n");
    let mut labels = BTreeMap::new();
    for &pt in patients {
        let scan = format!("ctich_{pt:03}");
        let (study, series) = (format!("2.25.{}1", pt), format!("2.25.{}2", pt));
        let dir = out.join(&scan);
        std::fs::create_dir_all(&dir).unwrap();
        let mut label = 0;
        for (n, y, hu) in ct_ich_hu(src, pt, size) {
            let sop = format!("2.25.{pt}{n:03}3");
            let slice = preprocess::ctwriter::CtSlice {
                study_uid: study.clone(),
                series_uid: series.clone(),
                sop_uid: sop.clone(),
                frame_of_reference_uid: format!("2.25.{pt}4"),
                patient_name: scan.clone(),
                patient_id: scan.clone(),
                instance_number: Some(n as i32),
                position: Some([0.0, 0.0, 5.0 * n as f64]),
                pixel_spacing: [250.0 / size as f64; 2],
                rows: size as u16,
                cols: size as u16,
                stored: hu.iter().map(|&h| h as i32 + 1024).collect(),
                ..Default::default()
            };
            std::fs::write(dir.join(format!("{n:03}.dcm")), slice.to_bytes().unwrap()).unwrap();
            slices.push_str(&format!("{scan},{sop},{y},\n"));
            label |= y;
        }
        scans.push_str(&format!("{scan},{study},{series},{label},\n"));
        labels.insert(pt, label);
    }
    std::fs::write(out.join("labels.csv"), scans).unwrap();
    std::fs::write(out.join("slice_labels.csv"), slices).unwrap();
    labels
}

/// How [`ct_ich_nifti`] stores a volume.
#[derive(Debug, Clone, Copy)]
pub enum Storage {
    /// As DICOM: i toward the patient's left, j posterior, k superior (`.nii.gz`, int16 HU).
    Lps,
    /// i toward the right, j anterior (both in-plane axes reversed; `.nii`, stored HU + 1024
    /// with scl_inter −1024).
    Ras,
    /// LPS with k running head to feet (`.nii.gz`).
    HeadFirst,
}

/// The same HU volumes as [`ct_ich_dicom`], one NIfTI file per patient (`ctich_NNN.nii.gz` or
/// `.nii`) stored as `storage(patient)` says, with `labels.csv` (`nifti,label`) and
/// `slice_labels.csv` (`nifti,slice,label`, the slice's index in the file). Returns each
/// patient's file name.
pub fn ct_ich_nifti(
    src: &Path,
    out: &Path,
    patients: &[u32],
    size: usize,
    storage: impl Fn(u32) -> Storage,
) -> BTreeMap<u32, String> {
    std::fs::create_dir_all(out).unwrap();
    let mut scans = String::from("nifti,label\n");
    let mut slices = String::from("nifti,slice,label\n");
    let mut names = BTreeMap::new();
    let mm = 250.0 / size as f64;
    for &pt in patients {
        let st = storage(pt);
        let vol = ct_ich_hu(src, pt, size);
        let n = vol.len();
        let name = match st {
            Storage::Ras => format!("ctich_{pt:03}.nii"),
            _ => format!("ctich_{pt:03}.nii.gz"),
        };
        let mut v = vec![0i16; size * size * n];
        let mut label = 0;
        for (t, (_, y, hu)) in vol.iter().enumerate() {
            let k = match st {
                Storage::HeadFirst => n - 1 - t,
                _ => t,
            };
            for r in 0..size {
                for c in 0..size {
                    let (i, j, x) = match st {
                        Storage::Ras => (size - 1 - c, size - 1 - r, hu[r * size + c] + 1024),
                        _ => (c, r, hu[r * size + c]),
                    };
                    v[i + size * (j + size * k)] = x;
                }
            }
            slices.push_str(&format!("{name},{k},{y}\n"));
            label |= y;
        }
        // where the DICOM series of the same patient puts its slices: 5 mm × slice number
        assert!(vol.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{pt}: gaps");
        let z0 = 5.0 * vol[0].0 as f64;
        let far = (size - 1) as f64 * mm;
        let (affine, inter) = match st {
            Storage::Lps => (
                [
                    [-mm, 0.0, 0.0, 0.0],
                    [0.0, -mm, 0.0, 0.0],
                    [0.0, 0.0, 5.0, z0],
                ],
                0.0,
            ),
            Storage::Ras => (
                [
                    [mm, 0.0, 0.0, -far],
                    [0.0, mm, 0.0, -far],
                    [0.0, 0.0, 5.0, z0],
                ],
                -1024.0,
            ),
            Storage::HeadFirst => (
                [
                    [-mm, 0.0, 0.0, 0.0],
                    [0.0, -mm, 0.0, 0.0],
                    [0.0, 0.0, -5.0, z0 + 5.0 * (n - 1) as f64],
                ],
                0.0,
            ),
        };
        testkit::nifti::write_int16(&out.join(&name), [size, size, n], &v, &affine, 1.0, inter)
            .unwrap();
        scans.push_str(&format!("{name},{label}\n"));
        names.insert(pt, name);
    }
    std::fs::write(out.join("labels.csv"), scans).unwrap();
    std::fs::write(out.join("slice_labels.csv"), slices).unwrap();
    names
}

/// A features file of `bags` bags of 6 slices, D = 3: positive bags carry one slice shifted by +4
/// on feature 0 (a deterministic pattern, no RNG), every slice's feature 0 moved by `shift`
/// (another site).
pub fn features_shifted(bags: usize, shift: f64) -> String {
    let mut s = String::from(
        "feature_0,feature_1,feature_2,instance_label,instance_name,bag_name,bag_label\n",
    );
    for b in 0..bags {
        let label = b % 2;
        for i in 0..6 {
            let pos = label == 1 && i == 2;
            let f0 =
                ((b * 7 + i * 3) % 11) as f64 / 11.0 - 0.5 + if pos { 4.0 } else { 0.0 } + shift;
            let f1 = ((b * 5 + i) % 13) as f64 / 13.0;
            let f2 = ((b + i * 11) % 17) as f64 / 17.0;
            s.push_str(&format!(
                "{f0},{f1},{f2},{},s{b}_{i},scan{b},{label}\n",
                u8::from(pos)
            ));
        }
    }
    s
}

/// Limits each file `cmd`'s process writes to `limit` bytes (`RLIMIT_FSIZE`, `SIGXFSZ` ignored):
/// a write past it fails with "File too large", as on a full disk.
pub fn limit_file_size(cmd: &mut Command, limit: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only async-signal-safe calls between fork and exec
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let r = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &r) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A lock file as another ich process on another host (`node-b`, another token) writes it when
/// it takes a folder over: what a test puts in place of a run's own lock during the run.
pub fn foreign_lock() -> Vec<u8> {
    let mut b = format!(
        "ich-lock 1\ncommand=serve\nhost=node-b\nboot=b\npidns=pid:[1]\npid=7\nstart=1\ntoken={}\nbeat=0\n",
        "f".repeat(32)
    )
    .into_bytes();
    b.resize(512, b' ');
    b
}
