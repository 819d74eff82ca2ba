//! The GP head on real data, as CI runs it (a minute or two): MUSK1/MUSK2 with 5 stratified
//! splits at M = 200, and the real ICH features (train on half of the RSNA bags, test on the other
//! half and on CQ500), both models, hyper-parameters chosen on validation bags only. Thresholds
//! sit a few points under the figures measured in docs/BENCHMARKS.md, so a regression fails.

use std::path::PathBuf;

use detect::features::read;
use gphead::evaluation::{evaluate, EvalOptions};
use gphead::{FitParams, Gibbs, Grid, Model};

fn shared(rel: &str) -> Option<PathBuf> {
    testkit::shared_data_or_skip(rel)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn musk(name: &str, family: Model, h: f64) -> Option<f64> {
    let data = read(&shared(&format!("mil/{name}.csv"))?).unwrap();
    let opts = EvalOptions {
        grid: Grid {
            inducing: vec![200],
            ..Grid::default()
        },
        base: FitParams {
            model: family,
            h,
            ..FitParams::default()
        },
        ..EvalOptions::default()
    };
    let r = evaluate(&data, None, &opts, &milbase::Quiet).unwrap();
    let aucs: Vec<f64> = r
        .splits
        .iter()
        .map(|s| s.test.as_ref().unwrap().bag.auc.unwrap())
        .collect();
    let m = mean(&aucs);
    println!("{name} {family:?} H={h:e}: bag AUC {m:.3} {aucs:.3?}");
    Some(m)
}

#[test]
fn musk_benchmarks() {
    for family in [Model::Vgpmil, Model::G_VGPMIL] {
        if let Some(a) = musk("musk1", family, 100.0) {
            assert!(a > 0.70, "MUSK1 {family:?}: {a}");
        }
        // MUSK2 has bags of up to 1044 instances: with H = 100 the bag term barely reaches them
        // (docs/BENCHMARKS.md); the numpy code's H = 1e12 is the setting that holds up there
        if let Some(a) = musk("musk2", family, 1e12) {
            assert!(a > 0.65, "MUSK2 {family:?}: {a}");
        }
    }
}

#[test]
fn ich_features_rsna_half_and_cq500() {
    for family in [Model::Vgpmil, Model::G_VGPMIL] {
        let (mut bag, mut inst, mut cnn, mut ext, mut ext_cnn) =
            (vec![], vec![], vec![], vec![], vec![]);
        for k in 0..5 {
            let Some(rsna) = shared(&format!("ich-features/rsna_d8_fold{k}.csv")) else {
                return;
            };
            let Some(cq) = shared(&format!("ich-features/cq500_d8_fold{k}.csv")) else {
                return;
            };
            let (rsna, cq) = (read(&rsna).unwrap(), read(&cq).unwrap());
            assert_eq!((rsna.bags.len(), rsna.d), (150, 8));
            assert_eq!(cq.bags.len(), 490);
            let opts = EvalOptions {
                holdout: Some(0.5),
                base: FitParams {
                    model: family,
                    ..FitParams::default()
                },
                ..EvalOptions::default()
            };
            let r = evaluate(&rsna, Some(&cq), &opts, &milbase::Quiet).unwrap();
            let s = &r.splits[0];
            let t = s.test.as_ref().unwrap();
            let e = s.external.as_ref().unwrap();
            bag.push(t.bag.auc.unwrap());
            inst.push(t.instance.unwrap().auc.unwrap());
            cnn.push(t.cnn_bag_auc.unwrap());
            ext.push(e.bag.auc.unwrap());
            ext_cnn.push(e.cnn_bag_auc.unwrap());
            // calibration on validation bags reports both numbers; likelihoods are finite
            assert!(t.bag_calibrated.log_likelihood.is_finite());
        }
        println!(
            "{family:?}: RSNA half bag AUC {:.3} (CNN {:.3}), instance AUC {:.3}; CQ500 bag AUC {:.3} (CNN {:.3})",
            mean(&bag),
            mean(&cnn),
            mean(&inst),
            mean(&ext),
            mean(&ext_cnn)
        );
        assert!(mean(&bag) > 0.88, "{family:?} RSNA half bag AUC {bag:?}");
        assert!(
            mean(&inst) > 0.93,
            "{family:?} RSNA half instance AUC {inst:?}"
        );
        assert!(mean(&ext) > 0.87, "{family:?} CQ500 bag AUC {ext:?}");
    }
}

/// (RSNA-half bag AUC, RSNA-half instance AUC, CQ500 bag AUC) over the five folds.
fn ich_means(base: FitParams, grid: Grid) -> Option<(f64, f64, f64)> {
    let (mut bag, mut inst, mut ext) = (vec![], vec![], vec![]);
    for k in 0..5 {
        let rsna = read(&shared(&format!("ich-features/rsna_d8_fold{k}.csv"))?).unwrap();
        let cq = read(&shared(&format!("ich-features/cq500_d8_fold{k}.csv"))?).unwrap();
        let opts = EvalOptions {
            holdout: Some(0.5),
            base: base.clone(),
            grid: grid.clone(),
            ..EvalOptions::default()
        };
        let r = evaluate(&rsna, Some(&cq), &opts, &milbase::Quiet).unwrap();
        let s = &r.splits[0];
        bag.push(s.test.as_ref().unwrap().bag.auc.unwrap());
        inst.push(s.test.as_ref().unwrap().instance.unwrap().auc.unwrap());
        ext.push(s.external.as_ref().unwrap().bag.auc.unwrap());
    }
    let m = (mean(&bag), mean(&inst), mean(&ext));
    println!(
        "{}: RSNA half bag AUC {:.3}, instance AUC {:.3}; CQ500 bag AUC {:.3}",
        base.model.name(),
        m.0,
        m.1,
        m.2
    );
    Some(m)
}

#[test]
fn probit_gibbs_and_large_margin_on_ich_features() {
    let grid = Grid {
        inducing: vec![100],
        ..Grid::default()
    };
    // MIL-GP-Probit VI, bags by the full latent covariance
    if let Some((b, i, e)) = ich_means(
        FitParams {
            model: Model::Probit,
            bag_rule: Some(gphead::BagRule::FullCovariance),
            ..FitParams::default()
        },
        grid.clone(),
    ) {
        assert!(b > 0.85 && i > 0.92 && e > 0.78, "probit {b} {i} {e}");
    }
    // the Gibbs sampler, shorter chains than the defaults to keep CI quick
    let gibbs = FitParams {
        model: Model::ProbitGibbs,
        gibbs: Gibbs {
            chains: 2,
            burn_in: 300,
            draws: 600,
            thin: 1,
        },
        bag_rule: Some(gphead::BagRule::FullCovariance),
        ..FitParams::default()
    };
    if let Some((b, i, e)) = ich_means(gibbs, grid.clone()) {
        assert!(b > 0.87 && i > 0.92 && e > 0.85, "probit-gibbs {b} {i} {e}");
    }
    // LM-VGPMIL with V = 0.5: the default margin V = 2 is out of reach of a prior with v = 0.5
    // (docs/BENCHMARKS.md)
    let lm = FitParams {
        model: Model::LmVgpmil { c: 2.0, v: 0.5 },
        ..FitParams::default()
    };
    if let Some((b, i, e)) = ich_means(lm, grid) {
        assert!(b > 0.88 && i > 0.92 && e > 0.84, "lm-vgpmil {b} {i} {e}");
    }
}
