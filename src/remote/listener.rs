//! The server side of remote entrants: accepting connections, the bounded handshake, and the
//! caps that keep any one address or entrant from crowding out the others.
//!
//! Nothing a connection does before it is authenticated costs more than one short-lived
//! thread (at most [`MAX_PENDING`] at once), [`AUTH_LINE_MAX`] bytes, and the handshake
//! timeout; a refused connection gets one `refused` line and nothing more (an unknown token is
//! not told whether the entrant exists). Failed attempts are counted per address: past
//! [`MAX_FAILURES`] in [`FAILURE_WINDOW`], the address is refused at once until the window
//! has passed.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::bot::{Bot, RemoteInfo};
use crate::protocol::PROTOCOL_VERSION;

use super::lobby::Lobby;
use super::tokens::Tokens;
use super::{refusal, Control, AUTH_LINE_MAX};

/// Connections being authenticated at once, over all addresses: a new one past this evicts
/// the oldest.
pub const MAX_PENDING: usize = 64;
/// Connections one address may have authenticating at once: a new one past this evicts that
/// address's oldest, so idle sockets cannot hold the door (issue 39) and a relay that sends
/// its `auth` line at once always gets its turn.
pub const PENDING_PER_ADDRESS: usize = 4;
/// Failed attempts from one address within [`FAILURE_WINDOW`] after which it authenticates one
/// connection at a time. A valid token is never refused or delayed for its address's record.
pub const MAX_FAILURES: usize = 20;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);

/// How the server listens and what it allows.
#[derive(Clone)]
pub struct ListenConfig {
    pub addr: SocketAddr,
    /// TLS, when given a certificate; plain TCP otherwise.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Time for a connection to finish TLS and send its `auth` line.
    pub handshake: Duration,
    /// Authenticated connections from one address.
    pub per_address: usize,
    /// Authenticated connections of one entrant.
    pub per_entrant: usize,
    /// Longest line a remote bot may send (`--max-line`).
    pub max_line: usize,
    /// Added to each remote seat's limits (`--latency-allowance`).
    pub allowance: Duration,
}

/// Counts that outlive a connection's thread: who is connected, who failed, who is still
/// authenticating.
#[derive(Default)]
struct Counts {
    per_address: HashMap<IpAddr, usize>,
    per_entrant: HashMap<usize, usize>,
    failures: HashMap<IpAddr, Vec<Instant>>,
    /// Connections authenticating, oldest first: (id, address, a handle to shut it down).
    pending: std::collections::VecDeque<(u64, IpAddr, TcpStream)>,
    next_id: u64,
}

impl Counts {
    /// Shuts down and forgets the oldest pending connection that `pick` accepts.
    fn evict_oldest(&mut self, pick: impl Fn(IpAddr) -> bool) {
        if let Some(i) = self.pending.iter().position(|(_, ip, _)| pick(*ip)) {
            if let Some((_, _, s)) = self.pending.remove(i) {
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
        }
    }

    /// Whether `id` is still pending (not evicted), forgetting it.
    fn finish(&mut self, id: u64) -> bool {
        match self.pending.iter().position(|(i, _, _)| *i == id) {
            Some(i) => {
                self.pending.remove(i);
                true
            }
            None => false,
        }
    }
}

struct Shared {
    cfg: ListenConfig,
    /// Replaced whole by [`Server::set_tokens`] (a league's entrants come and go).
    tokens: std::sync::RwLock<Tokens>,
    lobby: Arc<Lobby>,
    counts: Mutex<Counts>,
    stop: AtomicBool,
}

/// A connection's place under the caps, freed when it is dropped (with its `Bot`).
struct Place {
    shared: Arc<Shared>,
    ip: IpAddr,
    entrant: Option<usize>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut c = self.shared.counts.lock().unwrap_or_else(|e| e.into_inner());
        // Counted under the address and the entrant only once authenticated.
        if self.entrant.is_some() {
            if let Some(n) = c.per_address.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    c.per_address.remove(&self.ip);
                }
            }
        }
        if let Some(e) = self.entrant {
            if let Some(n) = c.per_entrant.get_mut(&e) {
                *n = n.saturating_sub(1);
            }
        }
    }
}

/// The running server; dropping it (or [`Server::stop`]) stops accepting.
pub struct Server {
    shared: Arc<Shared>,
    local: SocketAddr,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds `cfg.addr` and starts accepting in a thread of its own.
    pub fn start(cfg: ListenConfig, tokens: Tokens, lobby: Arc<Lobby>) -> io::Result<Server> {
        let listener = TcpListener::bind(cfg.addr)?;
        listener.set_nonblocking(true)?;
        let local = listener.local_addr()?;
        let shared = Arc::new(Shared {
            cfg,
            tokens: std::sync::RwLock::new(tokens),
            lobby,
            counts: Mutex::new(Counts::default()),
            stop: AtomicBool::new(false),
        });
        let s = Arc::clone(&shared);
        let accept = std::thread::Builder::new()
            .name("remote-accept".into())
            .spawn(move || accept_loop(listener, s))?;
        Ok(Server {
            shared,
            local,
            accept: Some(accept),
        })
    }

    /// The address actually bound (port 0 picks a free one).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The tokens accepted from now on: a connection that authenticated before keeps its
    /// place; one whose token is gone is refused as `unknown_token` (an entrant retired).
    pub fn set_tokens(&self, tokens: Tokens) {
        *self
            .shared
            .tokens
            .write()
            .unwrap_or_else(|e| e.into_inner()) = tokens;
    }

    /// Stops accepting; connections already admitted stay with the lobby.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, peer)) => admit(stream, peer, &shared),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let mut fds = [libc::pollfd {
                    fd: listener.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                }];
                // SAFETY: one valid pollfd; a 100 ms wait so the stop flag is seen.
                unsafe { libc::poll(fds.as_mut_ptr(), 1, 100) };
            }
            // Out of descriptors and the like: wait a little instead of spinning.
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// Takes every connection to authenticate in a thread of its own, evicting the oldest of its
/// address (or of all) when their slots are full: nothing is refused before its token is read.
fn admit(stream: TcpStream, peer: SocketAddr, shared: &Arc<Shared>) {
    let ip = peer.ip();
    let Ok(handle) = stream.try_clone() else {
        return;
    };
    let id = {
        let mut c = shared.counts.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let failures = c.failures.entry(ip).or_default();
        failures.retain(|t| now.duration_since(*t) < FAILURE_WINDOW);
        let failed = failures.len();
        if failed == 0 {
            c.failures.remove(&ip);
        }
        let slots = if failed >= MAX_FAILURES {
            1
        } else {
            PENDING_PER_ADDRESS
        };
        while c.pending.iter().filter(|(_, p, _)| *p == ip).count() >= slots {
            c.evict_oldest(|p| p == ip);
        }
        while c.pending.len() >= MAX_PENDING {
            c.evict_oldest(|_| true);
        }
        let id = c.next_id;
        c.next_id += 1;
        c.pending.push_back((id, ip, handle));
        id
    };
    let place = Place {
        shared: Arc::clone(shared),
        ip,
        entrant: None,
    };
    let s = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name("remote-handshake".into())
        .spawn(move || {
            handshake(stream, peer, place, id, &s);
            s.counts
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .finish(id);
        });
    if spawned.is_err() {
        shared
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .finish(id);
    }
}

/// Either side of an authenticating connection.
enum Conn {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ServerConnection, TcpStream>>),
}

impl Conn {
    fn tcp(&self) -> &TcpStream {
        match self {
            Conn::Plain(s) => s,
            Conn::Tls(s) => &s.sock,
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            Conn::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// One connection's way in: TLS if the server has a certificate, the `auth` line, a place
/// under the caps, `welcome`, and then the lobby. Every step is bounded by the handshake
/// deadline; a connection turned away before its token was known counts against its address.
fn handshake(stream: TcpStream, peer: SocketAddr, mut place: Place, id: u64, shared: &Arc<Shared>) {
    let deadline = Instant::now() + shared.cfg.handshake;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let mut conn = match open(stream, shared, deadline) {
        Ok(conn) => conn,
        Err(Counted(counts)) => {
            if counts {
                count_failure(shared, id, peer.ip());
            }
            return;
        }
    };
    let (entrant, name) = match authenticate(&mut conn, shared, deadline) {
        Ok(known) => known,
        Err((code, reason)) => {
            count_failure(shared, id, peer.ip());
            refuse(&mut conn, code, reason);
            return;
        }
    };
    if let Err((code, reason)) = take_place(shared, &mut place, peer.ip(), entrant, &name) {
        refuse(&mut conn, code, reason);
        return;
    }
    let welcome = Control::Welcome {
        entrant: name.clone(),
    };
    if conn
        .write_all(&welcome.line())
        .and_then(|()| conn.flush())
        .is_err()
    {
        return;
    }
    // The organiser's log, not the record: records are published (issue 39).
    eprintln!("remote: {name} connected from {peer}");
    let info = RemoteInfo {
        entrant: name,
        peer: peer.to_string(),
        allowance: shared.cfg.allowance,
    };
    if let Ok(bot) = into_bot(conn, info, shared.cfg.max_line, place) {
        shared.lobby.admit(entrant, bot);
    }
}

/// Whether a connection that got no further counts as a failed attempt of its address.
struct Counted(bool);

/// Counts a failed attempt of `ip`, unless connection `id` was evicted for a newer one
/// meanwhile: an evicted connection may be honest (its slot was taken, it did nothing wrong).
fn count_failure(shared: &Shared, id: u64, ip: IpAddr) {
    let evicted = !shared
        .counts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .pending
        .iter()
        .any(|(i, _, _)| *i == id);
    if !evicted {
        failed(shared, ip);
    }
}

/// The connection to read the `auth` line from: plain, or TLS finished within the deadline.
/// A client that is not TLS, refuses the certificate or is too slow is closed without a
/// word (there is no channel to say it on) and counted; a session this server cannot make
/// is its own trouble and not counted against the client.
fn open(stream: TcpStream, shared: &Shared, deadline: Instant) -> Result<Conn, Counted> {
    let Some(config) = &shared.cfg.tls else {
        return Ok(Conn::Plain(stream));
    };
    let Ok(tls) = rustls::ServerConnection::new(Arc::clone(config)) else {
        return Err(Counted(false));
    };
    let mut s = rustls::StreamOwned::new(tls, stream);
    while s.conn.is_handshaking() {
        if set_timeout(&s.sock, deadline).is_err() || s.conn.complete_io(&mut s.sock).is_err() {
            return Err(Counted(true));
        }
    }
    Ok(Conn::Tls(Box::new(s)))
}

/// The entrant (number and name) whose token the connection's first line gives, or the
/// refusal it hears: a line too late or too long, one that is not `auth`, a protocol this
/// server does not speak (it held an authenticating slot like any other failure, issue 39),
/// or a token that is no entrant's (not told whether the entrant exists).
fn authenticate(
    conn: &mut Conn,
    shared: &Shared,
    deadline: Instant,
) -> Result<(usize, String), (&'static str, String)> {
    let line = read_line(conn, deadline).map_err(|reason| (refusal::TIMEOUT, reason))?;
    let token = match serde_json::from_slice::<Control>(&line) {
        Ok(Control::Auth { protocol, token }) if protocol == PROTOCOL_VERSION => token,
        Ok(Control::Auth { protocol, .. }) => {
            let reason = format!("protocol {protocol} is not spoken here: this server speaks protocol {PROTOCOL_VERSION}");
            return Err((refusal::PROTOCOL, reason));
        }
        _ => {
            let reason =
                "expected {\"type\":\"auth\",\"protocol\":1,\"token\":\"...\"} as the first line"
                    .to_string();
            return Err((refusal::NOT_AUTH, reason));
        }
    };
    shared
        .tokens
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .entrant_of(&token)
        .map(|(e, n)| (e, n.to_string()))
        .ok_or((refusal::UNKNOWN_TOKEN, "unknown token".to_string()))
}

/// Counts an authenticated connection under its address and its entrant, or says which cap
/// is full. Checked and counted under one lock so two connections at once cannot both take
/// the last place; a full cap is not a failure (the token was valid).
fn take_place(
    shared: &Shared,
    place: &mut Place,
    ip: IpAddr,
    entrant: usize,
    name: &str,
) -> Result<(), (&'static str, String)> {
    let mut c = shared.counts.lock().unwrap_or_else(|e| e.into_inner());
    if c.per_address.get(&ip).copied().unwrap_or(0) >= shared.cfg.per_address {
        let reason = format!(
            "this address already has {} connections, the most this server allows",
            shared.cfg.per_address
        );
        return Err((refusal::ADDRESS_FULL, reason));
    }
    let n = c.per_entrant.entry(entrant).or_default();
    if *n >= shared.cfg.per_entrant {
        let reason = format!(
            "entrant {name} already has {} connections, the most this server allows (--remote-connections)",
            shared.cfg.per_entrant
        );
        return Err((refusal::ENTRANT_FULL, reason));
    }
    *n += 1;
    *c.per_address.entry(ip).or_default() += 1;
    place.entrant = Some(entrant);
    Ok(())
}

/// The admitted connection as a seat's bot, with no read timeout from now on (a seat waits
/// for its requests as long as the game's limits say). Its place goes with it, so the caps
/// are freed when the bot is dropped.
fn into_bot(conn: Conn, info: RemoteInfo, max_line: usize, place: Place) -> io::Result<Bot> {
    match conn {
        Conn::Plain(s) => {
            let _ = s.set_read_timeout(None);
            Bot::connected(s.into(), info, max_line, Box::new(place))
        }
        // The seat's thread runs the TLS session itself (see `bot::tls_end`).
        Conn::Tls(s) => {
            let (tls, sock) = s.into_parts();
            let _ = sock.set_read_timeout(None);
            Bot::connected_tls(sock.into(), tls, info, max_line, Box::new(place))
        }
    }
}

/// The one line a refused connection hears (best effort: it is closed next).
fn refuse(conn: &mut Conn, code: &str, reason: String) {
    let _ = conn.write_all(&Control::refused(code, reason).line());
    let _ = conn.flush();
}

fn set_timeout(s: &TcpStream, deadline: Instant) -> io::Result<()> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::ErrorKind::TimedOut.into());
    }
    s.set_read_timeout(Some(left))
}

/// The first line, read a byte at a time so nothing after it is taken from the stream, within
/// the deadline and [`AUTH_LINE_MAX`] bytes.
fn read_line(conn: &mut Conn, deadline: Instant) -> Result<Vec<u8>, String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        if set_timeout(conn.tcp(), deadline).is_err() {
            return Err("no auth line within the handshake timeout".into());
        }
        match conn.read(&mut byte) {
            Ok(0) => return Err("closed before the auth line".into()),
            Ok(_) if byte[0] == b'\n' => return Ok(line),
            Ok(_) if line.len() >= AUTH_LINE_MAX => {
                return Err(format!("auth line longer than {AUTH_LINE_MAX} bytes"))
            }
            Ok(_) => line.push(byte[0]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err("no auth line within the handshake timeout".into()),
        }
    }
}

fn failed(shared: &Shared, ip: IpAddr) {
    let mut c = shared.counts.lock().unwrap_or_else(|e| e.into_inner());
    c.failures.entry(ip).or_default().push(Instant::now());
}
