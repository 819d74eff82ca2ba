//! Fuzz target `pdu`: [`testkit::fuzzing::pdu`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    testkit::fuzzing::pdu(&common::scratch(), data).expect("PDUs are read from memory");
});
