//! `ich preprocess`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use preprocess::labels::Labels;
use preprocess::{PreprocessConfig, PreprocessOptions, Window, Windows};

use crate::cli::range;

/// Read DICOM folders (recursively, any file names) and NIfTI volumes (`.nii`, `.nii.gz`: one
/// file = one scan), group files into scans, order slices, convert to Hounsfield units, apply the brain, blood and soft-tissue windows, resample and write a
/// dataset. Broken files are reported and skipped; a rerun skips finished scans.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// DICOM files, NIfTI files (`.nii`, `.nii.gz`) or folders holding them.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output dataset folder.
    #[arg(short, long)]
    out: PathBuf,
    /// Labels: labels.csv / slice_labels.csv of `ich synth`, the RSNA stage_2_train.csv, or for
    /// NIfTI `nifti,label` (scans by path under the input) and `nifti,slice,label` (slices by
    /// index along the file's slice axis, 0-based). Repeatable.
    #[arg(long)]
    labels: Vec<PathBuf>,
    /// A named preprocessing instead of --size, the windows and --no-rsna-fix: `sa-dmil` is what
    /// the imported SA-DMIL weights expect (512², windows 40/80, 80/200, 30/30, no RSNA fix; a
    /// slice of another size windowed first, then resized by OpenCV's bilinear rule, as its
    /// authors did).
    #[arg(long, value_enum, conflicts_with_all = ["size", "brain_window", "blood_window", "soft_window", "no_rsna_fix"])]
    preset: Option<PresetArg>,
    /// Output size in pixels (square) [16..=2048], resampled with an antialiased triangle filter.
    #[arg(long, default_value_t = 256, value_parser = |s: &str| range::int_in(s, 16, 2048))]
    size: usize,
    /// Channel 0 window, LEVEL/WIDTH.
    #[arg(long, default_value = "40/80", value_parser = Window::parse)]
    brain_window: Window,
    /// Channel 1 window, LEVEL/WIDTH.
    #[arg(long, default_value = "80/200", value_parser = Window::parse)]
    blood_window: Window,
    /// Channel 2 window, LEVEL/WIDTH (the authors' notebook used 30/30).
    #[arg(long, default_value = "40/380", value_parser = Window::parse)]
    soft_window: Window,
    /// Do not apply the RSNA 12-bit wrap-around fix.
    #[arg(long)]
    no_rsna_fix: bool,
    /// Keep PatientName and PatientID in the dataset (left out by default).
    #[arg(long)]
    keep_phi: bool,
    /// Redo scans already present in the output folder.
    #[arg(long)]
    force: bool,
    /// Exit 0 when some scans could not be processed (they are listed; the dataset holds the
    /// others). Without it any failed scan makes the exit code 1; no scan at all is always 2.
    #[arg(long)]
    keep_going: bool,
    /// Store the pixel arrays uncompressed: faster (deflate is a third of the work), about 5× the
    /// disk (7.9 MB instead of 1.6 MB per 40-slice 256² scan); `numpy.load` reads both.
    #[arg(long)]
    uncompressed: bool,
    /// Process only shard I of N (I counts from 0): the scans whose id falls in bucket I of N,
    /// for a cluster's job array (deploy/); each shard writes its own --out folder, and
    /// `ich merge` joins them. Every shard reads every file's header to group the files into scans.
    #[arg(long, value_name = "I/N")]
    shard: Option<milbase::Shard>,
    /// Hold at most this many slice files' headers in memory while grouping them into scans
    /// [1..=100000000]; beyond it they wait on disk in the output folder, in buckets of whole
    /// scans processed one after the other (memory then stays about flat in the cohort's size).
    #[arg(long, value_name = "FILES", default_value_t = preprocess::pipeline::HEADERS_IN_MEMORY, value_parser = |s: &str| range::int_in(s, 1, 100_000_000))]
    headers_in_memory: usize,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum PresetArg {
    /// The defaults of `ich`'s own CNN (256², 40/80, 80/200, 40/380, RSNA fix).
    Ich,
    /// The published SA-DMIL weights' (`ich import`).
    SaDmil,
}

/// Ceilings on what one DICOM or NIfTI file may cost (checked before its pixel data is read; for
/// NIfTI the decompressed volume counts as the file).
#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// Skip files larger than this many MiB [1..=65536] (the header pass that groups files
    /// into scans applies it too, and reads at most 64 MiB before the pixel data).
    #[arg(hide_short_help = true, long, default_value_t = 1024, value_parser = |s: &str| range::int_in(s, 1, 65536))]
    max_file_mib: usize,
    /// Skip slices whose decoded size (Rows × Columns × samples × bytes) is over this many MiB
    /// [1..=4096].
    #[arg(hide_short_help = true, long, default_value_t = 64, value_parser = |s: &str| range::int_in(s, 1, 4096))]
    max_slice_mib: usize,
}

impl LimitArgs {
    pub fn limits(&self) -> preprocess::read::Limits {
        preprocess::read::Limits {
            max_file_bytes: (self.max_file_mib as u64) << 20,
            max_slice_bytes: (self.max_slice_mib as u64) << 20,
        }
    }
}

pub fn run(a: Args, progress: &detect::progress::Bars) -> anyhow::Result<ExitCode> {
    // read once the scans are known, each batch keeping its own rows: a cohort's labels file
    // costs a run its scans' rows, not the file's
    let labels = Labels::files(a.labels.clone()).context("reading labels")?;
    let opts = PreprocessOptions {
        config: match a.preset {
            Some(PresetArg::Ich) => PreprocessConfig::default(),
            Some(PresetArg::SaDmil) => PreprocessConfig::sa_dmil(),
            None => PreprocessConfig {
                windows: Windows([a.brain_window, a.blood_window, a.soft_window]),
                size: a.size,
                rsna_fix: !a.no_rsna_fix,
                ..PreprocessConfig::default()
            },
        },
        keep_phi: a.keep_phi,
        force: a.force,
        labels,
        limits: a.limits.limits(),
        uncompressed: a.uncompressed,
        headers_in_memory: Some(a.headers_in_memory),
    };
    let t = std::time::Instant::now();
    let shard = a.shard.unwrap_or(milbase::Shard::ALL);
    let s = preprocess::preprocess_shard(&a.inputs, &a.out, &opts, shard, progress)?;
    let secs = t.elapsed().as_secs_f64();
    let v = crate::summary::preprocess_verdict(&s, secs, a.keep_going);
    v.print();
    Ok(ExitCode::from(v.code))
}
