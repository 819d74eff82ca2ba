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
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let c = tfckpt::Checkpoint::open(&a.prefix).context("reading the checkpoint index")?;
    let checked = c.verify().context("checking the checkpoint's data")?;
    let mut shown = 0;
    let mut values = 0usize;
    for (name, e) in c.entries() {
        let model = name.starts_with("layer_with_weights-") && !name.contains("OPTIMIZER_SLOT");
        if model {
            values += e.elements().unwrap_or(0);
        }
        if a.all || model {
            println!("{name}\t{:?}\t{:?}", e.dtype, e.shape);
            shown += 1;
        }
    }
    println!(
        "{} variables ({shown} shown; {values} model values), {} data bytes, every CRC32C checked ({checked} entries)",
        c.entries().len(),
        c.data_len()
    );
    Ok(ExitCode::SUCCESS)
}
