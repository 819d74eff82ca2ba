//! [`fit`]: validated parameters and data in, a fitted model out; one entry point over the
//! private loops of every model.

use crate::data::MilData;
use crate::error::Result;
use crate::fitloop::FitOutput;
use crate::params::{FitParams, ValidParams};
use crate::spec::Model;
use crate::theta::{GammaMixing, HyperbolicSecant};

/// Validates `params`, then fits (see [`fit_valid`]).
pub fn fit(params: &FitParams, train: &MilData, valid: Option<&MilData>) -> Result<FitOutput> {
    fit_valid(&params.validate()?, train, valid)
}

/// Fits the model on `train`, early-stopping on `valid` bag AUC when given.
pub fn fit_valid(
    params: &ValidParams,
    train: &MilData,
    valid: Option<&MilData>,
) -> Result<FitOutput> {
    match params.model {
        Model::Vgpmil => crate::vgpmil::fit_psi(&HyperbolicSecant, params, train, valid),
        Model::GVgpmil { alpha, beta } => {
            crate::vgpmil::fit_psi(&GammaMixing { alpha, beta }, params, train, valid)
        }
        Model::Probit => crate::probit::fit_vi(params, train, valid),
        Model::ProbitGibbs => crate::probit::fit_gibbs(params, train, valid),
        Model::LmVgpmil { c, v } => crate::lm::fit_lm(c, v, params, train, valid),
    }
}
