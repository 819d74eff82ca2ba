//! Options shared by `fit-gp` and `eval-gp`.

use gphead::{BagRule, EmaxRule, Init, VgpmilParams};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// VGPMIL: hyperbolic secant ψ (θ = tanh(c/2)/2c).
    Vgpmil,
    /// G-VGPMIL: Gamma ψ (θ = α/(β + c²/2)).
    GVgpmil,
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
    /// Largest instance probability (upstream code; the default).
    Max,
    /// 1 − Π(1 − p) (paper).
    NoisyOr,
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
    /// How instance probabilities make a bag probability.
    #[arg(long, value_enum, default_value = "max")]
    pub bag_rule: BagRuleArg,
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
    /// Random seed (inducing points, initialisation, splits, Monte Carlo).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl TrainArgs {
    pub fn params(&self, d_hint: Option<usize>) -> VgpmilParams {
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
            bag_rule: match self.bag_rule {
                BagRuleArg::Max => BagRule::Max,
                BagRuleArg::NoisyOr => BagRule::NoisyOr,
            },
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
