//! `B = L⁻¹ K(Z, X)` (M×N) of a fit's training or validation instances, and what the fits do
//! with it: `Bᵀv`, `Bw`, `I + B diag(w) Bᵀ` and the squared norms of its (solved) columns.
//!
//! B is the one matrix of a fit that grows with both N and M. When it fits in the fit's budget
//! ([`crate::FitParams::b_memory`]) it is held whole; beyond it only the features are held and
//! B is recomputed a block of 1,024 instances at a time (`K(Z, X_block)`, then the solve with
//! `L`; the blocks are the held B's column blocks, [`crate::linalg::blocks`]) every time it is
//! used, so that a fit's memory grows with N·D, not N·M. A plain epoch then takes about 5× as
//! long (0.45 s against 0.087 s at N = 200,000, M = 50, D = 8); a fit with kernel steps, whose
//! sums already work block by block, about as long (docs/BENCHMARKS.md). Both ways take their
//! sums block by block in block order, so a fit's numbers do not depend on the threads; held and
//! streamed agree to rounding.

use faer::{Mat, MatRef, Par};
use rayon::prelude::*;

use crate::kernel::{sq_dists, Rbf};
use crate::linalg::{
    a_v, at_v, at_v_seq, blocks, col_sq_norms, identity_plus_weighted_gram, par_wide, solve_l,
    solved_col_sq_norms, weighted_gram,
};

/// The z-scored features of a set of instances and, when held, their B and their squared
/// distances to the inducing points.
pub(crate) struct Basis {
    /// Standardised features, N×D row-major.
    pub xs: Vec<f64>,
    held: Option<Mat<f64>>,
    /// `‖z_i − x_n‖²` (M×N), kept when asked ([`Basis::build`]): the inducing points and the
    /// features do not move during a fit, so every new kernel (each kernel step's trial and each
    /// rebuild) needs only its exponentials, not the distances again.
    dists: Option<Mat<f64>>,
}

impl Basis {
    pub fn new(xs: Vec<f64>) -> Self {
        Self {
            xs,
            held: None,
            dists: None,
        }
    }

    /// The squared distances to the inducing points, if kept.
    pub fn dists(&self) -> Option<MatRef<'_, f64>> {
        self.dists.as_ref().map(|d| d.as_ref())
    }

    /// Drops a held B (before the next one is made: one M×N matrix at a time, not two).
    pub fn release(&mut self) {
        self.held = None;
    }

    /// Makes B for the kernel, inducing points and `L` of `w`, held when `hold`; with
    /// `keep_dists` (and `hold`) the squared distances are kept for the next kernel (the
    /// inducing points of `w` must stay the same for the life of the basis, as in a fit).
    pub fn build(&mut self, w: &Whitening<'_>, hold: bool, keep_dists: bool) {
        self.held = None;
        if !(hold && keep_dists) {
            self.dists = None;
        }
        if hold {
            let mut b = match &self.dists {
                Some(d2) => w.kernel.of_sq_dists(d2.as_ref()),
                None => {
                    let d2 = sq_dists(w.z, &self.xs, w.d, par_wide());
                    let k = w.kernel.of_sq_dists(d2.as_ref());
                    if keep_dists {
                        self.dists = Some(d2);
                    }
                    k
                }
            };
            solve_l(w.l, b.as_mut(), par_wide());
            self.held = Some(b);
        }
    }

    /// The matrix with what it needs to be recomputed.
    pub fn with<'a>(&'a self, w: Whitening<'a>) -> BRef<'a> {
        BRef { basis: self, w }
    }
}

/// What B is made from besides the features: the kernel, the inducing points (M×D, z-scored)
/// and the Cholesky factor `L` of `K_zz`.
#[derive(Clone, Copy)]
pub(crate) struct Whitening<'a> {
    pub kernel: Rbf,
    pub z: &'a [f64],
    pub l: MatRef<'a, f64>,
    pub d: usize,
}

/// B of a [`Basis`], held or recomputed block by block.
#[derive(Clone, Copy)]
pub(crate) struct BRef<'a> {
    basis: &'a Basis,
    w: Whitening<'a>,
}

impl BRef<'_> {
    /// Number of instances (columns of B).
    pub fn n(&self) -> usize {
        self.basis.xs.len() / self.w.d
    }

    fn ranges(&self) -> Vec<(usize, usize)> {
        blocks(self.n())
    }

    /// The columns `s..e` of B, computed (single-threaded: the blocks run in parallel).
    fn block(&self, (s, e): (usize, usize)) -> Mat<f64> {
        let d = self.w.d;
        let mut b = self
            .w
            .kernel
            .cross(self.w.z, &self.basis.xs[s * d..e * d], d, Par::Seq);
        solve_l(self.w.l, b.as_mut(), Par::Seq);
        b
    }

    /// `f` of every block of columns (with its first column), in parallel, in block order.
    fn map_blocks<T: Send>(&self, f: impl Fn(usize, MatRef<'_, f64>) -> T + Sync) -> Vec<T> {
        self.ranges()
            .par_iter()
            .map(|&r| f(r.0, self.block(r).as_ref()))
            .collect()
    }

    /// `Bᵀ v` (N).
    pub fn at_v(&self, v: &[f64]) -> Vec<f64> {
        match &self.basis.held {
            Some(b) => at_v(b.as_ref(), v),
            None => self.map_blocks(|_, b| at_v_seq(b, v)).concat(),
        }
    }

    /// `Bᵀ v` on one thread (inside loops that are already parallel).
    pub fn at_v_seq(&self, v: &[f64]) -> Vec<f64> {
        match &self.basis.held {
            Some(b) => at_v_seq(b.as_ref(), v),
            None => self
                .ranges()
                .into_iter()
                .flat_map(|r| at_v_seq(self.block(r).as_ref(), v))
                .collect(),
        }
    }

    /// `B w` (M).
    pub fn a_v(&self, w: &[f64]) -> Vec<f64> {
        match &self.basis.held {
            Some(b) => a_v(b.as_ref(), w),
            None => {
                let parts = self.map_blocks(|s, b| a_v(b, &w[s..s + b.ncols()]));
                let mut out = vec![0.0; self.w.z.len() / self.w.d];
                for p in parts {
                    out.iter_mut().zip(p).for_each(|(o, x)| *o += x);
                }
                out
            }
        }
    }

    /// `I + B diag(w) Bᵀ` (M×M); `w` non-negative.
    pub fn identity_plus_weighted_gram(&self, w: &[f64]) -> Mat<f64> {
        match &self.basis.held {
            Some(b) => identity_plus_weighted_gram(b.as_ref(), w, par_wide()),
            None => {
                let m = self.w.z.len() / self.w.d;
                let parts =
                    self.map_blocks(|s, b| weighted_gram(b, &w[s..s + b.ncols()], Par::Seq));
                let mut q = Mat::<f64>::identity(m, m);
                for p in &parts {
                    for j in 0..m {
                        for (d, s) in q.col_as_slice_mut(j).iter_mut().zip(p.col_as_slice(j)) {
                            *d += s;
                        }
                    }
                }
                q
            }
        }
    }

    /// `‖b_n‖²` for every instance.
    pub fn col_sq_norms(&self) -> Vec<f64> {
        match &self.basis.held {
            Some(b) => col_sq_norms(b.as_ref()),
            None => self.map_blocks(|_, b| col_sq_norms(b)).concat(),
        }
    }

    /// `‖R⁻¹ b_n‖²` for every instance (`R` lower triangular).
    pub fn solved_col_sq_norms(&self, r: MatRef<'_, f64>) -> Vec<f64> {
        match &self.basis.held {
            Some(b) => solved_col_sq_norms(r, b.as_ref()),
            None => self.map_blocks(|_, b| solved_col_sq_norms(r, b)).concat(),
        }
    }
}

/// Bytes of a held B of `n` instances and `m` inducing points.
pub fn held_bytes(n: usize, m: usize) -> usize {
    n.saturating_mul(m)
        .saturating_mul(std::mem::size_of::<f64>())
}
