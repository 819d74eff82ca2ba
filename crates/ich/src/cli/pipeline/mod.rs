//! The commands of `detect::pipeline`: `train-cnn` and `extract` ([`cnn`]), `fit-gp` ([`gp`]),
//! `checkpoint` and `import` ([`checkpoint`]), `predict` ([`predict`], its PACS flags and `send`
//! in [`pacs`]) and `demo` ([`demo`]).

pub mod checkpoint;
pub mod cnn;
pub mod demo;
pub mod gp;
pub mod predict;
pub mod send;
