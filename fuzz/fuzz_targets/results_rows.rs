#![no_main]
//! `cargo fuzz run results_rows`: the check `results_rows` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("results_rows", data);
});
