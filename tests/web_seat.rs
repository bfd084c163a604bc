//! `play --bot web`: a person plays a seat in the browser. Debian's Chromium, driven by
//! puppeteer-core (tests/browser/seat.mjs), plays a whole classic game at seat 0 by
//! clicking the highlighted legal cards and bids, at phone width and at 1280 px, against three
//! random bots; every click is a move of the record, no fault is charged, and a request
//! without the seat's token is refused.

mod common;

use common::browser::required_browser;
use common::{command, python_bot, root, wait_with_limit, Scratch, RANDOM_BOT};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

fn play_in_browser(preset: &str, scores: &str, chromium: &std::path::Path) {
    let s = Scratch::new(&format!("web-{preset}"));
    let record = s.path("game.jsonl");
    let bot = python_bot(RANDOM_BOT, &[]);
    let mut child = command()
        .args([
            "play",
            "--rules",
            preset,
            "--scores",
            scores,
            "--record",
            record.to_str().unwrap(),
            "--json",
            "--bot",
            "web",
            "--bot",
            &bot,
            "--bot",
            &bot,
            "--bot",
            &bot,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let _ = tx.send(line[at..].trim().to_string());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let url = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("play prints the seat's address");
    assert!(
        url.starts_with("http://127.0.0.1:") && url.contains("?token="),
        "{url}"
    );
    let out_file = s.path("seat.json");
    let shots = std::env::temp_dir().join(format!("tarneeb-web-seat-{preset}"));
    let node = Command::new("node")
        .arg(root().join("tests/browser/seat.mjs"))
        .arg(&url)
        .arg(&out_file)
        .arg(chromium)
        .arg(&shots)
        .current_dir(root().join("tests/browser"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    // Bounds for a hung driver or game (generous under load; not a timing assertion): the
    // game is stopped first, so neither outlives the test.
    let driver = std::thread::scope(|scope| {
        let d = scope.spawn(|| wait_with_limit(node, Duration::from_secs(600)));
        d.join()
    });
    if driver.is_err() {
        let _ = child.kill();
    }
    let driver = driver.unwrap_or_else(|_| panic!("{preset}: the browser driver hung"));
    let o = wait_with_limit(child, Duration::from_secs(120));
    let stderr = reader.join().unwrap();
    assert!(
        driver.status.success(),
        "seat.mjs: {}",
        String::from_utf8_lossy(&driver.stderr)
    );
    assert!(o.status.success(), "{preset}: play failed: {stderr}");
    let out: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(
        out["errors"],
        serde_json::json!([]),
        "{preset}: the driver's errors"
    );
    assert_eq!(
        out["console"],
        serde_json::json!([]),
        "{preset}: the page's console"
    );
    assert_eq!(
        out["withoutToken"], 403,
        "{preset}: a request without the token"
    );
    assert!(
        out["final"].as_str().unwrap().starts_with("game over"),
        "{preset}: {}",
        out["final"]
    );
    let result: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(result["result"]["forfeit"].is_null(), "{preset}: {result}");
    // Every click is seat 0's move in the record, in order, none chosen by the referee.
    let mine: Vec<String> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "move" && v["seat"] == 0)
        .inspect(|v| assert!(v["substituted"].is_null(), "{preset}: {v}"))
        .map(|v| v["move"].as_str().unwrap().to_string())
        .collect();
    let clicks: Vec<String> = out["clicks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert!(!clicks.is_empty(), "{preset}: no move was clicked");
    assert_eq!(clicks, mine, "{preset}: the clicks are seat 0's moves");
    eprintln!(
        "{preset}: {} moves clicked; screenshots {}-390.png and -1280.png",
        clicks.len(),
        shots.display()
    );
}

#[test]
fn a_person_plays_a_whole_game_in_the_browser() {
    let Some(chromium) = required_browser() else {
        return;
    };
    if !root()
        .join("tests/browser/node_modules/puppeteer-core")
        .is_dir()
    {
        assert!(
            std::env::var("TARNEEB_SKIP_BROWSER").as_deref() == Ok("1"),
            "this test needs puppeteer-core: run `npm ci --prefix tests/browser` (or `bash .ci/setup`)"
        );
        return;
    }
    // A game started near its end (play --scores), so it is whole but short. Classic only for
    // now: an Egyptian game once stalled with the page showing no playable move (not yet
    // understood; the other presets are not yet checked in the browser).
    play_in_browser("classic", "30:30", &chromium);
}
