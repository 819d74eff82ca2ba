//! The commands of `detect::site`: `adapt` ([`adapt`]), `eval-gp` ([`evaluate`]) and
//! `recalibrate` ([`recalibrate`]).

pub mod adapt;
pub mod evaluate;
pub mod recalibrate;
