//! `tournament --bot NAME=web`: an entrant played by people in a browser. Each of its seats is
//! a web seat (the page of `play --bot web`) served by this process for the whole tournament,
//! at an address printed once with its one-time token; the referee talks to it through a
//! socket pair, as to a remote entrant's connection, so games take its seats from the lobby
//! when they are free (a person plays one game at a time) under the same limits and faults.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use tarneeb_referee::bot::{Bot, RemoteInfo};
use tarneeb_referee::remote::lobby::Lobby;
use tarneeb_referee::serve::seat;
use tarneeb_referee::tournament::run::runner::Entrant;

use super::remote_args::RemoteSetup;

/// Seats of a web entrant: two, the most one game gives an entrant (partnered with itself).
const SEATS: usize = 2;

/// Adds the web entrants' seats to `setup`'s lobby (making one when there is none), printing
/// each seat's address. `setup` unchanged when there is no web entrant.
pub fn start(
    entrants: &[Entrant],
    ip: IpAddr,
    max_line: usize,
    setup: Option<RemoteSetup>,
) -> Result<Option<RemoteSetup>, String> {
    if !entrants.iter().any(Entrant::is_web) {
        return Ok(setup);
    }
    let mut setup = setup.unwrap_or_else(|| {
        RemoteSetup::without_listener(Arc::new(Lobby::new(
            entrants.iter().map(|e| e.name.clone()).collect(),
        )))
    });
    for (index, e) in entrants.iter().enumerate().filter(|(_, e)| e.is_web()) {
        for k in 0..SEATS {
            let server = seat::bind(SocketAddr::new(ip, 0))?;
            let addr = server
                .local_addr()
                .map_err(|e| format!("web seat: its address: {e}"))?;
            let token = super::web_seat::fresh_token();
            let info = RemoteInfo {
                entrant: e.name.clone(),
                peer: format!("web seat at {addr}"),
                allowance: std::time::Duration::ZERO,
            };
            let theirs = join(&setup.lobby, index, &info, max_line)?;
            // After a fault the referee hangs the seat up: it joins the lobby again, so its
            // page is offered the next game.
            let reconnect: seat::Reconnect = {
                let lobby = Arc::clone(&setup.lobby);
                Box::new(move || {
                    join(&lobby, index, &info, max_line)
                        .map_err(|err| eprintln!("tarneeb: {err}; the seat plays no more games"))
                        .ok()
                        .and_then(|end| seat::conn_of(end).ok())
                })
            };
            setup.seats.push(seat::start_series(
                server,
                token.clone(),
                theirs,
                reconnect,
            )?);
            eprintln!(
                "{} seat {}: play it in your browser: {}",
                e.name,
                k + 1,
                super::web_seat::seat_url(addr, &token)
            );
        }
        if !ip.is_loopback() {
            eprintln!(
                "tarneeb: warning: {ip} is not a loopback address: keep the addresses to yourself"
            );
        }
    }
    Ok(Some(setup))
}

/// A new connection of web entrant `index` in `lobby`: the referee's end goes in, the seat's
/// end comes back.
fn join(
    lobby: &Lobby,
    index: usize,
    info: &RemoteInfo,
    max_line: usize,
) -> Result<std::os::unix::net::UnixStream, String> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()
        .map_err(|e| format!("web seat: cannot make its socket pair: {e}"))?;
    let bot = Bot::connected(ours.into(), info.clone(), max_line, Box::new(()))
        .map_err(|err| format!("web seat: {err}"))?;
    lobby.admit(index, bot);
    Ok(theirs)
}
