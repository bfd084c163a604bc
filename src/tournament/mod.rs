//! `tarneeb tournament`: many games between bot programs, scheduled deterministically from one
//! seed, played several at once, with results that survive an interruption.
//!
//! [`schedule`] decides which partnerships meet on which deals, [`runner`] plays the games on
//! worker threads, [`results`] keeps `results.jsonl` and `tournament.json`, [`progress`] shows
//! how far it got; [`standings`], [`ratings`] and [`sprt`] turn result rows into tables.

pub mod deal_sets;
pub mod pool;
pub mod progress;
pub mod ratings;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod standings;
