#![no_main]
//! `cargo fuzz run config`: the check `config` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("config", data);
});
