#![no_main]
//! `cargo fuzz run record_round_trip`: the check `record_round_trip` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("record_round_trip", data);
});
