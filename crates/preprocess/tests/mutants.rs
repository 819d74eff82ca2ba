//! The deterministic mutation campaign CI runs (docs/ROBUSTNESS.md): 5,000 mutants of the shared
//! pydicom corpus and of `synth` slices (fixed seed), in batches of 50, each batch beside one clean
//! scan, through the whole of `preprocess`. Asserts, for every batch: the run ends with `Ok`, the
//! clean scan is in the dataset, no file reached a decoder panic (not even a caught one); and for
//! the whole campaign: the process's peak resident memory (`VmHWM` of `/proc/self/status`) stays
//! under 256 MiB (the issue asks < 1 GiB; unpatched dicom-object reached 865 MiB on one 3 kB file
//! of this campaign). This file is its own test binary, so the peak is this campaign's alone.
//! `MUTANTS_DEBUG=1` copies the first mutant of a batch that raises the peak by 50 MiB to /tmp.

use std::fs;
use std::path::{Path, PathBuf};

use dicom_core::{DataElement, PrimitiveValue, VR};
use dicom_dictionary_std::{tags, uids};
use preprocess::synth::{synth, SynthOptions};
use preprocess::{preprocess, Dataset, PreprocessConfig, PreprocessOptions, Quiet};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MUTANTS: usize = 5000;
const BATCH: usize = 50;
const SEED: u64 = 20261122;

/// Transfer syntaxes a structural mutant may claim.
const SYNTAXES: [&str; 9] = [
    uids::RLE_LOSSLESS,
    uids::JPEG_BASELINE8_BIT,
    uids::JPEG_LOSSLESS_SV1,
    uids::JPEG2000_LOSSLESS,
    uids::JPEGLS_LOSSLESS,
    uids::EXPLICIT_VR_LITTLE_ENDIAN,
    uids::IMPLICIT_VR_LITTLE_ENDIAN,
    "1.2.840.10008.1.2.2", // explicit VR big endian (retired)
    uids::DEFLATED_EXPLICIT_VR_LITTLE_ENDIAN,
];

const U32S: [u32; 7] = [
    0xFFFF_FFFF,
    0xFFFF_FFFE,
    0x7FFF_FFFF,
    0x8000_0000,
    0x0001_0000,
    0,
    64,
];

/// One mutant of `seeds` (byte-level or, for a parseable seed, through the DICOM object).
fn mutate(rng: &mut ChaCha8Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut b = seeds[rng.random_range(0..seeds.len())].clone();
    let n = b.len().max(1);
    match rng.random_range(0..8) {
        0 => {
            for _ in 0..rng.random_range(1..=8) {
                let i = rng.random_range(0..n);
                if let Some(x) = b.get_mut(i) {
                    *x ^= 1 << rng.random_range(0..8);
                }
            }
        }
        1 => {
            for _ in 0..rng.random_range(1..=4) {
                let i = rng.random_range(0..n);
                if let Some(x) = b.get_mut(i) {
                    *x = [0x00, 0xFF, 0x7F, 0x80][rng.random_range(0..4)];
                }
            }
        }
        2 => {
            // a length or count field: aligned 4 bytes set to an extreme value
            if b.len() >= 8 {
                let i = rng.random_range(0..b.len() / 2 - 2) * 2;
                let v = U32S[rng.random_range(0..U32S.len())];
                b[i..i + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        3 => b.truncate(rng.random_range(0..n)),
        4 => {
            let i = rng.random_range(0..n);
            let j = (i + rng.random_range(1..=256)).min(b.len());
            b.drain(i.min(b.len())..j);
        }
        5 => {
            let i = rng.random_range(0..n);
            let j = (i + rng.random_range(1..=256)).min(b.len());
            let chunk = b.get(i..j).unwrap_or_default().to_vec();
            let at = rng.random_range(0..n).min(b.len());
            b.splice(at..at, chunk);
        }
        6 => {
            let other = &seeds[rng.random_range(0..seeds.len())];
            let cut = rng.random_range(0..n).min(b.len());
            let from = rng.random_range(0..other.len().max(1)).min(other.len());
            b.truncate(cut);
            b.extend_from_slice(&other[from..]);
        }
        _ => return structural(rng, b),
    }
    b
}

/// Header lies told through dicom-object: another transfer syntax over the same pixel data, or
/// Rows / Columns / SamplesPerPixel / BitsAllocated / NumberOfFrames changed.
fn structural(rng: &mut ChaCha8Rng, bytes: Vec<u8>) -> Vec<u8> {
    let Some(Ok(mut obj)) = bytes
        .get(128..)
        .map(|b| dicom_object::OpenFileOptions::new().from_reader(b))
    else {
        return bytes;
    };
    match rng.random_range(0..6) {
        0 => {
            let ts = SYNTAXES[rng.random_range(0..SYNTAXES.len())];
            obj.update_meta(|m| m.transfer_syntax = ts.to_string());
        }
        k => {
            let tag = [
                tags::ROWS,
                tags::COLUMNS,
                tags::SAMPLES_PER_PIXEL,
                tags::BITS_ALLOCATED,
                tags::NUMBER_OF_FRAMES,
            ][k - 1];
            let v: u16 = [0, 1, 2, 3, 8, 12, 16, 32, 255, 4096, 65535][rng.random_range(0..11)];
            let value = if tag == tags::NUMBER_OF_FRAMES {
                DataElement::new(tag, VR::IS, PrimitiveValue::from(v.to_string()))
            } else {
                DataElement::new(tag, VR::US, PrimitiveValue::from(v))
            };
            obj.put(value);
        }
    }
    let mut out = Vec::new();
    // a lie dicom-object itself cannot write (e.g. pixel data it cannot re-encode) stays unmade
    match obj.write_all(&mut out) {
        Ok(()) => out,
        Err(_) => bytes,
    }
}

/// Peak resident memory of this process, bytes (Linux).
fn peak_rss() -> Option<u64> {
    let s = fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn dicom_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "dcm"))
        .collect();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
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
fn five_thousand_mutants_never_panic_stay_under_256_mib_and_lose_no_clean_scan() {
    let t = tempfile::tempdir().unwrap();
    // two synthetic scans: the clean one of every batch, and one whose slices seed mutants (its
    // own UIDs, so that a mutant never joins the clean scan)
    let raw = t.path().join("synth");
    synth(
        &raw,
        &SynthOptions {
            scans: 2,
            slices: 4,
            size: 32,
            seed: 3,
            ..SynthOptions::default()
        },
        &Quiet,
    )
    .unwrap();
    let mut folders: Vec<PathBuf> = fs::read_dir(&raw)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let (clean, seed_scan) = (&folders[0], &folders[1]);
    let clean_files = dicom_files(clean);
    let mut seeds: Vec<Vec<u8>> = dicom_files(seed_scan)
        .iter()
        .map(|p| fs::read(p).unwrap())
        .collect();
    if let Some(d) = testkit::shared_data_or_skip("dicom") {
        seeds.extend(
            dicom_files(&d)
                .iter()
                .map(|p| fs::read(p).unwrap())
                .filter(|b| b.len() > 132),
        );
    }
    let opts = PreprocessOptions {
        config: PreprocessConfig {
            size: 16,
            ..PreprocessConfig::default()
        },
        ..PreprocessOptions::default()
    };
    // the clean scan's id, from a run on it alone
    let alone = t.path().join("alone");
    preprocess(std::slice::from_ref(clean), &alone, &opts, &Quiet).unwrap();
    let clean_id = Dataset::open(&alone).unwrap().manifest.scans[0].id.clone();

    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut skipped_total = 0;
    for batch in 0..MUTANTS / BATCH {
        let input = t.path().join(format!("in{batch}"));
        fs::create_dir_all(&input).unwrap();
        for (k, f) in clean_files.iter().enumerate() {
            fs::copy(f, input.join(format!("clean{k}.dcm"))).unwrap();
        }
        for i in 0..BATCH {
            fs::write(input.join(format!("m{i:02}.dcm")), mutate(&mut rng, &seeds)).unwrap();
        }
        if std::env::var_os("MUTANTS_DEBUG").is_some() {
            let before = peak_rss().unwrap();
            for i in 0..BATCH {
                let p = input.join(format!("m{i:02}.dcm"));
                let _ = preprocess::read::read_hu(&p, true);
                let after = peak_rss().unwrap();
                if after > before + (50 << 20) {
                    eprintln!("batch {batch} m{i:02}: peak {} MiB", after >> 20);
                    fs::copy(&p, format!("/tmp/mut_{batch}_{i}.dcm")).unwrap();
                    break;
                }
            }
        }
        let out = t.path().join(format!("out{batch}"));
        let s = preprocess(std::slice::from_ref(&input), &out, &opts, &Quiet)
            .unwrap_or_else(|e| panic!("batch {batch}: the run failed: {e}"));
        let ds = Dataset::open(&out).unwrap();
        assert!(
            ds.manifest.scans.iter().any(|s| s.id == clean_id),
            "batch {batch}: the clean scan is missing ({:?})",
            s.skipped.counts
        );
        let panicked: Vec<&String> = s
            .skipped
            .files
            .iter()
            .filter(|f| f.contains("the decoder failed"))
            .collect();
        assert!(
            panicked.is_empty(),
            "batch {batch}: decoder panics {panicked:?}"
        );
        skipped_total += s.skipped.files.len();
        // keep the disk small: a batch's files are not needed after it
        fs::remove_dir_all(&input).unwrap();
        fs::remove_dir_all(&out).unwrap();
    }
    // most mutants are refused, some still read (a flipped bit in a pixel)
    assert!(
        skipped_total > MUTANTS / 4,
        "only {skipped_total} files refused"
    );
    if let Some(peak) = peak_rss() {
        assert!(peak < 256 << 20, "peak resident memory {peak} bytes");
        eprintln!(
            "{MUTANTS} mutants, {skipped_total} refused; peak resident memory {:.0} MiB",
            peak as f64 / (1 << 20) as f64
        );
    }
}
