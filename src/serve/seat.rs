//! `play --bot web`: a seat a person plays in a browser. It is a protocol bot like any other
//! (the hidden `tarneeb web-seat` command, speaking protocol.md on stdin/stdout, under the same
//! time limits and faults), that serves one page: the seat's hand, the table, the auction and
//! the scores, the legal moves to click or tap, the previous trick and the time left. Only
//! whoever holds the one-time token in the printed address can see the page or move: every
//! request without it gets 403. The page only ever gets what the protocol gave this seat.

use std::io::{BufRead, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::http::{Limits, Request, Server};
use serde_json::{json, Value};

/// What the page shows: the seat's last request (view, legal moves, time), the last messages
/// the seat was told (tricks, hand ends, the game's end), and a version that moves on each.
#[derive(Default)]
struct Table {
    version: u64,
    /// Games started on this seat (a tournament's web seat plays one after another).
    game: u64,
    /// The seat plays a series of games (a tournament): the page goes on after a game's end.
    series: bool,
    /// Games ended on this seat, the last one's end (kept into the next game, whose start a
    /// page may see before it saw that end), and whether the series is over.
    ended: u64,
    last_end: Option<Value>,
    closed: bool,
    seat: Option<u64>,
    request: Option<Value>,
    told: Vec<Value>,
    over: Option<Value>,
    /// This seat's last fault in the game (its `fault` message), shown on the page.
    fault: Option<Value>,
    /// The referee hung up this tournament seat after a fault: it waits for the next game.
    waiting: bool,
    /// The seat's last fault in the series, with its game's number, kept into the next game
    /// (a person back at the page sees why the last game ended).
    last_fault: Option<Value>,
    /// When `request` arrived: the page's clock counts from the seat's deadline, not from
    /// when the page loaded.
    asked: Option<std::time::Instant>,
}

/// A limit this long is none for a person (`play` stands in 30 days for "no limit"): the page
/// says "no limit" instead of a count of seconds.
const NO_LIMIT_FROM_MS: u64 = 24 * 3600 * 1000;

impl Table {
    fn json(&self) -> Value {
        json!({
            "version": self.version,
            "game": self.game,
            "series": self.series,
            "ended": self.ended,
            "last_end": self.last_end,
            "closed": self.closed,
            "seat": self.seat,
            "request": self.request,
            "told": self.told,
            "over": self.over,
            "fault": self.fault,
            "waiting": self.waiting,
            "last_fault": self.last_fault,
            "left_ms": self.left_ms(),
        })
    }

    /// What is left of the request's time now, by the seat's clock; `None` without a request
    /// or without a limit.
    fn left_ms(&self) -> Option<u64> {
        let limit = self.request.as_ref()?["time"]["limit_ms"].as_u64()?;
        if limit >= NO_LIMIT_FROM_MS {
            return None;
        }
        let spent = self.asked?.elapsed().as_millis() as u64;
        Some(limit.saturating_sub(spent))
    }
}

/// What the seat's loop hears: a line from the referee or the end of its input (of the
/// connection numbered so: a tournament's seat gets a new one after a fault), or a move the
/// page chose (the request's id and the move). One channel for both, so a page's move and the
/// referee's next lines are taken in order and neither waits for the other: a seat waiting for
/// its person still hears the referee time it out.
enum Event {
    Line(u64, String),
    End(u64),
    Move(u64, String),
}

/// The referee's side of the seat: lines in, replies out.
pub struct Conn {
    pub input: Box<dyn BufRead + Send>,
    pub output: Box<dyn Write + Send>,
}

/// A tournament seat's next connection after the referee hung up the last one (a fault): made
/// and put in the lobby by the caller; `None` when there is none to be had.
pub type Reconnect = Box<dyn FnMut() -> Option<Conn> + Send>;

/// Reads `input` on a thread of its own into `tx`, as connection `number`.
fn read_lines(input: Box<dyn BufRead + Send>, number: u64, tx: Sender<Event>) {
    let _ = std::thread::Builder::new()
        .name("web-seat-in".into())
        .spawn(move || {
            for line in input.lines() {
                let Ok(line) = line else { break };
                if tx.send(Event::Line(number, line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::End(number));
        });
}

struct Shared {
    table: Mutex<Table>,
    changed: Condvar,
    token: String,
    moves: Sender<Event>,
    /// The newest version a page has been sent.
    served: AtomicU64,
    /// Whether a page has asked for the state (a seat nobody looked at does not wait for one).
    looked: AtomicBool,
    /// Long polls being answered now (see [`dispatch`]).
    polls: AtomicUsize,
}

/// Plays one seat for the person at the page: reads the referee on stdin, answers on stdout.
pub fn run_web_seat(listen: SocketAddr, token: String) -> Result<(), String> {
    let server = bind(listen)?;
    let conn = Conn {
        input: Box::new(std::io::BufReader::new(std::io::stdin())),
        output: Box::new(std::io::stdout()),
    };
    serve(server, token, conn, None)
}

/// The seat's listening socket on `listen` (port 0: any free one; see `local_addr`).
pub fn bind(listen: SocketAddr) -> Result<TcpListener, String> {
    TcpListener::bind(listen).map_err(|e| format!("web seat: cannot listen on {listen}: {e}"))
}

/// Connections to one seat's server at once; more are closed at once. A page holds one (its
/// long poll) and a move a second; strangers without the token get no more than this.
const MAX_CONNECTIONS: usize = 24;

/// The referee's side of a socket pair's end, as a [`Conn`].
pub fn conn_of(end: std::os::unix::net::UnixStream) -> std::io::Result<Conn> {
    let input = end.try_clone()?;
    Ok(Conn {
        input: Box::new(std::io::BufReader::new(input)),
        output: Box::new(end),
    })
}

/// A tournament's web seat: plays game after game through `end` (the other end is the
/// referee's connection to this seat) on a thread of its own, until the tournament is over.
/// When the referee hangs up after a fault (a timeout), the page shows the fault and waits,
/// and the seat takes its next connection from `reconnect`: the person is offered the next
/// game.
pub fn start_series(
    server: TcpListener,
    token: String,
    end: std::os::unix::net::UnixStream,
    reconnect: Reconnect,
) -> Result<std::thread::JoinHandle<()>, String> {
    let conn = conn_of(end).map_err(|e| format!("web seat: {e}"))?;
    std::thread::Builder::new()
        .name("web-seat".into())
        .spawn(move || {
            let _ = serve(server, token, conn, Some(reconnect));
        })
        .map_err(|e| format!("web seat: cannot start its thread: {e}"))
}

/// The seat: the page's server, and the protocol read from `conn` and answered on it; with
/// `reconnect`, a tournament's series of games.
fn serve(
    listener: TcpListener,
    token: String,
    conn: Conn,
    reconnect: Option<Reconnect>,
) -> Result<(), String> {
    let series = reconnect.is_some();
    let (tx, rx): (Sender<Event>, Receiver<Event>) = mpsc::channel();
    let shared = Arc::new(Shared {
        table: Mutex::new(Table {
            series,
            ..Table::default()
        }),
        changed: Condvar::new(),
        token,
        moves: tx.clone(),
        served: AtomicU64::new(0),
        looked: AtomicBool::new(false),
        polls: AtomicUsize::new(0),
    });
    let limits = Limits {
        connections: MAX_CONNECTIONS,
        ..Limits::default()
    };
    let mut server = {
        let shared = Arc::clone(&shared);
        Server::from_listener(listener, limits, move |rq| dispatch(&shared, rq))
            .map_err(|e| format!("web seat: cannot serve: {e}"))?
    };
    read_lines(conn.input, 0, tx);
    let mut relay = Relay {
        shared: Arc::clone(&shared),
        stdout: conn.output,
        number: 0,
        pending: None,
        reconnect,
        series,
    };
    while let Ok(event) = rx.recv() {
        if let Next::Stop = relay.hear(event) {
            break;
        }
    }
    let_the_page_fetch_the_end(&shared);
    server.stop();
    Ok(())
}

/// Whether the seat's loop goes on hearing events.
enum Next {
    Go,
    Stop,
}

/// The seat's side of the protocol: what it tells the referee and the table the page reads.
/// Only the newest connection counts, and only a move for the request the page may answer now,
/// so a page sent twice or lines of a connection already replaced change nothing.
struct Relay {
    shared: Arc<Shared>,
    stdout: Box<dyn Write + Send>,
    /// The connection being read (a tournament's seat gets a new one after a fault).
    number: u64,
    /// The request the page may answer now.
    pending: Option<u64>,
    reconnect: Option<Reconnect>,
    series: bool,
}

impl Relay {
    fn hear(&mut self, event: Event) -> Next {
        match event {
            Event::Move(id, mv) => {
                self.pass_move(id, &mv);
                Next::Go
            }
            Event::Line(n, line) if n == self.number => self.told(&line),
            Event::End(n) if n == self.number => self.hung_up(),
            // Lines of a connection already replaced.
            Event::Line(..) | Event::End(_) => Next::Go,
        }
    }

    /// The page's move goes to the referee only if it answers the request pending now: moves
    /// for another request (an older one, a page sent twice) are dropped, so the seat answers
    /// each request once, with a move the page chose for that request.
    fn pass_move(&mut self, id: u64, mv: &str) {
        if self.pending != Some(id) {
            return;
        }
        self.pending = None;
        update(&self.shared, |t| t.request = None);
        let reply = json!({"type": "move", "id": id, "move": mv});
        // A write that fails is a connection hung up: its end comes next.
        let _ = writeln!(self.stdout, "{reply}").and_then(|()| self.stdout.flush());
    }

    /// The referee closed this connection. A game's seat is done; a tournament's seat that was
    /// hung up before the tournament's `over` faulted (a game keeps a seat that did not), so
    /// the page shows it and waits while the seat takes its next connection.
    fn hung_up(&mut self) -> Next {
        self.pending = None;
        let closed = self.shared.table.lock().expect("table").closed;
        let Some(next) = self.reconnect.as_mut().filter(|_| !closed) else {
            return Next::Stop;
        };
        update(&self.shared, |t| {
            t.request = None;
            t.waiting = true;
        });
        match next() {
            Some(conn) => {
                self.number += 1;
                self.stdout = conn.output;
                read_lines(conn.input, self.number, self.shared.moves.clone());
                Next::Go
            }
            None => Next::Stop,
        }
    }

    /// A line from the referee: what the page shows next. A line that is not JSON (the referee
    /// sends none) is skipped rather than ending the seat.
    fn told(&mut self, line: &str) -> Next {
        let Ok(msg) = serde_json::from_str::<Value>(line) else {
            return Next::Go;
        };
        let kind = msg["type"].as_str().unwrap_or("").to_string();
        match kind.as_str() {
            "hello" | "new_game" => self.new_game(&kind, &msg),
            "request" => {
                // A new request replaces one the page did not answer in time.
                self.pending = msg["id"].as_u64();
                update(&self.shared, |t| {
                    t.request = Some(msg.clone());
                    t.asked = Some(std::time::Instant::now());
                });
            }
            "game_end" => {
                self.pending = None;
                update(&self.shared, |t| {
                    t.request = None;
                    t.over = Some(msg.clone());
                    t.ended += 1;
                    t.last_end = Some(msg.clone());
                })
            }
            // The tournament is over (protocol.md section 9): nothing more will come.
            "over" if self.series => {
                update(&self.shared, |t| t.closed = true);
                return Next::Stop;
            }
            _ => self.note(&kind, &msg),
        }
        Next::Go
    }

    /// A game starts: the table starts afresh but for what the page of a series still shows
    /// across games (the count of games, the last game's end and this seat's last fault).
    fn new_game(&mut self, kind: &str, msg: &Value) {
        self.pending = None;
        update(&self.shared, |t| {
            *t = Table {
                version: t.version,
                game: t.game + 1,
                series: t.series,
                ended: t.ended,
                last_end: t.last_end.take(),
                last_fault: t.last_fault.take(),
                seat: msg["seat"].as_u64(),
                ..Table::default()
            }
        });
        // A tournament's seat is greeted with `hello` at each game (it never declares
        // `multi_game`), so it answers each one.
        if kind == "hello" {
            let _ = writeln!(
                self.stdout,
                r#"{{"type":"hello","name":"web","version":"1"}}"#
            );
            let _ = self.stdout.flush();
        }
    }

    /// Any other message is shown among the last ones told. This seat's own fault (a timeout)
    /// also takes its request away, since the referee no longer waits for that answer.
    fn note(&mut self, kind: &str, msg: &Value) {
        let pending = &mut self.pending;
        update(&self.shared, |t| {
            if kind == "fault" && msg["seat"].as_u64() == t.seat {
                t.fault = Some(msg.clone());
                let mut last = msg.clone();
                last["game"] = json!(t.game);
                t.last_fault = Some(last);
                t.request = None;
                *pending = None;
            }
            t.told.push(msg.clone());
            // The page shows the latest; a game's whole story is in its record.
            if t.told.len() > 40 {
                t.told.remove(0);
            }
        })
    }
}

/// After the referee closed our input: lets the page fetch the end, for up to [`END_WAIT`]
/// (`play` gives a game with a web seat the time to exit, see its grace). A browser on a
/// loaded machine can take most of a second to ask again after its last move; the page then
/// showed "the seat is gone" instead of the game's result. A seat whose page never asked has
/// no one to wait for. (A tournament's page waits as long for the tournament's end.)
/// Once a page has it, other tabs of the seat get [`TABS_WAIT`] more to ask (a tab between
/// two polls when the end came showed "the seat is gone" instead of the result).
fn let_the_page_fetch_the_end(shared: &Shared) {
    let last = shared.table.lock().expect("table").version;
    let until = std::time::Instant::now() + END_WAIT;
    let mut had = None;
    loop {
        let served = shared.served.load(Ordering::SeqCst);
        let looked = shared.looked.load(Ordering::SeqCst);
        let now = std::time::Instant::now();
        if served >= last {
            had.get_or_insert(now);
        }
        let others_asked = had.is_some_and(|at| now >= at + TABS_WAIT);
        if others_asked || !looked || now >= until {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long a seat of one game waits, after its input closed, for its page to fetch the
/// game's end. `play` gives a game with a web seat a grace longer than twice this (the
/// first half of a grace is the time to exit before SIGTERM).
pub const END_WAIT: Duration = Duration::from_secs(3);

/// How long after a page got the game's end the seat goes on serving it to the seat's other
/// tabs (within [`END_WAIT`]).
const TABS_WAIT: Duration = Duration::from_millis(1500);

fn update(shared: &Shared, f: impl FnOnce(&mut Table)) {
    let mut t = shared.table.lock().expect("table");
    f(&mut t);
    t.version += 1;
    shared.changed.notify_all();
}

/// Long polls answered at once; more get 503 with `Retry-After` (a page holds one). A poll
/// whose page was reloaded or closed is let go within [`GONE_CHECK`] of its browser hanging
/// up, so reloads never fill this; the page asks again after a 503 (with backoff) and keeps
/// its move buttons meanwhile. It stays as the bound on tabs held open at once.
const MAX_POLLS: usize = 8;

/// How often a waiting long poll looks whether its page is still there.
const GONE_CHECK: Duration = Duration::from_millis(200);

/// How long a long poll waits for a change before it answers with none.
const POLL_WAIT: Duration = Duration::from_secs(20);

/// Hands a request to [`handle`]: a long poll of `/state` (it may wait 20 s for a change) on
/// a thread of its own, so a move posted meanwhile is taken at once, and everything else
/// here. One thread for all would hold the page's move behind its own pending poll until
/// that poll timed out: 20 s a move with the page showing nothing to play meanwhile, past
/// 400's ten-second rule and any `--move-timeout` under 20 s.
fn dispatch(shared: &Arc<Shared>, rq: Request) {
    if !(rq.method == "GET" && rq.path() == "/state" && has_token(&rq.url, &shared.token)) {
        return handle(shared, rq);
    }
    if shared.polls.fetch_add(1, Ordering::SeqCst) >= MAX_POLLS {
        shared.polls.fetch_sub(1, Ordering::SeqCst);
        return rq.respond(
            503,
            &[
                ("Content-Type", "text/plain"),
                ("Cache-Control", "no-store"),
                ("Referrer-Policy", "no-referrer"),
                ("Retry-After", "1"),
            ],
            b"too many pages are open on this seat: close the others\n",
        );
    }
    handle(shared, rq);
    shared.polls.fetch_sub(1, Ordering::SeqCst);
}

fn respond(rq: Request, status: u16, kind: &str, body: String) {
    rq.respond(
        status,
        &[
            ("Content-Type", kind),
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
        ],
        body.as_bytes(),
    );
}

/// The token of a request's query string, compared in constant time.
fn has_token(url: &str, token: &str) -> bool {
    let given = url
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .unwrap_or("");
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

fn handle(shared: &Arc<Shared>, rq: Request) {
    let url = rq.url.clone();
    let path = url.split('?').next().unwrap_or("/");
    if path == "/favicon.ico" {
        return rq.respond(204, &[], b"");
    }
    if !has_token(&url, &shared.token) {
        return respond(
            rq,
            403,
            "text/plain",
            "this seat needs its token: open the address tarneeb printed\n".into(),
        );
    }
    match (rq.method.as_str(), path) {
        ("GET", "/") => respond(
            rq,
            200,
            "text/html; charset=utf-8",
            super::seat_page::PAGE
                .replace("{{STYLE}}", &crate::site::pages::style())
                .replace("{{DECK}}", crate::replay::deck::TOGGLE),
        ),
        ("GET", "/state") => {
            // Long poll: answers at once when the page is behind, else when something changes
            // (or after 20 s), so a page asks about once per move, not in a loop.
            let seen: u64 = url
                .split('&')
                .find_map(|kv| {
                    kv.rsplit('?')
                        .next()
                        .and_then(|kv| kv.strip_prefix("since="))
                })
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            // It waits in slices, and a poll whose page hung up (a reload, a closed tab) is
            // dropped then: it no longer holds one of the [`MAX_POLLS`] slots for 20 s (the
            // ninth reload within 20 s was refused, and its page stopped for good).
            let until = std::time::Instant::now() + POLL_WAIT;
            let t = loop {
                let t = shared.table.lock().expect("table");
                let left = until.saturating_duration_since(std::time::Instant::now());
                let (t, _) = shared
                    .changed
                    .wait_timeout_while(t, left.min(GONE_CHECK), |t| t.version <= seen)
                    .expect("table");
                if t.version > seen || left <= GONE_CHECK {
                    break t;
                }
                drop(t);
                if rq.client_gone() {
                    return;
                }
            };
            let body = t.json().to_string();
            let version = t.version;
            drop(t);
            // A page is looking, known before the answer leaves (the seat then waits for it at
            // the end of `serve`); the version is counted as served once it is sent (the seat
            // may exit then).
            shared.looked.store(true, Ordering::SeqCst);
            respond(rq, 200, "application/json", body);
            shared.served.fetch_max(version, Ordering::SeqCst);
        }
        ("POST", "/move") => {
            let Ok(body) = String::from_utf8(rq.body.clone()) else {
                return respond(rq, 400, "text/plain", "the body is not UTF-8\n".into());
            };
            let Ok(v) = serde_json::from_str::<Value>(&body) else {
                return respond(
                    rq,
                    400,
                    "text/plain",
                    "send {\"id\": N, \"move\": \"...\"}\n".into(),
                );
            };
            let (Some(id), Some(mv)) = (v["id"].as_u64(), v["move"].as_str()) else {
                return respond(
                    rq,
                    400,
                    "text/plain",
                    "send {\"id\": N, \"move\": \"...\"}\n".into(),
                );
            };
            let legal = {
                let t = shared.table.lock().expect("table");
                t.request.as_ref().is_some_and(|r| {
                    r["id"].as_u64() == Some(id)
                        && r["legal"]
                            .as_array()
                            .is_some_and(|l| l.iter().any(|m| m == mv))
                })
            };
            if !legal {
                return respond(
                    rq,
                    409,
                    "text/plain",
                    format!("{mv} is not a legal move for request {id} now\n"),
                );
            }
            let _ = shared.moves.send(Event::Move(id, mv.to_string()));
            respond(rq, 200, "text/plain", "ok\n".into());
        }
        _ => respond(rq, 404, "text/plain", "not found\n".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_required_exactly() {
        assert!(has_token("/?token=abc", "abc"));
        assert!(has_token("/state?since=3&token=abc", "abc"));
        assert!(!has_token("/?token=abd", "abc"));
        assert!(!has_token("/?token=ab", "abc"));
        assert!(!has_token("/", "abc"));
        assert!(!has_token("/?tok=abc", "abc"));
    }
}
