//! `tarneeb league`: a competition that never ends. Entrants join, send new versions and
//! retire while it runs; each pair of games is chosen where its result tells the most; the
//! table, every version's rating history and every game stay a query away in `league.db`
//! (SQLite). A league directory is also a tournament directory (`tournament.json`,
//! `results.jsonl` sealed, `games/`), so `tarneeb standings` and `tarneeb serve` read it as
//! they read a tournament.
//!
//! [`spec`] checks a league's settings (with the tournament's own checks), makes its
//! directory and readies it to play, [`db`] holds the schema and every query, [`matchmaking`]
//! chooses the next pair (pure), [`source`] hands the tournament runner its games and writes
//! what they changed, [`audit`] finds what the reading commands print, [`plot`] draws a
//! version's history.

pub mod audit;
pub mod db;
pub mod matchmaking;
pub mod plot;
pub mod source;
pub mod spec;
