//! `tarneeb connect`: the participant's side of a remote entrant. It runs the bot's command
//! on this machine (no sandbox: it is the owner's own machine) and carries its lines to and
//! from the server unchanged, one bot process per connection.
//!
//! The relay reads the server's lines only enough to see where games start and end: a `hello`
//! starts the bot afresh (a bot that did not declare `multi_game` gets a fresh process per
//! game, as locally), `over` ends the relay. What the bot writes goes to the server as it is.
//! A dropped connection is made again with a growing pause; a refusal that retrying cannot
//! mend (an unknown token) ends the relay with its reason.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{line_type, tls, Control, AUTH_LINE_MAX};
use crate::protocol::PROTOCOL_VERSION;

/// What `tarneeb connect` was told.
#[derive(Clone)]
pub struct RelayConfig {
    /// HOST:PORT of the server.
    pub addr: String,
    pub token: String,
    /// Connections (bot processes) at once.
    pub connections: usize,
    pub command: Vec<String>,
    /// TLS: the configuration and the name the certificate must carry.
    pub tls: Option<(Arc<rustls::ClientConfig>, String)>,
    /// Longest pause between attempts to connect.
    pub max_backoff: Duration,
    /// Handshakes in a row the bot may fail (it exits, or the connection ends, before it
    /// wrote a line after `hello`) before the relay gives up: a bot that cannot start would
    /// otherwise lose every game of the tournament as a handshake forfeit.
    pub handshake_failures: usize,
    /// How long the relay goes on trying a server it cannot resolve or connect to (since it
    /// last reached it, or since it started) before it gives up.
    pub give_up_after: Duration,
}

/// What the relay's connections share: how it ends, the bot's handshakes failed in a row,
/// when the server was last reached.
struct Shared {
    over: AtomicBool,
    fatal: Mutex<Option<String>>,
    /// Set with `fatal`: connections carrying a game stop too.
    given_up: AtomicBool,
    failed_handshakes: AtomicUsize,
    reached: Mutex<Instant>,
}

impl Shared {
    fn give_up(&self, reason: String) {
        let mut f = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
        f.get_or_insert(reason);
        self.given_up.store(true, Ordering::SeqCst);
    }

    fn reached_now(&self) {
        *self.reached.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
}

/// How the relay ended.
#[derive(Debug, PartialEq, Eq)]
pub enum RelayEnd {
    /// The server said the tournament is over.
    Over,
    /// The server refused in a way retrying cannot mend.
    Refused(String),
    /// Interrupted (Ctrl-C).
    Stopped,
}

enum Session {
    Over,
    /// The connection ended; `welcomed` if it had been accepted (the pause starts again small).
    Dropped {
        welcomed: bool,
        why: String,
    },
    /// The server could not be resolved or connected to.
    Unreachable(String),
    Fatal(String),
}

/// Runs the relay until the server says it is over, refuses for good, or `stop` is set.
pub fn run(cfg: &RelayConfig, stop: &AtomicBool) -> RelayEnd {
    let shared = Shared {
        over: AtomicBool::new(false),
        fatal: Mutex::new(None),
        given_up: AtomicBool::new(false),
        failed_handshakes: AtomicUsize::new(0),
        reached: Mutex::new(Instant::now()),
    };
    std::thread::scope(|scope| {
        for n in 0..cfg.connections.max(1) {
            let shared = &shared;
            scope.spawn(move || connection_loop(cfg, n, stop, shared));
        }
    });
    if let Some(reason) = shared.fatal.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return RelayEnd::Refused(reason);
    }
    if shared.over.load(Ordering::SeqCst) {
        RelayEnd::Over
    } else {
        RelayEnd::Stopped
    }
}

fn connection_loop(cfg: &RelayConfig, n: usize, stop: &AtomicBool, shared: &Shared) {
    let first = Duration::from_millis(500);
    let mut pause = first;
    let done = || {
        stop.load(Ordering::SeqCst)
            || shared.over.load(Ordering::SeqCst)
            || shared.given_up.load(Ordering::SeqCst)
    };
    while !done() {
        match session(cfg, stop, shared) {
            Session::Over => {
                shared.over.store(true, Ordering::SeqCst);
                eprintln!("relay {n}: the server has no more games for it (the tournament or game is over)");
                return;
            }
            Session::Fatal(reason) => {
                // Said once, by `tarneeb connect` as it exits.
                shared.give_up(reason);
                return;
            }
            Session::Unreachable(why) => {
                let since = shared
                    .reached
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .elapsed();
                if since >= cfg.give_up_after {
                    shared.give_up(format!(
                        "{why}, and it has not been reached for {} s (--give-up-after {} s): check the address with the organiser",
                        since.as_secs(),
                        cfg.give_up_after.as_secs()
                    ));
                    return;
                }
                if !done() {
                    eprintln!(
                        "relay {n}: {why}; connecting again in {} ms",
                        pause.as_millis()
                    );
                }
            }
            Session::Dropped { welcomed, why } => {
                if welcomed {
                    pause = first;
                }
                if !done() {
                    eprintln!(
                        "relay {n}: {why}; connecting again in {} ms",
                        pause.as_millis()
                    );
                }
            }
        }
        let until = Instant::now() + pause;
        while Instant::now() < until && !done() {
            std::thread::sleep(Duration::from_millis(50));
        }
        pause = (pause * 2).min(cfg.max_backoff.max(first));
    }
}

/// What the relay says when the TLS handshake fails on the server's certificate: rustls's
/// reason and what mends it. A self-signed certificate made with `openssl req -x509` is a CA
/// certificate unless told otherwise (basicConstraints CA:TRUE), and TLS clients refuse a CA
/// certificate as a server's own ("CaUsedAsEndEntity"), even when it is the `--ca` given.
fn untrusted_certificate(text: &str) -> String {
    let fix = if text.contains("CaUsedAsEndEntity") {
        "the server's certificate is a CA certificate (basicConstraints CA:TRUE, what `openssl req -x509` makes unless told otherwise), which TLS refuses as a server's own: the organiser must make it again with `-addext basicConstraints=critical,CA:FALSE` (docs/competitions.md, \"Contest with remote bots\")"
    } else {
        "give the server's certificate or its CA with --ca FILE, and --server-name if the certificate names another host"
    };
    format!("this relay does not trust the server's TLS certificate: {text} ({fix})")
}

/// Connects, authenticates, and carries one connection's traffic until it ends.
fn session(cfg: &RelayConfig, stop: &AtomicBool, shared: &Shared) -> Session {
    let dropped = |why: String| Session::Dropped {
        welcomed: false,
        why,
    };
    let addr = match cfg.addr.to_socket_addrs().map(|mut a| a.next()) {
        Ok(Some(a)) => a,
        Ok(None) => return Session::Unreachable(format!("cannot resolve {}", cfg.addr)),
        Err(e) => return Session::Unreachable(format!("cannot resolve {}: {e}", cfg.addr)),
    };
    let tcp = match TcpStream::connect_timeout(&addr, Duration::from_secs(10)) {
        Ok(s) => s,
        Err(e) => return Session::Unreachable(format!("cannot connect to {}: {e}", cfg.addr)),
    };
    // A server that takes connections is reached, whatever it answers.
    shared.reached_now();
    let _ = tcp.set_nodelay(true);
    let _ = tcp.set_read_timeout(Some(Duration::from_secs(30)));
    let socket: OwnedFd = match &cfg.tls {
        None => tcp.into(),
        Some((config, name)) => {
            let mut conn = match tls::client(config, name) {
                Ok(c) => c,
                Err(e) => return Session::Fatal(e),
            };
            let mut tcp = tcp;
            while conn.is_handshaking() {
                if let Err(e) = conn.complete_io(&mut tcp) {
                    // A certificate this relay does not trust is not mended by retrying.
                    let text = e.to_string();
                    if text.contains("certificate") {
                        return Session::Fatal(untrusted_certificate(&text));
                    }
                    return dropped(format!("TLS handshake with {} failed: {text}", cfg.addr));
                }
            }
            match tls::bridge(rustls::Connection::Client(conn), tcp) {
                Ok(end) => {
                    // The answer to the token must come within the server's handshake time.
                    let _ = end.set_read_timeout(Some(Duration::from_secs(30)));
                    end.into()
                }
                Err(e) => return dropped(format!("cannot bridge TLS: {e}")),
            }
        }
    };
    let mut server = std::fs::File::from(socket);
    let auth = Control::Auth {
        protocol: PROTOCOL_VERSION,
        token: cfg.token.clone(),
    };
    if let Err(e) = server.write_all(&auth.line()) {
        return dropped(format!("cannot send the token: {e}"));
    }
    let reply = match read_first_line(&mut server) {
        Ok(l) => l,
        Err(e) => return dropped(format!("no answer to the token: {e}")),
    };
    match serde_json::from_slice::<Control>(&reply) {
        Ok(Control::Welcome { entrant }) => {
            eprintln!("relay: connected to {} as {entrant}", cfg.addr);
        }
        // Decided on the code, never on the text: an entrant called `tokenizer` once gave up
        // on a per-entrant cap whose reason named it (issue 39).
        Ok(Control::Refused { code, reason }) if super::refusal::is_final(&code) => {
            return Session::Fatal(format!("the server refused ({code}): {reason}"))
        }
        Ok(Control::Refused { code, reason }) => {
            return dropped(format!("the server refused ({code}): {reason}"))
        }
        Ok(Control::Over) => return Session::Over,
        _ => {
            return dropped(format!(
                "unexpected answer to the token: {}",
                String::from_utf8_lossy(&reply[..reply.len().min(200)])
            ))
        }
    }
    match carry(cfg, server, stop, shared) {
        Ok(Carried::Over) => Session::Over,
        Ok(Carried::BotFailed(why)) => Session::Fatal(why),
        Ok(Carried::Closed(why)) | Err(why) => Session::Dropped {
            welcomed: true,
            why,
        },
    }
}

fn read_first_line(s: &mut std::fs::File) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() <= AUTH_LINE_MAX {
        match s.read(&mut byte)? {
            0 => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the server closed the connection",
                ))
            }
            _ if byte[0] == b'\n' => return Ok(line),
            _ => line.push(byte[0]),
        }
    }
    Err(io::Error::other("the answer is too long"))
}

enum Carried {
    Over,
    Closed(String),
    /// The bot failed its handshake [`RelayConfig::handshake_failures`] times in a row.
    BotFailed(String),
}

/// The local bot of one connection.
struct LocalBot {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
}

impl LocalBot {
    fn start(command: &[String]) -> Result<LocalBot, String> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // The entrant's token is the relay's, never its bot's (issue 39: "the relay
            // passes `TARNEEB_TOKEN` to its bot").
            .env_remove("TARNEEB_TOKEN")
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", command.join(" ")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        Ok(LocalBot {
            child,
            stdin,
            stdout,
        })
    }

    /// Closes its input, gives it half a second to exit, then ends its whole group.
    fn stop(mut self) {
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: signals the bot's own process group (it leads it).
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

/// Moves lines between the server and the local bot until the connection or the game ends.
/// A handshake of the bot failed (`unanswered`: it had not written a byte since `hello`):
/// counted, and the relay's end once there were `--handshake-failures` in a row.
fn handshake_failed(cfg: &RelayConfig, shared: &Shared, unanswered: &mut bool) -> Option<Carried> {
    if !std::mem::take(unanswered) {
        return None;
    }
    let in_a_row = shared.failed_handshakes.fetch_add(1, Ordering::SeqCst) + 1;
    (in_a_row >= cfg.handshake_failures).then(|| {
        Carried::BotFailed(format!(
            "the bot failed its handshake {in_a_row} times in a row (it exited or did not answer `hello`): check that `{}` runs and answers (`tarneeb check-bot` shows why)",
            cfg.command.join(" ")
        ))
    })
}

/// What the relay waits on: the server, and the bot's stdout while there is a bot.
fn poll_fds(server: &std::fs::File, bot: Option<&LocalBot>) -> Vec<libc::pollfd> {
    let mut fds = vec![libc::pollfd {
        fd: server.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    }];
    if let Some(b) = bot {
        fds.push(libc::pollfd {
            fd: b.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        });
    }
    fds
}

fn carry(
    cfg: &RelayConfig,
    mut server: std::fs::File,
    stop: &AtomicBool,
    shared: &Shared,
) -> Result<Carried, String> {
    let over = &shared.over;
    let mut bot: Option<LocalBot> = None;
    let mut in_game = false;
    // A bot started for a `hello` that has not written a byte yet: if it exits, or the
    // connection ends, before it does, its handshake failed.
    let mut unanswered = false;
    let failed = |unanswered: &mut bool| handshake_failed(cfg, shared, unanswered);
    let mut from_server: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let result = loop {
        if stop.load(Ordering::SeqCst) || shared.given_up.load(Ordering::SeqCst) {
            unanswered = false;
            break Ok(Carried::Closed("interrupted".into()));
        }
        if over.load(Ordering::SeqCst) && !in_game {
            break Ok(Carried::Over);
        }
        let mut fds = poll_fds(&server, bot.as_ref());
        // SAFETY: valid pollfds; 200 ms so the stop flag is seen.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 200) };
        if r <= 0 {
            continue;
        }
        let bad = libc::POLLIN | libc::POLLERR | libc::POLLHUP;
        if fds.len() > 1 && fds[1].revents & bad != 0 {
            let b = bot.as_mut().expect("polled");
            match b.stdout.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let b = bot.take().expect("polled");
                    b.stop();
                    if let Some(end) = failed(&mut unanswered) {
                        break Ok(end);
                    }
                    if in_game {
                        // The server sees the connection end: a fault of this seat's game.
                        break Ok(Carried::Closed("the bot exited during a game".into()));
                    }
                }
                Ok(n) => {
                    if std::mem::take(&mut unanswered) {
                        shared.failed_handshakes.store(0, Ordering::SeqCst);
                    }
                    if let Err(e) = server.write_all(&buf[..n]) {
                        break Err(format!("lost the server: {e}"));
                    }
                }
            }
        }
        if fds[0].revents & bad != 0 {
            let n = match server.read(&mut buf) {
                Ok(0) => break Ok(Carried::Closed("the server closed the connection".into())),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(format!("lost the server: {e}")),
            };
            from_server.extend_from_slice(&buf[..n]);
            while let Some(end) = from_server.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = from_server.drain(..=end).collect();
                match line_type(&line) {
                    Some("over") => {
                        if let Some(b) = bot.take() {
                            b.stop();
                        }
                        return Ok(Carried::Over);
                    }
                    Some("hello") => {
                        // A new game for a bot that is started afresh for each one.
                        if let Some(b) = bot.take() {
                            b.stop();
                        }
                        // A bot that cannot start fails its handshake too.
                        unanswered = true;
                        match LocalBot::start(&cfg.command) {
                            Ok(b) => bot = Some(b),
                            Err(e) => {
                                return Ok(failed(&mut unanswered).unwrap_or(Carried::Closed(e)))
                            }
                        }
                        in_game = true;
                    }
                    Some("new_game") => in_game = true,
                    Some("game_end") => in_game = false,
                    _ => {}
                }
                if let Some(stdin) = bot.as_mut().and_then(|b| b.stdin.as_mut()) {
                    // A bot that stopped reading shows as its exit or as a timeout.
                    let _ = stdin.write_all(&line).and_then(|()| stdin.flush());
                }
            }
            if from_server.len() > 64 * 1024 * 1024 {
                break Err("a line from the server longer than 64 MiB".into());
            }
        }
    };
    if let Some(b) = bot.take() {
        b.stop();
    }
    // The connection ended while the bot had not answered its `hello` (the server's handshake
    // timeout).
    if let Some(end) = failed(&mut unanswered) {
        return Ok(end);
    }
    result
}
