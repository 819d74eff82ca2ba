//! Running the real `ich` binary from integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs `ich` with warnings-only logging.
pub fn ich(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ich"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run ich")
}

/// Standard output and error together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `ich`, asserting success; returns its output.
pub fn ok(args: &[&str]) -> String {
    let o = ich(args);
    let t = text(&o);
    assert!(o.status.success(), "ich {args:?} failed:\n{t}");
    t
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
