//! The adapted bundle written: the chosen head, its maps, the site's summary and subtype heads.

use super::*;

pub(super) fn write_bundle(
    job: &AdaptJob,
    source: &Bundle,
    scans: &[SiteScan],
    chosen: &Chosen,
    ood: &OodSummary,
    report: &AdaptReport,
    tuned: Option<&Trained>,
) -> Result<()> {
    let json = serde_json::to_vec_pretty(report).map_err(|e| Error::Invalid(e.to_string()))?;
    let html = crate::report::html::page(
        "ich adapt: what this site should expect",
        &adapt_html(report),
    );
    let ood = serde_json::to_vec_pretty(ood).map_err(|e| Error::Invalid(e.to_string()))?;
    let mut b = source.copy_to(&job.out)?;
    b.manifest.operating_point = report.operating_point.clone();
    if let Some(net) = tuned {
        // the fine-tuned weights replace the copy's; the manifest's checksums follow below
        attcnn::training::save_atomic(net.model().clone(), &b.weights())?;
        b.manifest.cnn.fine_tuned = report.fine_tune.as_ref().and_then(|f| f.final_log.clone());
    }
    let pos = scans.iter().filter(|s| s.label == 1).count();
    let training = DataSummary {
        source: adapt_source(job),
        train_scans: scans.len(),
        train_positive: pos,
        valid_scans: 0,
        valid_positive: 0,
        slices: Some(report.slices),
        slices_per_scan: DataSummary::slice_range(scans.iter().map(|s| s.out.features.len())),
    };
    let validation = GpValidation {
        bag_auc: report.head.scan.auc,
        bag_log_likelihood: Some(report.head.scan.log_likelihood),
        bag_ece: Some(report.head.scan.ece),
        calibrated: true,
    };
    let extras: [(&str, &[u8]); 3] = [
        (OOD, &ood),
        (ADAPT_JSON, &json),
        (ADAPT_HTML, html.as_bytes()),
    ];
    let fitted = match chosen {
        Chosen::Network(maps) => {
            // the subtype heads read the network's evidence, not the GP head's output: they
            // come along beside the network, on the evidence they were fitted on
            let (subtypes, files, evidence) = match source.manifest.gp.as_ref() {
                Some(g) if !g.subtypes.is_empty() => {
                    let c = Candidate {
                        evidence: g.evidence,
                        project: None,
                    };
                    let (h, f) = site_subtype_heads(job, source, scans, c, false)?;
                    (h, f, g.evidence)
                }
                _ => (Vec::new(), Vec::new(), Evidence::default()),
            };
            let all: Vec<&SiteScan> = scans.iter().collect();
            let site = crate::bundle::NetworkSite {
                scan_map: maps.scan,
                slice_map: maps.slice,
                map_draws: NetworkMaps::bootstrap(&all, MAP_DRAWS, job.inner_folds, job.seed),
                ood: Some(OOD.into()),
                reports: vec![ADAPT_JSON.into(), ADAPT_HTML.into()],
                training,
                validation,
                subtypes,
                evidence,
            };
            let mut extras = extras.to_vec();
            extras.extend(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())));
            return b.set_network_site(site, &extras);
        }
        Chosen::Gp(f) => f,
    };
    let csv = crate::pipeline::fit::trace_csv(&fitted.output)?;
    let model = &fitted.output.model;
    let (subtypes, subtype_files) =
        site_subtype_heads(job, source, scans, fitted.candidate, fitted.pca.is_some())?;
    let part = GpPart {
        model: GP_MODEL.into(),
        trace: GP_TRACE.into(),
        family: format!("{} on {}", model.model.name(), fitted.candidate.name()),
        dim: fitted.pca.as_ref().map_or(
            fitted.candidate.evidence.dim(source.manifest.cnn.dim),
            |p| p.k,
        ),
        projection: None,
        evidence: fitted.candidate.evidence,
        ood: Some(OOD.into()),
        reports: vec![ADAPT_JSON.into(), ADAPT_HTML.into()],
        inducing: model.m(),
        features_sha256: site_digest(scans),
        training,
        validation,
        site_calibration: None,
        subtypes,
    };
    let mut extras = extras.to_vec();
    extras.extend(
        subtype_files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice())),
    );
    b.add_gp_with(model, &csv, fitted.pca.as_ref(), part, &extras)?;
    Ok(())
}

/// Where a site bundle's fits came from: `ich adapt on INPUT, …`.
pub(super) fn adapt_source(job: &AdaptJob) -> String {
    let inputs: Vec<String> = job.inputs.iter().map(|p| p.display().to_string()).collect();
    format!("ich adapt on {}", inputs.join(", "))
}

/// The subtype heads of a site bundle, and their files' bytes by name.
pub(super) type SiteSubtypeHeads = (Vec<crate::bundle::SubtypeHead>, Vec<(String, Vec<u8>)>);

/// The source bundle's subtype heads in the site bundle: when the site's head reads what they
/// read (`candidate`: the same evidence, neither projected; `projected`: the site's head
/// projects it), or when the network is shipped without a head (then `candidate` is the
/// source's evidence), each comes along, its map refitted on the site's scans with a known
/// subtype when at least [`crate::site::recalibrate::MIN_PER_CLASS`] have it and as many do not, else
/// as it was with a note saying so. A site head on other evidence cannot feed them: they are
/// left out, and the log says why. Returns the heads and their files' bytes.
pub(super) fn site_subtype_heads(
    job: &AdaptJob,
    source: &Bundle,
    scans: &[SiteScan],
    candidate: Candidate,
    projected: bool,
) -> Result<SiteSubtypeHeads> {
    let Some(src) = source
        .manifest
        .gp
        .as_ref()
        .filter(|g| !g.subtypes.is_empty())
    else {
        return Ok((Vec::new(), Vec::new()));
    };
    let why = if src.projection.is_some() {
        Some(format!(
            "read a projection of {} that the site bundle does not carry",
            src.evidence.name()
        ))
    } else if src.evidence != candidate.evidence || projected {
        Some(format!(
            "read {}, the site's head {}",
            src.evidence.name(),
            candidate.name()
        ))
    } else {
        None
    };
    if let Some(why) = why {
        tracing::warn!(
            "the bundle's subtype heads {why}: they are not carried into the site bundle \
             (subtypes not available there)"
        );
        return Ok((Vec::new(), Vec::new()));
    }
    let digest = site_digest(scans);
    let where_from = adapt_source(job);
    let (mut heads, mut files) = (Vec::new(), Vec::new());
    for ((name, mut model), head) in source.subtype_heads()?.into_iter().zip(&src.subtypes) {
        let j = crate::features::SUBTYPES
            .iter()
            .position(|n| *n == name)
            .unwrap_or(usize::MAX);
        let known: Vec<&SiteScan> = scans
            .iter()
            .filter(|s| s.subtypes.get(j).copied().flatten().is_some())
            .collect();
        let with = known.iter().filter(|s| s.subtypes[j] == Some(1)).count();
        let mut head = crate::bundle::SubtypeHead {
            site_calibration: None,
            site_note: None,
            ..head.clone()
        };
        let too_few = crate::site::recalibrate::too_few_for_site(with, known.len());
        if too_few.is_none() {
            let mut d = candidate.design(&known, None)?;
            for bag in &mut d.bags {
                bag.label = known
                    .iter()
                    .find(|s| s.id == bag.name)
                    .map_or(0, |s| u8::from(s.subtypes[j] == Some(1)));
            }
            d.instance_labels = None;
            let opts = crate::site::recalibrate::MapOptions {
                family: gphead::calibrate::MapFamily::Platt,
                folds: job.inner_folds,
                samples: job.samples,
                seed: job.seed,
                source: &where_from,
                sha256: &digest,
            };
            head.site_calibration = Some(crate::site::recalibrate::site_map(
                &opts, &mut model, None, &d,
            )?);
        } else {
            head.site_note = too_few;
            tracing::warn!(
                "subtype {name}: {}",
                head.site_note.as_deref().unwrap_or("")
            );
        }
        let bytes = serde_json::to_vec(&model).map_err(|e| Error::Invalid(e.to_string()))?;
        files.push((head.model.clone(), bytes));
        heads.push(head);
    }
    Ok((heads, files))
}
