//! Fuzz target `pdu`: [`detect::fuzzing::pdu`] on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    detect::fuzzing::pdu(&common::scratch(), data).expect("PDUs are read from memory");
});
