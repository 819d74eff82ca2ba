//! Decoding a scan: its slices read in z order, in Hounsfield units, windowed into channels and
//! resampled to the model's size, checked on the way (duplicates, one patient); kept whole, as
//! pictures for the pages, or streamed a slice at a time.

use std::path::Path;
use std::sync::Mutex;

use tracing::warn;

use crate::dataset::{self, PreprocessConfig, ScanMeta, Skipped, FORMAT_VERSION};
use crate::error::{Error, FileError, Result};
use crate::labels::Labels;
use crate::read::{read_hu_within, HuImage, Limits, SliceHeader};
use crate::resample::resize_filter;
use crate::scan::Scan;
use crate::source::VolumeFormat;
use crate::view::SliceView;
use crate::window::window_u8;

use super::*;

/// Windows and resamples one decoded slice into `out` (`[3][size][size]` bytes), in the
/// config's order ([`PreprocessConfig::window_first`]).
pub fn slice_to_channels(img: &HuImage, config: &PreprocessConfig, out: &mut Vec<u8>) {
    if config.window_first && (img.rows, img.cols) != (config.size, config.size) {
        for c in windowed_then_resized(img, config) {
            out.extend(c.iter().map(|&v| crate::window::to_u8(v.clamp(0.0, 1.0))));
        }
        return;
    }
    let hu = resize_filter(
        &config.filter,
        &img.hu,
        img.rows,
        img.cols,
        config.size,
        config.size,
    );
    window_u8(&hu, &config.windows, out);
}

/// Windows and resamples one decoded slice into `out` (`[3][size][size]` floats in [0, 1]), in
/// the config's order.
pub fn slice_to_float_channels(img: &HuImage, config: &PreprocessConfig, out: &mut Vec<f32>) {
    if config.window_first {
        for c in windowed_then_resized(img, config) {
            out.extend(c);
        }
        return;
    }
    let hu = resize_filter(
        &config.filter,
        &img.hu,
        img.rows,
        img.cols,
        config.size,
        config.size,
    );
    for w in &config.windows.0 {
        out.extend(hu.iter().map(|&h| w.apply(h)));
    }
}

/// Each window of the slice's Hounsfield units, resampled to the config's size: the order of
/// `cv2.resize(bsb_window(dcm), …)`.
pub(super) fn windowed_then_resized(img: &HuImage, config: &PreprocessConfig) -> Vec<Vec<f32>> {
    config
        .windows
        .0
        .iter()
        .map(|w| {
            let v: Vec<f32> = img.hu.iter().map(|&h| w.apply(h)).collect();
            resize_filter(
                &config.filter,
                &v,
                img.rows,
                img.cols,
                config.size,
                config.size,
            )
        })
        .collect()
}

pub(super) fn process_scan(
    scan: &Scan,
    out: &Path,
    (opts, labels): (&PreprocessOptions, &Labels),
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, bool)> {
    let meta_path = out.join("scans").join(format!("{}.json", scan.id));
    let pixels = format!("scans/{}.npz", scan.id);
    let fingerprint = opts.config.fingerprint();
    if !opts.force && meta_path.exists() {
        if let Ok(mut meta) = dataset::read_json::<ScanMeta>(&meta_path) {
            let complete = meta.config_fingerprint == fingerprint
                && meta.format_version == FORMAT_VERSION
                && out.join(&meta.pixels).exists()
                && meta.slices.len() == scan.rows();
            if complete {
                let before = meta.clone();
                apply_labels(&mut meta, labels).map_err(Error::Invalid)?;
                if meta != before {
                    dataset::write_json(&meta_path, &meta)?;
                }
                progress.inc(scan.slices.len() as u64);
                return Ok((meta, true));
            }
        }
    }
    let (mut meta, data) = decode_scan(
        scan,
        &opts.config,
        &opts.limits,
        opts.keep_phi,
        progress,
        skipped,
    )?;
    meta.pixels = pixels.clone();
    let size = opts.config.size;
    let kept = meta.n_slices;
    apply_labels(&mut meta, labels).map_err(Error::Invalid)?;
    dataset::write_npz_with(
        &out.join(&pixels),
        &[kept, 3, size, size],
        &data,
        !opts.uncompressed,
    )?;
    dataset::write_json(&meta_path, &meta)?;
    Ok((meta, false))
}

/// Decodes, windows and resamples every slice of one scan in memory: its metadata (without
/// labels; `pixels` is empty) and uint8 `[slices, 3, size, size]`. Slices that fail to decode are
/// recorded in `skipped`, named in the scan's warnings and left out.
pub fn decode_scan(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<u8>)> {
    decode_scan_with(
        scan,
        config,
        limits,
        keep_phi,
        progress,
        skipped,
        Output {
            channels: slice_to_channels,
            views: None,
            stream: None,
        },
    )
}

/// As [`decode_scan`], with each kept slice at the source's own resolution as well (a
/// [`SliceView`] a slice, in the same order), for the pictures a reader is shown.
pub fn decode_scan_viewed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<u8>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_channels, None),
    )
}

/// As [`decode_scan_viewed`], but the windowed intensities stay floats in [0, 1] (not
/// quantised to bytes): for networks whose reference numbers were computed on exact window
/// values.
pub fn decode_scan_float_viewed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
) -> Result<(ScanMeta, Vec<f32>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_float_channels, None),
    )
}

/// A scan decoded with `channels`, with each kept slice's [`SliceView`]; with `stream`, the
/// decoded slices handed over a few at a time instead of returned.
pub(super) fn viewed<T: Copy + Default>(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    (progress, skipped): (&dyn Progress, &Mutex<Skipped>),
    (channels, stream): (Channels<T>, Option<Stream<'_, T>>),
) -> Result<(ScanMeta, Vec<T>, Vec<SliceView>)> {
    let mut views = Vec::new();
    let (meta, data) = decode_scan_with(
        scan,
        config,
        limits,
        keep_phi,
        progress,
        skipped,
        Output {
            channels,
            views: Some(&mut views),
            stream,
        },
    )?;
    Ok((meta, data, views))
}

/// As [`decode_scan_float_viewed`], with the windowed floats handed to `take` `every` slices at
/// a time, in order, instead of held for the whole scan (a 238-slice series of 512² holds 748 MB
/// of them): a network that encodes slices a few at a time needs no more. The returned floats
/// are what was not handed over: none for a DICOM series, the whole volume for a volume file
/// (read in its own order). Slices that fail to decode are left out as by the other decoders.
pub fn decode_scan_float_streamed(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    (progress, skipped): (&dyn Progress, &Mutex<Skipped>),
    every: usize,
    take: &mut dyn FnMut(&[f32]) -> Result<()>,
) -> Result<(ScanMeta, Vec<f32>, Vec<SliceView>)> {
    viewed(
        scan,
        config,
        limits,
        keep_phi,
        (progress, skipped),
        (slice_to_float_channels, Some(Stream { every, take })),
    )
}

/// Files that repeat a SOPInstanceUID must repeat its pixels too: a file with a genuine slice's
/// UID but other pixels (a replaced or tampered slice) makes the scan an error naming both files,
/// since which of them is genuine cannot be told. A repeat that cannot be decoded is left out.
pub(super) fn check_duplicates(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
) -> Result<()> {
    for (first, dup) in &scan.duplicates {
        let (Ok((_, a)), Ok((_, b))) = (
            read_hu_within(first, config.rsna_fix, limits),
            read_hu_within(dup, config.rsna_fix, limits),
        ) else {
            continue;
        };
        if (a.rows, a.cols) != (b.rows, b.cols) || a.hu != b.hu {
            return Err(Error::Invalid(format!(
                "{} and {} hold the same SOPInstanceUID with different pixel data; which one is \
                 genuine cannot be told, so the scan is not used (remove the wrong file)",
                first.display(),
                dup.display()
            )));
        }
    }
    Ok(())
}

/// A scan is one patient's: slices of one series whose PatientID differs (a missing one counts
/// as empty) make the scan an error naming a file of each, since a result would name one patient
/// and describe the other's images. The message names files, never the IDs (they are PHI).
pub fn check_one_patient(scan: &Scan) -> Result<()> {
    let pid = |h: &SliceHeader| h.patient_id.as_deref().unwrap_or("").trim().to_string();
    let Some(first) = scan.slices.first() else {
        return Ok(());
    };
    let want = pid(first);
    if let Some(other) = scan.slices.iter().find(|h| pid(h) != want) {
        let n: std::collections::BTreeSet<String> = scan.slices.iter().map(pid).collect();
        return Err(Error::Invalid(format!(
            "{} and {} are slices of one series (StudyInstanceUID and SeriesInstanceUID alike) \
             with different PatientIDs ({} patients in the series); a result would name one \
             patient and show the other's images, so the scan is not used",
            first.path.display(),
            other.path.display(),
            n.len()
        )));
    }
    Ok(())
}

/// How a decoded slice becomes the output's values (windowed channels, as bytes or floats).
pub(super) type Channels<T> = fn(&HuImage, &PreprocessConfig, &mut Vec<T>);

/// What a decoded scan becomes: each slice's channels (bytes or floats), and where wanted each
/// slice at its own resolution.
pub(super) struct Output<'v, 's, T> {
    channels: Channels<T>,
    views: Option<&'v mut Vec<SliceView>>,
    /// Where the decoded slices go `every` at a time instead of into the returned data (a DICOM
    /// series; a volume file, which may store its slices in any order, is returned whole).
    stream: Option<Stream<'s, T>>,
}

/// A consumer of decoded slices, `every` at a time (the last call may hold fewer).
pub(super) struct Stream<'a, T> {
    every: usize,
    take: &'a mut dyn FnMut(&[T]) -> Result<()>,
}

pub(super) fn decode_scan_with<T: Copy + Default>(
    scan: &Scan,
    config: &PreprocessConfig,
    limits: &Limits,
    keep_phi: bool,
    progress: &dyn Progress,
    skipped: &Mutex<Skipped>,
    out: Output<'_, '_, T>,
) -> Result<(ScanMeta, Vec<T>)> {
    if scan.slices.len() > crate::scan::MAX_SCAN_SLICES {
        return Err(Error::Invalid(format!(
            "{} slices, more than the {} of any head CT: not read",
            scan.slices.len(),
            crate::scan::MAX_SCAN_SLICES
        )));
    }
    let read = Read {
        scan,
        config,
        limits,
        keep_phi,
        progress,
        skipped,
    };
    match scan.source.volume() {
        Some(v) => read.volume(v.format, out),
        None => read.series(out),
    }
}

/// One scan being decoded, whatever its source.
struct Read<'a> {
    scan: &'a Scan,
    config: &'a PreprocessConfig,
    limits: &'a Limits,
    keep_phi: bool,
    progress: &'a dyn Progress,
    skipped: &'a Mutex<Skipped>,
}

impl Read<'_> {
    /// A volume file: read once by its format, a slice at a time (a file that fails is the
    /// scan's error, named); returned whole, as the file may store its slices in any order.
    fn volume<T: Copy + Default>(
        &self,
        format: &dyn VolumeFormat,
        out: Output<'_, '_, T>,
    ) -> Result<(ScanMeta, Vec<T>)> {
        let Read {
            scan,
            config,
            limits,
            keep_phi,
            progress,
            skipped,
        } = *self;
        let Output {
            channels, views, ..
        } = out;
        let size = config.size;
        let mut data = Vec::with_capacity(scan.rows() * 3 * size * size);
        let mut kept = Vec::with_capacity(scan.rows());
        let mut kept_z = Vec::with_capacity(scan.rows());
        let mut warnings = scan.warnings.clone();
        let path = scan
            .slices
            .first()
            .map(|h| h.path.clone())
            .unwrap_or_default();
        let skip = |e: &FileError| {
            let mut s = milbase::sync::lock(skipped);
            record_skip(&mut s, e);
        };
        // a slice at a time, each windowed into its place in the output (the file may store
        // them superior first): the volume costs one slice and the output. Read as slabs, a
        // slab's slices are summed as they come (they come in order, one way or the other, so
        // a slab or two is open at a time) and windowed once all of it is in.
        let (n, rows) = (scan.slices.len(), scan.rows());
        let chunk = 3 * size * size;
        data.resize(rows * chunk, T::default());
        let mut one = Vec::with_capacity(chunk);
        let mut seen = 0usize;
        let mut placed: Vec<Option<SliceView>> = Vec::new();
        if views.is_some() {
            placed.resize(rows, None);
        }
        let k = scan.slab.max(1);
        let mut open: std::collections::HashMap<usize, (HuImage, usize)> = Default::default();
        let vol_warnings = format
            .for_each_slice(&path, limits, &mut |t, img| {
                progress.inc(1);
                if t >= n {
                    return;
                }
                let row = t / k;
                let want = scan.slab_range(row).len();
                let img = if want == 1 {
                    img
                } else {
                    let (sum, got) = match open.remove(&row) {
                        Some((mut acc, got)) if acc.hu.len() == img.hu.len() => {
                            acc.hu.iter_mut().zip(&img.hu).for_each(|(a, b)| *a += b);
                            (acc, got + 1)
                        }
                        Some(_) => return, // a slice of another size: the count below tells
                        None => (img, 1),
                    };
                    if got < want {
                        open.insert(row, (sum, got));
                        return;
                    }
                    let mut mean = sum;
                    let inv = 1.0 / want as f32;
                    mean.hu.iter_mut().for_each(|v| *v *= inv);
                    mean
                };
                one.clear();
                channels(&img, config, &mut one);
                if one.len() == chunk {
                    data[row * chunk..(row + 1) * chunk].copy_from_slice(&one);
                    if let Some(v) = placed.get_mut(row) {
                        *v = Some(SliceView::of(&img));
                    }
                    seen += want;
                }
            })
            .inspect_err(skip)?;
        if seen != n {
            return Err(Error::Invalid(format!(
                "{}: changed while it was read ({n} slices, then {seen})",
                path.display(),
            )));
        }
        for w in vol_warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        if let Some(v) = views {
            v.extend(placed.into_iter().flatten());
        }
        let mut slabs = Vec::new();
        for row in 0..rows {
            let mid = scan.slab_middle(row);
            kept.push(&scan.slices[mid]);
            kept_z.push(scan.z[mid]);
            if k > 1 {
                slabs.push(scan.slices[scan.slab_range(row)].iter().collect());
            }
        }
        Ok((
            scan_meta(scan, config, keep_phi, (&kept, &kept_z, &slabs), warnings),
            data,
        ))
    }

    /// A DICOM series: each slice file read in z order (a slice that fails is dropped with a
    /// warning), streamed to `out` every so many slices when it asks.
    fn series<T: Copy + Default>(&self, out: Output<'_, '_, T>) -> Result<(ScanMeta, Vec<T>)> {
        let Read {
            scan,
            config,
            limits,
            keep_phi,
            progress,
            skipped,
        } = *self;
        let Output {
            channels,
            mut views,
            mut stream,
        } = out;
        let size = config.size;
        let held = stream.as_ref().map_or(scan.rows(), |s| s.every.max(1));
        let mut data = Vec::with_capacity(held * 3 * size * size);
        let mut kept = Vec::with_capacity(scan.rows());
        let mut kept_z = Vec::with_capacity(scan.rows());
        let mut warnings = scan.warnings.clone();
        check_one_patient(scan)?;
        check_duplicates(scan, config, limits)?;
        // each slab (one slice unless the scan is read as slabs) is the mean of its slices in
        // Hounsfield units, named by its decoded slice nearest the middle
        let k = scan.slab.max(1);
        // a slab's slices are the series' size (the size most of its slices declare): a slice of
        // another size is left out of its slab, whichever of them comes first
        let slab_size = (k > 1).then(|| series_size(scan)).flatten();
        // each slab's decoded slices, for its labels (empty when read slice by slice)
        let mut slabs: Vec<Vec<&SliceHeader>> = Vec::new();
        for (hs, zs) in scan.slices.chunks(k).zip(scan.z.chunks(k)) {
            let mut sum: Option<HuImage> = None;
            let mut decoded = Vec::with_capacity(hs.len());
            for (i, h) in hs.iter().enumerate() {
                match read_hu_within(&h.path, config.rsna_fix, limits) {
                    Ok((_, img)) if slab_size.is_some_and(|s| s != (img.rows, img.cols)) => {
                        let (r, c) = slab_size.unwrap_or_default();
                        warnings.push(format!(
                            "slice {} left out of its slab: {}×{} pixels, not the series' {r}×{c}",
                            h.sop_uid, img.rows, img.cols
                        ))
                    }
                    Ok((_, img)) => {
                        match sum.as_mut() {
                            None => sum = Some(img),
                            Some(acc) => acc.hu.iter_mut().zip(&img.hu).for_each(|(a, b)| *a += b),
                        }
                        decoded.push(i);
                    }
                    Err(e) => {
                        warn!("skipped {e}");
                        let mut s = milbase::sync::lock(skipped);
                        record_skip(&mut s, &e);
                        warnings.push(format!("slice {} dropped: {}", h.sop_uid, e.problem));
                    }
                }
                progress.inc(1);
            }
            let Some(mut img) = sum else { continue };
            if decoded.len() > 1 {
                let inv = 1.0 / decoded.len() as f32;
                img.hu.iter_mut().for_each(|v| *v *= inv);
            }
            let mid = hs.len() / 2;
            let named = *decoded
                .iter()
                .min_by_key(|&&i| i.abs_diff(mid))
                .expect("a slab with an image has a decoded slice");
            channels(&img, config, &mut data);
            if let Some(v) = views.as_deref_mut() {
                v.push(SliceView::of(&img));
            }
            kept.push(&hs[named]);
            kept_z.push(zs[named]);
            if k > 1 {
                slabs.push(decoded.iter().map(|&i| &hs[i]).collect());
            }
            if let Some(s) = stream.as_mut() {
                if data.len() >= s.every.max(1) * 3 * size * size {
                    (s.take)(&data)?;
                    data.clear();
                }
            }
        }
        if kept.is_empty() {
            return Err(Error::Invalid("no slice could be decoded".into()));
        }
        if let Some(s) = stream.as_mut() {
            if !data.is_empty() {
                (s.take)(&data)?;
                data.clear();
            }
        }
        let meta = scan_meta(scan, config, keep_phi, (&kept, &kept_z, &slabs), warnings);
        Ok((meta, data))
    }
}

/// The size (rows, columns) most of a scan's slices declare.
pub(super) fn series_size(scan: &Scan) -> Option<(usize, usize)> {
    let mut count: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for h in &scan.slices {
        *count.entry((h.rows as usize, h.cols as usize)).or_default() += 1;
    }
    count
        .into_iter()
        .max_by_key(|&(size, n)| (n, size))
        .map(|(size, _)| size)
}

/// A decoded scan's metadata (without labels; `pixels` empty).
pub(super) fn scan_meta(
    scan: &Scan,
    config: &PreprocessConfig,
    keep_phi: bool,
    (kept, kept_z, slabs): (&[&SliceHeader], &[Option<f64>], &[Vec<&SliceHeader>]),
    warnings: Vec<String>,
) -> ScanMeta {
    let first = kept[0];
    let size = config.size;
    ScanMeta {
        format_version: FORMAT_VERSION,
        id: scan.id.clone(),
        study_instance_uid: scan.study_uid.clone(),
        series_instance_uid: scan.series_uid.clone(),
        label: None,
        n_slices: kept.len(),
        size,
        original_rows: first.rows,
        original_cols: first.cols,
        pixel_spacing: first.pixel_spacing,
        slice_thickness: first.slice_thickness,
        ordered_by: scan.ordered_by,
        config_fingerprint: config.fingerprint(),
        pixels: String::new(),
        warnings,
        slices: slice_metas(kept, kept_z, slabs, !scan.source.is_series()),
        patient_name: keep_phi.then(|| first.patient_name.clone()).flatten(),
        patient_id: keep_phi.then(|| first.patient_id.clone()).flatten(),
        volume: scan.source.volume_name().map(str::to_string),
        // free text (a patient's name may be typed there): kept only with --keep-phi
        series_description: keep_phi.then(|| first.series_description.clone()).flatten(),
    }
}
