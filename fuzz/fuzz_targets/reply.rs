#![no_main]
//! `cargo fuzz run reply`: the check `reply` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("reply", data);
});
