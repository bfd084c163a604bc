//! Where a game's bot processes come from and where they go after it: started fresh for the
//! game and stopped at its end (one game, `--fresh-bots`), or taken from and given back to a
//! pool that keeps the processes of bots that play several games (see protocol.md, `new_game`).

use crate::bot::{Bot, BotError, BotSpec};
use crate::rules::Seat;

/// A process for a seat, and how it is to be greeted.
pub struct SeatProcess {
    pub bot: Bot,
    /// True for a process kept from an earlier game: it gets `new_game` instead of `hello`.
    pub kept: bool,
}

/// The source of a game's bot processes.
pub trait Processes {
    /// The process that plays `seat` as `spec` says.
    fn take(&mut self, seat: Seat, spec: &BotSpec) -> Result<SeatProcess, BotError>;

    /// After the game, the process of `seat` when it is fit to play another game: it declared
    /// `multi_game`, did not fault, and is still running. Returns it when it is not wanted;
    /// the referee then stops it with the others.
    fn give_back(&mut self, seat: Seat, bot: Bot) -> Option<Bot>;
}

/// A fresh process per seat and game, stopped when the game ends: the protocol as it was
/// before `new_game`, and what a bot that does not declare `multi_game` always gets.
pub struct Fresh;

impl Processes for Fresh {
    fn take(&mut self, _seat: Seat, spec: &BotSpec) -> Result<SeatProcess, BotError> {
        Ok(SeatProcess {
            bot: Bot::spawn(spec)?,
            kept: false,
        })
    }

    fn give_back(&mut self, _seat: Seat, bot: Bot) -> Option<Bot> {
        Some(bot)
    }
}
