//! `tarneeb serve DIR` and `tarneeb tournament --serve ADDR`: a read-only web page of a
//! tournament directory, running or finished, on loopback unless told otherwise. `/` is the
//! live page ([`page`]), `/events` pushes its state as server-sent events whenever a game ends
//! or a move is recorded, `/state.json` is that state once, `/entrants/...` each entrant's page
//! and `/games/NNNNNN.html` a finished game's replay page (a game still being played has none:
//! its cards stay on the server until its record ends). The server only reads the directory.

pub mod http;
pub mod live;
pub mod page;
pub mod public;
pub mod seat;
pub mod seat_page;

use std::collections::VecDeque;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use http::{Limits, Request, Server};

use crate::record::verify::replay_file;
use crate::replay::html;
use crate::site::pages;
use crate::tournament::directory::TournamentDir;
use live::Live;

/// How often the directory is looked at.
const TICK: Duration = Duration::from_millis(400);
/// Pages listening to `/events` at once; more get 503 (a tab left open per spectator is fine,
/// a flood is not).
const MAX_LISTENERS: usize = 64;
/// Connections to the live server at once (the listeners among them); more are closed at
/// once. With the web seats' and the bots' this keeps the referee's descriptors well within
/// their limit whatever strangers open.
const MAX_CONNECTIONS: usize = 128;
/// How long an event stream may leave a write untaken before it is dropped: a reader that
/// stops reading frees its thread and descriptor.
const WRITE_TIME: Duration = Duration::from_secs(10);

struct Shared {
    live: Mutex<Live>,
    listeners: Mutex<Vec<SyncSender<Option<String>>>>,
    over: AtomicBool,
    stop: AtomicBool,
    title: String,
    /// The run was played with `--analyze`: a finished game's page shows its double-dummy
    /// analysis too.
    analyze: bool,
    /// Finished games' pages, the latest [`PAGE_CACHE`] asked for: a finished game never
    /// changes, and its analysis costs a few hundred milliseconds of CPU.
    pages: Mutex<VecDeque<(u64, Arc<String>)>>,
    /// The directory holds a league (`league.db`): the page shows its ratings over time.
    league: Option<std::path::PathBuf>,
}

/// Finished games' pages kept in memory.
const PAGE_CACHE: usize = 32;

/// A running server; [`ServeHandle::finish`] pushes the final state, ends every page's stream
/// and stops it.
pub struct ServeHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    server: Server,
    threads: Vec<JoinHandle<()>>,
}

impl ServeHandle {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The run is over: the pages get the last state and are told so, then the server stops.
    pub fn finish(self) {
        self.shared.over.store(true, Ordering::SeqCst);
        tick(&self.shared);
        self.shutdown();
    }

    /// Stops serving (`serve` on Ctrl-C).
    pub fn shutdown(mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for l in self.shared.listeners.lock().expect("listeners").drain(..) {
            let _ = l.try_send(None);
        }
        self.server.stop();
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Whether `addr` is a loopback address; others need the caller's explicit consent.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// Starts serving `dir` on `addr` (port 0: any free port; see [`ServeHandle::addr`]).
pub fn start(dir: &Path, addr: SocketAddr, total: Option<u64>) -> Result<ServeHandle, String> {
    let live = Live::open(dir, total)?;
    let title = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let shared = Arc::new(Shared {
        live: Mutex::new(live),
        listeners: Mutex::new(Vec::new()),
        over: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        title,
        analyze: TournamentDir::open(dir)
            .map(|d| d.config()["analyze"].as_bool().unwrap_or(false))
            .unwrap_or(false),
        pages: Mutex::new(VecDeque::new()),
        league: dir
            .join(crate::league::db::DB_FILE)
            .exists()
            .then(|| dir.to_path_buf()),
    });
    let mut threads = Vec::new();
    {
        let shared = Arc::clone(&shared);
        threads.push(std::thread::spawn(move || {
            while !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(TICK);
                tick(&shared);
            }
        }));
    }
    let limits = Limits {
        connections: MAX_CONNECTIONS,
        write_time: WRITE_TIME,
        ..Limits::default()
    };
    let server = {
        let shared = Arc::clone(&shared);
        Server::start(addr, limits, move |rq| handle(&shared, rq))
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?
    };
    let bound = server.addr();
    Ok(ServeHandle {
        addr: bound,
        shared,
        server,
        threads,
    })
}

/// Looks at the directory and pushes the state to every page when it changed (and always,
/// with an `end` event, once the run is over).
fn tick(shared: &Shared) {
    let over = shared.over.load(Ordering::SeqCst);
    let text = {
        let mut live = shared.live.lock().expect("live");
        if !live.refresh(over) && !over {
            return;
        }
        live.state().to_string()
    };
    let mut event = format!("data: {text}\n\n");
    if over {
        event.push_str("event: end\ndata: over\n\n");
    }
    shared
        .listeners
        .lock()
        .expect("listeners")
        .retain(|l| l.try_send(Some(event.clone())).is_ok());
}

fn respond(rq: Request, status: u16, kind: &str, body: String) {
    rq.respond(
        status,
        &[
            ("Content-Type", kind),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ],
        body.as_bytes(),
    );
}

fn not_found(rq: Request, why: &str) {
    respond(rq, 404, "text/plain; charset=utf-8", format!("{why}\n"));
}

const HTML: &str = "text/html; charset=utf-8";

fn handle(shared: &Arc<Shared>, rq: Request) {
    if !matches!(rq.method.as_str(), "GET" | "HEAD") {
        respond(
            rq,
            405,
            "text/plain; charset=utf-8",
            "read-only: GET only\n".into(),
        );
        return;
    }
    let path = rq.path().to_string();
    match path.as_str() {
        "/" | "/index.html" => respond(
            rq,
            200,
            HTML,
            page::live_page(&shared.title, shared.league.is_some()),
        ),
        "/history.svg" => match &shared.league {
            None => not_found(rq, "not a league: no ratings over time"),
            Some(dir) => match league_plot(dir) {
                Ok(svg) => respond(rq, 200, "image/svg+xml", svg),
                Err(e) => respond(rq, 500, "text/plain; charset=utf-8", format!("{e}\n")),
            },
        },
        "/state.json" => {
            let text = shared.live.lock().expect("live").state().to_string();
            respond(rq, 200, "application/json", text);
        }
        "/events" => events(shared, rq),
        // No icon: an empty answer rather than a 404 in every page's console.
        "/favicon.ico" => rq.respond(204, &[], b""),
        "/games.html" => {
            let live = shared.live.lock().expect("live");
            let body = pages::games(live.rows(), &live.links());
            drop(live);
            respond(rq, 200, HTML, body);
        }
        p if p.starts_with("/entrants/") => {
            let live = shared.live.lock().expect("live");
            let links = live.links();
            let file = &p["/entrants/".len()..];
            let Some(k) = links.entrant_files.iter().position(|f| f == file) else {
                drop(live);
                return not_found(rq, "no such entrant");
            };
            let body = pages::entrant(live.standings(), k, live.rows(), &links);
            drop(live);
            respond(rq, 200, HTML, body);
        }
        p if p.starts_with("/games/") && p.ends_with(".html") => {
            let number = &p["/games/".len()..p.len() - ".html".len()];
            let Ok(game) = number.parse::<u64>() else {
                return not_found(rq, "no such game");
            };
            let record = {
                let live = shared.live.lock().expect("live");
                live.finished(game).map(|r| match live.twin_playing(r) {
                    Some(why) => Err(why),
                    None => Ok(live.dir().join(&r.record)),
                })
            };
            match record {
                None => not_found(
                    rq,
                    &format!("game {game} has not finished: its page appears when it ends"),
                ),
                Some(Err(why)) => not_found(rq, &format!("game {game}: {why}")),
                Some(Ok(path)) => match game_page(shared, game, &path) {
                    Ok(page) => respond(rq, 200, HTML, page.as_str().to_string()),
                    Err(e) => {
                        not_found(rq, &format!("game {game}: its record does not replay: {e}"))
                    }
                },
            }
        }
        _ => not_found(rq, "not found"),
    }
}

/// Points per version in the page's plot: enough for a smooth line at its width.
const PLOT_POINTS: usize = 400;

/// The league's ratings over time, every version that played, as SVG (read from its database
/// at each request: a few milliseconds at a million games).
fn league_plot(dir: &Path) -> Result<String, String> {
    let db = crate::league::db::Db::open(dir, false).map_err(|e| e.to_string())?;
    let series = db.all_histories(PLOT_POINTS).map_err(|e| e.to_string())?;
    Ok(crate::league::plot::svg(&series))
}

/// A finished game's replay page, with its analysis when the run had `--analyze` (a game DDS
/// cannot analyse is shown without it), from the cache when it was asked for lately.
fn game_page(shared: &Shared, game: u64, record: &Path) -> Result<Arc<String>, String> {
    if let Some((_, page)) = shared
        .pages
        .lock()
        .expect("pages")
        .iter()
        .find(|(g, _)| *g == game)
    {
        return Ok(Arc::clone(page));
    }
    let g = replay_file(record).map_err(|e| e.to_string())?;
    let analysis = shared
        .analyze
        .then(|| crate::analysis::analyse_game(&g).ok())
        .flatten();
    let page = Arc::new(html::render_with(&g, analysis.as_ref()));
    let mut pages = shared.pages.lock().expect("pages");
    pages.push_back((game, Arc::clone(&page)));
    if pages.len() > PAGE_CACHE {
        pages.pop_front();
    }
    Ok(page)
}

/// A page's event stream: the state now, then each change; a comment every 15 s keeps idle
/// connections open through proxies.
fn events(shared: &Arc<Shared>, rq: Request) {
    let (tx, rx): (SyncSender<Option<String>>, Receiver<Option<String>>) = mpsc::sync_channel(16);
    {
        let mut listeners = shared.listeners.lock().expect("listeners");
        if listeners.len() >= MAX_LISTENERS {
            drop(listeners);
            return respond(
                rq,
                503,
                "text/plain; charset=utf-8",
                "too many pages open\n".into(),
            );
        }
        listeners.push(tx);
    }
    let first = shared.live.lock().expect("live").state().to_string();
    let over = shared.over.load(Ordering::SeqCst);
    // The connection's own thread streams: its writes time out ([`WRITE_TIME`]), so a page
    // that stops reading is dropped rather than holding the thread for ever.
    {
        let (mut w, _slot) = rq.into_stream();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\nretry: 2000\n\n";
        if w.write_all(head.as_bytes()).is_err()
            || w.write_all(format!("data: {first}\n\n").as_bytes())
                .is_err()
            || w.flush().is_err()
        {
            return;
        }
        if over {
            let _ = w.write_all(b"event: end\ndata: over\n\n");
            let _ = w.flush();
            return;
        }
        loop {
            let chunk = match rx.recv_timeout(Duration::from_secs(15)) {
                Ok(Some(e)) => e,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            };
            if w.write_all(chunk.as_bytes()).is_err() || w.flush().is_err() {
                return;
            }
        }
    }
}

/// `serve`'s directory argument checked: a tournament directory.
pub fn check_dir(dir: &Path) -> Result<PathBuf, String> {
    crate::tournament::directory::TournamentDir::open(dir).map(|_| dir.to_path_buf())
}

#[cfg(test)]
mod twin_tests {
    use super::*;
    use crate::standings::row::GameRow;
    use crate::tournament::directory::RESULTS_FILE;

    fn row_line(game: u64) -> String {
        let mut row = GameRow::sample(game, Some(0), 7, ["a", "b", "a", "b"], Some(0));
        row.record = format!("games/{game:06}.jsonl");
        format!("{}\n", serde_json::to_string(&row).unwrap())
    }

    /// A GET on the live server: the status code and the body.
    fn get(addr: SocketAddr, path: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        write!(
            c,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        c.read_to_string(&mut text).unwrap();
        let code = text[9..12].parse().unwrap();
        (code, text.split_once("\r\n\r\n").unwrap().1.to_string())
    }

    /// Issue 39, failure 6: "the finished duplicate twin's replay page on the live server
    /// showed all 24 unplayed cards of a game still in progress". A game of a pair whose twin
    /// has not ended has no page, no link in the state and none in the games list; once both
    /// have ended both are served.
    #[test]
    fn a_twin_s_page_waits_for_both_games_of_the_pair() {
        let dir = std::env::temp_dir().join(format!("tarneeb-live-twin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tournament.json"), "{}").unwrap();
        let results = dir.join(RESULTS_FILE);
        std::fs::write(&results, row_line(0)).unwrap();
        let handle = start(&dir, "127.0.0.1:0".parse().unwrap(), None).unwrap();
        let addr = handle.addr();
        let (code, body) = get(addr, "/games/000000.html");
        assert_eq!(code, 404, "{body}");
        assert!(body.contains("duplicate twin"), "{body}");
        let (_, state) = get(addr, "/state.json");
        let state: serde_json::Value = serde_json::from_str(&state).unwrap();
        assert_eq!(state["recent"][0]["game"], 0, "{state}");
        assert!(state["recent"][0]["page"].is_null(), "no link: {state}");
        let (_, list) = get(addr, "/games.html");
        assert!(!list.contains("000000.html"), "no link in the list: {list}");
        assert!(list.contains("duplicate twin"), "{list}");
        // The twin ends: both pages are linked (the record here is missing, so the page says
        // that instead; the twin is no longer the reason).
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&results)
            .unwrap();
        std::io::Write::write_all(&mut f, row_line(1).as_bytes()).unwrap();
        let start = std::time::Instant::now();
        let state = loop {
            let (_, state) = get(addr, "/state.json");
            let state: serde_json::Value = serde_json::from_str(&state).unwrap();
            if state["done"] == 2 {
                break state;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(120),
                "{state}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        for r in state["recent"].as_array().unwrap() {
            let page = r["page"].as_str().unwrap_or_else(|| panic!("{state}"));
            assert!(page.starts_with("games/"), "{state}");
        }
        let (code, body) = get(addr, "/games/000000.html");
        assert_eq!(code, 404, "{body}");
        assert!(!body.contains("duplicate twin"), "{body}");
        assert!(body.contains("does not replay"), "{body}");
        handle.shutdown();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
