//! `play --bot remote:NAME`: seats of one game played from other machines through
//! `tarneeb connect`. The tokens are made for this game only and printed; the game starts when
//! every remote seat has its connection, and the relays are told it is over at the end.

use std::sync::atomic::AtomicBool;

use super::remote_args::{ListenArgs, RemoteSetup};
use super::UsageError;
use tarneeb_referee::bot::Bot;
use tarneeb_referee::protocol::HandEndMsg;
use tarneeb_referee::referee::spec::Prepared;
use tarneeb_referee::referee::{Fresh, Outcome, RefereeError};
use tarneeb_referee::remote::tokens::Tokens;
use tarneeb_referee::tournament::run::remote_seats::WithRemote;

/// A game's remote seats, connected and waiting for it.
pub struct RemoteGame {
    setup: RemoteSetup,
    reserved: [Option<Bot>; 4],
    entrants: [usize; 4],
}

/// Listens, prints the tokens, and waits until every remote seat has a connection. `None`
/// when no seat is remote.
pub fn start(
    remote: &[Option<String>; 4],
    net: &ListenArgs,
    max_line: usize,
    stop: &AtomicBool,
) -> anyhow::Result<Option<RemoteGame>> {
    if remote.iter().all(Option::is_none) {
        return Ok(None);
    }
    let mut names: Vec<String> = Vec::new();
    let mut entrants = [usize::MAX; 4];
    for (seat, name) in remote.iter().enumerate() {
        if let Some(name) = name {
            let index = match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    names.push(name.clone());
                    names.len() - 1
                }
            };
            entrants[seat] = index;
        }
    }
    let listed: Vec<(usize, String)> = names.iter().cloned().enumerate().collect();
    let tokens = Tokens::fresh(&listed);
    for name in &names {
        let token = tokens.token_of(name).expect("made above");
        eprintln!("token for {name}: {token} (for this game only; give it to {name}'s owner only)");
    }
    let setup = net.serve(names, tokens, 4, max_line).map_err(UsageError)?;
    let wanted: [Option<usize>; 4] =
        std::array::from_fn(|i| remote[i].as_ref().map(|_| entrants[i]));
    let Some(reserved) = setup.lobby.reserve(wanted, stop) else {
        setup.finish();
        anyhow::bail!(
            "interrupted while waiting for the remote seats' connections; no game was played"
        );
    };
    Ok(Some(RemoteGame {
        setup,
        reserved,
        entrants,
    }))
}

impl RemoteGame {
    /// Plays the game, then tells the relays it is over.
    pub fn play(
        self,
        game: Prepared,
        stop: &AtomicBool,
        on_hand: &mut dyn FnMut(&HandEndMsg),
    ) -> Result<Outcome, RefereeError> {
        let RemoteGame {
            setup,
            reserved,
            entrants,
        } = self;
        let outcome = {
            let mut seats = WithRemote {
                local: Fresh,
                remote: reserved,
                entrants,
                lobby: &setup.lobby,
            };
            game.play(&mut seats, stop, on_hand)
        };
        setup.finish();
        outcome
    }
}
