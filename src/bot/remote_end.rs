//! A bot at the other end of a network connection (a remote entrant, see `crate::remote`).
//!
//! It is the same [`Bot`] as a local process, so the referee's loop (requests, replies, line
//! caps, timeouts, faults) is one path for pipes and sockets: the socket is both the bot's
//! "stdin" and its "stdout". What differs is kept here: there is no process to wait for or
//! kill (stopping hangs up), no stderr (it stays on the owner's machine), no sandbox, and the
//! connection outlives games whether or not its bot declared `multi_game` (the relay restarts
//! such a bot when it sees the next `hello`).

use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::lines::LineSplitter;
use super::{os, Bot, Peer, Sandbox};

/// What the referee knows of a remote seat, for the record and its time limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteInfo {
    /// The entrant whose token opened the connection.
    pub entrant: String,
    /// The peer's address as the server saw it.
    pub peer: String,
    /// Added to every time limit of the seat (`--latency-allowance`), for the network.
    pub allowance: Duration,
}

pub(super) struct RemoteEnd {
    info: RemoteInfo,
    /// Kept to hang up: the descriptors the bot reads and writes are duplicates of it.
    socket: OwnedFd,
    /// The bot behind the connection has answered a `hello` and declared `multi_game`: its next
    /// game starts with `new_game`. A bot that did not declare it is restarted by the relay and
    /// gets a `hello` again.
    multi_game: bool,
    /// The TLS session when the connection has one (see `tls_end`); `socket` then carries
    /// its records.
    pub(super) tls: Option<Box<super::tls_end::TlsEnd>>,
    /// Held while the connection lives: its drop frees the connection's place under the
    /// server's caps (per entrant, per address).
    _guard: Box<dyn Send>,
    /// Not a connection: the seat of an entrant that had none idle within the lobby's
    /// `--absent-timeout` (see [`Bot::absent`]), with why.
    absent: Option<String>,
}

impl RemoteEnd {
    /// Ends the connection in both directions, also for the duplicates the bot holds, so the
    /// peer sees the end at once (after a TLS session's `close_notify`, when it can go).
    pub(super) fn hang_up(&mut self) {
        if let Some(tls) = self.tls.as_mut() {
            tls.close(&self.socket);
        }
        // SAFETY: shutdown on a descriptor this struct owns; errors (already closed) are moot.
        unsafe {
            libc::shutdown(self.socket.as_raw_fd(), libc::SHUT_RDWR);
        }
    }
}

impl Bot {
    /// A bot behind an authenticated connection. `socket` stays blocking, so a reply is awaited
    /// in one blocking `read` that the watchdog interrupts, as on a pipe (a non-blocking
    /// socket needed a `poll` before every read: one more system call a move); writes are
    /// made non-blocking one by one ([`os::send_nonblocking`]), since one description serves
    /// both directions.
    pub fn connected(
        socket: OwnedFd,
        info: RemoteInfo,
        max_line: usize,
        guard: Box<dyn Send>,
    ) -> io::Result<Bot> {
        Bot::remote_end(socket, info, max_line, guard, None)
    }

    /// [`Bot::connected`], with the TLS session `socket` carries when it has one.
    pub(super) fn remote_end(
        socket: OwnedFd,
        info: RemoteInfo,
        max_line: usize,
        guard: Box<dyn Send>,
        tls: Option<Box<super::tls_end::TlsEnd>>,
    ) -> io::Result<Bot> {
        os::set_blocking(socket.as_fd())?;
        let stdin = File::from(socket.try_clone()?);
        let stdout = File::from(socket.try_clone()?);
        Ok(Bot {
            command: format!("remote:{}", info.entrant),
            peer: Peer::Remote(RemoteEnd {
                info,
                socket,
                multi_game: false,
                tls,
                _guard: guard,
                absent: None,
            }),
            stdin: Some(stdin),
            stdout: Some(stdout),
            out: Vec::new(),
            out_pos: 0,
            queued_total: 0,
            written_total: 0,
            requests: VecDeque::new(),
            splitter: LineSplitter::new(max_line),
            events: VecDeque::new(),
            stopped: false,
            sandbox: Arc::new(Sandbox::none()),
            stderr_path: PathBuf::new(),
        })
    }

    /// The seat of a remote entrant that had no idle connection in time: a hung-up socket
    /// that the referee faults as `absent` before the handshake (the game is forfeited),
    /// never given back to the lobby.
    pub fn absent(info: RemoteInfo, detail: String) -> io::Result<Bot> {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
        drop(theirs);
        let mut bot = Bot::remote_end(ours.into(), info, 1024, Box::new(()), None)?;
        if let Peer::Remote(r) = &mut bot.peer {
            r.absent = Some(detail);
        }
        Ok(bot)
    }

    /// Why this seat is absent, for a seat made by [`Bot::absent`].
    pub fn absent_detail(&self) -> Option<&str> {
        match &self.peer {
            Peer::Remote(r) => r.absent.as_deref(),
            Peer::Process(_) => None,
        }
    }

    /// True for a remote entrant's connection.
    pub fn is_remote(&self) -> bool {
        matches!(self.peer, Peer::Remote(_))
    }

    /// The remote seat's details; `None` for a local process.
    pub fn remote(&self) -> Option<&RemoteInfo> {
        match &self.peer {
            Peer::Remote(r) => Some(&r.info),
            Peer::Process(_) => None,
        }
    }

    /// Time added to this seat's limits for the network (zero for a local process).
    pub fn latency_allowance(&self) -> Duration {
        self.remote().map_or(Duration::ZERO, |r| r.allowance)
    }

    /// Records what the bot's `hello` reply declared: a remote connection's next game starts
    /// with `new_game` only if it declared `multi_game`.
    pub fn note_hello(&mut self, multi_game: bool) {
        if let Peer::Remote(r) = &mut self.peer {
            r.multi_game = multi_game;
        }
    }

    /// A remote connection whose bot should get `new_game` rather than `hello` next.
    pub fn wants_new_game(&self) -> bool {
        matches!(&self.peer, Peer::Remote(r) if r.multi_game)
    }
}
