//! Entry points that take any bytes and must never panic, abort or allocate without bound: the
//! bodies of the `cargo fuzz` targets (`fuzz/`) and of the test that replays every input the
//! fuzzers ever found (`tests/fuzz_regressions.rs`). Each writes the bytes where the product
//! reads them from (a file in `scratch`), then runs the product's own reader on it — and, when
//! the reader accepts, what the product does next with what it read.

use std::fs;
use std::io;
use std::path::Path;

/// Cuts `data` at `0xFF 0xFE` pairs into `n` parts (several files from one input).
pub fn parts(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(n);
    let mut rest = data;
    while out.len() + 1 < n {
        match rest.windows(2).position(|w| w == [0xFF, 0xFE]) {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + 2..];
            }
            None => break,
        }
    }
    out.push(rest);
    while out.len() < n {
        out.push(&[]);
    }
    out
}

/// The DICOM reader and decoders: `data` as one file, its header read (grouping) and its pixels
/// decoded to Hounsfield units.
pub fn dicom(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("slice.dcm");
    fs::write(&p, data)?;
    let _ = preprocess::read::read_header(&p);
    let _ = preprocess::read::read_hu(&p, true);
    Ok(())
}

/// The dataset reader: `dataset.json`, a scan's JSON (`scans/a.json`) and its pixels
/// (`scans/a.npz`) from the three parts of `data`; every scan the manifest lists is read.
pub fn dataset(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let root = scratch.join("ds");
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("scans"))?;
    let p = parts(data, 3);
    fs::write(root.join("dataset.json"), p[0])?;
    fs::write(root.join("scans/a.json"), p[1])?;
    fs::write(root.join("scans/a.npz"), p[2])?;
    if let Ok(ds) = preprocess::Dataset::open(&root) {
        for e in ds.manifest.scans.iter().take(4) {
            let _ = ds.scan_meta(e);
            let _ = ds.scan_pixels(e);
        }
    }
    Ok(())
}

/// The features reader (features CSV, ich-features, MIL benchmark tables) and the splits reader;
/// an accepted table is standardised, as `fit-gp` does first.
pub fn features(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("features.csv");
    fs::write(&p, data)?;
    if let Ok(d) = crate::features::read(&p) {
        let _ = gphead::Standardizer::fit(&d);
    }
    let _ = crate::features::read_splits(&p);
    Ok(())
}

/// The model bundle: `manifest.json`, `config.json` and `gp.json` from the three parts of `data`.
pub fn bundle(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let dir = scratch.join("bundle");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    let p = parts(data, 3);
    fs::write(dir.join("manifest.json"), p[0])?;
    fs::write(dir.join("config.json"), p[1])?;
    fs::write(dir.join("gp.json"), p[2])?;
    let _ = crate::bundle::Bundle::open(&dir);
    Ok(())
}

/// The GP model loader; a model it accepts (D ≤ 64, M ≤ 256) predicts three instances.
pub fn gp_model(scratch: &Path, data: &[u8]) -> io::Result<()> {
    let p = scratch.join("gp.json");
    fs::write(&p, data)?;
    let Ok(m) = gphead::GpModel::load(&p) else {
        return Ok(());
    };
    if m.d == 0 || m.d > 64 || m.m() > 256 {
        return Ok(());
    }
    let n = 3;
    let x: Vec<f64> = (0..n * m.d).map(|i| (i % 7) as f64 - 3.0).collect();
    let names: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    if let Ok(d) =
        gphead::MilData::from_instances(m.d, x, vec!["b".into(); n], vec![1; n], None, names)
    {
        let _ = m.predict(&d, 8, 0);
    }
    Ok(())
}

/// A fuzz target's body: a scratch folder and the input.
pub type Target = fn(&Path, &[u8]) -> io::Result<()>;

/// The targets by name, for the replay test.
pub fn by_name(name: &str) -> Option<Target> {
    Some(match name {
        "dicom" => dicom,
        "dataset" => dataset,
        "features" => features,
        "bundle" => bundle,
        "gp_model" => gp_model,
        _ => return None,
    })
}
