//! The server's end of a remote entrant's TLS connection, run on the thread that plays the
//! seat: no thread of its own, no socket pair (issue 25).
//!
//! The socket is the one a plain connection uses (blocking; see `remote_end`). A request is
//! encrypted with the connection's keys and its TLS records are sent without waiting, what the
//! socket does not take yet kept in order; a request counts as written (the bot's clock starts)
//! when its last record has been sent. A reply is awaited in one blocking read of ciphertext
//! under the watchdog, as on a pipe; the records read are decrypted and their plaintext cut
//! into lines by the bot's `LineSplitter`. Stopping sends `close_notify`.
//!
//! Why not a bridge thread copying between the TLS stream and a socket pair: each move then
//! cost two more wake-ups and four more system calls; see "Remote entrants" in
//! docs/performance.md for the figures.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::time::Instant;

use super::os::send_nonblocking;
use super::{Bot, Peer};

pub(super) struct TlsEnd {
    conn: rustls::ServerConnection,
    /// TLS records made but not yet taken by the socket: `cipher[sent..]`.
    cipher: Vec<u8>,
    sent: usize,
    /// Ciphertext bytes ever made and ever sent.
    made_total: u64,
    sent_total: u64,
    /// Plaintext bytes ever encrypted, and those whose records have all been sent.
    plain_total: u64,
    plain_sent: u64,
    /// (ciphertext made, plaintext encrypted) after each write: once `sent_total` reaches the
    /// first, the plaintext up to the second is on its way.
    marks: VecDeque<(u64, u64)>,
}

/// What one read of the connection gave.
pub(super) enum Got {
    /// No plaintext: interrupted (the watchdog), or only part of a record arrived.
    Nothing,
    /// Plaintext, all of it taken, and the connection is still open.
    Open,
    /// The taker refused more (an over-long line): reading stops here.
    Cut,
    /// The connection ended (`close_notify`, a close, or a TLS error).
    Closed,
}

/// The TLS session of a remote connection that has one.
pub(super) fn tls_of(peer: &mut Peer) -> Option<&mut TlsEnd> {
    match peer {
        Peer::Remote(r) => r.tls.as_deref_mut(),
        Peer::Process(_) => None,
    }
}

impl TlsEnd {
    pub(super) fn new(mut conn: rustls::ServerConnection) -> TlsEnd {
        // The bot's queue is the limit: rustls keeps whatever it is given in order.
        conn.set_buffer_limit(None);
        TlsEnd {
            conn,
            cipher: Vec::new(),
            sent: 0,
            made_total: 0,
            sent_total: 0,
            plain_total: 0,
            plain_sent: 0,
            marks: VecDeque::new(),
        }
    }

    /// Records made and not yet all sent.
    pub(super) fn has_backlog(&self) -> bool {
        self.sent < self.cipher.len()
    }

    /// Encrypts `plain` (all of it), sends what the socket takes now, and returns how many
    /// more plaintext bytes have now had all their records sent. An error means the
    /// connection is unusable.
    pub(super) fn write(&mut self, socket: &File, plain: &[u8]) -> io::Result<u64> {
        if !plain.is_empty() {
            self.conn.writer().write_all(plain)?;
            self.plain_total += plain.len() as u64;
        }
        self.seal();
        self.flush(socket)?;
        let before = self.plain_sent;
        while let Some(&(made, plain)) = self.marks.front() {
            if made > self.sent_total {
                break;
            }
            self.plain_sent = plain;
            self.marks.pop_front();
        }
        Ok(self.plain_sent - before)
    }

    /// Moves the records rustls has made into the backlog.
    fn seal(&mut self) {
        if self.sent == self.cipher.len() {
            self.cipher.clear();
            self.sent = 0;
        }
        while self.conn.wants_write() {
            match self.conn.write_tls(&mut self.cipher) {
                Ok(n) => self.made_total += n as u64,
                Err(_) => break,
            }
        }
        if self.marks.back().is_none_or(|&(_, p)| p < self.plain_total) {
            self.marks.push_back((self.made_total, self.plain_total));
        }
    }

    /// Sends as much of the backlog as the socket takes now.
    fn flush(&mut self, socket: &impl AsRawFd) -> io::Result<()> {
        while self.sent < self.cipher.len() {
            match send_nonblocking(socket, &self.cipher[self.sent..]) {
                Ok(n) if n > 0 => {
                    self.sent += n;
                    self.sent_total += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Ok(_) => return Err(io::ErrorKind::WriteZero.into()),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// One read of ciphertext from `socket` (blocking unless `poll` said it would not; a
    /// signal ends it with `Nothing`), then the plaintext it completes, handed to `take` in
    /// pieces of at most `buf.len()` bytes until `take` says no more.
    pub(super) fn read(
        &mut self,
        socket: &mut File,
        buf: &mut [u8],
        take: impl FnMut(&[u8]) -> bool,
    ) -> Got {
        let eof = match self.conn.read_tls(socket) {
            Ok(n) => n == 0,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) =>
            {
                return Got::Nothing
            }
            Err(_) => return Got::Closed,
        };
        if self.conn.process_new_packets().is_err() {
            // The alert rustls queued goes out if the socket takes it; the connection is over.
            self.seal();
            let _ = self.flush(socket);
            return Got::Closed;
        }
        // What rustls owes the peer (a key update's answer) is queued after the requests.
        if self.conn.wants_write() {
            self.seal();
        }
        match self.plaintext(buf, take) {
            Got::Nothing if eof => Got::Closed,
            got => got,
        }
    }

    /// Hands the plaintext rustls holds to `take`.
    pub(super) fn plaintext(&mut self, buf: &mut [u8], mut take: impl FnMut(&[u8]) -> bool) -> Got {
        let mut got = Got::Nothing;
        loop {
            match self.conn.reader().read(buf) {
                // close_notify: the peer has said all it will.
                Ok(0) => return Got::Closed,
                Ok(n) => {
                    if !take(&buf[..n]) {
                        return Got::Cut;
                    }
                    got = Got::Open;
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return got,
                // Closed without close_notify, or a broken connection.
                Err(_) => return Got::Closed,
            }
        }
    }

    /// Ends the session cleanly if that can be done now: a `close_notify` after a record that
    /// is half sent would be garbage, and stopping never waits for a peer.
    pub(super) fn close(&mut self, socket: &impl AsRawFd) {
        if self.has_backlog() {
            return;
        }
        self.conn.send_close_notify();
        self.seal();
        let _ = self.flush(socket);
    }
}

impl Bot {
    /// A remote entrant's bot behind a TLS connection whose handshake (and the `auth` and
    /// `welcome` lines) is done: `socket` is the TCP connection, `conn` its TLS state.
    pub fn connected_tls(
        socket: std::os::fd::OwnedFd,
        conn: rustls::ServerConnection,
        info: super::RemoteInfo,
        max_line: usize,
        guard: Box<dyn Send>,
    ) -> io::Result<Bot> {
        let tls = Box::new(TlsEnd::new(conn));
        let mut bot = Bot::remote_end(socket, info, max_line, guard, Some(tls))?;
        // Plaintext the handshake's reads already decrypted is the bot's first output.
        let at = Instant::now();
        let (splitter, events) = (&mut bot.splitter, &mut bot.events);
        let mut buf = [0u8; 4096];
        let got = match tls_of(&mut bot.peer) {
            Some(tls) => tls.plaintext(&mut buf, |piece| splitter.feed(piece, at, events)),
            None => Got::Nothing,
        };
        match got {
            Got::Cut => bot.stdout = None,
            Got::Closed => {
                bot.splitter.finish(at, &mut bot.events);
                bot.stdout = None;
            }
            Got::Nothing | Got::Open => {}
        }
        // Records rustls still owes the peer (session tickets) go out first.
        bot.write_some();
        Ok(bot)
    }

    /// [`Bot::read_into`] for a TLS connection.
    pub(super) fn read_tls(&mut self, buf: &mut [u8]) {
        let (Some(stdout), Peer::Remote(r)) = (self.stdout.as_mut(), &mut self.peer) else {
            return;
        };
        let Some(tls) = r.tls.as_mut() else {
            return;
        };
        let (splitter, events) = (&mut self.splitter, &mut self.events);
        let mut at = None;
        let got = tls.read(stdout, buf, |piece| {
            splitter.feed(piece, *at.get_or_insert_with(Instant::now), events)
        });
        let backlog = tls.has_backlog();
        match got {
            Got::Nothing | Got::Open => {}
            Got::Cut => self.stdout = None,
            Got::Closed => {
                let at = at.unwrap_or_else(Instant::now);
                self.splitter.finish(at, &mut self.events);
                self.stdout = None;
            }
        }
        if backlog {
            self.write_some();
        }
    }
}
