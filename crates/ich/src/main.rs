//! `ich`: intracranial hemorrhage detection in head CT, slice by slice, with uncertainty.
//!
//! This binary parses flags, calls the `detect` library (and the stage crates under it) and
//! prints; the work is done in the libraries.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` that gives an error instead of a panic when standard output cannot be written (a
/// redirected output on a full disk): the command fails with exit code 1, saying so.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
            .map_err(|e| anyhow::anyhow!("writing to standard output: {e}"))?
    }};
}

/// A line of news while work goes on (a callback's: it cannot fail the work), written to
/// standard output; one that cannot be written is dropped, never a panic.
macro_rules! sayln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that drops a line it cannot write (standard error on a full disk) rather than
/// panic: the exit code still says the command failed.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;
mod summary;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc.h: the option just before `mi_option_use_numa_nodes` in
/// both the v2 and v3 headers the crate bundles (its bindings name no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t =
    libmimalloc_sys::mi_option_use_numa_nodes - 1;

/// Keeps freed memory in the process instead of returning it to the OS after 1 s (mimalloc v3's
/// default). burn-flex frees and re-allocates the same large activations every training step; by
/// default they went back to the OS and came back as freshly zeroed pages, 40 % of a 512² step
/// (docs/BENCHMARKS.md). Every `ich` command is a batch job that reaches its peak again and again
/// and then exits; the price is a higher resident peak (a 512² × 32 training step: 4.82 GB against
/// 4.08 GB, BENCHMARKS). `MIMALLOC_PURGE_DELAY` in the environment still decides when set.
fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option is thread-safe in mimalloc and takes plain integers
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
    }
}

/// The heading of the flags every command takes.
const GLOBAL: &str = "Global options";

/// Intracranial hemorrhage detection in head CT from scan-level labels (multiple instance
/// learning), with per-slice probabilities and their uncertainty.
#[derive(Parser, Debug)]
#[command(name = "ich", version, about, long_about = None, max_term_width = 100)]
struct Cli {
    /// More logging (-v debug, -vv trace); RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count, help_heading = GLOBAL)]
    verbose: u8,
    /// Only warnings and errors; no progress bars or progress lines.
    #[arg(short, long, global = true, help_heading = GLOBAL)]
    quiet: bool,
    /// Logs (stderr) as JSON lines, one object per event, for a log collector.
    #[arg(long, global = true, help_heading = GLOBAL)]
    log_json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    #[command(about = "Write synthetic head CT scans with labelled bleeds (DICOM and labels)")]
    Synth(cli::synth::Args),
    #[command(about = "DICOM folders and NIfTI volumes → a dataset of windowed slices")]
    Preprocess(cli::preprocess::Args),
    #[command(about = "Train the attention CNN on a dataset's scan labels")]
    TrainCnn(cli::pipeline::cnn::TrainArgs),
    #[command(about = "Write every slice's CNN features for fit-gp")]
    Extract(cli::pipeline::cnn::ExtractArgs),
    #[command(about = "Join the shards of a job array (datasets, features or reports)")]
    Merge(cli::merge::Args),
    #[command(about = "Fit a sparse Gaussian-process MIL head on a features file")]
    FitGp(cli::pipeline::gp::FitArgs),
    #[command(about = "Evaluate a GP head with the papers' protocol")]
    EvalGp(cli::site::evaluate::EvalArgs),
    #[command(about = "Refit a bundle's calibration map on a site's labelled scans")]
    Recalibrate(cli::site::recalibrate::RecalibrateArgs),
    #[command(about = "Fit a bundle to a site's labelled scans and choose its operating point")]
    Adapt(cli::site::adapt::Args),
    #[command(
        about = "Per-slice and per-scan probabilities with intervals: pages, CSV, JSON, DICOM SR"
    )]
    Predict(cli::pipeline::predict::Args),
    #[command(about = "The whole pipeline on synthetic scans, end to end")]
    Demo(cli::pipeline::demo::Args),
    #[command(about = "List, verify or export a TensorFlow checkpoint")]
    Checkpoint(cli::pipeline::checkpoint::Args),
    #[command(about = "Make a model bundle from published TensorFlow weights")]
    Import(cli::pipeline::checkpoint::ImportArgs),
    #[command(about = "Send DICOM results to a PACS (C-STORE or STOW-RS)")]
    Send(cli::pipeline::send::SendCmd),
    #[command(about = "Run a DICOM node: receive head CTs, predict, send the results back")]
    Serve(cli::serve::Args),
    #[command(about = "List the model bundles available (the built-in sa-dmil among them)")]
    Models(cli::models::Args),
}

fn run() -> anyhow::Result<ExitCode> {
    keep_freed_memory();
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
    // the JPEG 2000 decoder (jpeg2k over openjp2) reports every header it decodes at info: decoder chatter,
    // not news; its warnings and errors still show
    let default = match cli.verbose {
        0 => format!("{level},cubecl=off,jpeg2k=warn"),
        _ => format!("{level},jpeg2k=warn"),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        // colour codes only for a terminal: a log redirected to a file stays plain text
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()) && !cli.log_json);
    if cli.log_json {
        log.json().init();
    } else {
        log.init();
    }
    let bars = detect::progress::Bars::new(!cli.quiet);
    match cli.command {
        Command::Synth(a) => cli::synth::run(a, &bars),
        Command::Preprocess(a) => cli::preprocess::run(a, &bars),
        Command::TrainCnn(a) => cli::pipeline::cnn::train(a, &bars),
        Command::Extract(a) => cli::pipeline::cnn::extract(a, &bars),
        Command::Merge(a) => cli::merge::run(a),
        Command::FitGp(a) => cli::pipeline::gp::fit(a, &bars),
        Command::EvalGp(a) => cli::site::evaluate::eval(a, &bars),
        Command::Recalibrate(a) => cli::site::recalibrate::recalibrate(a),
        Command::Adapt(a) => cli::site::adapt::run(a, &bars),
        Command::Predict(a) => cli::pipeline::predict::run(a, &bars),
        Command::Checkpoint(a) => cli::pipeline::checkpoint::run(a),
        Command::Import(a) => cli::pipeline::checkpoint::import(a),
        Command::Demo(a) => cli::pipeline::demo::run(a, &bars),
        Command::Send(a) => cli::pipeline::send::send(a, &bars),
        Command::Serve(a) => cli::serve::run(a),
        Command::Models(a) => cli::models::run(a),
    }
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so a closed pipe (`ich eval-gp … | head`) made `println!` panic with a
    // backtrace; the default action ends the process quietly, as other Unix tools do (eval-gp
    // writes its files before it prints its table, so nothing is lost).
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match run() {
        // a lock taken over after the run's last check: never success
        Ok(code) if code == ExitCode::SUCCESS && milbase::lock::lost_during_the_run().is_some() => {
            errln!(
                "error: {}",
                milbase::lock::lost_during_the_run().unwrap_or_default()
            );
            ExitCode::FAILURE
        }
        Ok(code) => code,
        Err(e) => {
            errln!("error: {}", chain(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes on one line, `: `-separated, each cause left out when the message
/// before it already says it (a library error that names its file shows its cause in its own
/// message too; anyhow's `{:#}` then printed it twice).
fn chain(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn an_error_line_says_each_cause_once() {
        #[derive(Debug)]
        struct Named(std::io::Error);
        impl std::fmt::Display for Named {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "/dev/zero: {}", self.0)
            }
        }
        impl std::error::Error for Named {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let io = std::io::Error::other("not a regular file");
        let e = anyhow::Error::new(Named(io)).context("fitting the GP head");
        assert_eq!(
            format!("{e:#}"),
            "fitting the GP head: /dev/zero: not a regular file: not a regular file"
        );
        assert_eq!(
            chain(&e),
            "fitting the GP head: /dev/zero: not a regular file"
        );
        // a cause the message does not say is kept
        let e = anyhow::anyhow!("disk full").context("writing out/report.json");
        assert_eq!(chain(&e), "writing out/report.json: disk full");
    }

    #[test]
    fn the_purge_delay_option_is_the_one_mimalloc_documents() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // the bundled mimalloc v3's src/options.c: `{ 1000, …, MI_OPTION_LEGACY(purge_delay,
        // reset_delay) }` (purge delay in milliseconds; no neighbouring option defaults to 1000)
        let get = || unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(get(), 1000);
        keep_freed_memory();
        assert_eq!(get(), -1);
    }

    /// Every command's help: every flag described, the global flags under their own heading,
    /// `-o` for `--out`, and no line wider than the 100 columns it is wrapped to.
    #[test]
    fn help_fits_a_terminal_and_describes_every_flag() {
        let cmd = Cli::command();
        cmd.clone().debug_assert();
        let mut root = cmd.clone().term_width(100);
        root.build();
        let (mut outs, mut missing) = (0, Vec::<String>::new());
        for sub in cmd.get_subcommands() {
            let name = sub.get_name();
            let built = root.find_subcommand(name).unwrap_or(sub).clone();
            for a in built.get_arguments() {
                let flag = a.get_long().unwrap_or(a.get_id().as_str());
                if a.is_hide_set() || flag == "help" || flag == "version" {
                    continue;
                }
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                if help.trim().is_empty() {
                    missing.push(format!("ich {name} --{flag}"));
                }
                if a.get_long() == Some("out") {
                    assert_eq!(a.get_short(), Some('o'), "ich {name} --out has no -o");
                    outs += 1;
                }
                if a.is_global_set() {
                    assert_eq!(a.get_help_heading(), Some(GLOBAL), "ich {name} --{flag}");
                }
            }
            let text = root
                .find_subcommand_mut(name)
                .map(|c| c.render_help().to_string())
                .unwrap_or_default();
            assert!(text.contains(GLOBAL), "ich {name}:\n{text}");
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 100,
                    "ich {name}: a help line of {} columns:\n{line}",
                    line.chars().count()
                );
            }
        }
        assert!(
            missing.is_empty(),
            "flags without a description: {missing:?}"
        );
        assert!(outs >= 10, "{outs} commands with --out");
    }
}
