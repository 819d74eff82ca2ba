//! Fuzz target `association`: [`testkit::fuzzing::association`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::association(&common::scratch(), data)
        .expect("scratch folder and loopback usable");
});
