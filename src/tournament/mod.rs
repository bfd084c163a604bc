//! `tarneeb tournament`: many games between bot programs, scheduled deterministically from one
//! seed, played several at once, with results that survive an interruption.
//!
//! [`schedule`] decides which partnerships meet on which deals, [`runner`] plays the games on
//! worker threads, [`results`] keeps `results.jsonl` and `tournament.json` ([`integrity`]
//! checks its rows against their records), [`progress`] shows
//! how far it got; [`standings`], [`ratings`] and [`sprt`] turn result rows into tables:
//! [`pairs`] finds duplicate twins by their deals, [`boards`] compares them hand by hand,
//! [`verdict`] fixes the SPRT at its first crossing, [`stats`] and [`pairwise`] give
//! head-to-head intervals and the crosstable, [`report`] writes it all out; [`config`] reads
//! `--config` files; [`accuracy`] is the double-dummy column of `--analyze`;
//! [`swiss_shards`] spreads a Swiss over machines; [`tally`] keeps running totals.

pub mod accuracy;
pub mod boards;
pub mod config;
pub mod deal_sets;
pub mod integrity;
pub mod pairs;
pub mod pairwise;
pub mod pool;
pub mod progress;
pub mod ratings;
#[cfg(test)]
mod ratings_coverage;
pub mod report;
pub mod results;
pub mod row;
pub mod runner;
pub mod schedule;
pub mod seal;
pub mod shard;
pub mod small_sample;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod swiss;
pub mod swiss_shards;
pub mod tally;
pub mod verdict;
