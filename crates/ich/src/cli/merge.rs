//! `ich merge`

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Join what the shards of a job array wrote (`--shard I/N` of preprocess, extract and predict;
/// deploy/): the shards' datasets into one dataset, their features files into one features
/// file, or their report folders into one report folder, equal to what one run over the whole
/// cohort writes (reports: the same CSV files, scan pages and scan entries; a new run id and
/// date). Refused: a scan in two inputs, a shard given
/// twice, shards of different counts or preprocessing; a missing shard is named so that it can be
/// rerun (or, with --partial, left out).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shards' dataset folders, features files or report folders (all of one kind).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The joined dataset folder, features file, or report folder: new, empty, or an earlier
    /// merge's (replaced, so a merge can be rerun); never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// Join the shards there are when some are missing (the missing ones are listed).
    #[arg(long)]
    partial: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let datasets = a
        .inputs
        .iter()
        .filter(|p| p.join("dataset.json").is_file())
        .count();
    let (scans, count, missing) = if datasets == a.inputs.len() {
        let m =
            preprocess::merge::merge(&a.inputs, &a.out, a.partial).context("merging datasets")?;
        (m.scans, m.shard_count, m.missing_shards)
    } else if datasets == 0 && a.inputs.iter().all(|p| p.join("report.json").is_file()) {
        let m = detect::report::merge::merge(&a.inputs, &a.out, a.partial)
            .context("merging reports")?;
        outln!("{} scan page(s) and DICOM result(s) carried over", m.files);
        (m.scans, m.shard_count, m.missing_shards)
    } else if datasets == 0 && a.inputs.iter().all(|p| p.is_file()) {
        let m = detect::features::merge(&a.inputs, &a.out, a.partial)
            .context("merging features files")?;
        (m.scans, m.shard_count, m.missing_shards)
    } else {
        // name the input that is none of the three (a FIFO, a device, a folder of neither kind)
        let odd = a.inputs.iter().find(|p| {
            !(p.join("dataset.json").is_file() || p.join("report.json").is_file() || p.is_file())
        });
        let which = odd.map_or_else(String::new, |p| {
            format!(
                "{}: not a dataset folder, a report folder or a regular file; ",
                p.display()
            )
        });
        anyhow::bail!(
            "{which}the inputs must all be datasets of `ich preprocess` (folders with a dataset.json), \
             all features files of `ich extract`, or all report folders of `ich predict` \
             (folders with a report.json)"
        );
    };
    outln!(
        "{scans} scans from {} input(s), shards of {count} → {}",
        a.inputs.len(),
        a.out.display()
    );
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|i| format!("{i}/{count}")).collect();
        outln!("missing shard(s), left out: {}", list.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}
