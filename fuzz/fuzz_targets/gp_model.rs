//! Fuzz target `gp_model`: [`testkit::fuzzing::gp_model`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::gp_model(&common::scratch(), data).expect("scratch folder writable");
});
