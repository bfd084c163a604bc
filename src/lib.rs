//! tarneeb-referee: a headless referee for the Tarneeb family of card games.
//!
//! Layers, data flowing one way: [`rules`] (pure game rules) under the drivers: [`simulate`]
//! with built-in [`players`], and later the referee, records and tournaments.

pub mod bot;
pub mod players;
pub mod rules;
pub mod rules_file;
pub mod simulate;
