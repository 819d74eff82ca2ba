//! `ich`: intracranial hemorrhage detection in head CT, slice by slice, with uncertainty.
//!
//! This binary parses flags, calls the `detect` library (and the stage crates under it) and
//! prints; the work is done in the libraries.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;
mod progress;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Intracranial hemorrhage detection in head CT from scan-level labels (multiple instance
/// learning), with per-slice probabilities and their uncertainty.
#[derive(Parser, Debug)]
#[command(name = "ich", version, about, long_about = None)]
struct Cli {
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
enum Command {
    Synth(cli::synth::Args),
    Preprocess(cli::preprocess::Args),
    TrainCnn(cli::cnn::TrainArgs),
    Extract(cli::cnn::ExtractArgs),
    FitGp(cli::gp::FitArgs),
    EvalGp(cli::gp::EvalArgs),
    Predict(cli::predict::Args),
    Demo(cli::demo::Args),
    Checkpoint(cli::checkpoint::Args),
    Import(cli::checkpoint::ImportArgs),
    Send(cli::pacs::SendCmd),
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
        // colour codes only for a terminal: a log redirected to a file stays plain text
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let bars = progress::Bars::new(!cli.quiet);
    match cli.command {
        Command::Synth(a) => cli::synth::run(a, &bars),
        Command::Preprocess(a) => cli::preprocess::run(a, &bars),
        Command::TrainCnn(a) => cli::cnn::train(a, &bars),
        Command::Extract(a) => cli::cnn::extract(a, &bars),
        Command::FitGp(a) => cli::gp::fit(a),
        Command::EvalGp(a) => cli::gp::eval(a),
        Command::Predict(a) => cli::predict::run(a, &bars),
        Command::Checkpoint(a) => cli::checkpoint::run(a),
        Command::Import(a) => cli::checkpoint::import(a),
        Command::Demo(a) => cli::demo::run(a, &bars),
        Command::Send(a) => cli::pacs::send(a, &bars),
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
