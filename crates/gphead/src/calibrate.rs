//! The calibration map: Platt scaling `p' = σ(a · logit(p) + b)` with a > 0, or beta calibration
//! (Kull, Silva Filho & Flach 2017) `p' = σ(a · ln p − c · ln(1 − p) + b)` with a, c > 0, which
//! can bend the low and the high end differently ([`MapFamily`]). Both are strictly increasing
//! maps, so they commute with the max rule and keep the order of any two draws. Fitted on
//! validation bags only, on each bag's Monte Carlo draws ([`Platt::fit_toward`]), so that the
//! calibrated probability is the mean of the mapped draws ([`mapped_mean`]); that mean can
//! reorder two predictions whose draws spread differently (docs/GPHEAD.md: nothing on the RSNA
//! features, G-VGPMIL's MUSK1 AUC 0.847 → 0.824).
//! [`Platt::fit_shrunk`], what `ich` uses, pulls the map toward the identity as far as
//! cross-validation over the same bags says the data support: a head trained on a bag likelihood
//! and stopped on validation log-likelihood is often calibrated already, and a map fitted on
//! 15–60 bags then only adds noise (docs/BENCHMARKS.md). A site's recalibration
//! ([`Platt::fit_shrunk_toward`], [`cross_fitted`]) pulls toward the map in use instead.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Platt {
    pub a: f64,
    pub b: f64,
    /// Beta calibration's slope on `−ln(1 − p)`; absent: Platt scaling (the same slope `a` on
    /// both ends). Maps written before it existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
}

/// Which monotone map a calibration fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MapFamily {
    /// `σ(a · logit(p) + b)`: two parameters; what `fit-gp` and `eval-gp` fit on training bags.
    #[default]
    Platt,
    /// `σ(a · ln p − c · ln(1 − p) + b)`: three parameters, the identity at a = c = 1, b = 0;
    /// contains Platt's (a = c). For a site's recalibration on hundreds of its own scans.
    Beta,
}

use crate::special::{logit, sigmoid};

/// A map from [`Platt::fit_shrunk_toward`] and the pull toward its centre chosen for it
/// (`None`: infinite, the map is the identity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shrunk {
    pub map: Platt,
    pub strength: Option<f64>,
}

impl Platt {
    pub const IDENTITY: Platt = Platt {
        a: 1.0,
        b: 0.0,
        c: None,
    };

    /// The identity of `family`.
    pub fn identity(family: MapFamily) -> Platt {
        match family {
            MapFamily::Platt => Self::IDENTITY,
            MapFamily::Beta => Platt {
                c: Some(1.0),
                ..Self::IDENTITY
            },
        }
    }

    pub fn apply(&self, p: f64) -> f64 {
        match self.c {
            None => sigmoid(self.a * logit(p) + self.b),
            Some(c) => {
                let [lp, lq] = beta_inputs(p);
                sigmoid(self.a * lp + c * lq + self.b)
            }
        }
    }

    /// Which family the map is of.
    pub fn family(&self) -> MapFamily {
        if self.c.is_some() {
            MapFamily::Beta
        } else {
            MapFamily::Platt
        }
    }

    /// The smallest slope kept: the map stays strictly increasing.
    pub const MIN_SLOPE: f64 = 1e-3;

    /// The map of `center`'s family fitted so that, for every bag, the mean over its draws of the
    /// mapped probability `q_b = (1/L) Σ_s g(p_bs)` matches its label — the exact log-likelihood
    /// of the labels under the reported (mean) probabilities — with the penalty
    /// `ridge/2 · |θ − θ_center|²` on the parameters θ = (a, b) or (a, c, b); an infinite ridge
    /// gives `center`. Fisher scoring with backtracking from the identity (from a steep centre it
    /// would start where the sigmoid is flat); the slopes stay ≥ [`Platt::MIN_SLOPE`]. As in Platt
    /// (1999), the targets are `(N₊ + 1)/(N₊ + 2)` and `1/(N₋ + 2)` rather than 1 and 0, so that a
    /// small, separable set does not give an infinitely steep map.
    pub fn fit_toward<D: AsRef<[f64]>>(
        center: Platt,
        labels: &[u8],
        draws: &[D],
        ridge: f64,
    ) -> Platt {
        if !ridge.is_finite() {
            return center;
        }
        match center.c {
            None => {
                let [a, b] = fit_glm(
                    (labels, draws),
                    ridge,
                    [[center.a, center.b], [1.0, 0.0]],
                    [true, false],
                    |p| [logit(p), 1.0],
                );
                Platt { a, b, c: None }
            }
            Some(c) => {
                let [a, c, b] = fit_glm(
                    (labels, draws),
                    ridge,
                    [[center.a, c, center.b], [1.0, 1.0, 0.0]],
                    [true, true, false],
                    |p| {
                        let [lp, lq] = beta_inputs(p);
                        [lp, lq, 1.0]
                    },
                );
                Platt { a, b, c: Some(c) }
            }
        }
    }

    /// This map as one of `family`, where it is one: Platt's map is the beta map with c = a;
    /// a beta map with c ≠ a is no Platt map.
    pub fn as_family(self, family: MapFamily) -> Option<Platt> {
        match (family, self.c) {
            (MapFamily::Platt, None) | (MapFamily::Beta, Some(_)) => Some(self),
            (MapFamily::Beta, None) => Some(Platt {
                c: Some(self.a),
                ..self
            }),
            (MapFamily::Platt, Some(c)) => (c == self.a).then_some(Platt { c: None, ..self }),
        }
    }

    /// Folds of [`Platt::fit_shrunk`]'s cross-validation where the caller has no fold count of
    /// its own (a map fitted on validation bags only).
    pub const CV_FOLDS: usize = 5;

    /// The pulls toward the centre [`Platt::fit_shrunk_toward`] chooses from, weakest first; the
    /// last, infinite, is the centre itself.
    pub const STRENGTHS: [f64; 9] = [1e-3, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, f64::INFINITY];

    /// [`Platt::fit_shrunk_toward`] the identity of `family`.
    pub fn fit_shrunk<D: AsRef<[f64]>>(
        family: MapFamily,
        labels: &[u8],
        draws: &[D],
        folds: usize,
        seed: u64,
    ) -> Shrunk {
        Self::fit_shrunk_toward(Self::identity(family), labels, draws, folds, seed)
    }

    /// The map of `center`'s family with its pull toward `center` chosen by k-fold
    /// cross-validation over the bags (stratified, seeded): for each strength of
    /// [`Platt::STRENGTHS`] the map is fitted ([`Platt::fit_toward`]) on k − 1 folds and scored
    /// by the log-likelihood of the held-out fold's labels under its mean mapped draws; the
    /// strength with the best total (the stronger on ties) is refitted on every bag — the
    /// infinite one keeps `center`, a map the data must beat to replace. k is at most the number
    /// of bags of either label; below 2 the weakest pull is used.
    pub fn fit_shrunk_toward<D: AsRef<[f64]>>(
        center: Platt,
        labels: &[u8],
        draws: &[D],
        folds: usize,
        seed: u64,
    ) -> Shrunk {
        let npos = labels.iter().filter(|&&y| y == 1).count();
        let k = folds.min(npos).min(labels.len() - npos);
        let parts = if k >= 2 {
            milbase::stratified_folds(labels, k, seed).ok()
        } else {
            None
        };
        Self::shrunk_over(center, labels, draws, parts)
    }

    /// [`Platt::fit_shrunk`] with the pull chosen over folds that keep each group whole (`groups`:
    /// one key per bag, e.g. its patient; [`milbase::grouped_stratified_folds`]), so that no bag
    /// is scored by a map fitted on another scan of its patient.
    pub fn fit_shrunk_grouped<D: AsRef<[f64]>>(
        family: MapFamily,
        labels: &[u8],
        draws: &[D],
        groups: &[u64],
        folds: usize,
        seed: u64,
    ) -> Shrunk {
        let npos = labels.iter().filter(|&&y| y == 1).count();
        let k = folds.min(npos).min(labels.len() - npos);
        let parts = (k >= 2 && groups.len() == labels.len())
            .then(|| milbase::grouped_stratified_folds(labels, groups, k, seed).ok())
            .flatten()
            .map(|mut p| {
                p.iter_mut().for_each(|f| f.sort_unstable());
                p
            });
        Self::shrunk_over(Self::identity(family), labels, draws, parts)
    }

    /// The shrunk map of `center`'s family with its pull chosen over `parts` (held-out bag
    /// indices per fold; `None`: the weakest pull).
    fn shrunk_over<D: AsRef<[f64]>>(
        center: Platt,
        labels: &[u8],
        draws: &[D],
        parts: Option<Vec<Vec<usize>>>,
    ) -> Shrunk {
        let Some(parts) = parts else {
            return Shrunk {
                map: Self::fit_toward(center, labels, draws, Self::STRENGTHS[0]),
                strength: Some(Self::STRENGTHS[0]),
            };
        };
        // each fold's training part and held-out part, gathered once for every strength
        type Part<'a> = (Vec<u8>, Vec<&'a [f64]>);
        let gather = |idx: &mut dyn Iterator<Item = usize>| -> Part<'_> {
            idx.map(|i| (labels[i], draws[i].as_ref())).unzip()
        };
        let folds: Vec<(Part<'_>, Part<'_>)> = parts
            .iter()
            .filter(|held| !held.is_empty())
            .map(|held| {
                // every fold in ascending order (stratified_folds's; grouped ones sorted above)
                let mut rest = (0..labels.len()).filter(|i| held.binary_search(i).is_err());
                (gather(&mut rest), gather(&mut held.iter().copied()))
            })
            .collect();
        let fit_on =
            |l: &[u8], d: &[&[f64]], strength: f64| Self::fit_toward(center, l, d, strength);
        let mut best = (f64::NEG_INFINITY, Self::STRENGTHS[0]);
        for &strength in &Self::STRENGTHS {
            let total: f64 = folds
                .iter()
                .map(|((tl, td), (hl, hd))| {
                    let c = fit_on(tl, td, strength);
                    let hp: Vec<f64> = hd.iter().map(|d| mapped_mean(Some(c), d)).collect();
                    crate::metrics::log_likelihood(hl, &hp) * hl.len() as f64
                })
                .sum();
            // the stronger pull on ties (and within rounding)
            if total >= best.0 - 1e-9 {
                best = (total.max(best.0), strength);
            }
        }
        let map = Self::fit_toward(center, labels, draws, best.1);
        tracing::debug!(strength = best.1, a = map.a, b = map.b, c = ?map.c, "calibration map");
        Shrunk {
            map,
            strength: Some(best.1).filter(|s| s.is_finite()),
        }
    }
}

/// A recalibration on a set of labelled bags (a site's own scans), measured without any bag's
/// label reaching its own probability: the bags are split into `folds` stratified folds
/// (seeded), and each bag's probability is the mean of its draws through the map of `center`'s
/// family fitted ([`Platt::fit_shrunk_toward`]: pulled toward `center`, the map in use, as far
/// as cross-validation within the other folds says) on
/// the other folds' bags — or, with `limit`, on a stratified random subset of about that many of
/// them (how many labelled scans a site needs). `None` when either label has fewer than 2 bags.
pub fn cross_fitted(
    center: Platt,
    labels: &[u8],
    draws: &[Vec<f64>],
    [folds, limit]: [usize; 2],
    seed: u64,
) -> Option<Vec<f64>> {
    let npos = labels.iter().filter(|&&y| y == 1).count();
    let k = folds.min(npos).min(labels.len() - npos);
    if k < 2 {
        return None;
    }
    let parts = milbase::stratified_folds(labels, k, seed).ok()?;
    let mut out = vec![f64::NAN; labels.len()];
    for (f, held) in parts.iter().enumerate() {
        let mut rest: Vec<usize> = (0..labels.len())
            .filter(|i| held.binary_search(i).is_err())
            .collect();
        if limit < rest.len() {
            let rl: Vec<u8> = rest.iter().map(|&i| labels[i]).collect();
            let fraction = limit as f64 / rest.len() as f64;
            let (_, keep) =
                milbase::stratified_holdout(&rl, fraction, seed.wrapping_add(31 * f as u64))
                    .ok()?;
            rest = keep.iter().map(|&k| rest[k]).collect();
        }
        let l: Vec<u8> = rest.iter().map(|&i| labels[i]).collect();
        let d: Vec<&[f64]> = rest.iter().map(|&i| draws[i].as_slice()).collect();
        let map =
            Platt::fit_shrunk_toward(center, &l, &d, Platt::CV_FOLDS, seed.wrapping_add(1)).map;
        for &i in held {
            out[i] = mapped_mean(Some(map), &draws[i]);
        }
    }
    Some(out)
}

/// Beta calibration's inputs `(ln p, −ln(1 − p))`, with p kept within [1e-9, 1 − 1e-9] as
/// [`logit`] keeps it.
fn beta_inputs(p: f64) -> [f64; 2] {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    [p.ln(), -(-p).ln_1p()]
}

/// The mean of a bag's draws through `map` (`None`: as they are): the probability a map
/// reports and is fitted on.
pub fn mapped_mean(map: Option<Platt>, draws: &[f64]) -> f64 {
    draws
        .iter()
        .map(|&x| map.map_or(x, |m| m.apply(x)))
        .sum::<f64>()
        / draws.len().max(1) as f64
}

/// [`Platt::fit_toward`]'s fit for K parameters θ of `q = σ(θ · x(p))`: `[center, start]`, the
/// slopes that stay ≥ [`Platt::MIN_SLOPE`] (`bounded`), and the inputs `x` of a probability.
fn fit_glm<D: AsRef<[f64]>, const K: usize>(
    (labels, draws): (&[u8], &[D]),
    ridge: f64,
    [center, start]: [[f64; K]; 2],
    bounded: [bool; K],
    x: impl Fn(f64) -> [f64; K],
) -> [f64; K] {
    let npos = labels.iter().filter(|&&y| y == 1).count() as f64;
    let nneg = labels.len() as f64 - npos;
    let (t_pos, t_neg) = ((npos + 1.0) / (npos + 2.0), 1.0 / (nneg + 2.0));
    // per bag: its target and, per draw, the inputs
    let bags: Vec<(f64, Vec<[f64; K]>)> = labels
        .iter()
        .zip(draws)
        .map(|(&y, d)| {
            let t = if y == 1 { t_pos } else { t_neg };
            (t, d.as_ref().iter().map(|&p| x(p)).collect())
        })
        .collect();
    let dot = |th: &[f64; K], xi: &[f64; K]| (0..K).map(|k| th[k] * xi[k]).sum::<f64>();
    // q of one bag and its gradient in θ
    let q_of = |th: &[f64; K], xs: &[[f64; K]]| -> (f64, [f64; K]) {
        let (mut q, mut g) = (0.0, [0.0; K]);
        for xi in xs {
            let s = sigmoid(dot(th, xi));
            q += s;
            for k in 0..K {
                g[k] += s * (1.0 - s) * xi[k];
            }
        }
        let l = xs.len().max(1) as f64;
        ((q / l).clamp(1e-12, 1.0 - 1e-12), g.map(|v| v / l))
    };
    let loss = |th: &[f64; K]| -> f64 {
        let nll: f64 = bags
            .iter()
            .map(|(t, xs)| {
                let (q, _) = q_of(th, xs);
                -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
            })
            .sum();
        nll + 0.5 * ridge * (0..K).map(|k| (th[k] - center[k]).powi(2)).sum::<f64>()
    };
    let mut th = start;
    let mut current = loss(&th);
    for _ in 0..200 {
        // gradient and Fisher information of the penalised negative log-likelihood
        let mut g: [f64; K] = std::array::from_fn(|k| ridge * (th[k] - center[k]));
        let mut h = [[0.0; K]; K];
        for (k, row) in h.iter_mut().enumerate() {
            row[k] = ridge;
        }
        for (t, xs) in &bags {
            let (q, dq) = q_of(&th, xs);
            let w = 1.0 / (q * (1.0 - q));
            let r = (q - t) * w;
            for i in 0..K {
                g[i] += r * dq[i];
                for j in 0..K {
                    h[i][j] += w * dq[i] * dq[j];
                }
            }
        }
        let Some(step) = solve_spd(h, g) else {
            break;
        };
        // the step, halved until the loss does not rise
        let mut s = 1.0;
        let mut moved = false;
        while s > 1e-10 {
            let next: [f64; K] = std::array::from_fn(|k| {
                let v = th[k] - s * step[k];
                if bounded[k] {
                    v.max(Platt::MIN_SLOPE)
                } else {
                    v
                }
            });
            let l = loss(&next);
            if l <= current {
                moved = (0..K).map(|k| (next[k] - th[k]).abs()).sum::<f64>() > 1e-12;
                (th, current) = (next, l);
                break;
            }
            s /= 2.0;
        }
        if !moved {
            break;
        }
    }
    th
}

/// `h⁻¹ g` for a small symmetric positive definite `h` (Cholesky); `None` when it is not.
fn solve_spd<const K: usize>(h: [[f64; K]; K], g: [f64; K]) -> Option<[f64; K]> {
    let mut l = [[0.0; K]; K];
    for i in 0..K {
        for j in 0..=i {
            let s = h[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if !(s > 0.0 && s.is_finite()) {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    let mut y = [0.0; K];
    for i in 0..K {
        y[i] = (g[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = [0.0; K];
    for i in (0..K).rev() {
        x[i] = (y[i] - (i + 1..K).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// A calibration map of instance (slice) probabilities fitted on bag (scan) labels only, by the
/// multiple-instance likelihood: the map `g(p) = σ(a · logit(p) + b)` maximises
/// `Σ_bags [y log P + (1 − y) log(1 − P)]` with `P = 1 − Π_j (1 − g(p_j))^(1/τ)` (noisy-OR over
/// stretches of `tau` correlated instances: a scan is positive when any of its slices is, and
/// neighbouring slices, 5 mm apart, see much the same; `tau` = 1 is the plain noisy-OR of
/// independent instances, [`correlation_length`] estimates it without labels), plus the ridge
/// `ridge/2 · ((a − 1)² + b²)` toward the identity. A scan map fitted on the max (the most
/// suspicious slice) says how likely the *scan* is positive and would give every slice that
/// number; this map asks what slice probabilities explain the scan labels when every slice
/// counts, so a slice's probability can be read slice by slice. Newton's method with
/// backtracking from the identity, the slope kept ≥ [`Platt::MIN_SLOPE`]; deterministic.
/// `None` without both labels among `bags`.
pub fn fit_instance_map<B: AsRef<[f64]>>(
    labels: &[u8],
    bags: &[B],
    tau: f64,
    ridge: f64,
) -> Option<Platt> {
    let tau = if tau.is_finite() { tau.max(1.0) } else { 1.0 };
    let npos = labels.iter().filter(|&&y| y == 1).count();
    if labels.len() != bags.len() || npos == 0 || npos == labels.len() {
        return None;
    }
    let logits: Vec<Vec<f64>> = bags
        .iter()
        .map(|b| b.as_ref().iter().map(|&p| logit(p)).collect())
        .collect();
    let objective = |a: f64, b: f64| -> (f64, [f64; 2]) {
        let (mut ll, mut ga, mut gb) = (0.0, 0.0, 0.0);
        for (&y, l) in labels.iter().zip(&logits) {
            // S = −log(1 − P) = Σ softplus(z_j) / τ
            let s: f64 = l.iter().map(|&x| softplus(a * x + b)).sum::<f64>() / tau;
            if y == 1 {
                // log P = log(1 − e^{−S}); d/dz_j = σ(z_j) / (τ (e^S − 1))
                let em1 = s.exp_m1().max(1e-300);
                ll += (-(-s).exp_m1()).max(1e-300).ln();
                for &x in l {
                    let d = sigmoid(a * x + b) / (tau * em1);
                    ga += d * x;
                    gb += d;
                }
            } else {
                ll -= s;
                for &x in l {
                    let d = -sigmoid(a * x + b) / tau;
                    ga += d * x;
                    gb += d;
                }
            }
        }
        ll -= 0.5 * ridge * ((a - 1.0).powi(2) + b * b);
        ga -= ridge * (a - 1.0);
        gb -= ridge * b;
        (ll, [ga, gb])
    };
    let (mut a, mut b) = (1.0, 0.0);
    let (mut f, mut g) = objective(a, b);
    for _ in 0..200 {
        // Newton's direction from a Hessian by central differences of the gradient; along the
        // gradient where that is not an ascent direction
        let h = 1e-5;
        let (ga1, gb1) = (objective(a + h, b).1, objective(a - h, b).1);
        let (ga2, gb2) = (objective(a, b + h).1, objective(a, b - h).1);
        let haa = (ga1[0] - gb1[0]) / (2.0 * h);
        let hbb = (ga2[1] - gb2[1]) / (2.0 * h);
        let hab = 0.5 * ((ga1[1] - gb1[1]) / (2.0 * h) + (ga2[0] - gb2[0]) / (2.0 * h));
        let det = haa * hbb - hab * hab;
        let mut d = if haa < 0.0 && det > 0.0 {
            [
                -(hbb * g[0] - hab * g[1]) / det,
                -(haa * g[1] - hab * g[0]) / det,
            ]
        } else {
            let n = (g[0] * g[0] + g[1] * g[1]).sqrt().max(1e-300);
            [g[0] / n, g[1] / n]
        };
        if d[0] * g[0] + d[1] * g[1] <= 0.0 {
            d = g;
        }
        let mut t = 1.0;
        let mut rose = None;
        for _ in 0..60 {
            let (na, nb) = ((a + t * d[0]).max(Platt::MIN_SLOPE), b + t * d[1]);
            let (nf, ng) = objective(na, nb);
            if nf.is_finite() && nf > f {
                rose = Some((na, nb, nf, ng));
                break;
            }
            t *= 0.5;
        }
        let Some((na, nb, nf, ng)) = rose else { break };
        let gain = nf - f;
        (a, b, f, g) = (na, nb, nf, ng);
        if gain <= 1e-12 * f.abs().max(1.0) {
            break;
        }
    }
    Some(Platt { a, b, c: None })
}

/// How many neighbouring instances of a bag see much the same, from the instances' own scores in
/// bag order (no labels): the integrated autocorrelation time `1 + 2 Σ_l ρ(l)` of the scores'
/// deviations from their bag's mean, pooled over bags, summed over lags until ρ first falls to
/// 0.05 or below; 1 for uncorrelated scores (or bags too short to tell).
pub fn correlation_length<B: AsRef<[f64]>>(bags: &[B]) -> f64 {
    let dev: Vec<Vec<f64>> = bags
        .iter()
        .map(|b| {
            let b = b.as_ref();
            let m = b.iter().sum::<f64>() / b.len().max(1) as f64;
            b.iter().map(|v| v - m).collect()
        })
        .collect();
    let den: f64 = dev.iter().flatten().map(|d| d * d).sum();
    if !(den > 0.0 && den.is_finite()) {
        return 1.0;
    }
    let longest = dev.iter().map(Vec::len).max().unwrap_or(0);
    let mut tau = 1.0;
    for lag in 1..longest {
        let num: f64 = dev
            .iter()
            .filter(|d| d.len() > lag)
            .map(|d| {
                d[..d.len() - lag]
                    .iter()
                    .zip(&d[lag..])
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
            })
            .sum();
        let rho = num / den;
        if rho <= 0.05 {
            break;
        }
        tau += 2.0 * rho;
    }
    tau
}

/// `log(1 + e^z)`, without overflow.
fn softplus(z: f64) -> f64 {
    if z > 30.0 {
        z
    } else {
        z.exp().ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::log_likelihood;

    /// Platt's map pulled toward the identity with `ridge`.
    fn platt_ridge<D: AsRef<[f64]>>(labels: &[u8], draws: &[D], ridge: f64) -> Platt {
        Platt::fit_toward(Platt::IDENTITY, labels, draws, ridge)
    }
    /// Platt's map with the weakest pull of [`Platt::STRENGTHS`].
    fn fit_draws<D: AsRef<[f64]>>(labels: &[u8], draws: &[D]) -> Platt {
        platt_ridge(labels, draws, Platt::STRENGTHS[0])
    }
    /// The beta map pulled toward the identity with `ridge`.
    fn beta_ridge<D: AsRef<[f64]>>(labels: &[u8], draws: &[D], ridge: f64) -> Platt {
        Platt::fit_toward(Platt::identity(MapFamily::Beta), labels, draws, ridge)
    }

    /// Platt's fit on (hard label, probability) pairs, by Newton's method with a small ridge
    /// toward the identity: the textbook map, a reference for [`Platt::fit_toward`].
    fn hard_label_fit(labels: &[u8], p: &[f64]) -> Platt {
        let x: Vec<f64> = p.iter().map(|&p| logit(p)).collect();
        let (mut a, mut b) = (1.0, 0.0);
        let ridge = 1e-3;
        let loss = |a: f64, b: f64| -> f64 {
            let nll: f64 = labels
                .iter()
                .zip(&x)
                .map(|(&h, &xi)| {
                    let z = a * xi + b;
                    // −log σ(z) = softplus(−z), −log(1 − σ(z)) = softplus(z)
                    let sp = |t: f64| {
                        if t > 0.0 {
                            t + (-t).exp().ln_1p()
                        } else {
                            t.exp().ln_1p()
                        }
                    };
                    if h == 1 {
                        sp(-z)
                    } else {
                        sp(z)
                    }
                })
                .sum();
            nll + 0.5 * ridge * ((a - 1.0).powi(2) + b * b)
        };
        let mut current = loss(a, b);
        for _ in 0..100 {
            // gradient and Hessian of Σ −log-lik + ridge/2 ((a−1)² + b²)
            let (mut ga, mut gb, mut haa, mut hab, mut hbb) =
                (ridge * (a - 1.0), ridge * b, ridge, 0.0, ridge);
            for (&h, &xi) in labels.iter().zip(&x) {
                let q = sigmoid(a * xi + b);
                let r = q - h as f64;
                ga += r * xi;
                gb += r;
                let w = q * (1.0 - q);
                haa += w * xi * xi;
                hab += w * xi;
                hbb += w;
            }
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-300 {
                break;
            }
            let da = (hbb * ga - hab * gb) / det;
            let db = (haa * gb - hab * ga) / det;
            // Newton step, halved until the loss decreases
            let mut t = 1.0;
            let mut moved = false;
            while t > 1e-8 {
                let (na, nb) = (a - t * da, b - t * db);
                let l = loss(na, nb);
                if l <= current {
                    (a, b, current) = (na, nb, l);
                    moved = true;
                    break;
                }
                t /= 2.0;
            }
            if !moved || (t * (da.abs() + db.abs())) < 1e-10 {
                break;
            }
        }
        Platt { a, b, c: None }
    }

    #[test]
    fn recovers_a_known_distortion() {
        // true probability q; the model reports p with logit(p) = 3·logit(q) − 1 (overconfident)
        let mut labels = Vec::new();
        let mut p = Vec::new();
        for i in 0..2000 {
            let q = (i as f64 + 0.5) / 2000.0;
            // deterministic labels with frequency q in each small window
            labels.push(u8::from(((i * 7919) % 1000) as f64 / 1000.0 < q));
            p.push(sigmoid(3.0 * logit(q) - 1.0));
        }
        let c = hard_label_fit(&labels, &p);
        // inverse map: logit q = (logit p + 1)/3 → a = 1/3, b = 1/3
        assert!(
            (c.a - 1.0 / 3.0).abs() < 0.05 && (c.b - 1.0 / 3.0).abs() < 0.1,
            "{c:?}"
        );
        let cal: Vec<f64> = p.iter().map(|&v| c.apply(v)).collect();
        assert!(log_likelihood(&labels, &cal) > log_likelihood(&labels, &p));
        assert!((Platt::IDENTITY.apply(0.3) - 0.3).abs() < 1e-9);
        // on one draw per bag (2000 bags: Platt's targets are within 1e-3 of 0/1), the draws
        // fit recovers the same map
        let one: Vec<Vec<f64>> = p.iter().map(|&v| vec![v]).collect();
        let d = fit_draws(&labels, &one);
        assert!(
            (d.a - c.a).abs() < 0.01 && (d.b - c.b).abs() < 0.01,
            "{d:?} vs {c:?}"
        );
        // a separable validation set keeps a finite slope
        let sep = fit_draws(
            &[0, 0, 1, 1],
            &[vec![0.4], vec![0.45], vec![0.55], vec![0.6]],
        );
        assert!(
            sep.a.is_finite() && sep.a < 100.0 && sep.apply(0.6) < 0.9,
            "{sep:?}"
        );
    }

    /// Cross-validation keeps a real distortion (a weak pull, the map recovered) and leaves a
    /// calibrated model as it is (the identity, or a map within 0.1 of it).
    #[test]
    fn the_pull_toward_the_identity_follows_the_evidence() {
        let mut labels = Vec::new();
        let (mut distorted, mut calibrated) = (Vec::new(), Vec::new());
        for i in 0..600 {
            let q = (i as f64 + 0.5) / 600.0;
            labels.push(u8::from(((i * 7919) % 1000) as f64 / 1000.0 < q));
            distorted.push(vec![sigmoid(3.0 * logit(q) - 1.0)]);
            calibrated.push(vec![q]);
        }
        let d = Platt::fit_shrunk(MapFamily::Platt, &labels, &distorted, 5, 1);
        assert!(d.strength.is_some_and(|s| s <= 10.0), "{d:?}");
        assert!(
            (d.map.a - 1.0 / 3.0).abs() < 0.08 && (d.map.b - 1.0 / 3.0).abs() < 0.15,
            "{d:?}"
        );
        let c = Platt::fit_shrunk(MapFamily::Platt, &labels, &calibrated, 5, 1);
        assert!(c.strength.is_none_or(|s| s >= 30.0), "{c:?}");
        assert!((c.map.a - 1.0).abs() < 0.1 && c.map.b.abs() < 0.1, "{c:?}");
        // same seed, same choice; a label class of one bag falls back to the plain fit
        assert_eq!(
            Platt::fit_shrunk(MapFamily::Platt, &labels, &distorted, 5, 1),
            d
        );
        let one = Platt::fit_shrunk(
            MapFamily::Platt,
            &[1, 0, 0],
            &[vec![0.7], vec![0.2], vec![0.4]],
            5,
            1,
        );
        assert_eq!(
            one.map,
            fit_draws(&[1, 0, 0], &[vec![0.7], vec![0.2], vec![0.4]])
        );
    }

    /// Pulled toward a map the data agree with, the fit keeps it; the same data pulled toward
    /// the identity find it. (A site whose scans behave as the training site's keeps its map.)
    #[test]
    fn the_pull_toward_the_map_in_use_keeps_it_when_the_data_agree() {
        // the map in use: logit q = 0.5·logit p + 0.4; its inverse makes p from q
        let m0 = Platt {
            a: 0.5,
            b: 0.4,
            c: None,
        };
        let (mut labels, mut draws) = (Vec::new(), Vec::new());
        for i in 0..600 {
            let q = (i as f64 + 0.5) / 600.0;
            labels.push(u8::from(((i * 7919) % 1000) as f64 / 1000.0 < q));
            draws.push(vec![sigmoid((logit(q) - 0.4) / 0.5)]);
        }
        let kept = Platt::fit_shrunk_toward(m0, &labels, &draws, 5, 1);
        assert!(kept.strength.is_none_or(|s| s >= 30.0), "{kept:?}");
        assert!(
            (kept.map.a - 0.5).abs() < 0.05 && (kept.map.b - 0.4).abs() < 0.05,
            "{kept:?}"
        );
        let found = Platt::fit_shrunk(MapFamily::Platt, &labels, &draws, 5, 1);
        assert!(found.strength.is_some_and(|s| s <= 10.0), "{found:?}");
        assert!(
            (found.map.a - 0.5).abs() < 0.08 && (found.map.b - 0.4).abs() < 0.15,
            "{found:?}"
        );
        // as a beta map it is the same function; a beta map with c ≠ a is no Platt map
        let b0 = m0.as_family(MapFamily::Beta).unwrap();
        assert!((b0.apply(0.3) - m0.apply(0.3)).abs() < 1e-12);
        assert_eq!(b0.as_family(MapFamily::Platt), Some(m0));
        let bent = Platt { c: Some(2.0), ..m0 };
        assert_eq!(bent.as_family(MapFamily::Platt), None);
    }

    #[test]
    fn the_map_is_monotone_and_keeps_the_ranking() {
        // anti-informative scores: the fit may not turn the ranking round
        let labels = [1u8, 1, 0, 0, 1, 0];
        let p = [0.1, 0.2, 0.8, 0.9, 0.3, 0.7];
        let draws: Vec<Vec<f64>> = p.iter().map(|&v| vec![v, v * 0.9]).collect();
        let c = fit_draws(&labels, &draws);
        assert!(c.a >= Platt::MIN_SLOPE, "{c:?}");
        let grid: Vec<f64> = (1..100).map(|k| k as f64 / 100.0).collect();
        assert!(grid.windows(2).all(|w| c.apply(w[0]) < c.apply(w[1])));
        // AUC before and after mapping is the same
        let labels = [1u8, 0, 1, 0, 0, 1, 1, 0];
        let p = [0.9, 0.4, 0.6, 0.65, 0.1, 0.55, 0.8, 0.3];
        let c = hard_label_fit(&labels, &p);
        let mapped: Vec<f64> = p.iter().map(|&v| c.apply(v)).collect();
        assert_eq!(
            crate::metrics::roc_auc(&labels, &p),
            crate::metrics::roc_auc(&labels, &mapped)
        );
    }

    #[test]
    fn beta_map_by_hand() {
        let m = Platt {
            a: 2.0,
            b: -1.0,
            c: Some(0.5),
        };
        // σ(2 ln 0.2 − 0.5 ln 0.8 − 1) and σ(2 ln 0.9 − 0.5 ln 0.1 − 1), worked out in Python
        assert!(
            (m.apply(0.2) - 0.016185779207233207_f64).abs() < 1e-12,
            "{}",
            m.apply(0.2)
        );
        assert!(
            (m.apply(0.9) - 0.48514724988164903_f64).abs() < 1e-12,
            "{}",
            m.apply(0.9)
        );
        assert_eq!(m.family(), MapFamily::Beta);
        // its identity, and a = c is Platt's map
        let id = Platt::identity(MapFamily::Beta);
        for p in [1e-6, 0.03, 0.5, 0.97] {
            assert!((id.apply(p) - p).abs() < 1e-12 * p.max(1e-3), "{p}");
            let platt = Platt {
                a: 1.7,
                b: 0.4,
                c: None,
            };
            let beta = Platt {
                c: Some(1.7),
                ..platt
            };
            assert!((platt.apply(p) - beta.apply(p)).abs() < 1e-12);
        }
        // a map written before the beta family existed reads as Platt's
        let old: Platt = serde_json::from_str(r#"{"a":0.8,"b":0.1}"#).unwrap();
        assert_eq!(old.c, None);
        assert!(!serde_json::to_string(&old).unwrap().contains("\"c\""));
    }

    /// Labels drawn with frequency σ(0.6 ln p − 1.5 ln(1 − p) + 0.3): the beta fit recovers
    /// those parameters; Platt's map, one slope for both ends, cannot fit them as well.
    #[test]
    fn the_beta_fit_recovers_a_known_asymmetric_distortion() {
        let truth = Platt {
            a: 0.6,
            b: 0.3,
            c: Some(1.5),
        };
        let (mut labels, mut draws) = (Vec::new(), Vec::new());
        for i in 0..4000 {
            let p = (i as f64 + 0.5) / 4000.0;
            let q = truth.apply(p);
            labels.push(u8::from(((i * 7919) % 1000) as f64 / 1000.0 < q));
            draws.push(vec![p]);
        }
        let beta = beta_ridge(&labels, &draws, 1e-3);
        let c = beta.c.unwrap();
        // the penalised maximum of the same objective by numpy (Newton's method on the three
        // inputs with the same smoothed targets and ridge): 0.50369213, 1.67740552, 0.09289999
        assert!(
            (beta.a - 0.50369213).abs() < 1e-6
                && (c - 1.67740552).abs() < 1e-6
                && (beta.b - 0.09289999).abs() < 1e-6,
            "{beta:?}"
        );
        // near the truth (these labels are one draw of it)
        assert!(
            (beta.a - 0.6).abs() < 0.15 && (c - 1.5).abs() < 0.25 && (beta.b - 0.3).abs() < 0.25,
            "{beta:?}"
        );
        let platt = platt_ridge(&labels, &draws, 1e-3);
        let ll = |m: Platt| {
            let q: Vec<f64> = draws.iter().map(|d| m.apply(d[0])).collect();
            log_likelihood(&labels, &q)
        };
        assert!(
            ll(beta) > ll(platt) + 0.003,
            "{} vs {}",
            ll(beta),
            ll(platt)
        );
        // cross-validation keeps it (a weak pull) and the same seed gives the same map
        let shrunk = Platt::fit_shrunk(MapFamily::Beta, &labels, &draws, 5, 3);
        assert!(shrunk.strength.is_some_and(|s| s <= 10.0), "{shrunk:?}");
        assert_eq!(
            Platt::fit_shrunk(MapFamily::Beta, &labels, &draws, 5, 3),
            shrunk
        );
        // cross-fitted over the same bags: better than the identity, seeded; a limit at or above
        // the other folds' size changes nothing, a small one fits on fewer bags
        let all = cross_fitted(
            Platt::identity(MapFamily::Beta),
            &labels,
            &draws,
            [5, usize::MAX],
            4,
        )
        .unwrap();
        let ident: Vec<f64> = draws.iter().map(|d| d[0]).collect();
        assert!(log_likelihood(&labels, &all) > log_likelihood(&labels, &ident) + 0.003);
        assert!(all.iter().all(|p| (0.0..=1.0).contains(p)));
        assert_eq!(
            cross_fitted(
                Platt::identity(MapFamily::Beta),
                &labels,
                &draws,
                [5, 3200],
                4
            ),
            Some(all.clone())
        );
        let few = cross_fitted(
            Platt::identity(MapFamily::Beta),
            &labels,
            &draws,
            [5, 40],
            4,
        )
        .unwrap();
        assert_ne!(few, all);
        assert_eq!(
            cross_fitted(
                Platt::identity(MapFamily::Beta),
                &labels,
                &draws,
                [5, 40],
                4
            ),
            Some(few)
        );
        assert_eq!(
            cross_fitted(
                Platt::identity(MapFamily::Beta),
                &[1, 0, 0],
                &draws[..3],
                [5, 40],
                4
            ),
            None
        );
        // on anti-informative scores both slopes stay positive: the map stays increasing
        let anti = beta_ridge(
            &[1, 1, 0, 0, 1, 0],
            &[[0.1], [0.2], [0.8], [0.9], [0.3], [0.7]],
            1e-3,
        );
        assert!(anti.a >= Platt::MIN_SLOPE && anti.c.unwrap() >= Platt::MIN_SLOPE);
        let grid: Vec<f64> = (1..100).map(|k| k as f64 / 100.0).collect();
        assert!(grid.windows(2).all(|w| anti.apply(w[0]) < anti.apply(w[1])));
    }

    /// Scans whose slices' true probabilities are `g*(p)` for a known map g*, each scan's label
    /// drawn from the noisy-OR of its slices: the map fitted on scan labels alone recovers g*
    /// (within the noise of 3,000 scans), and on the identity's own data stays near it.
    #[test]
    fn the_instance_map_recovers_the_slice_map_from_scan_labels() {
        use rand::{Rng, SeedableRng};
        for (ta, tb) in [(0.6, -2.0), (1.0, 0.0), (1.5, -1.0)] {
            let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let (mut labels, mut bags) = (Vec::new(), Vec::new());
            for _ in 0..3000 {
                let n = r.random_range(5..25);
                let p: Vec<f64> = (0..n).map(|_| sigmoid(r.random_range(-6.0..2.0))).collect();
                let none: f64 = p
                    .iter()
                    .map(|&q| 1.0 - sigmoid(ta * logit(q) + tb))
                    .product();
                labels.push(u8::from(r.random::<f64>() < 1.0 - none));
                bags.push(p);
            }
            let m = fit_instance_map(&labels, &bags, 1.0, 1e-6).unwrap();
            assert!(
                (m.a - ta).abs() < 0.15 && (m.b - tb).abs() < 0.3,
                "true ({ta}, {tb}), fitted ({}, {})",
                m.a,
                m.b
            );
        }
        assert!(fit_instance_map(&[1, 1], &[vec![0.5], vec![0.4]], 1.0, 1e-6).is_none());
        // uncorrelated scores: 1; a bag of 1, 2, …, 40 (deviations −19.5 … 19.5), by hand:
        // ρ(1) = Σ d_i d_{i+1} / Σ d_i² = 0.925, …, summed while above 0.05
        assert_eq!(correlation_length(&[vec![1.0, -1.0, 1.0, -1.0]]), 1.0);
        let ramp: Vec<f64> = (1..=40).map(f64::from).collect();
        let d: Vec<f64> = ramp.iter().map(|v| v - 20.5).collect();
        let den: f64 = d.iter().map(|x| x * x).sum();
        let mut want = 1.0;
        for lag in 1..40 {
            let r: f64 = (0..40 - lag).map(|i| d[i] * d[i + lag]).sum::<f64>() / den;
            if r <= 0.05 {
                break;
            }
            want += 2.0 * r;
        }
        assert!((correlation_length(&[ramp]) - want).abs() < 1e-12);
        assert!(want > 10.0);
    }

    /// Two scans per patient, identical: folds that split a patient would score each scan by a
    /// map fitted on its twin. Grouped, the pull is chosen on folds of whole patients; the same
    /// seed gives the same map, and groups that do not match the bags fall back to the weakest
    /// pull (the map [`Platt::fit_toward`] gives with it).
    #[test]
    fn the_grouped_shrinkage_keeps_patients_whole_and_is_seeded() {
        let (mut labels, mut draws, mut groups) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..30u64 {
            let y = u8::from(i % 3 == 0);
            let p = if y == 1 {
                0.6 + 0.01 * i as f64
            } else {
                0.3 + 0.01 * i as f64
            };
            for _ in 0..2 {
                labels.push(y);
                draws.push(vec![p.min(0.99)]);
                groups.push(i);
            }
        }
        let a = Platt::fit_shrunk_grouped(MapFamily::Platt, &labels, &draws, &groups, 5, 3);
        let b = Platt::fit_shrunk_grouped(MapFamily::Platt, &labels, &draws, &groups, 5, 3);
        assert_eq!(a, b);
        assert!(a.map.a > 0.0 && a.map.b.is_finite());
        let off = Platt::fit_shrunk_grouped(MapFamily::Platt, &labels, &draws, &groups[1..], 5, 3);
        assert_eq!(off.map, fit_draws(&labels, &draws));
        assert_eq!(off.strength, Some(Platt::STRENGTHS[0]));
    }
}
