//! Fuzz target `gp_model`: [`detect::fuzzing::gp_model`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    detect::fuzzing::gp_model(&common::scratch(), data).expect("scratch folder writable");
});
