pub mod cnn;
pub mod demo;
pub mod eval_gp;
pub mod fit_gp;
pub mod gpargs;
pub mod predict;
pub mod preprocess;
pub mod synth;
