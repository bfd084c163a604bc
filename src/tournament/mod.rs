//! `tarneeb tournament`: many games between bot programs, scheduled deterministically from one
//! seed, played several at once, with results that survive an interruption.
//!
//! Scheduling: [`schedule`] decides which partnerships meet on which deals ([`swiss`] pairs a
//! Swiss round from the standings so far, [`shard`] splits a schedule over machines,
//! [`deal_sets`] reads `--deals-from`). Running: [`runner`] plays the games on worker threads,
//! [`pool`] keeps bots up between games, [`remote_seats`] seats remote entrants'
//! connections, [`progress`] shows how far it got. The directory:
//! [`directory`] opens one once (its config, sandbox, seal key, rows as a stream) for resume,
//! standings, Swiss peers and shards; [`results`] claims it and appends to `results.jsonl`,
//! [`seal`] signs the rows,
//! [`integrity`] checks them against their records, [`config`] reads `--config` files and
//! [`swiss_shards`] spreads a Swiss over machines. What the rows mean (ratings, SPRT, boards,
//! the standings report) is computed in [`crate::standings`], which does no I/O.

pub mod bracket;
pub mod config;
pub mod deal_sets;
pub mod directory;
pub mod integrity;
pub mod merge;
pub mod pool;
pub mod progress;
pub mod remote_seats;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod seal;
pub mod shard;
pub mod spec;
pub mod swiss;
pub mod swiss_shards;
pub mod swiss_table;
