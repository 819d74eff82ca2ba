//! Learning on synthetic MIL data with known instance labels; save/load.

mod common;

use common::synthetic;
use gphead::metrics::roc_auc;
use gphead::{fit, BagRule, FitParams, GpModel, MilData, Model};

#[test]
fn both_models_learn_bags_and_instances() {
    let data = synthetic(300, 1);
    let all: Vec<usize> = (0..data.bags.len()).collect();
    let train = data.subset(&all[..160]);
    let valid = data.subset(&all[160..200]);
    let test = data.subset(&all[200..]);
    for link in [
        Model::Vgpmil,
        Model::GVgpmil {
            alpha: 1.0,
            beta: 2.5,
        },
    ] {
        // the command line's E[max] (leave-one-out max)
        let p = FitParams {
            model: link,
            inducing: 50,
            seed: 3,
            emax: gphead::EmaxRule::LooMax,
            ..FitParams::default()
        };
        let out = fit(&p, &train, Some(&valid)).unwrap();
        let pred = out.model.predict(&test, 200, 9).unwrap();
        // the default rule (max) clears 0.95; noisy-OR sums evidence over every slice of a bag
        // and is weaker when the latent f stays small (MODELS.md §4, docs/BENCHMARKS.md)
        assert_eq!(BagRule::default(), BagRule::Max);
        let auc = roc_auc(&test.bag_labels(), &pred.bag_probabilities(BagRule::Max)).unwrap();
        assert!(auc > 0.95, "{link:?} max: bag AUC {auc}");
        // noisy-OR ≥ the per-draw max ≥ any one instance, per sample, so also in the mean
        for b in &pred.bags {
            assert!(b.noisy_or.mean >= b.max_per_draw.mean - 1e-12);
            assert!(b.max_per_draw.mean >= b.max.mean - 1e-12);
        }
        let iauc = roc_auc(
            test.instance_labels.as_ref().unwrap(),
            &pred.instance_probabilities(),
        )
        .unwrap();
        assert!(iauc > 0.9, "{link:?}: instance AUC {iauc}");
        // early stopping kept the epoch with the best validation log-likelihood
        let best = out.trace[out.best_epoch].valid_bag_log_likelihood.unwrap();
        assert!(out
            .trace
            .iter()
            .all(|t| t.valid_bag_log_likelihood.unwrap_or(f64::NEG_INFINITY) <= best));
        // uncertainty is reported and bounded
        assert!(pred.instances.iter().all(|i| (0.0..0.5).contains(&i.sd)));
    }
}

#[test]
fn same_seed_same_model_and_save_load_round_trip() {
    let data = synthetic(60, 2);
    let all: Vec<usize> = (0..60).collect();
    let (train, test) = (data.subset(&all[..40]), data.subset(&all[40..]));
    let p = FitParams {
        model: Model::GVgpmil {
            alpha: 0.5,
            beta: 1.0,
        },
        inducing: 20,
        max_epochs: 15,
        ..FitParams::default()
    };
    let a = fit(&p, &train, None).unwrap().model;
    let b = fit(&p, &train, None).unwrap().model;
    assert_eq!(a.m_whitened, b.m_whitened);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gp.json");
    a.save(&path).unwrap();
    let c = GpModel::load(&path).unwrap();
    let pa = a.predict(&test, 50, 1).unwrap();
    let pc = c.predict(&test, 50, 1).unwrap();
    for (x, y) in pa.instances.iter().zip(&pc.instances) {
        assert!((x.mean - y.mean).abs() < 1e-9 && (x.latent_var - y.latent_var).abs() < 1e-9);
    }
    // another version is refused with a clear message
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"version\":1", "\"version\":99");
    std::fs::write(&path, text).unwrap();
    let e = GpModel::load(&path).unwrap_err().to_string();
    assert!(e.contains("version 99") && e.contains("gp.json"), "{e}");
    // data of another dimension is refused
    let other = MilData::from_instances(
        3,
        vec![0.0; 3],
        vec!["x".into()],
        vec![0],
        None,
        vec!["0".into()],
    )
    .unwrap();
    let e = c.predict(&other, 10, 0).unwrap_err().to_string();
    assert!(
        e.contains("expects 8 features") && e.contains("has 3"),
        "{e}"
    );
}

#[test]
fn cross_fitting_scores_every_bag_by_a_model_that_did_not_see_it() {
    // labels that the features do not explain: a model scoring the bags it was fitted on
    // separates them (it has fitted their labels), a model scoring bags it never saw cannot
    let data = common::noise(100, 5);
    let p = FitParams {
        model: Model::Vgpmil,
        inducing: 100,
        lengthscale: Some(0.2),
        seed: 1,
        emax: gphead::EmaxRule::LooMax,
        max_epochs: 40,
        kernel_steps: None,
        ..FitParams::default()
    }
    .validate()
    .unwrap();
    let oof = gphead::crossfit::out_of_fold(&p, 40, &data, 5, 50, 2, &milbase::Quiet).unwrap();
    // every bag once
    assert_eq!(oof.labels.len(), data.bags.len());
    let count = |l: &[u8]| l.iter().filter(|&&h| h == 1).count();
    assert_eq!(count(&oof.labels), count(&data.bag_labels()));
    let mean = |d: &[f64]| d.iter().sum::<f64>() / d.len() as f64;
    let oof_p: Vec<f64> = oof.draws.iter().map(|d| mean(d)).collect();
    let oof_auc = roc_auc(&oof.labels, &oof_p).unwrap();
    let full = gphead::fit_valid(&p, &data, None).unwrap();
    let seen: Vec<f64> = full
        .model
        .bag_rule_draws(&data, 50, 2)
        .unwrap()
        .iter()
        .map(|d| mean(d))
        .collect();
    let seen_auc = roc_auc(&data.bag_labels(), &seen).unwrap();
    assert!(seen_auc > 0.75, "in-sample AUC {seen_auc}");
    assert!((oof_auc - 0.5).abs() < 0.15, "out-of-fold AUC {oof_auc}");
    // same seed, same draws
    let again = gphead::crossfit::out_of_fold(&p, 40, &data, 5, 50, 2, &milbase::Quiet).unwrap();
    assert_eq!(again.draws, oof.draws);
}

/// Counts what the protocol reports.
#[derive(Default)]
struct Count {
    len: std::sync::atomic::AtomicU64,
    done: std::sync::atomic::AtomicU64,
}

impl milbase::Progress for Count {
    fn stage(&self, _name: &str, len: u64) {
        self.len.store(len, std::sync::atomic::Ordering::SeqCst);
    }
    fn inc(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn splits_run_in_parallel_give_what_each_split_gives_alone() {
    use gphead::evaluation::{evaluate_fixed, EvalOptions, FixedSplit};
    let data = synthetic(90, 4);
    let names: Vec<String> = data.bags.iter().map(|b| b.name.clone()).collect();
    // three splits of the same bags: 30 test bags each, the rest 48 fit + 12 valid
    let splits: Vec<(usize, FixedSplit)> = (0..3)
        .map(|k| {
            let test: Vec<String> = names[k * 30..(k + 1) * 30].to_vec();
            let rest: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| i / 30 != k)
                .map(|(_, n)| n.clone())
                .collect();
            let (valid, fit) = rest.split_at(12);
            let split = FixedSplit {
                fit: fit.to_vec(),
                valid: valid.to_vec(),
                test,
            };
            (k, split)
        })
        .collect();
    let opts = EvalOptions {
        grid: gphead::Grid {
            inducing: vec![10, 20],
            ..Default::default()
        },
        base: FitParams {
            model: Model::Vgpmil,
            emax: gphead::EmaxRule::LooMax,
            max_epochs: 15,
            ..FitParams::default()
        },
        samples: 50,
        calibration_folds: 3,
        ..EvalOptions::default()
    };
    let count = Count::default();
    let all = evaluate_fixed(&splits, |_| Ok(&data), |_| Ok(None), &opts, &count).unwrap();
    // 3 splits × (2 grid points + 3 cross-fitting refits), every one counted
    let load = |a: &std::sync::atomic::AtomicU64| a.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!((load(&count.len), load(&count.done)), (15, 15));
    assert_eq!(all.splits.len(), 3);
    for (k, split) in &splits {
        let alone = evaluate_fixed(
            &[(*k, split.clone())],
            |_| Ok(&data),
            |_| Ok(None),
            &opts,
            &milbase::Quiet,
        )
        .unwrap();
        let (mut a, mut b) = (all.splits[*k].clone(), alone.splits[0].clone());
        assert_eq!(a.split, *k);
        (a.fit_seconds, b.fit_seconds) = (0.0, 0.0);
        assert_eq!(a, b, "split {k}");
    }
}
