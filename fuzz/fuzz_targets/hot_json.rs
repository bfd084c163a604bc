#![no_main]
//! `cargo fuzz run hot_json`: the check `hot_json` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("hot_json", data);
});
