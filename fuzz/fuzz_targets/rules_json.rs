#![no_main]
//! `cargo fuzz run rules_json`: the check `rules_json` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("rules_json", data);
});
