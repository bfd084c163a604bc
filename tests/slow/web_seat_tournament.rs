//! Issue 26 item 2: "a web seat in tournaments". `tournament --bot me=web` prints an address
//! per seat of the entrant; Chromium (tests/browser/series.mjs) plays both seats of the
//! partnership through two games on the same pages, and every click is the record's move, no
//! fault; duplicate deals are refused for a person (who remembers the cards).

use crate::common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::browser::{addresses_on_stderr, required_browser, required_puppeteer};
use common::{
    command, json_lines, python_bot, root, tarneeb, wait_with_limit, Scratch, RANDOM_BOT,
};
use serde_json::Value;

#[test]
fn people_play_a_tournament_s_web_seats_game_after_game() {
    let Some(chromium) = required_browser() else {
        return;
    };
    if !required_puppeteer() {
        return;
    }
    let s = Scratch::new("web-tournament");
    let out = s.path("t");
    let rules = s.file("rules.json", r#"{"preset": "classic", "max-hands": 1}"#);
    let bot = python_bot(RANDOM_BOT, &[]);
    let mut child = command()
        .args([
            "tournament",
            "--bot",
            "me=web",
            "--bot",
            &format!("rnd={bot}"),
            "--rules",
            rules.to_str().unwrap(),
            "--games",
            "2",
            "--no-duplicate",
            "--jobs",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (rx, reader) = addresses_on_stderr(&mut child);
    let urls: Vec<String> = (0..2)
        .map(|_| {
            rx.recv_timeout(Duration::from_secs(60))
                .expect("a seat's address")
        })
        .collect();
    assert_ne!(urls[0], urls[1]);
    let drivers: Vec<_> = urls
        .iter()
        .enumerate()
        .map(|(k, url)| {
            let file = s.path(&format!("seat{k}.json"));
            let node = Command::new("node")
                .arg(root().join("tests/browser/series.mjs"))
                .arg(url)
                .arg(&file)
                .arg(&chromium)
                .arg("2")
                .current_dir(root().join("tests/browser"))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("node runs");
            (node, file)
        })
        .collect();
    let mut pages = Vec::new();
    for (node, file) in drivers {
        let d = wait_with_limit(node, Duration::from_secs(600));
        let v: Value = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null);
        if !d.status.success() || v["errors"] != serde_json::json!([]) {
            let _ = child.kill();
            panic!(
                "the driver failed: {} {}",
                v,
                String::from_utf8_lossy(&d.stderr)
            );
        }
        assert_eq!(v["console"], serde_json::json!([]), "the page's console");
        pages.push(v);
    }
    let o = wait_with_limit(child, Duration::from_secs(300));
    let err = reader.join().unwrap();
    assert!(o.status.success(), "{err}");
    let rows = json_lines(&out.join("results.jsonl"));
    assert_eq!(rows.len(), 2);
    // Both pages saw both games to their end, and every click is a move of the web seats.
    let mut clicked: Vec<String> = Vec::new();
    for p in &pages {
        assert_eq!(p["ended"], 2, "{p}");
        let games = p["clicks"].as_object().unwrap();
        assert_eq!(games.len(), 2, "a page played in both games: {p}");
        for clicks in games.values() {
            clicked.extend(
                clicks
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string()),
            );
        }
    }
    let mut recorded: Vec<String> = Vec::new();
    for row in &rows {
        assert!(row["forfeit_kind"].is_null(), "{row}");
        let lines = json_lines(&out.join(row["record"].as_str().unwrap()));
        let web_seats: Vec<u64> = lines[0]["bots"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["command"] == serde_json::json!(["web"]))
            .map(|b| b["seat"].as_u64().unwrap())
            .collect();
        assert_eq!(web_seats.len(), 2, "{}", lines[0]);
        for l in &lines {
            if l["type"] == "move" && web_seats.contains(&l["seat"].as_u64().unwrap()) {
                assert!(l["substituted"].is_null(), "{l}");
                recorded.push(l["move"].as_str().unwrap().to_string());
            }
        }
    }
    clicked.sort();
    recorded.sort();
    assert_eq!(clicked, recorded, "the clicks are the web seats' moves");

    // A person remembers the cards: no duplicate deals with a web entrant.
    let o = tarneeb(&[
        "tournament",
        "--bot",
        "me=web",
        "--bot",
        &format!("rnd={bot}"),
        "--out",
        s.path("dup").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("--no-duplicate"),
        "{}",
        common::stderr(&o)
    );
}

/// The body of a GET of `url` (http://host:port/path?query), `None` when the seat is gone.
fn get(url: &str) -> Option<String> {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://")?;
    let (host, path) = rest.split_at(rest.find('/')?);
    let mut c = std::net::TcpStream::connect(host).ok()?;
    c.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    c.read_to_string(&mut text).ok()?;
    text.split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
}

/// Issue 39, failure 3: "a tournament web seat that times out once is stopped (only seats that
/// did not fault are kept) and the run waits forever for it, while its page offers a stale
/// move". Nobody plays the pages here: a web seat times out in game 1 (a forfeit), its page
/// shows the fault and waits, the seat is offered game 2 (and times out again), and the run
/// finishes with two `timeout` forfeits.
#[test]
fn a_web_seat_that_timed_out_is_offered_the_next_game() {
    let s = Scratch::new("web-timeout");
    let out = s.path("t");
    let rules = s.file("rules.json", r#"{"preset": "classic", "max-hands": 1}"#);
    let bot = python_bot(RANDOM_BOT, &[]);
    let mut child = command()
        .args([
            "tournament",
            "--bot",
            "me=web",
            "--bot",
            &format!("rnd={bot}"),
            "--rules",
            rules.to_str().unwrap(),
            "--games",
            "2",
            "--no-duplicate",
            "--jobs",
            "1",
            // Long enough for the random bot under load, short for a page nobody plays.
            "--move-timeout",
            "5s",
            "--absent-timeout",
            "10m",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (rx, reader) = addresses_on_stderr(&mut child);
    let urls: Vec<String> = (0..2)
        .map(|_| {
            rx.recv_timeout(Duration::from_secs(60))
                .expect("a seat's address")
        })
        .collect();
    // What the pages show while the tournament runs: every state a page could fetch.
    let states: Vec<String> = urls
        .iter()
        .map(|u| u.replacen("/?token=", "/state?since=0&token=", 1))
        .collect();
    // Each page followed by long polls, as a page does: every state it is given, in order.
    let followers: Vec<_> = states
        .iter()
        .map(|u| {
            let u = u.clone();
            std::thread::spawn(move || {
                let mut got: Vec<Value> = Vec::new();
                let mut since = 0;
                while let Some(v) = get(&u.replace("since=0", &format!("since={since}")))
                    .and_then(|b| serde_json::from_str::<Value>(&b).ok())
                {
                    since = v["version"].as_u64().unwrap();
                    let closed = v["closed"] == true;
                    got.push(v);
                    if closed {
                        break;
                    }
                }
                got
            })
        })
        .collect();
    let o = wait_with_limit(child, Duration::from_secs(600));
    let status = o.status;
    let seen: Vec<(usize, Value)> = followers
        .into_iter()
        .enumerate()
        .flat_map(|(k, f)| f.join().unwrap().into_iter().map(move |v| (k, v)))
        .collect();
    let err = reader.join().unwrap();
    assert!(status.success(), "{err}");
    let rows = json_lines(&out.join("results.jsonl"));
    assert_eq!(rows.len(), 2, "{err}");
    for row in &rows {
        assert_eq!(row["forfeit_kind"], "timeout", "{row}");
        let lines = json_lines(&out.join(row["record"].as_str().unwrap()));
        let seat = row["forfeit_seat"].as_u64().unwrap();
        assert_eq!(
            lines[0]["bots"][seat as usize]["command"],
            serde_json::json!(["web"]),
            "a web seat timed out: {row}"
        );
    }
    // The page of the seat that timed out in game 1 said so: the fault, the game's end, and no
    // stale move to click. (Its "waiting" state between the hang-up and the next `hello` lasts
    // as long as the lobby takes to start the next game, too short to catch reliably here.)
    let first = rows.iter().min_by_key(|r| r["game"].as_u64()).unwrap();
    let faulted = first["forfeit_seat"].as_u64().unwrap();
    let at = seen
        .iter()
        .position(|(_, v)| v["game"] == 1 && v["seat"] == faulted && !v["fault"].is_null())
        .unwrap_or_else(|| panic!("no page showed seat {faulted}'s fault in game 1: {seen:?}"));
    let (k, shown) = &seen[at];
    assert_eq!(shown["fault"]["kind"], "timeout", "{shown}");
    assert_eq!(shown["fault"]["action"], "forfeit", "{shown}");
    assert!(shown["request"].is_null(), "no stale move: {shown}");
    // The same page was offered game 2: a fresh table, no fault, and game 1's fault still said.
    assert!(
        seen[at..].iter().any(|(j, v)| j == k
            && v["game"] == 2
            && v["waiting"] == false
            && v["fault"].is_null()
            && v["last_fault"]["game"] == 1
            && v["last_fault"]["kind"] == "timeout"),
        "seat page {k} never got game 2: {:?}",
        seen.iter().filter(|(j, _)| j == k).collect::<Vec<_>>()
    );
}
