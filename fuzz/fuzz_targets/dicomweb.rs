//! Fuzz target `dicomweb`: [`testkit::fuzzing::dicomweb`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::dicomweb(&common::scratch(), data)
        .expect("scratch folder and loopback usable");
});
