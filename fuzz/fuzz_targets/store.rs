//! Fuzz target `store`: [`testkit::fuzzing::store`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::store(&common::scratch(), data).expect("scratch folder and loopback usable");
});
