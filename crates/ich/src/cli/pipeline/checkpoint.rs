//! `ich checkpoint`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// List the variables of a TensorFlow 2 checkpoint (the V2 bundle format: PREFIX.index and
/// PREFIX.data-00000-of-00001) with their dtypes and shapes, and check every CRC32C. Read
/// without TensorFlow; nothing is written.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The checkpoint prefix (e.g. `baseline.ckpt` for `baseline.ckpt.index`).
    prefix: PathBuf,
    /// Also list the optimiser's slots, step counters and the object graph.
    #[arg(long)]
    all: bool,
    /// Write every float32 model variable as a NumPy `.npy` file into this folder (name:
    /// the variable's with `/` as `__`; a name that is not plain, or that another variable's
    /// already maps to, gets `~` and a digest of the name; `index.json` maps each), to run the
    /// same weights in another framework. Each tensor's bytes are written once: a variable that
    /// aliases another's bytes (same shape) is listed in index.json with that file; one that
    /// overlaps another's in part is left out and named, and the exit code is 1.
    #[arg(long)]
    export_npy: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let c = tfckpt::Checkpoint::open(&a.prefix).context("reading the checkpoint index")?;
    let checked = c.verify().context("checking the checkpoint's data")?;
    outln!("{}", c.listing(a.all, checked));
    if let Some(dir) = &a.export_npy {
        let x = detect::pipeline::import::export_npy(&c, dir)?;
        for why in &x.left_out {
            errln!("error: not written: {why}");
        }
        outln!(
            "{} variables written to {} as .npy, {} more as aliases of their files (index.json \
             maps each to its file){}",
            x.written.len(),
            dir.display(),
            x.aliases.len(),
            match x.left_out.len() {
                0 => String::new(),
                n => format!("; {n} left out"),
            }
        );
        // a variable the export could not give is a failure, not a footnote
        if !x.left_out.is_empty() {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Import published weights as a model bundle: today the SA-DMIL TensorFlow 2 checkpoints of
/// Wu et al. (MICCAI 2023; github.com/YunanWu2168/SA-MIL, MIT licence, trained on RSNA 2019 data
/// under RSNA's non-commercial research terms). Every CRC32C is checked; the bundle records the
/// source files' SHA-256, the licence, the preprocessing the weights expect (`--preset sa-dmil`:
/// 512², windows 40/80, 80/200, 30/30) and the architecture. It has no GP head: `ich predict`
/// then gives the network's own probabilities (no uncertainty) until `ich fit-gp --bundle` adds
/// one.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The checkpoint prefix (e.g. `baseline.ckpt` for `baseline.ckpt.index` and
    /// `baseline.ckpt.data-00000-of-00001`).
    prefix: PathBuf,
    /// The bundle folder to write (an earlier bundle there is replaced).
    #[arg(short, long)]
    out: PathBuf,
    /// Do not pad bags to 57 slices with all-zero slices. The authors trained and tested with
    /// the padding, so it is on by default; without it a scan's probability is the network on
    /// its real slices only (e.g. 0.106 instead of 0.0003 for one slice alone, baseline).
    #[arg(long)]
    no_pad: bool,
}

pub fn import(a: ImportArgs) -> anyhow::Result<ExitCode> {
    let job = detect::pipeline::import::ImportJob {
        checkpoint: a.prefix.clone(),
        out: a.out.clone(),
        pad: !a.no_pad,
    };
    let out = detect::pipeline::import::import_sa_dmil(&job)
        .with_context(|| format!("importing {}", a.prefix.display()))?;
    outln!("{}", crate::summary::imported(&out, &job));
    Ok(ExitCode::SUCCESS)
}
