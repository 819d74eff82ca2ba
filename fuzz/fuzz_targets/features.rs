//! Fuzz target `features`: [`testkit::fuzzing::features`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::features(&common::scratch(), data).expect("scratch folder writable");
});
