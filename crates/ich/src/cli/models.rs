//! `ich models`: the model bundles built into ich, and where each is kept once used.

use std::process::ExitCode;

/// List the model bundles built into ich (`--model NAME` takes them; `sa-dmil` is the default).
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> anyhow::Result<ExitCode> {
    use detect::bundle::builtin::{cache_dir, BUILTIN, DEFAULT_MODEL};
    for b in BUILTIN {
        let default = if b.name == DEFAULT_MODEL {
            " (default)"
        } else {
            ""
        };
        outln!("{}{default}: {}", b.name, b.about);
    }
    outln!(
        "kept, once used, under {}; any bundle folder works too: --model PATH",
        cache_dir().display()
    );
    Ok(ExitCode::SUCCESS)
}
