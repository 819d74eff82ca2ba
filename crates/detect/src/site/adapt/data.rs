//! The site's scans: each predicted by the network once (its features, probabilities and
//! attention), with its labels and patient, from the site's DICOM folders or a dataset.

use super::*;

/// Runs every site scan through the bundle's network.
pub fn site_scans(
    bundle: &Bundle,
    net: &Trained,
    inputs: &[PathBuf],
    label_files: &[PathBuf],
    limits: &preprocess::read::Limits,
    progress: &dyn Progress,
) -> Result<(Vec<SiteScan>, Vec<String>)> {
    let (ds_paths, dicom_paths): (Vec<PathBuf>, Vec<PathBuf>) = inputs
        .iter()
        .cloned()
        .partition(|p| p.join("dataset.json").is_file());
    // the labels of the site's scans only, once they are known (a dataset's scans are known by
    // their files: with datasets every row is kept)
    let load = |mut labels: Labels| -> Result<Labels> {
        for f in label_files {
            labels.load(f)?;
        }
        Ok(labels)
    };
    let mut labels = if ds_paths.is_empty() {
        Labels::default()
    } else {
        load(Labels::default())?
    };
    let mut skipped_msgs = Vec::new();
    let mut metas = Vec::new();
    for p in &ds_paths {
        let ds = Dataset::open(p)?;
        bundle.check_preprocess(p, &ds.manifest.config)?;
        for e in &ds.manifest.scans {
            let mut meta = ds.scan_meta(e).map_err(|x| Error::scan(&e.id, x))?;
            let px = ds.scan_pixels(e).map_err(|x| Error::scan(&e.id, x))?.data;
            if !labels.is_empty() {
                apply_labels(&mut meta, &labels)
                    .map_err(|x| Error::scan(&e.id, Error::Invalid(x)))?;
            }
            metas.push((meta, px));
        }
    }
    let skipped = Mutex::new(Skipped::default());
    let scans = if dicom_paths.is_empty() {
        Vec::new()
    } else {
        let (s, sk) = find_scans_within(&dicom_paths, limits, progress)?;
        *milbase::sync::lock(&skipped) = sk;
        s
    };
    if ds_paths.is_empty() {
        labels = load(Labels::only(preprocess::labels::Wanted::of(&scans)))?;
    }
    progress.stage(
        "site scans through the network",
        (metas.len() + scans.len()) as u64,
    );
    let mut out = Vec::new();
    // a scan through the network; `Ok(Err(id))` when it has no scan label
    let run = |mut meta: preprocess::dataset::ScanMeta,
               px: Vec<u8>,
               patient: Option<String>|
     -> Result<std::result::Result<SiteScan, String>> {
        // a NIfTI file has neither PatientID nor study: each file counts as its own patient
        let patient = match (patient.as_deref().map(str::trim), &meta.volume) {
            (Some(p), _) if !p.is_empty() => fnv1a(format!("patient\n{p}")),
            (_, Some(name)) => fnv1a(format!("nifti\n{name}")),
            _ => fnv1a(format!("study\n{}", meta.study_instance_uid)),
        };
        if !labels.is_empty() {
            apply_labels(&mut meta, &labels)
                .map_err(|x| Error::scan(&meta.id, Error::Invalid(x)))?;
        }
        let Some(label) = meta.label else {
            return Ok(Err(meta.id));
        };
        let o = net
            .scan(meta.n_slices, &px)
            .map_err(|e| Error::scan(&meta.id, e))?;
        let known = crate::features::SubtypeLabels::of(&meta);
        Ok(Ok(SiteScan {
            id: meta.id.clone(),
            patient,
            label,
            slice_labels: meta.slices.iter().map(|s| s.label).collect(),
            subtypes: crate::features::SUBTYPES
                .iter()
                .map(|n| known.scan(n))
                .collect(),
            out: o,
        }))
    };
    let mut keep = |r: Result<std::result::Result<SiteScan, String>>| match r {
        Ok(Ok(s)) => out.push(s),
        Ok(Err(id)) => skipped_msgs.push(format!("scan {id}: no scan label, not used")),
        Err(e) => {
            tracing::warn!("{e}");
            skipped_msgs.push(e.to_string());
        }
    };
    for (meta, px) in metas {
        // a dataset keeps the PatientID only when preprocessed with --keep-phi
        let patient = meta.patient_id.clone();
        keep(run(meta, px, patient));
        progress.inc(1);
    }
    for scan in &scans {
        let r = decode_scan(
            scan,
            &bundle.manifest.preprocess,
            limits,
            false,
            &milbase::Quiet,
            &skipped,
        )
        .map_err(|e| Error::scan(&scan.id, e))
        .and_then(|(meta, px)| {
            let patient = scan.slices.first().and_then(|h| h.patient_id.clone());
            run(meta, px, patient)
        });
        keep(r);
        progress.inc(1);
    }
    progress.done();
    let sk = milbase::sync::into_inner(skipped);
    skipped_msgs.extend(sk.files);
    Ok((out, skipped_msgs))
}
