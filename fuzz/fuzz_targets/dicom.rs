//! Fuzz target `dicom`: [`testkit::fuzzing::dicom`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::dicom(&common::scratch(), data).expect("scratch folder writable");
});
