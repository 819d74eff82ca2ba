//! Fuzz target `store`: [`detect::fuzzing::store`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    detect::fuzzing::store(&common::scratch(), data).expect("scratch folder and loopback usable");
});
