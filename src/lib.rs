//! tarneeb-referee: a headless referee for the Tarneeb family of card games.
//!
//! Layers, data flowing one way: [`rules`] (pure game rules) under the drivers: [`simulate`]
//! with built-in [`players`], and [`referee`], which runs external bots through [`bot`]
//! over [`protocol`] and writes a [`record`].

pub mod bot;
pub mod cli_args;
pub mod players;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod replay_cmd;
pub mod replay_html;
pub mod rules;
pub mod rules_file;
pub mod signals;
pub mod simulate;
pub mod tournament;
pub mod tournament_cmd;
