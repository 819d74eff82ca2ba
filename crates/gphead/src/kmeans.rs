//! Seeded k-means++ for the inducing points.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// At most this many rows enter k-means (a seeded subsample): enough to place a few hundred
/// inducing points, and it keeps the set-up time independent of N.
pub const MAX_KMEANS_ROWS: usize = 8192;

/// k-means++ seeding then Lloyd iterations (at most `iters`), on the rows of `x` (N×D row-major),
/// subsampled to [`MAX_KMEANS_ROWS`]. Returns k×D centres, row-major. When N ≤ k every point is a
/// centre.
pub fn kmeans(x: &[f64], d: usize, k: usize, iters: usize, seed: u64) -> Vec<f64> {
    let n = x.len() / d;
    if n <= k {
        return x.to_vec();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sub: Vec<f64>;
    let (x, n) = if n > MAX_KMEANS_ROWS {
        let mut idx: Vec<usize> = (0..n).collect();
        let (chosen, _) = idx.partial_shuffle(&mut rng, MAX_KMEANS_ROWS);
        let mut chosen = chosen.to_vec();
        chosen.sort_unstable();
        sub = chosen
            .iter()
            .flat_map(|&i| x[i * d..(i + 1) * d].iter().copied())
            .collect();
        (&sub[..], MAX_KMEANS_ROWS)
    } else {
        (x, n)
    };
    let row = |i: usize| &x[i * d..(i + 1) * d];
    let mut centres = Vec::with_capacity(k * d);
    let first = rng.random_range(0..n);
    centres.extend_from_slice(row(first));
    let mut d2: Vec<f64> = (0..n)
        .into_par_iter()
        .map(|i| sq_dist(row(i), row(first)))
        .collect();
    for _ in 1..k {
        let total: f64 = d2.iter().sum();
        let pick = if total > 0.0 {
            let t = rng.random::<f64>() * total;
            let mut acc = 0.0;
            let mut idx = n - 1;
            for (i, v) in d2.iter().enumerate() {
                acc += v;
                if acc >= t {
                    idx = i;
                    break;
                }
            }
            idx
        } else {
            rng.random_range(0..n)
        };
        let c = row(pick).to_vec();
        d2.par_iter_mut().enumerate().for_each(|(i, v)| {
            *v = v.min(sq_dist(row(i), &c));
        });
        centres.extend_from_slice(&c);
    }
    // Lloyd: distances through one product per iteration
    let xt = Mat::from_fn(d, n, |j, i| x[i * d + j]);
    let xn: Vec<f64> = (0..n).map(|i| row(i).iter().map(|v| v * v).sum()).collect();
    let mut assign = vec![usize::MAX; n];
    for _ in 0..iters {
        let cm = Mat::from_fn(k, d, |i, j| centres[i * d + j]);
        let cn: Vec<f64> = (0..k)
            .map(|i| centres[i * d..(i + 1) * d].iter().map(|v| v * v).sum())
            .collect();
        let mut g = Mat::<f64>::zeros(k, n);
        matmul(
            g.as_mut(),
            Accum::Replace,
            cm.as_ref(),
            xt.as_ref(),
            1.0,
            Par::rayon(0),
        );
        let new: Vec<usize> = (0..n)
            .into_par_iter()
            .map(|j| {
                let col = g.col(j);
                let mut best = (f64::INFINITY, 0);
                for (i, gv) in col.iter().enumerate() {
                    let dist = cn[i] + xn[j] - 2.0 * gv;
                    if dist < best.0 {
                        best = (dist, i);
                    }
                }
                best.1
            })
            .collect();
        if new == assign {
            break;
        }
        assign = new;
        let mut sums = vec![0.0; k * d];
        let mut counts = vec![0usize; k];
        for (i, &a) in assign.iter().enumerate() {
            counts[a] += 1;
            for (s, v) in sums[a * d..(a + 1) * d].iter_mut().zip(row(i)) {
                *s += v;
            }
        }
        for c in 0..k {
            if counts[c] > 0 {
                for j in 0..d {
                    centres[c * d + j] = sums[c * d + j] / counts[c] as f64;
                }
            }
        }
    }
    centres
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_separated_clusters_and_is_seeded() {
        // three tight clusters at 0, 10, 20 on the line (2-D)
        let mut x = Vec::new();
        for c in [0.0, 10.0, 20.0] {
            for k in 0..20 {
                x.extend_from_slice(&[c + (k as f64) * 0.01, -c]);
            }
        }
        let mut z = kmeans(&x, 2, 3, 50, 1);
        let mut xs: Vec<f64> = z.chunks(2).map(|r| r[0]).collect();
        xs.sort_by(f64::total_cmp);
        for (got, want) in xs.iter().zip([0.095, 10.095, 20.095]) {
            assert!((got - want).abs() < 1e-9, "{xs:?}");
        }
        assert_eq!(z, kmeans(&x, 2, 3, 50, 1));
        z.clear();
        assert_eq!(kmeans(&x[..4], 2, 3, 5, 0), x[..4].to_vec());
    }
}
