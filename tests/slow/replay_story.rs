//! The replay page tells the story of a hand (issue 24, "A bot author's first hour", point 8
//! and "What to build", last bullet): the running trick count against the contract during
//! play, the contract's outcome (made or failed, by how much) at the hand's end, every trick in
//! the list, a legend with trump and trick winner marked apart, the analysis marks explained
//! on hover and in text, 400's scores, minimum bids and bid total, hands in alternating suit
//! colours and captions with suit symbols. Checked in headless Chromium (puppeteer-core,
//! tests/browser/replay.mjs) at 1280 and 390 px, screenshots kept in
//! $TMPDIR/tarneeb-replay-story/, no console message.

use crate::common;

use std::process::Command;

use common::browser::required_browser;
use common::{root, tarneeb, text, Scratch, RANDOM_BOT};
use serde_json::{json, Value};

const WIDTHS: [u64; 2] = [1280, 390];

/// The node_modules of tests/browser, or why the test cannot run.
fn puppeteer() -> Option<()> {
    if root()
        .join("tests/browser/node_modules/puppeteer-core")
        .is_dir()
    {
        return Some(());
    }
    if std::env::var("TARNEEB_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("note: puppeteer-core not installed and TARNEEB_SKIP_BROWSER=1: skipped");
        return None;
    }
    panic!(
        "this test needs puppeteer-core: run `npm ci --prefix tests/browser` (or `bash .ci/setup`), \
         or set TARNEEB_SKIP_BROWSER=1 to skip it"
    );
}

/// Plays a game of four random bots with `flags`, writes its page with `html_flags`; returns
/// the page's path and the verified game.
fn page(s: &Scratch, tag: &str, flags: &[&str], html_flags: &[&str]) -> (String, Value) {
    let record = s.path(&format!("{tag}.jsonl"));
    let bot = format!("{} {}", common::python(), root().join(RANDOM_BOT).display());
    let o = common::play_four(&record, &bot, flags);
    assert!(o.status.success(), "play: {}", text(&o.stderr));
    let rec = record.to_str().unwrap();
    let o = tarneeb(&["replay", rec, "--json"]);
    assert!(o.status.success(), "replay --json: {}", text(&o.stderr));
    let game: Value = serde_json::from_slice(&o.stdout).unwrap();
    let html = s.path(&format!("{tag}.html"));
    let mut args = vec!["replay", rec, "--html", html.to_str().unwrap()];
    args.extend_from_slice(html_flags);
    let o = tarneeb(&args);
    assert!(o.status.success(), "replay --html: {}", text(&o.stderr));
    (format!("file://{}", html.display()), game)
}

/// The first hand played out (13 tricks), its index, and the steps of its deal, of the moment
/// after its sixth card and of its end (a hand has one step before its first move).
fn played_hand(game: &Value) -> (usize, Value, [usize; 3]) {
    let hands = game["hands"].as_array().unwrap();
    let mut start = 0;
    for (i, h) in hands.iter().enumerate() {
        let moves = h["moves"].as_array().unwrap();
        if h["tricks"].as_array().unwrap().len() == 13 && h["end"]["end"] == "played" {
            let sixth = moves
                .iter()
                .enumerate()
                .filter(|(_, m)| m["decision"] == "play")
                .nth(5)
                .unwrap()
                .0;
            return (
                i,
                h.clone(),
                [start, start + sixth + 1, start + moves.len()],
            );
        }
        start += moves.len() + 1;
    }
    panic!("no hand was played out: {game}");
}

/// Tricks won by each seat in the first `n` tricks of `hand`.
fn won(hand: &Value, n: usize) -> [u64; 4] {
    let mut w = [0; 4];
    for t in hand["tricks"].as_array().unwrap().iter().take(n) {
        w[t["winner"].as_u64().unwrap() as usize] += 1;
    }
    w
}

fn is_red(card: &str) -> bool {
    card.ends_with('H') || card.ends_with('D')
}

/// A hand as shown: each suit in one run, high cards first, and the colours alternating as far
/// as the suits held allow (same-colour neighbours only when one colour has two suits more).
fn assert_shown_in_order(cards: &[String], what: &str) {
    let ranks = "AKQJT98765432";
    let mut runs: Vec<char> = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        let suit = c.chars().last().unwrap();
        if runs.last() != Some(&suit) {
            assert!(
                !runs.contains(&suit),
                "{what}: {suit} in two runs: {cards:?}"
            );
            runs.push(suit);
        } else {
            let rank = |c: &str| ranks.find(&c[..c.len() - 1]).unwrap();
            assert!(
                rank(&cards[i - 1]) < rank(c),
                "{what}: high first: {cards:?}"
            );
        }
    }
    let reds = runs.iter().filter(|s| matches!(s, 'H' | 'D')).count();
    let blacks = runs.len() - reds;
    let same = runs
        .windows(2)
        .filter(|w| is_red(&w[0].to_string()) == is_red(&w[1].to_string()))
        .count();
    assert_eq!(
        same,
        reds.abs_diff(blacks).saturating_sub(1),
        "{what}: colours alternate: {cards:?}"
    );
}

/// A card code (`QS`, `TD`) as a word of `text`: a caption that should show the symbol.
fn has_card_code(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() == 2 && "23456789TJQKA".contains(&w[..1]) && "SHDC".contains(&w[1..]))
}

#[test]
fn the_replay_page_tells_the_story_of_each_hand() {
    let Some(chromium) = required_browser() else {
        return;
    };
    if puppeteer().is_none() {
        return;
    }
    let s = Scratch::new("replay-story");
    let (classic_url, classic) = page(
        &s,
        "classic",
        &["--rules", "classic", "--seed", "5", "--public-deals"],
        &["--analyze"],
    );
    let (four_url, four) = page(
        &s,
        "400",
        &[
            "--rules",
            "400",
            "--seed",
            "3",
            "--scores",
            "35,0,35,0",
            "--public-deals",
        ],
        &[],
    );
    let (_, chand, csteps) = played_hand(&classic);
    let (fi, fhand, fsteps) = played_hand(&four);
    let shots = std::env::temp_dir().join("tarneeb-replay-story");
    std::fs::create_dir_all(&shots).unwrap();
    let config = s.file(
        "config.json",
        &json!({
            "out": shots,
            "chromium": chromium,
            "widths": WIDTHS,
            "pages": [
                {"tag": "classic", "url": classic_url, "steps": csteps},
                {"tag": "400", "url": four_url, "steps": fsteps},
            ],
        })
        .to_string(),
    );
    let driver = Command::new("node")
        .arg(root().join("tests/browser/replay.mjs"))
        .arg(&config)
        .current_dir(root().join("tests/browser"))
        .output()
        .expect("node runs");
    assert!(
        driver.status.success(),
        "replay.mjs: {}",
        text(&driver.stderr)
    );
    let out: Value =
        serde_json::from_str(&std::fs::read_to_string(shots.join("replay.json")).unwrap()).unwrap();
    assert_eq!(out["errors"], json!([]), "page errors");
    assert_eq!(out["console"], json!([]), "the page wrote to its console");
    let snaps = out["snapshots"].as_array().unwrap();
    assert_eq!(snaps.len(), 2 * WIDTHS.len() * 3, "{out}");
    for w in WIDTHS {
        for tag in ["classic", "400"] {
            for step in if tag == "classic" { csteps } else { fsteps } {
                let shot = shots.join(format!("{tag}-step-{step}-{w}.png"));
                assert!(shot.is_file(), "no screenshot {}", shot.display());
            }
        }
    }
    eprintln!("screenshots: {}", shots.display());

    for snap in snaps {
        let what = format!(
            "{} step {} at {} px",
            snap["tag"], snap["at"], snap["width"]
        );
        assert_eq!(snap["fits"], true, "{what}: wider than the window");
        // The legend: both marks explained, and they do not look alike.
        let legend = &snap["legend"];
        assert_eq!(legend["box"]["shown"], true, "{what}: the legend is shown");
        let ltext = legend["text"].as_str().unwrap();
        assert!(
            ltext.contains("a trump card") && ltext.contains("won the trick"),
            "{what}: {ltext}"
        );
        let (trump, winner) = (&legend["trump"], &legend["winner"]);
        assert_ne!(trump["background"], winner["background"], "{what}");
        assert_ne!(trump["shadow"], winner["shadow"], "{what}");
        // The table's marks are the legend's.
        if !snap["tableTrump"].is_null() {
            assert_eq!(snap["tableTrump"]["background"], trump["background"]);
        }
        if !snap["tableWinner"].is_null() {
            assert_eq!(snap["tableWinner"]["shadow"], winner["shadow"]);
        }
        for (seat, cards) in snap["hands"].as_array().unwrap().iter().enumerate() {
            let cards: Vec<String> = serde_json::from_value(cards.clone()).unwrap();
            assert_shown_in_order(&cards, &format!("{what}, seat {seat}"));
        }
        // Captions say the card as its face does.
        for f in snap["faces"].as_array().unwrap() {
            let face = f["text"].as_str().unwrap();
            assert!(
                f["title"].as_str().unwrap().starts_with(face),
                "{what}: {f}"
            );
            assert!(face.contains(['♠', '♥', '♦', '♣']), "{what}: {f}");
        }
        let last = snap["lastMove"].as_str().unwrap();
        assert!(!has_card_code(last), "{what}: {last}");
        assert!(!has_card_code(snap["contract"].as_str().unwrap()), "{what}");
    }

    let at = |tag: &str, step: usize, w: u64| -> &Value {
        snaps
            .iter()
            .find(|v| v["tag"] == tag && v["at"] == step && v["width"] == w)
            .unwrap_or_else(|| panic!("no snapshot {tag} {step} {w}"))
    };
    for w in WIDTHS {
        // Classic: "team D: X of N" during play; made or failed, by how much, at the end.
        let contract = &chand["contract"];
        let d = contract["declarer"].as_u64().unwrap() as usize % 2;
        let need: u64 = contract["bid"]
            .as_str()
            .unwrap()
            .trim_end_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .unwrap();
        let mid = at("classic", csteps[1], w);
        let wmid = won(&chand, 1);
        let progress = mid["progress"].as_str().unwrap();
        assert!(
            progress.starts_with(&format!("team {d}: {} of {need} ", wmid[d] + wmid[d + 2])),
            "{w} px: {progress}"
        );
        assert_eq!(mid["progressBox"]["shown"], true, "{w} px");
        assert_eq!(mid["verdict"]["shown"], false, "no verdict mid-hand");
        assert_eq!(mid["bidRules"]["shown"], false, "classic has no bid rules");
        let end = at("classic", csteps[2], w);
        let wend = won(&chand, 13);
        let got = wend[d] + wend[d + 2];
        let verdict = &end["verdict"];
        assert_eq!(verdict["shown"], true, "{w} px: {end}");
        assert_eq!(verdict["box"]["shown"], true, "{w} px");
        let vtext = verdict["text"].as_str().unwrap();
        if got >= need {
            assert_eq!(verdict["verdict"], "made", "{vtext}");
            assert!(vtext.contains(&format!("{got} tricks")), "{vtext}");
        } else {
            assert_eq!(verdict["verdict"], "failed", "{vtext}");
            assert!(vtext.contains(&format!("by {}", need - got)), "{vtext}");
        }
        // Every trick in the list, none behind a scroll bar.
        assert_eq!(end["tricks"]["count"], 13, "{w} px");
        assert_eq!(end["tricks"]["scrolls"], false, "{w} px");
        // The analysis marks: explained on hover and in the legend.
        let costs = end["costs"].as_array().unwrap();
        assert!(!costs.is_empty(), "random bots cost tricks: {end}");
        for c in costs {
            let title = c["title"].as_str().unwrap();
            assert!(
                title.contains(&format!("cost {}", &c["text"].as_str().unwrap()[1..]))
                    && title.contains("best play"),
                "{c}"
            );
        }
        assert_eq!(end["legend"]["costShown"], true);
        assert!(end["legend"]["text"]
            .as_str()
            .unwrap()
            .contains("double-dummy"));

        // 400: each seat's count against its bid, then made or failed; the scores the hand
        // started from, the minimum bids at those scores and the bid total.
        let bids: Vec<u64> = (0..4).map(|s| fhand["bids"][s].as_u64().unwrap()).collect();
        let mid = at("400", fsteps[1], w);
        let wmid = won(&fhand, 1);
        let expect: Vec<String> = (0..4)
            .map(|s| format!("seat {s}: {} of {}", wmid[s], bids[s]))
            .collect();
        assert_eq!(mid["progress"], expect.join(" \u{b7} "), "{w} px");
        let end = at("400", fsteps[2], w);
        let wend = won(&fhand, 13);
        let verdicts: Vec<&str> = (0..4)
            .map(|s| if wend[s] >= bids[s] { "made" } else { "failed" })
            .collect();
        assert_eq!(end["verdict"]["seats"], json!(verdicts), "{w} px");
        assert_eq!(end["tricks"]["count"], 13);
        let before = if fi == 0 {
            json!([35, 0, 35, 0])
        } else {
            four["hands"][fi - 1]["end"]["seat_scores"].clone()
        };
        let as_text = |v: &Value| -> Value {
            json!(v
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>())
        };
        assert_eq!(at("400", fsteps[0], w)["seatScores"], as_text(&before));
        assert_eq!(
            end["seatScores"],
            as_text(&fhand["end"]["seat_scores"]),
            "{w} px"
        );
        let rules = &at("400", fsteps[0], w)["bidRules"];
        assert_eq!(rules["shown"], true);
        assert_eq!(rules["box"]["shown"], true);
        if fi == 0 {
            // docs/rules.md#individual-min-bid: by the bidder's own score (3 from 30 points, else
            // 2); the bids must total 12 with the highest score at 30-39.
            assert_eq!(rules["minBid"], "3,2,3,2", "{rules}");
            assert_eq!(rules["needed"], "12", "{rules}");
        }
        assert_eq!(
            end["bidRules"]["sum"],
            bids.iter().sum::<u64>().to_string(),
            "{w} px"
        );
    }
}
