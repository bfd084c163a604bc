//! `tarneeb tournament`: many games between bot programs, scheduled deterministically from one
//! seed, played several at once, with results that survive an interruption.
//!
//! In three folders by job. [`schedule`] decides which partnerships meet on which deals
//! ([`schedule::swiss`] pairs a Swiss round from the standings so far, [`schedule::shard`]
//! splits a schedule over machines, [`schedule::deal_sets`] reads `--deals-from`). [`run`]
//! plays them: [`run::spec`] checks a tournament before anything is written, [`run::runner`]
//! plays the games on worker threads, [`run::pool`] keeps bots up between games. [`directory`]
//! opens a tournament directory once (its config, sandbox, seal key, rows as a stream) for
//! resume, standings, Swiss peers and shards; [`directory::results`] appends to
//! `results.jsonl`, [`directory::seal`] signs the rows and [`directory::integrity`] checks them
//! against their records. What the rows mean (ratings, SPRT, boards,
//! the standings report) is computed in [`crate::standings`], which does no I/O.

pub mod directory;
pub mod run;
pub mod schedule;
