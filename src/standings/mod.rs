//! The statistics and the standings report: pure computation over result rows, with no file
//! system, processes, threads or clocks (`tests/quick/purity.rs` keeps it so), in the way
//! the rules core is pure. `tarneeb standings` runs them on directories no runner touches, and
//! the tournament runner on the rows it writes; both read the rows and hand them here.
//!
//! [`row`] is one finished game as results.jsonl holds it. [`pairs`] finds duplicate twins by
//! their deals and [`boards`] compares them hand by hand; [`tally`] keeps running totals of the
//! rows; [`ratings`] fits the Bradley-Terry ratings, [`stats`] and [`pairwise`] give
//! head-to-head intervals and the crosstable (both on [`small_sample`]); [`sprt`] is the
//! sequential test and [`verdict`] fixes it at its first crossing; [`accuracy`] is the
//! double-dummy column of `--analyze` and [`twins`] its first-against-second-twin check; [`table`] puts the standings together and [`report`]
//! writes them as text or JSON.

pub mod accuracy;
pub mod boards;
pub mod headline;
pub mod pairs;
pub mod pairwise;
pub mod places;
pub mod ratings;
#[cfg(test)]
mod ratings_coverage;
#[cfg(test)]
mod ratings_symmetry;
pub mod report;
pub mod row;
pub mod small_sample;
pub mod sprt;
pub mod sprt_normalized;
pub mod stats;
pub mod table;
pub mod tally;
pub mod twins;
pub mod verdict;
