//! MIL-GP-Probit (VI and Gibbs), LM-VGPMIL and kernel estimation: behaviour on data.

mod common;

use common::synthetic;
use gphead::hyper::KernelSteps;
use gphead::metrics::{log_likelihood, roc_auc};
use gphead::{fit, BagRule, FitParams, Gibbs, GpModel, MilData, Model, Rbf};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

fn split(data: &MilData, a: usize, b: usize) -> (MilData, MilData) {
    let all: Vec<usize> = (0..data.bags.len()).collect();
    (data.subset(&all[..a]), data.subset(&all[a..b]))
}

#[test]
fn probit_vi_elbo_never_decreases_and_recovers_instances() {
    let data = synthetic(200, 5);
    let (train, test) = split(&data, 120, 200);
    let p = FitParams {
        model: Model::Probit,
        inducing: 40,
        max_epochs: 150,
        tol: 1e-9,
        bag_rule: Some(BagRule::FullCovariance),
        ..FitParams::default()
    };
    let out = fit(&p, &train, None).unwrap();
    let elbo: Vec<f64> = out.trace.iter().map(|t| t.objective.unwrap()).collect();
    assert!(elbo.len() > 5);
    for w in elbo.windows(2) {
        assert!(
            w[1] >= w[0] - 1e-9 * w[0].abs(),
            "ELBO decreased: {} → {}",
            w[0],
            w[1]
        );
    }
    let pred = out.model.predict(&test, 300, 1).unwrap();
    let il = test.instance_labels.as_ref().unwrap();
    let iauc = roc_auc(il, &pred.instance_probabilities()).unwrap();
    assert!(iauc > 0.9, "instance AUC {iauc}");
    let bl = test.bag_labels();
    let full = pred.bag_probabilities(BagRule::FullCovariance);
    let bauc = roc_auc(&bl, &full).unwrap();
    assert!(bauc > 0.95, "bag AUC (full covariance) {bauc}");
    for b in &pred.bags {
        let (f, se) = b.full_cov.unwrap();
        assert!((0.0..=1.0).contains(&f.mean) && f.sd >= 0.0 && se <= f.sd);
        assert!(0.0 <= f.lo && f.lo <= f.mean && f.mean <= f.hi && f.hi <= 1.0);
    }
    // the exact instance mean of the probit: Φ(μ/√(1+σ²)) equals the Monte Carlo mean
    for i in &pred.instances {
        assert!((i.mean - i.closed_form).abs() < 0.03);
    }
}

#[test]
fn gibbs_agrees_with_vi_on_a_small_problem() {
    // A small, easy problem; the Gibbs chains mix (R̂ < 1.1). VI's factorised q(u)q(m)
    // underestimates posterior variance but its predictive means should sit within 0.05 of the
    // sampler's on average (Gibbs Monte Carlo error here ≈ 0.01 with an ESS of several hundred).
    let data = synthetic(60, 9);
    let (train, test) = split(&data, 40, 60);
    let base = FitParams {
        inducing: 12,
        max_epochs: 500,
        tol: 1e-10,
        bag_rule: Some(BagRule::Max),
        ..FitParams::default()
    };
    let vi = fit(
        &FitParams {
            model: Model::Probit,
            ..base.clone()
        },
        &train,
        None,
    )
    .unwrap();
    let gb = fit(
        &FitParams {
            model: Model::ProbitGibbs,
            gibbs: Gibbs {
                chains: 4,
                burn_in: 300,
                draws: 1500,
                thin: 1,
            },
            ..base
        },
        &train,
        None,
    )
    .unwrap();
    let diag = gb.model.draws.as_ref().unwrap().diagnostics.clone();
    assert!(diag.r_hat_max < 1.1, "R̂ {}", diag.r_hat_max);
    assert!(diag.ess_min > 100.0, "ESS {}", diag.ess_min);
    let pv = vi.model.predict(&test, 500, 2).unwrap();
    let pg = gb.model.predict(&test, 500, 2).unwrap();
    let diffs: Vec<f64> = pv
        .instances
        .iter()
        .zip(&pg.instances)
        .map(|(a, b)| (a.mean - b.mean).abs())
        .collect();
    let mad = diffs.iter().sum::<f64>() / diffs.len() as f64;
    assert!(mad < 0.05, "mean |p_VI − p_Gibbs| = {mad}");
    let bv = pv.bag_probabilities(BagRule::FullCovariance);
    let bg = pg.bag_probabilities(BagRule::FullCovariance);
    let bmad = bv.iter().zip(&bg).map(|(a, b)| (a - b).abs()).sum::<f64>() / bv.len() as f64;
    assert!(bmad < 0.08, "bags: {bmad}");
    let il = test.instance_labels.as_ref().unwrap();
    assert!(roc_auc(il, &pg.instance_probabilities()).unwrap() > 0.85);
}

#[test]
fn lm_vgpmil_learns_bags_and_instances() {
    let data = synthetic(260, 1);
    let all: Vec<usize> = (0..data.bags.len()).collect();
    let (train, valid, test) = (
        data.subset(&all[..160]),
        data.subset(&all[160..200]),
        data.subset(&all[200..]),
    );
    let p = FitParams {
        model: Model::LM_VGPMIL,
        inducing: 50,
        seed: 3,
        ..FitParams::default()
    };
    let out = fit(&p, &train, Some(&valid)).unwrap();
    let pred = out.model.predict(&test, 200, 9).unwrap();
    let bauc = roc_auc(&test.bag_labels(), &pred.bag_probabilities(BagRule::Max)).unwrap();
    let iauc = roc_auc(
        test.instance_labels.as_ref().unwrap(),
        &pred.instance_probabilities(),
    )
    .unwrap();
    assert!(bauc > 0.9, "bag AUC {bauc}");
    assert!(iauc > 0.85, "instance AUC {iauc}");
    let names: Vec<&str> = out.local.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["tau", "xi", "phi"]);
}

/// Bags of 8 instances in D = 2, x ~ U(−3, 3)²; f is a GP draw with squared length scale `l`
/// (random Fourier features); an instance is positive when f > 1.
fn gp_bags(bags: usize, l: f64, seed: u64) -> MilData {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let feats = 400;
    let w: Vec<[f64; 2]> = (0..feats)
        .map(|_| {
            [
                rng.sample::<f64, _>(StandardNormal) / l.sqrt(),
                rng.sample::<f64, _>(StandardNormal) / l.sqrt(),
            ]
        })
        .collect();
    let phase: Vec<f64> = (0..feats)
        .map(|_| rng.random_range(0.0..std::f64::consts::TAU))
        .collect();
    let amp: Vec<f64> = (0..feats).map(|_| rng.sample(StandardNormal)).collect();
    let f = |x: [f64; 2]| {
        (2.0 / feats as f64).sqrt()
            * (0..feats)
                .map(|k| amp[k] * (w[k][0] * x[0] + w[k][1] * x[1] + phase[k]).cos())
                .sum::<f64>()
    };
    let (mut xs, mut bn, mut bl, mut il, mut names) = (vec![], vec![], vec![], vec![], vec![]);
    // draw from the same GP for every bag (data seed separate from the function seed)
    let mut drng = ChaCha8Rng::seed_from_u64(seed + 100);
    for b in 0..bags {
        let pts: Vec<[f64; 2]> = (0..8)
            .map(|_| [drng.random_range(-3.0..3.0), drng.random_range(-3.0..3.0)])
            .collect();
        let ys: Vec<u8> = pts.iter().map(|&x| u8::from(f(x) > 1.0)).collect();
        let label = *ys.iter().max().unwrap();
        for (i, (x, y)) in pts.iter().zip(&ys).enumerate() {
            xs.extend_from_slice(x);
            bn.push(format!("b{b}"));
            bl.push(label);
            il.push(*y);
            names.push(format!("b{b}/{i}"));
        }
    }
    MilData::from_instances(2, xs, bn, bl, Some(il), names).unwrap()
}

#[test]
fn kernel_estimation_moves_toward_the_true_length_scale() {
    // true squared length scale 0.5 in x; z-scoring divides x by √3 (U(−3, 3)), so l = 0.5/3
    let l_true: f64 = 0.5 / 3.0;
    let data = gp_bags(300, 0.5, 7);
    let (train, test) = split(&data, 200, 300);
    let start = Rbf {
        variance: 1.0,
        lengthscale: 2.0,
    };
    let base = FitParams {
        model: Model::Vgpmil,
        inducing: 60,
        max_epochs: 40,
        tol: 0.0,
        variance: Some(start.variance),
        lengthscale: Some(start.lengthscale),
        ..FitParams::default()
    };
    let fixed = fit(&base, &train, None).unwrap();
    let tuned = fit(
        &FitParams {
            kernel_steps: Some(KernelSteps::default()),
            ..base
        },
        &train,
        None,
    )
    .unwrap();
    let k = tuned.model.kernel;
    let dist = |l: f64| (l.ln() - l_true.ln()).abs();
    println!(
        "l: {} → {} (true {l_true}), v: {} → {}",
        start.lengthscale, k.lengthscale, start.variance, k.variance
    );
    assert!(
        dist(k.lengthscale) < dist(start.lengthscale) - 0.3,
        "l: {} → {} (true {l_true})",
        start.lengthscale,
        k.lengthscale
    );
    // the trace records the kernel after every epoch past the warm-up
    assert!(tuned
        .trace
        .iter()
        .skip(KernelSteps::default().warmup)
        .all(|t| t.kernel.is_some()));
    let il = test.instance_labels.as_ref().unwrap();
    let ll = |m: &GpModel| {
        log_likelihood(
            il,
            &m.predict(&test, 200, 3).unwrap().instance_probabilities(),
        )
    };
    let (a, b) = (ll(&fixed.model), ll(&tuned.model));
    println!("held-out instance log-likelihood {a} → {b}");
    assert!(b > a + 0.01, "held-out instance log-likelihood {a} → {b}");
    let bl = test.bag_labels();
    let bll = |m: &GpModel| {
        log_likelihood(
            &bl,
            &m.predict(&test, 200, 3)
                .unwrap()
                .bag_probabilities(BagRule::Max),
        )
    };
    assert!(
        bll(&tuned.model) > bll(&fixed.model),
        "held-out bag log-likelihood"
    );
}

#[test]
fn every_model_saves_and_loads() {
    let data = synthetic(40, 4);
    let (train, test) = split(&data, 30, 40);
    let dir = tempfile::tempdir().unwrap();
    for link in [Model::Probit, Model::ProbitGibbs, Model::LM_VGPMIL] {
        let p = FitParams {
            model: link,
            inducing: 10,
            max_epochs: 10,
            // the rule these models had by default before the model type chose it
            bag_rule: Some(BagRule::Max),
            gibbs: Gibbs {
                chains: 2,
                burn_in: 20,
                draws: 50,
                thin: 2,
            },
            ..FitParams::default()
        };
        let m = fit(&p, &train, None).unwrap().model;
        let path = dir.path().join("m.json");
        m.save(&path).unwrap();
        let back = GpModel::load(&path).unwrap();
        assert_eq!(back.model, link);
        let (a, b) = (
            m.predict(&test, 50, 1).unwrap(),
            back.predict(&test, 50, 1).unwrap(),
        );
        for (x, y) in a.bags.iter().zip(&b.bags) {
            assert!((x.max.mean - y.max.mean).abs() < 1e-9, "{link:?}");
            assert_eq!(x.full_cov.is_some(), y.full_cov.is_some());
        }
    }
}

#[test]
fn an_edited_model_file_is_refused_on_load_naming_what_is_wrong() {
    let data = synthetic(30, 6);
    let p = FitParams {
        model: Model::Vgpmil,
        inducing: 6,
        max_epochs: 5,
        ..FitParams::default()
    };
    let m = fit(&p, &data, None).unwrap().model;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gp.json");
    m.save(&path).unwrap();
    let good: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert!(GpModel::load(&path).is_ok());
    // each edit once looked like a model and gave plausible probabilities
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "standardisation",
            Box::new(|v| v["standardizer"]["std"][0] = (-1.0).into()),
        ),
        (
            "standardisation",
            Box::new(|v| v["standardizer"]["std"][1] = 0.0.into()),
        ),
        (
            "standardisation",
            Box::new(|v| {
                v["standardizer"]["std"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "inducing",
            Box::new(|v| v["inducing_points"] = serde_json::json!([])),
        ),
        (
            "kernel",
            Box::new(|v| v["kernel"]["lengthscale"] = (-2.0).into()),
        ),
        (
            "calibration",
            Box::new(|v| {
                v["calibration"] = serde_json::json!({"a": -1.0, "b": 0.0});
            }),
        ),
        (
            "calibration",
            Box::new(|v| {
                v["calibration"] = serde_json::json!({"a": 1.0, "b": 0.0, "c": 0.0});
            }),
        ),
        ("H =", Box::new(|v| v["h"] = 0.5.into())),
        (
            "precision factor",
            Box::new(|v| {
                let m = v["m_whitened"].as_array().unwrap().len();
                for i in 0..m {
                    v["precision_factor"][i * m + i] = 0.0.into();
                }
            }),
        ),
    ];
    // finite extremes: a head with any of these gave p = 1 with sd 1e-14
    let extremes: Vec<(&str, Edit)> = vec![
        (
            "inducing point",
            Box::new(|v| v["inducing_points"][0] = 1e300.into()),
        ),
        (
            "whitened mean",
            Box::new(|v| v["m_whitened"][1] = (-1e300).into()),
        ),
        (
            "precision factor",
            Box::new(|v| v["precision_factor"][0] = 1e300.into()),
        ),
        (
            "kernel variance",
            Box::new(|v| v["kernel"]["variance"] = 1e300.into()),
        ),
        (
            "squared length scale",
            Box::new(|v| v["kernel"]["lengthscale"] = 1e-300.into()),
        ),
        (
            "feature mean",
            Box::new(|v| v["standardizer"]["mean"][0] = 1e300.into()),
        ),
        (
            "feature standard deviation",
            Box::new(|v| v["standardizer"]["std"][0] = 1e-300.into()),
        ),
        ("H", Box::new(|v| v["h"] = 1e300.into())),
        (
            "calibration b",
            Box::new(|v| v["calibration"] = serde_json::json!({"a": 1.0, "b": 1e300})),
        ),
    ];
    for (word, edit) in edits.into_iter().chain(extremes) {
        let mut v = good.clone();
        edit(&mut v);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = GpModel::load(&path).unwrap_err().to_string();
        assert!(e.contains(word) && e.contains("gp.json"), "{word}: {e}");
    }
}

#[test]
fn features_too_large_to_standardise_are_refused_naming_the_instance() {
    let names: Vec<String> = (0..2).map(|i| format!("slice{i}")).collect();
    let e = MilData::from_instances(
        2,
        vec![0.5, 1.0, 1e308, -2.0],
        vec!["b".into(); 2],
        vec![1, 1],
        None,
        names.clone(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("slice1") && e.contains("feature 0") && e.contains("1e100"),
        "{e}"
    );
    // the largest accepted value standardises to finite numbers
    let d = MilData::from_instances(
        2,
        vec![1e100, 1.0, -1e100, -2.0],
        vec!["b".into(); 2],
        vec![1, 1],
        None,
        names,
    )
    .unwrap();
    let s = gphead::Standardizer::fit(&d);
    assert!(s.mean.iter().chain(&s.std).all(|v| v.is_finite()));
    assert!(s.apply(&d).iter().all(|v| v.is_finite()));
}

/// Past `b_memory` the fits recompute B a block of instances at a time instead of holding it:
/// every model family, with validation bags and (VGPMIL) kernel steps, keeps the numbers of the
/// fit that holds B, over several blocks of 1,024 instances and a partial last one.
#[test]
fn a_streamed_b_gives_the_fit_of_a_held_one() {
    let data = synthetic(400, 17);
    assert!(data.n > 3 * 1024, "{} instances", data.n);
    let (train, valid) = split(&data, 320, 400);
    let base = FitParams {
        inducing: 24,
        max_epochs: 12,
        patience: 3,
        gibbs: Gibbs {
            chains: 2,
            burn_in: 10,
            draws: 20,
            thin: 1,
        },
        ..FitParams::default()
    };
    let models = [
        (
            Model::Vgpmil,
            Some(KernelSteps {
                warmup: 2,
                ..KernelSteps::default()
            }),
        ),
        (
            Model::GVgpmil {
                alpha: 1.0,
                beta: 1.0,
            },
            None,
        ),
        (Model::LmVgpmil { c: 1.0, v: 0.0 }, None),
        (Model::Probit, None),
        (Model::ProbitGibbs, None),
    ];
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-7 * (1.0 + a.abs().max(b.abs()));
    for (model, kernel_steps) in models {
        let p = FitParams {
            model,
            kernel_steps,
            ..base.clone()
        };
        let held = fit(
            &FitParams {
                b_memory: usize::MAX,
                ..p.clone()
            },
            &train,
            Some(&valid),
        )
        .unwrap();
        let streamed = fit(
            &FitParams {
                b_memory: 0,
                ..p.clone()
            },
            &train,
            Some(&valid),
        )
        .unwrap();
        let name = model.name();
        assert_eq!(held.best_epoch, streamed.best_epoch, "{name}");
        assert_eq!(held.trace.len(), streamed.trace.len(), "{name}");
        let (h, s) = (&held.model, &streamed.model);
        assert!(close(h.kernel.lengthscale, s.kernel.lengthscale), "{name}");
        assert!(close(h.kernel.variance, s.kernel.variance), "{name}");
        for (a, b) in h.m_whitened.iter().zip(&s.m_whitened) {
            assert!(close(*a, *b), "{name}: m_w {a} vs {b}");
        }
        for (a, b) in h.precision_factor.iter().zip(&s.precision_factor) {
            assert!(close(*a, *b), "{name}: R {a} vs {b}");
        }
        for (a, b) in held.pi.iter().zip(&streamed.pi) {
            assert!(close(*a, *b), "{name}: π {a} vs {b}");
        }
        if let (Some(a), Some(b)) = (&h.draws, &s.draws) {
            for (x, y) in a.v.iter().zip(&b.v) {
                assert!((x - y).abs() < 1e-6, "{name}: draw {x} vs {y}");
            }
        }
        let ph = h.predict(&valid, 64, 1).unwrap();
        let ps = s.predict(&valid, 64, 1).unwrap();
        for (a, b) in ph.instances.iter().zip(&ps.instances) {
            assert!(
                (a.mean - b.mean).abs() < 1e-7,
                "{name}: {} vs {}",
                a.mean,
                b.mean
            );
        }
    }
}
