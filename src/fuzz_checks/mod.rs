//! The properties the fuzzers check, one function per target, kept in the library so that the
//! cargo-fuzz targets in `fuzz/` and the corpus replay in the quick test tier
//! (`tests/quick/fuzz_corpus.rs`) run exactly the same code: a crash the fuzzer found stays a
//! test after its input is saved to the corpus, with no libFuzzer needed to run it.
//!
//! Each function takes the fuzzer's bytes and panics only when a property fails: a parser that
//! panics, two implementations of one format that disagree, a round trip that changes a game.
//! docs/reliability.md names the targets, their seeds and how long each was run.

mod game_bytes;
mod inputs;
mod protocol;
mod record;

/// A target's check: the fuzzer's bytes in, a panic when a property fails.
pub type Check = fn(&[u8]);

/// Every target: its name (a directory of `fuzz/corpus/` and a binary of `fuzz/`) and its
/// check.
pub const TARGETS: [(&str, Check); 9] = [
    ("reply", protocol::reply),
    ("hot_json", protocol::hot_json),
    ("control", protocol::control),
    ("record_text", record::record_text),
    ("record_round_trip", record::round_trip),
    ("rules_json", inputs::rules_json),
    ("config", inputs::config),
    ("results_rows", inputs::results_rows),
    ("seal", inputs::seal),
];

/// Runs the check of the target named `name` on `data`; false when there is no such target.
pub fn run(name: &str, data: &[u8]) -> bool {
    match TARGETS.iter().find(|(n, _)| *n == name) {
        Some((_, check)) => {
            check(data);
            true
        }
        None => false,
    }
}
