//! Fuzz target `bundle`: [`testkit::fuzzing::bundle`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::bundle(&common::scratch(), data).expect("scratch folder writable");
});
