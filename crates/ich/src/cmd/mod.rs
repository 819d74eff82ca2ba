pub mod preprocess;
pub mod synth;
