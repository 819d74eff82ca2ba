//! Cross-validation over the site's patients: each candidate head fitted and scored fold by
//! fold (`cross_validate`, `Ctx`), the network's fine-tuning (`Tune`), seeds and subsamples.

use super::*;

pub(super) struct Ctx<'a> {
    pub(super) params: gphead::ValidParams,
    pub(super) inner: usize,
    pub(super) samples: usize,
    pub(super) candidates: &'a [Candidate],
}

/// A candidate's cross-fitting on some scans: its projection, its data, the calibration maps of
/// its out-of-fold draws and their scan log-likelihood through the scan map; the out-of-fold
/// scan probabilities (mapped) and slice probabilities (raw means), scan by scan.
pub(super) struct CrossFit {
    pub(super) pca: Option<Pca>,
    pub(super) data: MilData,
    pub(super) map: Platt,
    pub(super) slice_map: Platt,
    pub(super) log_likelihood: f64,
    pub(super) scan_p: Vec<f64>,
    pub(super) slice_p: Vec<Vec<f64>>,
}

impl Ctx<'_> {
    /// `c` cross-fitted on `scans` (inner folds).
    pub(super) fn cross_fit(
        &self,
        c: &Candidate,
        scans: &[&SiteScan],
        params: &gphead::ValidParams,
        seed: u64,
    ) -> Result<CrossFit> {
        let pca = c.projection(scans)?;
        let data = c.design(scans, pca.as_ref())?;
        // the inner folds keep each patient whole too (the design has a bag per scan, in order)
        let labels: Vec<u8> = scans.iter().map(|s| s.label).collect();
        let patients: Vec<u64> = scans.iter().map(|s| s.patient).collect();
        let parts = milbase::grouped_stratified_folds(&labels, &patients, self.inner, seed)
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let oof = gphead::crossfit::out_of_fold_in(
            params,
            params.max_epochs,
            &data,
            &parts,
            self.samples,
            seed,
            &milbase::Quiet,
        )?;
        // the map's pull chosen over folds that keep each patient whole, as the head's were
        let oof_patients: Vec<u64> = oof.bags.iter().map(|&k| scans[k].patient).collect();
        let map = Platt::fit_shrunk_grouped(
            MapFamily::Platt,
            &oof.labels,
            &oof.draws,
            &oof_patients,
            self.inner,
            seed,
        )
        .map;
        let slice_map = gphead::calibrate::fit_instance_map(
            &oof.labels,
            &oof.instances,
            slice_correlation(scans),
            SLICE_MAP_RIDGE,
        )
        .unwrap_or(Platt::IDENTITY);
        let p: Vec<f64> = oof
            .draws
            .iter()
            .map(|d| mapped_mean(Some(map), d))
            .collect();
        // back in the order of the scans (a scan in a fold that could not be fitted: the
        // network's own numbers, so that every candidate is compared on the same scans)
        let mut scan_p: Vec<f64> = scans.iter().map(|s| s.out.probability).collect();
        let mut slice_p: Vec<Vec<f64>> = scans
            .iter()
            .map(|s| s.out.slice_probability.clone())
            .collect();
        for ((&k, &q), inst) in oof.bags.iter().zip(&p).zip(&oof.instances) {
            scan_p[k] = q;
            slice_p[k] = inst.clone();
        }
        Ok(CrossFit {
            pca,
            data,
            map,
            slice_map,
            log_likelihood: log_likelihood(&oof.labels, &p),
            scan_p,
            slice_p,
        })
    }

    /// `candidate` fitted on all of `cf`'s scans, with the calibration maps of its cross-fitting.
    pub(super) fn fit(
        candidate: Candidate,
        cf: CrossFit,
        params: &gphead::ValidParams,
    ) -> Result<Fitted> {
        let mut output = gphead::fit_valid(params, &cf.data, None)?;
        output.model.calibration = Some(cf.map);
        output.model.slice_calibration = Some(cf.slice_map);
        Ok(Fitted {
            candidate,
            output,
            pca: cf.pca,
        })
    }

    /// Every candidate on `scans`, the network as it came among them: each one's cross-fitted,
    /// calibrated scan log-likelihood, and its cross-fitted scan and slice AUC beside the
    /// network's (paired over patients). A candidate that ranks scans or labelled slices worse
    /// than the network by more than one standard error of the difference is not eligible; of
    /// the rest the best log-likelihood is fitted on all of `scans` (the network: its maps).
    /// `original`: the same scans through the network as it came (`scans` may be those of a
    /// fine-tuned network): the network candidate and the rankings' reference.
    pub(super) fn choose_and_fit(
        &self,
        scans: &[&SiteScan],
        original: &[&SiteScan],
        seed: u64,
    ) -> Result<(Chosen, Vec<Choice>)> {
        let mut choices = Vec::new();
        let params = seeded(&self.params, seed)?;
        let net = NetworkMaps::fit(original, self.inner, seed);
        let net_p: Vec<f64> = original.iter().map(|s| net.scan(s)).collect();
        let labels: Vec<u8> = scans.iter().map(|s| s.label).collect();
        let net_ll = log_likelihood(&labels, &net_p);
        choices.push(Choice {
            candidate: NETWORK.into(),
            log_likelihood: net_ll,
            scan_auc_difference: None,
            slice_auc_difference: None,
            eligible: true,
        });
        let mut best: Option<(Candidate, CrossFit)> = None;
        let mut best_ll = net_ll;
        for c in self.candidates {
            let cf = self.cross_fit(c, scans, &params, seed)?;
            let (scan_d, slice_d) =
                ranking_against_network(original, &cf.scan_p, &cf.slice_p, seed);
            let worse = |d: Option<[f64; 2]>| d.is_some_and(|[d, se]| d < -se);
            let eligible = !worse(scan_d) && !worse(slice_d);
            choices.push(Choice {
                candidate: c.name(),
                log_likelihood: cf.log_likelihood,
                scan_auc_difference: scan_d,
                slice_auc_difference: slice_d,
                eligible,
            });
            if eligible && cf.log_likelihood > best_ll {
                best_ll = cf.log_likelihood;
                best = Some((*c, cf));
            }
        }
        let chosen = match best {
            Some((candidate, cf)) => Chosen::Gp(Box::new(Self::fit(candidate, cf, &params)?)),
            None => Chosen::Network(net),
        };
        Ok((chosen, choices))
    }

    /// A fresh fit of `head` on `scans`, with its calibration maps (`None`: the network).
    pub(super) fn refit(
        &self,
        head: Option<Candidate>,
        scans: &[&SiteScan],
        original: &[&SiteScan],
        seed: u64,
    ) -> Result<Chosen> {
        let Some(candidate) = head else {
            return Ok(Chosen::Network(NetworkMaps::fit(
                original, self.inner, seed,
            )));
        };
        let params = seeded(&self.params, seed)?;
        let cf = self.cross_fit(&candidate, scans, &params, seed)?;
        Ok(Chosen::Gp(Box::new(Self::fit(candidate, cf, &params)?)))
    }
}

/// `p` with another seed.
pub(super) fn seeded(p: &gphead::ValidParams, seed: u64) -> Result<gphead::ValidParams> {
    let mut q = p.params().clone();
    q.seed = seed;
    Ok(q.validate()?)
}

/// `n` of `idx` (stratified by label, seeded), or `None` when `n` is not below `idx.len()` or
/// a class would be empty.
pub(super) fn subsample(
    scans: &[SiteScan],
    idx: &[usize],
    n: usize,
    seed: u64,
) -> Option<Vec<usize>> {
    if n >= idx.len() {
        return None;
    }
    let labels: Vec<u8> = idx.iter().map(|&i| scans[i].label).collect();
    let (keep, _) =
        milbase::stratified_holdout(&labels, 1.0 - n as f64 / idx.len() as f64, seed).ok()?;
    let pos = keep.iter().filter(|&&k| labels[k] == 1).count();
    (pos >= 2 && keep.len() - pos >= 2).then(|| keep.iter().map(|&k| idx[k]).collect())
}

/// Fine-tuning of the network's attention and classifier on some of the site's scans.
pub(super) struct Tune<'a> {
    pub(super) net: &'a Trained,
    pub(super) weights: PathBuf,
    pub(super) job: &'a AdaptJob,
}

impl Tune<'_> {
    /// Fine-tunes on `train` (a stratified fifth of its patients held out for early stopping),
    /// then gives every scan of `all` as the fine-tuned network sees it (the encoder is frozen:
    /// same features).
    pub(super) fn run(
        &self,
        train: &[&SiteScan],
        all: &[SiteScan],
        seed: u64,
    ) -> Result<(Trained, Vec<SiteScan>, FineTuneLog)> {
        let ft = self.job.fine_tune.clone().unwrap_or_default();
        let labels: Vec<u8> = train.iter().map(|s| s.label).collect();
        let patients: Vec<u64> = train.iter().map(|s| s.patient).collect();
        let fifths = milbase::grouped_stratified_folds(&labels, &patients, 5, seed)
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let v = fifths[0].clone();
        let t: Vec<usize> = (0..train.len())
            .filter(|i| v.binary_search(i).is_err())
            .collect();
        let bags = |idx: &[usize]| -> Vec<FeatureBag> {
            idx.iter()
                .map(|&i| FeatureBag {
                    features: &train[i].out.features,
                    label: train[i].label,
                })
                .collect()
        };
        let (net, log) = fine_tune_head(
            self.net,
            &self.weights,
            &bags(&t),
            &bags(&v),
            &FineTune { seed, ..ft },
        )?;
        let scans = all
            .iter()
            .map(|s| {
                Ok(SiteScan {
                    id: s.id.clone(),
                    patient: s.patient,
                    label: s.label,
                    slice_labels: s.slice_labels.clone(),
                    subtypes: s.subtypes.clone(),
                    out: net
                        .outputs_from_features(&s.out.features)
                        .map_err(|e| Error::scan(&s.id, e))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((net, scans, log))
    }
}

/// One nested cross-validation's results.
pub(super) struct Cv {
    pub(super) preds: Vec<ScanPred>,
    pub(super) ood: OodFlags,
    pub(super) fold_choices: Vec<Vec<Choice>>,
    pub(super) chosen_per_fold: Vec<String>,
    pub(super) curve: Vec<Vec<ScanPred>>,
    pub(super) logs: Vec<FineTuneLog>,
    /// The test predictions of the head each fold chose, with its spread, and its name per
    /// fold.
    pub(super) spread: Vec<ScanPred>,
    pub(super) spread_heads: Vec<String>,
}

/// The nested cross-validation over `folds`; with `tune`, each fold's network is first
/// fine-tuned on the fold's training scans.
pub(super) fn cross_validate(
    ctx: &Ctx,
    scans: &[SiteScan],
    folds: &[Vec<usize>],
    curve_sizes: &[usize],
    tune: Option<&Tune>,
    job: &AdaptJob,
    progress: &dyn Progress,
) -> Result<Cv> {
    let mut cv = Cv {
        preds: Vec::new(),
        ood: OodFlags::default(),
        fold_choices: Vec::new(),
        chosen_per_fold: Vec::new(),
        curve: vec![Vec::new(); curve_sizes.len()],
        logs: Vec::new(),
        spread: Vec::new(),
        spread_heads: Vec::new(),
    };
    for (f, test_idx) in folds.iter().enumerate() {
        let seed = job.seed.wrapping_add(1000 * (f as u64 + 1));
        let train_idx: Vec<usize> = (0..scans.len()).filter(|i| !test_idx.contains(i)).collect();
        let tuned = match tune {
            Some(t) => {
                let train: Vec<&SiteScan> = train_idx.iter().map(|&i| &scans[i]).collect();
                let (_, s, log) = t.run(&train, scans, seed)?;
                tracing::info!(
                    "fold {}: fine-tuned, validation loss {:.4} → {:.4} (epoch {})",
                    f + 1,
                    log.valid_loss_before,
                    log.valid_loss,
                    log.best_epoch
                );
                cv.logs.push(log);
                Some(s)
            }
            None => None,
        };
        let plain_scans = scans;
        let scans: &[SiteScan] = tuned.as_deref().unwrap_or(scans);
        let train: Vec<&SiteScan> = train_idx.iter().map(|&i| &scans[i]).collect();
        let test: Vec<&SiteScan> = test_idx.iter().map(|&i| &scans[i]).collect();
        let original: Vec<&SiteScan> = train_idx.iter().map(|&i| &plain_scans[i]).collect();
        let (chosen, choices) = ctx.choose_and_fit(&train, &original, seed)?;
        tracing::info!(
            "fold {}: chose {} ({} training scans)",
            f + 1,
            chosen.name(),
            train.len()
        );
        cv.chosen_per_fold.push(chosen.name());
        let net = NetworkMaps::fit(&original, job.inner_folds, seed);
        let test_orig: Vec<&SiteScan> = test_idx.iter().map(|&i| &plain_scans[i]).collect();
        // the network's maps carry their own uncertainty, as the shipped bundle's do
        let pairs = match &chosen {
            Chosen::Network(_) => {
                NetworkMaps::bootstrap(&original, MAP_DRAWS, job.inner_folds, seed)
            }
            Chosen::Gp(_) => Vec::new(),
        };
        let preds = predict(
            &chosen,
            (&test, &test_orig),
            (net, &pairs),
            f,
            job.samples,
            seed,
        )?;
        // the evidence on "unsure" is of the head each fold ships, with its own spread
        cv.spread.extend(preds.iter().cloned());
        cv.spread_heads.push(match &chosen {
            Chosen::Network(_) => format!("{} ({MAP_DRAWS} bootstrap pairs)", chosen.name()),
            Chosen::Gp(_) => chosen.name(),
        });
        cv.fold_choices.push(choices);
        cv.preds.extend(preds);
        if tune.is_none() {
            ood_flags(&mut cv.ood, &train, &test, seed)?;
        }
        progress.inc(1);
        for (c, &n) in curve_sizes.iter().enumerate() {
            if let Some(sub) = subsample(scans, &train_idx, n, seed.wrapping_add(n as u64)) {
                let orig: Vec<&SiteScan> = sub.iter().map(|&i| &plain_scans[i]).collect();
                let sub: Vec<&SiteScan> = sub.iter().map(|&i| &scans[i]).collect();
                let g = ctx.refit(chosen.candidate(), &sub, &orig, seed)?;
                let net = NetworkMaps::fit(&orig, job.inner_folds, seed);
                cv.curve[c].extend(predict(
                    &g,
                    (&test, &test_orig),
                    (net, &[]),
                    f,
                    job.samples,
                    seed,
                )?);
            }
            progress.inc(1);
        }
    }
    Ok(cv)
}
