//! The whitened Cholesky implementation against a separate plain implementation of MODELS.md
//! §3–4 with dense inverses (Gauss–Jordan), on a tiny problem.

#![allow(clippy::needless_range_loop)] // a plain transcription of the formulas, index by index

use gphead::{fit, EmaxRule, FitParams, MilData, Model, Rbf};

type M = Vec<Vec<f64>>;

fn inv(a: &M) -> M {
    let n = a.len();
    let mut w: M = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&x, &y| w[x][c].abs().total_cmp(&w[y][c].abs()))
            .unwrap();
        w.swap(c, p);
        let d = w[c][c];
        w[c].iter_mut().for_each(|v| *v /= d);
        for r in 0..n {
            if r != c {
                let f = w[r][c];
                let row = w[c].clone();
                w[r].iter_mut().zip(&row).for_each(|(v, x)| *v -= f * x);
            }
        }
    }
    w.into_iter().map(|r| r[n..].to_vec()).collect()
}
fn mul(a: &M, b: &M) -> M {
    (0..a.len())
        .map(|i| {
            (0..b[0].len())
                .map(|j| (0..b.len()).map(|k| a[i][k] * b[k][j]).sum())
                .collect()
        })
        .collect()
}
fn t(a: &M) -> M {
    (0..a[0].len())
        .map(|j| (0..a.len()).map(|i| a[i][j]).collect())
        .collect()
}
fn sig(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn tiny() -> MilData {
    let x = vec![
        0.3, 1.2, -0.5, 0.8, 1.1, -0.2, // bag A (positive): 3 instances
        2.0, 0.1, 1.7, -0.4, // bag B (positive): 2
        -1.0, -0.9, -0.3, 0.0, -1.4, 0.6, // bag C (negative): 3
    ];
    let bags: Vec<String> = ["A", "A", "A", "B", "B", "C", "C", "C"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let labels = vec![1, 1, 1, 1, 1, 0, 0, 0];
    let names = (0..8).map(|i| i.to_string()).collect();
    MilData::from_instances(2, x, bags, labels, None, names).unwrap()
}

struct Reference {
    kzz: M,
    kzx: M, // M×N
    v: f64,
    kern: Rbf,
    z: Vec<[f64; 2]>,
    xs: Vec<[f64; 2]>,
}

impl Reference {
    fn new(data: &MilData, z: &[[f64; 2]], kern: Rbf) -> Self {
        // z-score with population statistics
        let n = data.n as f64;
        let mut mean = [0.0; 2];
        let mut sd = [0.0; 2];
        for i in 0..data.n {
            for j in 0..2 {
                mean[j] += data.row(i)[j] / n;
            }
        }
        for i in 0..data.n {
            for j in 0..2 {
                sd[j] += (data.row(i)[j] - mean[j]).powi(2) / n;
            }
        }
        let xs: Vec<[f64; 2]> = (0..data.n)
            .map(|i| {
                [
                    (data.row(i)[0] - mean[0]) / sd[0].sqrt(),
                    (data.row(i)[1] - mean[1]) / sd[1].sqrt(),
                ]
            })
            .collect();
        let k = |a: &[f64; 2], b: &[f64; 2]| {
            kern.variance
                * (-((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)) / (2.0 * kern.lengthscale))
                    .exp()
        };
        let kzz = z
            .iter()
            .map(|a| z.iter().map(|b| k(a, b)).collect())
            .collect();
        let kzx = z
            .iter()
            .map(|a| xs.iter().map(|b| k(a, b)).collect())
            .collect();
        Reference {
            kzz,
            kzx,
            v: kern.variance,
            kern,
            z: z.to_vec(),
            xs,
        }
    }

    /// One epoch from m = 0, S = K_zz, π0: returns (m, S, π).
    fn epoch(
        &self,
        data: &MilData,
        pi0: &[f64],
        theta: impl Fn(f64) -> f64,
        h: f64,
    ) -> (Vec<f64>, M, Vec<f64>) {
        let kinv = inv(&self.kzz);
        let a = mul(&kinv, &self.kzx); // M×N
        let n = data.n;
        let s0 = self.kzz.clone();
        let m0 = vec![0.0; self.z.len()];
        let ata_s = mul(&t(&a), &mul(&s0, &a));
        let kxz_kinv_kzx = mul(&t(&self.kzx), &a);
        let th: Vec<f64> = (0..n)
            .map(|i| {
                let mu: f64 = (0..m0.len()).map(|k| a[k][i] * m0[k]).sum();
                let var = self.v - kxz_kinv_kzx[i][i] + ata_s[i][i];
                theta((mu * mu + var).sqrt())
            })
            .collect();
        let mut prec = kinv.clone();
        for p in 0..prec.len() {
            for q in 0..prec.len() {
                prec[p][q] += (0..n).map(|i| a[p][i] * th[i] * a[q][i]).sum::<f64>();
            }
        }
        let s = inv(&prec);
        let rhs: Vec<Vec<f64>> = (0..self.z.len())
            .map(|p| vec![(0..n).map(|i| a[p][i] * (pi0[i] - 0.5)).sum()])
            .collect();
        let m: Vec<f64> = mul(&s, &rhs).into_iter().map(|r| r[0]).collect();
        let mu: Vec<f64> = (0..n)
            .map(|i| (0..m.len()).map(|k| a[k][i] * m[k]).sum())
            .collect();
        let mut pi = vec![0.0; n];
        for b in &data.bags {
            let sign = 2.0 * b.label as f64 - 1.0;
            for &i in &b.instances {
                let prod: f64 = b
                    .instances
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| 1.0 - pi0[j])
                    .product();
                pi[i] = sig(mu[i] + h.ln() * sign * prod);
            }
        }
        (m, s, pi)
    }

    /// Predictive moments at new (already z-scored) points.
    fn predictive(&self, m: &[f64], s: &M, x: &[[f64; 2]]) -> Vec<(f64, f64)> {
        let kinv = inv(&self.kzz);
        x.iter()
            .map(|xp| {
                let ks: M = self
                    .z
                    .iter()
                    .map(|zp| vec![self.kern.eval(zp, xp)])
                    .collect();
                let a = mul(&kinv, &ks);
                let mu: f64 = (0..m.len()).map(|k| a[k][0] * m[k]).sum();
                // k** + k*ᵀ K⁻¹ (S K⁻¹ − I) k*
                let mut sk = mul(s, &kinv);
                for (i, row) in sk.iter_mut().enumerate() {
                    row[i] -= 1.0;
                }
                let quad = mul(&t(&ks), &mul(&kinv, &mul(&sk, &ks)))[0][0];
                (mu, self.kern.variance + quad)
            })
            .collect()
    }
}

fn params(link: Model, z: &[[f64; 2]], kern: Rbf) -> FitParams {
    FitParams {
        model: link,
        inducing_points: Some(z.iter().flatten().copied().collect()),
        variance: Some(kern.variance),
        lengthscale: Some(kern.lengthscale),
        max_epochs: 1,
        emax: EmaxRule::Product,
        seed: 5,
        ..FitParams::default()
    }
}

#[test]
fn one_epoch_matches_the_dense_reference() {
    let data = tiny();
    let z = [[0.5, 0.9], [-1.0, 0.2], [1.3, -1.1]];
    let kern = Rbf {
        variance: 1.3,
        lengthscale: 0.7,
    };
    let r = Reference::new(&data, &z, kern);
    for link in [
        Model::Vgpmil,
        Model::GVgpmil {
            alpha: 0.5,
            beta: 2.5,
        },
    ] {
        let out = fit(&params(link, &z, kern), &data, None).unwrap();
        assert_eq!(out.model.kzz_jitter, 0.0);
        let (m_ref, s_ref, pi_ref) =
            r.epoch(&data, &out.pi_initial, |c| link.theta(c).unwrap(), 100.0);
        let (m, s) = out.model.q_u().unwrap();
        for k in 0..3 {
            assert!(
                (m[k] - m_ref[k]).abs() < 1e-9,
                "{link:?} m[{k}] {} vs {}",
                m[k],
                m_ref[k]
            );
            for j in 0..3 {
                assert!(
                    (s[(k, j)] - s_ref[k][j]).abs() < 1e-9,
                    "{link:?} S[{k},{j}]"
                );
            }
        }
        for i in 0..data.n {
            assert!(
                (out.pi[i] - pi_ref[i]).abs() < 1e-9,
                "{link:?} π[{i}] {} vs {}",
                out.pi[i],
                pi_ref[i]
            );
        }
    }
}

#[test]
fn predictive_mean_and_variance_match_the_formula() {
    let data = tiny();
    let z = [[0.5, 0.9], [-1.0, 0.2], [1.3, -1.1]];
    let kern = Rbf {
        variance: 0.8,
        lengthscale: 1.5,
    };
    let r = Reference::new(&data, &z, kern);
    let mut p = params(
        Model::GVgpmil {
            alpha: 1.0,
            beta: 1.0,
        },
        &z,
        kern,
    );
    p.max_epochs = 3;
    let out = fit(&p, &data, None).unwrap();
    let (m, s) = out.model.q_u().unwrap();
    let s: M = (0..3)
        .map(|i| (0..3).map(|j| s[(i, j)]).collect())
        .collect();
    // predict on the training points themselves (the model z-scores them the same way)
    let want = r.predictive(&m, &s, &r.xs);
    let (mu, var) = out.model.latent(&data).unwrap();
    for i in 0..data.n {
        assert!((mu[i] - want[i].0).abs() < 1e-9, "μ[{i}]");
        assert!(
            (var[i] - want[i].1).abs() < 1e-9,
            "σ²[{i}] {} vs {}",
            var[i],
            want[i].1
        );
        assert!(var[i] > 0.0);
    }
}

/// One LM-VGPMIL iteration (MODELS.md §6) with dense inverses, from π0, τ = ½, ξ = φ = 1, m = 0.
#[test]
fn lm_vgpmil_iteration_matches_the_dense_reference() {
    let data = tiny();
    let z = [[0.5, 0.9], [-1.0, 0.2], [1.3, -1.1]];
    let kern = Rbf {
        variance: 1.1,
        lengthscale: 0.9,
    };
    let r = Reference::new(&data, &z, kern);
    let (c, v, h) = (2.0, 2.0, 100.0f64);
    let out = fit(&params(Model::LmVgpmil { c, v }, &z, kern), &data, None).unwrap();
    let pi0 = &out.pi_initial;
    let lam = |x: f64| (x / 2.0).tanh() / (4.0 * x);
    let n = data.n;
    let kinv = inv(&r.kzz);
    let a = mul(&kinv, &r.kzx);
    let big_lam: Vec<f64> = (0..n)
        .map(|_| 2.0 * (lam(1.0) * c * c + lam(1.0) * 0.5))
        .collect();
    let mut prec = kinv.clone();
    for p in 0..3 {
        for q in 0..3 {
            prec[p][q] += (0..n).map(|i| a[p][i] * big_lam[i] * a[q][i]).sum::<f64>();
        }
    }
    let s = inv(&prec);
    let rvec: Vec<f64> = (0..n)
        .map(|i| {
            let sgn = 2.0 * pi0[i] - 1.0;
            c * sgn * (0.5 - 0.5) + 2.0 * c * c * lam(1.0) * sgn * v + 0.5 * (pi0[i] - 0.5)
        })
        .collect();
    let rhs: Vec<Vec<f64>> = (0..3)
        .map(|p| vec![(0..n).map(|i| a[p][i] * rvec[i]).sum()])
        .collect();
    let m: Vec<f64> = mul(&s, &rhs).into_iter().map(|x| x[0]).collect();
    let mu: Vec<f64> = (0..n)
        .map(|i| (0..3).map(|k| a[k][i] * m[k]).sum())
        .collect();
    let kxk = mul(&t(&r.kzx), &a);
    let asa = mul(&t(&a), &mul(&s, &a));
    let f2: Vec<f64> = (0..n)
        .map(|i| mu[i] * mu[i] + r.v - kxk[i][i] + asa[i][i])
        .collect();
    let tau: Vec<f64> = (0..n)
        .map(|i| {
            sig(c * ((2.0 * pi0[i] - 1.0) * mu[i] - v) + mu[i] * (pi0[i] - 0.5) - lam(1.0) * f2[i])
        })
        .collect();
    let mut pi = vec![0.0; n];
    for b in &data.bags {
        let tb = b.label as f64;
        for &i in &b.instances {
            let emax = 1.0
                - b.instances
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| 1.0 - pi0[j])
                    .product::<f64>();
            let x = 2.0 * tau[i] * c * mu[i] - c * mu[i]
                + 4.0 * lam(1.0) * c * c * mu[i] * v
                + mu[i] * tau[i]
                + h.ln() * (2.0 * tb - 2.0 * tb * emax + emax - 1.0);
            pi[i] = sig(x);
        }
    }
    let xi: Vec<f64> = (0..n)
        .map(|i| (c * c * (f2[i] - 2.0 * (2.0 * pi[i] - 1.0) * mu[i] * v + v * v)).sqrt())
        .collect();
    let phi: Vec<f64> = (0..n).map(|i| (f2[i] * tau[i]).sqrt()).collect();

    let (mm, ss) = out.model.q_u().unwrap();
    for k in 0..3 {
        assert!((mm[k] - m[k]).abs() < 1e-9, "m[{k}] {} vs {}", mm[k], m[k]);
        for j in 0..3 {
            assert!((ss[(k, j)] - s[k][j]).abs() < 1e-9, "S[{k},{j}]");
        }
    }
    let local = |name: &str| {
        out.local
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1
            .clone()
    };
    for (name, want) in [("tau", &tau), ("xi", &xi), ("phi", &phi)] {
        let got = local(name);
        for i in 0..n {
            assert!(
                (got[i] - want[i]).abs() < 1e-9,
                "{name}[{i}] {} vs {}",
                got[i],
                want[i]
            );
        }
    }
    for i in 0..n {
        assert!(
            (out.pi[i] - pi[i]).abs() < 1e-9,
            "π[{i}] {} vs {}",
            out.pi[i],
            pi[i]
        );
    }
}
