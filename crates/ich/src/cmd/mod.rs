pub mod cnn;
pub mod eval_gp;
pub mod fit_gp;
pub mod gpargs;
pub mod preprocess;
pub mod synth;
