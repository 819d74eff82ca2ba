//! Options shared by `fit-gp` and `eval-gp`.

use gphead::{BagRule, EmaxRule, Init, VgpmilParams};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// VGPMIL: hyperbolic secant ψ (θ = tanh(c/2)/2c).
    Vgpmil,
    /// G-VGPMIL: Gamma ψ (θ = α/(β + c²/2)).
    GVgpmil,
    /// MIL-GP-Probit, variational inference.
    Probit,
    /// MIL-GP-Probit, collapsed Gibbs sampler.
    ProbitGibbs,
    /// LM-VGPMIL (large margin, C and V).
    LmVgpmil,
}

impl ModelKind {
    pub fn family(self) -> gphead::protocol::Family {
        use gphead::protocol::Family;
        match self {
            ModelKind::Vgpmil => Family::Vgpmil,
            ModelKind::GVgpmil => Family::GVgpmil,
            ModelKind::Probit => Family::Probit,
            ModelKind::ProbitGibbs => Family::ProbitGibbs,
            ModelKind::LmVgpmil => Family::LmVgpmil,
        }
    }
}

/// Options of the models other than ψ-VGPMIL.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// LM-VGPMIL margin weight C.
    #[arg(long = "C", default_value_t = 2.0)]
    pub c: f64,
    /// LM-VGPMIL margin V.
    #[arg(long = "V", default_value_t = 2.0)]
    pub v: f64,
    /// Gibbs: number of chains.
    #[arg(long, default_value_t = 4)]
    pub chains: usize,
    /// Gibbs: burn-in sweeps per chain.
    #[arg(long, default_value_t = 1000)]
    pub burn_in: usize,
    /// Gibbs: kept draws per chain.
    #[arg(long, default_value_t = 2000)]
    pub draws: usize,
    /// Gibbs: thinning.
    #[arg(long, default_value_t = 1)]
    pub thin: usize,
}

impl ModelArgs {
    pub fn link(&self, kind: ModelKind, alpha: f64, beta: f64) -> gphead::Link {
        use gphead::Link;
        match kind {
            ModelKind::Vgpmil => Link::Vgpmil,
            ModelKind::GVgpmil => Link::GVgpmil { alpha, beta },
            ModelKind::Probit => Link::Probit,
            ModelKind::ProbitGibbs => Link::ProbitGibbs {
                chains: self.chains,
                burn_in: self.burn_in,
                samples: self.draws,
                thin: self.thin,
            },
            ModelKind::LmVgpmil => Link::LmVgpmil {
                c: self.c,
                v: self.v,
            },
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum EmaxArg {
    /// Paper: 1 − Π(1 − π) over the other instances.
    Product,
    /// Upstream code: leave-one-out max of π.
    LooMax,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum BagRuleArg {
    /// Largest instance probability (upstream code; the default but for the probit models).
    Max,
    /// 1 − Π(1 − p) (paper).
    NoisyOr,
    /// 1 − P(all m* < 0) with the bag's full latent covariance (probit models; their default).
    FullCovariance,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum InitArg {
    /// q(u) = prior, π ~ U(0, 0.1).
    Prior,
    /// m ~ N(0, I), S = I, π ~ U(0, 0.1) (upstream code).
    Upstream,
}

/// Training options common to every ψ-VGPMIL fit.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// The bag-likelihood constant H.
    #[arg(long = "H", default_value_t = 100.0)]
    pub h: f64,
    /// How E[max] over the other instances of a bag is computed.
    #[arg(long, value_enum, default_value = "product")]
    pub emax: EmaxArg,
    /// How instance probabilities make a bag probability (default: full-covariance for the probit
    /// models, max for the others).
    #[arg(long, value_enum)]
    pub bag_rule: Option<BagRuleArg>,
    /// Initialisation of q(u).
    #[arg(long, value_enum, default_value = "prior")]
    pub init: InitArg,
    /// Maximum number of epochs.
    #[arg(long, default_value_t = 200)]
    pub max_epochs: usize,
    /// Early stopping: epochs without a better validation bag AUC.
    #[arg(long, default_value_t = 10)]
    pub patience: usize,
    /// Inducing points by k-means over all instances instead of half from positive and half
    /// from negative bags.
    #[arg(long)]
    pub no_balanced_inducing: bool,
    /// Kernel variance v (default 0.5).
    #[arg(long)]
    pub variance: Option<f64>,
    /// Kernel squared length scale l (default D).
    #[arg(long)]
    pub lengthscale: Option<f64>,
    /// Estimate the kernel (v, l) by this many gradient steps per epoch (ψ-VGPMIL only).
    #[arg(long)]
    pub kernel_steps: Option<usize>,
    /// Random seed (inducing points, initialisation, splits, Monte Carlo).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl TrainArgs {
    pub fn params(&self, d_hint: Option<usize>, kind: ModelKind) -> VgpmilParams {
        let kernel = match (self.variance, self.lengthscale) {
            (None, None) => None,
            (v, l) => Some(gphead::Rbf {
                variance: v.unwrap_or(0.5),
                lengthscale: l.unwrap_or(d_hint.unwrap_or(1) as f64),
            }),
        };
        VgpmilParams {
            h: self.h,
            emax: match self.emax {
                EmaxArg::Product => EmaxRule::Product,
                EmaxArg::LooMax => EmaxRule::LooMax,
            },
            bag_rule: match (self.bag_rule, kind) {
                (Some(BagRuleArg::Max), _) => BagRule::Max,
                (Some(BagRuleArg::NoisyOr), _) => BagRule::NoisyOr,
                (Some(BagRuleArg::FullCovariance), _) => BagRule::FullCovariance,
                (None, ModelKind::Probit | ModelKind::ProbitGibbs) => BagRule::FullCovariance,
                (None, _) => BagRule::Max,
            },
            kernel_steps: self.kernel_steps.map(|steps| gphead::hyper::KernelSteps {
                steps,
                ..Default::default()
            }),
            init: match self.init {
                InitArg::Prior => Init::Prior,
                InitArg::Upstream => Init::Upstream,
            },
            max_epochs: self.max_epochs,
            patience: self.patience,
            balanced_inducing: !self.no_balanced_inducing,
            kernel,
            seed: self.seed,
            ..VgpmilParams::default()
        }
    }
}
