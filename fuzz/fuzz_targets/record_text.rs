#![no_main]
//! `cargo fuzz run record_text`: the check `record_text` of `tarneeb_referee::fuzz_checks`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tarneeb_referee::fuzz_checks::run("record_text", data);
});
