#![no_main]
//! `cargo fuzz run control`: the check `control` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("control", data);
});
