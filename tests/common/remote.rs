//! Helpers for the remote-entrant tests: a tournament run in the background whose stderr is
//! read as it comes (its token and listening address), relays, and raw sockets. Loopback only.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::command;

/// A `tarneeb` process in the background with its stderr collected.
pub struct Running {
    pub child: Child,
    pub err: Arc<Mutex<String>>,
}

impl Running {
    pub fn start(args: &[String]) -> Running {
        let mut c = command();
        c.args(args);
        Running::spawn(c)
    }

    /// [`Running::start`] of a command made by the caller (its own directory, environment).
    pub fn spawn(mut c: std::process::Command) -> Running {
        let mut child = c
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tarneeb starts");
        let err = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().unwrap();
        let sink = Arc::clone(&err);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Running { child, err }
    }

    pub fn stderr(&self) -> String {
        self.err.lock().unwrap().clone()
    }

    /// The first stderr line holding `pat`, waiting up to `limit` (a bound for a hang, not a
    /// timing assertion).
    pub fn line_with(&mut self, pat: &str, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            let text = self.stderr();
            // Whole lines only: the reader may have caught a line half written, and a partial
            // `serving http://127.0.0.1:4` read as an address failed a test under load.
            let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
            if let Some(l) = whole.lines().find(|l| l.contains(pat)) {
                return l.to_string();
            }
            if start.elapsed() > limit || self.child.try_wait().unwrap().is_some() {
                std::thread::sleep(Duration::from_millis(100));
                panic!("no line with {pat:?} on stderr: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The token printed for `entrant`.
    pub fn token(&mut self, entrant: &str) -> String {
        let line = self.line_with(&format!("token for {entrant}: "), Duration::from_secs(60));
        line.split_whitespace().nth(3).unwrap().to_string()
    }

    /// The address the server listens on.
    pub fn addr(&mut self) -> String {
        let line = self.line_with("listening on ", Duration::from_secs(60));
        line.split("listening on ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    }

    /// Waits for the exit (killing it past `limit`, which fails the test) and returns its
    /// status, stdout and stderr.
    pub fn finish(mut self, limit: Duration) -> (ExitStatus, String, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut out = String::new();
                if let Some(mut o) = self.child.stdout.take() {
                    let _ = o.read_to_string(&mut out);
                }
                std::thread::sleep(Duration::from_millis(100));
                return (status, out, self.stderr());
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("ran past {limit:?}; stderr: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tarneeb connect ADDR --token T --connections N [extra] -- CMD...` in the background;
/// `cmd` is split at whitespace.
pub fn relay(addr: &str, token: &str, connections: usize, extra: &[&str], cmd: &str) -> Running {
    let mut args: Vec<String> = vec![
        "connect".into(),
        addr.into(),
        "--token".into(),
        token.into(),
        "--connections".into(),
        connections.to_string(),
        "--max-backoff-ms".into(),
        "1000".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("--".into());
    args.extend(cmd.split_whitespace().map(str::to_string));
    Running::start(&args)
}

/// A loopback port free now (for a server that must come back on the same port).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// What a raw socket heard before the server closed it (or `limit` passed).
pub fn heard(stream: &mut std::net::TcpStream, limit: Duration) -> String {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut r = BufReader::new(stream);
    let mut line = String::new();
    let _ = r.read_line(&mut line);
    line
}

/// The non-header lines of a record with the reply times taken out: what was dealt and played
/// and how it ended, which two runs of the same deterministic bots must share.
pub fn play_of(record: &Path) -> Vec<serde_json::Value> {
    super::json_lines(record)
        .into_iter()
        .filter(|l| l["type"] != "header")
        .map(|mut l| {
            if let Some(o) = l.as_object_mut() {
                o.remove("ms");
            }
            l
        })
        .collect()
}
