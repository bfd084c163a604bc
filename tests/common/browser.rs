//! Headless Chromium for the page tests: found on PATH or in its usual place, run on one URL
//! with a profile of the test's own, no network (every host name resolves to nothing), and
//! every message a page wrote to its console collected.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::text;

/// Chromium (or Chrome) from PATH or its usual place.
pub fn find_browser() -> Option<PathBuf> {
    let names = ["chromium", "chromium-browser", "google-chrome"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// The browser a test needs: None (the test returns) only when there is none and
/// TARNEEB_SKIP_BROWSER=1; without it, the test fails saying how to install one.
pub fn required_browser() -> Option<PathBuf> {
    match find_browser() {
        Some(p) => Some(p),
        None if std::env::var("TARNEEB_SKIP_BROWSER").as_deref() == Ok("1") => {
            eprintln!("note: no Chromium found and TARNEEB_SKIP_BROWSER=1: browser test skipped");
            None
        }
        None => panic!(
            "this test needs a headless Chromium: install it with `apt-get install -y chromium` \
             (or run `bash .ci/setup`, which does), or set TARNEEB_SKIP_BROWSER=1 to skip it"
        ),
    }
}

/// What one run of the browser gave: its stdout (`--dump-dom`'s page) and the lines the page
/// wrote to its console (messages, errors and uncaught exceptions alike).
pub struct BrowserRun {
    pub stdout: String,
    pub console: Vec<String>,
}

/// Runs headless Chromium on `url` with `extra` arguments (at most 60 s); returns its stdout.
pub fn browser(chromium: &Path, profile: &Path, extra: &[String], url: &str) -> String {
    browse(chromium, profile, extra, url).stdout
}

/// [`browser`], with the console's lines. The network is off: every host name resolves to
/// nothing, so a page that needs one fails to load it.
pub fn browse(chromium: &Path, profile: &Path, extra: &[String], url: &str) -> BrowserRun {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} did not finish in 60 s on {url}", chromium.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let stderr = text(&o.stderr);
    assert!(
        o.status.success(),
        "{} failed on {url}: {stderr}",
        chromium.display(),
    );
    BrowserRun {
        stdout: text(&o.stdout),
        console: stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_string)
            .collect(),
    }
}

/// Whether puppeteer-core is installed in tests/browser: false (the test returns) only when
/// it is not and TARNEEB_SKIP_BROWSER=1; without it, the test fails saying how to install it.
pub fn required_puppeteer() -> bool {
    if super::root()
        .join("tests/browser/node_modules/puppeteer-core")
        .is_dir()
    {
        return true;
    }
    if std::env::var("TARNEEB_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("note: puppeteer-core not installed and TARNEEB_SKIP_BROWSER=1: skipped");
        return false;
    }
    panic!(
        "this test needs puppeteer-core: run `npm ci --prefix tests/browser` (or `bash .ci/setup`), \
         or set TARNEEB_SKIP_BROWSER=1 to skip it"
    );
}

/// Reads a child's stderr on a thread: every `http://...` address it prints (up to the next
/// space) goes to the receiver as soon as its line is written; the thread returns the whole
/// stderr once the child closes it.
pub fn addresses_on_stderr(child: &mut Child) -> (Receiver<String>, JoinHandle<String>) {
    let (tx, rx) = mpsc::channel();
    let err = child.stderr.take().expect("the child's stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let url = line[at..].split_whitespace().next().unwrap_or("");
                let _ = tx.send(url.to_string());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    (rx, reader)
}

/// The four-colour deck's colours (src/replay/deck.rs) as the browser computes them: spades
/// black, hearts red, diamonds blue, clubs green (issue 26: "an optional four-colour deck").
pub const FOUR_COLOURS: [(&str, &str); 4] = [
    ("S", "rgb(17, 17, 17)"),
    ("H", "rgb(200, 16, 46)"),
    ("D", "rgb(31, 95, 209)"),
    ("C", "rgb(23, 128, 61)"),
];

/// Checks one reading of tests/browser/deck-lib.mjs's `deck()`: the toggle is on the page and
/// `on` (checked, and the page coloured so); the cards shown (when `cards`, at least one)
/// are in the four colours when on, and when off in two (no blue diamond or green club).
pub fn assert_deck(d: &Value, on: bool, cards: bool, what: &str) {
    assert_eq!(d["toggle"], true, "{what}: no four-colour toggle: {d}");
    assert_eq!(d["checked"], on, "{what}: the toggle: {d}");
    assert_eq!(d["on"], on, "{what}: the page's deck: {d}");
    let colours = d["colours"].as_object().cloned().unwrap_or_default();
    if cards {
        assert!(!colours.is_empty(), "{what}: no card to look at: {d}");
    }
    for (suit, four) in FOUR_COLOURS {
        let Some(shown) = colours.get(suit) else {
            continue;
        };
        if on {
            assert_eq!(shown, four, "{what}: the colour of {suit}: {d}");
        } else if suit == "D" || suit == "C" {
            assert_ne!(shown, four, "{what}: {suit} in four colours while off: {d}");
        }
    }
}
