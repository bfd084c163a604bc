#![no_main]
//! `cargo fuzz run seal`: the check `seal` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("seal", data);
});
