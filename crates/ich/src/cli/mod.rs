//! The commands: their flags (clap derive, every number range-checked) and what they print.

pub mod adapt;
pub mod checkpoint;
pub mod cnn;
pub mod demo;
pub mod gp;
pub mod pacs;
pub mod predict;
pub mod preprocess;
pub mod serve;
pub mod synth;
