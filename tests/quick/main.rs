//! The quick tier: what a developer runs after every edit, with the library's unit tests
//! (`bash .ci/quick`, or `cargo test --release --lib --bins --test quick`): the rules against
//! the rule texts, property tests, the protocol and its schema, the house's shape, and the
//! referee end to end with real bot processes (`play`, `replay`, faults, traces, bad input).
//! Under a minute on two cores once built (docs/performance.md, "The test suite").
//!
//! One binary for the tier, one module per area: the library, DDS and every dependency are
//! linked once for all of them, not once per file.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod errors;
mod fuzz_corpus;
mod hello_game;
mod hint_sections;
mod layout;
mod league_schema;
mod monotonic_clock;
mod properties;
mod protocol_examples;
mod protocol_schema;
mod purity;
mod readme;
mod referee;
mod replay;
mod replay_ask;
mod rule_citations;
mod rules_doc;
mod schedule_lazy;
mod terminal_text;
mod trace;
