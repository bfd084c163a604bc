//! `tarneeb tournament --serve`: the live page of a running tournament, opened in Debian's
//! Chromium driven by puppeteer-core (tests/browser/live.mjs). The page shows the standings
//! change when a game finishes, fits 1280 and 390 px with nothing scrolling sideways, writes
//! nothing to its console, links an entrant's page and a
//! finished game's replay; and no byte of the event stream a spectator got while the games were
//! played holds a card the table had not seen: every card it shows of a game in progress is a
//! card played so far in that hand, in the order of the game's record.

use crate::common;

use common::browser::{addresses_on_stderr, assert_deck, required_browser, required_puppeteer};
use common::{command, python_bot, root, Scratch, FAULT_BOT, RANDOM_BOT};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// Every card-like token (`10S`, `QH`, ...) of `text`.
fn cards_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    for i in 0..b.len() {
        let start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if !start {
            continue;
        }
        let rank_len = if text[i..].starts_with("10") { 2 } else { 1 };
        if i + rank_len >= b.len() {
            continue;
        }
        let rank_ok = rank_len == 2 || b"23456789TJQKA".contains(&b[i]);
        let suit = b[i + rank_len];
        let end = i + rank_len + 1;
        let after_ok = end == b.len() || !b[end].is_ascii_alphanumeric();
        if rank_ok && b"SHDC".contains(&suit) && after_ok {
            out.push(text[i..end].to_string());
        }
    }
    out
}

/// The moves of hand `hand` of a finished record, split into calls and plays.
fn moves_of(record: &Path, hand: u64) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(record).unwrap();
    let (mut calls, mut plays) = (Vec::new(), Vec::new());
    let mut current = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["type"].as_str() {
            Some("deal") => {
                current = v["hand_number"].as_u64().unwrap();
                if current == hand {
                    calls.clear();
                    plays.clear();
                }
            }
            Some("move") if current == hand => {
                let m = v["move"].as_str().unwrap().to_string();
                if v["decision"] == "play" {
                    plays.push(m);
                } else {
                    calls.push(m);
                }
            }
            _ => {}
        }
    }
    (calls, plays)
}

#[test]
fn live_page_follows_a_running_tournament_and_shows_no_hidden_card() {
    let Some(chromium) = required_browser() else {
        return;
    };
    if !required_puppeteer() {
        return;
    }
    let s = Scratch::new("live");
    let dir = s.path("run");
    // Games of at most 8 hands: random bots in classic otherwise play up to the 200-hand cap,
    // and with the slow seat's 60 ms a card one game could take minutes (the test took 29 to
    // 342 s by the deals). Capped, a game lasts up to about 12 s and the four about 50: time
    // for the page to start, watch a game in progress and see one finish.
    let rules = s.file("capped.json", r#"{"preset": "classic", "max-hands": 8}"#);
    let mut child = command()
        .args([
            "tournament",
            "--out",
            dir.to_str().unwrap(),
            "--games",
            "2",
            "--jobs",
            "1",
            "--rules",
            rules.to_str().unwrap(),
            "--serve",
            "127.0.0.1:0",
            "--bot",
            &format!("random={}", python_bot(RANDOM_BOT, &[])),
            "--bot",
            // 60 ms before each card: a game takes seconds, time for the page to watch.
            &format!("slow={}", python_bot(FAULT_BOT, &["slow", "60", &s.marker])),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (rx, reader) = addresses_on_stderr(&mut child);
    let url = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the tournament says where it serves");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let driver = Command::new("node")
        .arg(root().join("tests/browser/live.mjs"))
        .arg(&url)
        .arg(&s.dir)
        .arg(&chromium)
        .current_dir(root().join("tests/browser"))
        .output()
        .expect("node runs");
    let status = child.wait().unwrap();
    let stderr = reader.join().unwrap();
    assert!(status.success(), "tournament failed: {stderr}");
    assert!(
        driver.status.success(),
        "live.mjs failed: {}",
        String::from_utf8_lossy(&driver.stderr)
    );
    let out: Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("live.json")).unwrap()).unwrap();
    assert_eq!(out["errors"], serde_json::json!([]), "{out}");
    assert_eq!(
        out["console"],
        serde_json::json!([]),
        "the page wrote to its console"
    );
    // The four-colour deck: off at first, on from the keyboard (the cards of a game in
    // progress in four colours), kept over a reload.
    assert_deck(&out["deckBefore"], false, false, "the live page");
    assert_deck(&out["deckOn"], true, true, "the live page");
    assert_deck(&out["deckReloaded"], true, false, "the live page, reloaded");
    let (before, after) = (&out["before"], &out["after"]);
    assert!(after["done"].as_u64() > before["done"].as_u64(), "{out}");
    assert_ne!(
        before["standings"], after["standings"],
        "the standings changed when a game finished"
    );
    assert!(
        out["entrantTitle"]
            .as_str()
            .unwrap()
            .ends_with("in the tournament"),
        "{out}"
    );
    assert!(out["gameStep"].is_string(), "the replay page ran: {out}");
    // Issue 40: the page, its standings table included, fits 1280 px and a phone's 390 px.
    for fit in [&out["fit1280"], &out["fit390"]] {
        assert!(
            fit["scrollWidth"].as_u64().unwrap() <= fit["width"].as_u64().unwrap(),
            "the live page is wider than its window: {fit}"
        );
        assert_eq!(
            fit["wide"],
            serde_json::json!([]),
            "something scrolls sideways: {fit}"
        );
    }
    for shot in ["live-1280.png", "live-390.png"] {
        let p = s.path(shot);
        assert!(p.is_file(), "no screenshot {shot}");
        let keep = std::env::temp_dir().join(format!("tarneeb-{shot}"));
        std::fs::copy(&p, &keep).unwrap();
        eprintln!("screenshot: {}", keep.display());
    }

    // What a spectator got while the games were played.
    let events: Vec<Value> = out["events"]
        .as_str()
        .unwrap()
        .split("\n\n")
        .filter_map(|e| e.strip_prefix("data: "))
        .filter(|d| d.starts_with('{'))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert!(events.len() > 3, "few events: {}", events.len());
    let mut games_seen = 0;
    for mut e in events {
        let live = e["live"].as_array_mut().unwrap();
        for g in live.iter_mut() {
            let game = g["game"].as_u64().unwrap();
            let view = &mut g["view"];
            let hand = view["hand_number"].as_u64().unwrap();
            let record = dir.join(format!("games/{game:06}.jsonl"));
            let (calls, plays) = moves_of(&record, hand);
            let shown = |k: &str| -> Vec<String> {
                view[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["move"].as_str().unwrap().to_string())
                    .collect()
            };
            let (c, p) = (shown("calls"), shown("plays"));
            assert!(
                calls.starts_with(&c),
                "game {game} hand {hand}: calls {c:?} of {calls:?}"
            );
            assert!(
                plays.starts_with(&p),
                "game {game} hand {hand}: plays {p:?} of {plays:?}"
            );
            games_seen += 1;
            view["plays"] = serde_json::json!([]);
        }
        // With the cards played taken out, no card is left anywhere in the event.
        let rest = e.to_string();
        assert!(
            cards_in(&rest).is_empty(),
            "{:?} in {rest}",
            cards_in(&rest)
        );
    }
    assert!(games_seen > 0, "the stream showed games in progress");
}

#[test]
fn cards_are_found_in_text() {
    assert_eq!(
        cards_in("a 10S, QH and [\"2C\"] but not 10SS or x7D or 7"),
        vec!["10S", "QH", "2C"]
    );
}
