//! A game's seats when some belong to remote entrants: those seats are played by connections
//! taken from the lobby for the whole game, the others by processes as usual.

use crate::bot::{Bot, BotError, BotSpec};
use crate::referee::{Processes, SeatProcess};
use crate::remote::lobby::Lobby;
use crate::rules::Seat;

/// The processes of one game, with remote seats' connections already reserved.
pub struct WithRemote<'a, P: Processes> {
    pub local: P,
    /// The connection of each remote seat, until the referee takes it.
    pub remote: [Option<Bot>; 4],
    /// Each seat's entrant, to give a connection back to the right one.
    pub entrants: [usize; 4],
    pub lobby: &'a Lobby,
}

impl<P: Processes> Processes for WithRemote<'_, P> {
    fn take(&mut self, seat: Seat, spec: &BotSpec) -> Result<SeatProcess, BotError> {
        match self.remote[seat.index()].take() {
            // A connection whose bot declared `multi_game` goes on with `new_game`; any other
            // gets `hello`, and its relay starts the bot afresh.
            Some(bot) => Ok(SeatProcess {
                kept: bot.wants_new_game(),
                bot,
            }),
            None => self.local.take(seat, spec),
        }
    }

    fn give_back(&mut self, seat: Seat, bot: Bot) -> Option<Bot> {
        if bot.is_remote() {
            self.lobby.give_back(self.entrants[seat.index()], bot);
            None
        } else {
            self.local.give_back(seat, bot)
        }
    }
}

impl<P: Processes> Drop for WithRemote<'_, P> {
    /// Connections the game never took (it could not start) go back unused.
    fn drop(&mut self) {
        for (i, slot) in self.remote.iter_mut().enumerate() {
            // An absent seat was never a connection: it is dropped.
            if let Some(bot) = slot.take().filter(|b| b.absent_detail().is_none()) {
                self.lobby.give_back(self.entrants[i], bot);
            }
        }
    }
}
