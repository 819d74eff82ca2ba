//! `ich`: intracranial hemorrhage detection in head CT, slice by slice, with uncertainty.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bundle;
mod cmd;
mod progress;
mod report;

/// Intracranial hemorrhage detection in head CT from scan-level labels (multiple instance
/// learning), with per-slice probabilities and their uncertainty.
#[derive(Parser, Debug)]
#[command(name = "ich", version, about, long_about = None)]
pub(crate) struct Cli {
    /// More logging (-v debug, -vv trace); RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Only warnings and errors; no progress bars.
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    Synth(cmd::synth::Args),
    Preprocess(cmd::preprocess::Args),
    TrainCnn(cmd::cnn::TrainArgs),
    Extract(cmd::cnn::ExtractArgs),
    FitGp(cmd::fit_gp::Args),
    EvalGp(cmd::eval_gp::Args),
    Predict(cmd::predict::Args),
    Demo(cmd::demo::Args),
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let level = match (cli.quiet, cli.verbose) {
        (true, _) => "warn",
        (false, 0) => "info",
        (false, 1) => "debug",
        _ => "trace",
    };
    // wgpu's kernel compiler (cubecl) logs every autotuning candidate, and logs the whole shader
    // of each candidate a driver rejects as an error although autotuning just moves on: shown
    // with -v, hidden by default (a kernel that really fails still fails the command).
    let default = match cli.verbose {
        0 => format!("{level},cubecl=off"),
        _ => level.to_string(),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    let progress = progress::Bars::new(!cli.quiet);
    dispatch(cli.command, &progress)
}

/// Runs one subcommand (also used by `ich demo` for its steps).
pub(crate) fn dispatch(command: Command, progress: &progress::Bars) -> anyhow::Result<ExitCode> {
    match command {
        Command::Synth(a) => cmd::synth::run(a, progress),
        Command::Preprocess(a) => cmd::preprocess::run(a, progress),
        Command::TrainCnn(a) => cmd::cnn::train_cnn(a, progress),
        Command::Extract(a) => cmd::cnn::extract(a, progress),
        Command::FitGp(a) => cmd::fit_gp::run(a),
        Command::EvalGp(a) => cmd::eval_gp::run(a),
        Command::Predict(a) => cmd::predict::run(a, progress),
        Command::Demo(a) => cmd::demo::run(a, progress),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
