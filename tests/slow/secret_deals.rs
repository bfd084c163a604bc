//! Deals no bot can compute (issue "Secret cards"): the deal generator is public, so a seed
//! alone is the deal. With the referee's default flags the deals also depend on a secret key
//! no bot can read, so a bot that knows the generator and searches every seed it could guess
//! or read (small seeds, the tournament default 1, every number in argv, mountinfo and the
//! files it can read) finds none that deals it its hand; with `--public-deals` (the old
//! behaviour, kept for research runs) the same bot finds the seed, which shows the search
//! works.

use crate::common;

use std::path::Path;

use common::{have_bwrap, json_lines, play_four, python_bot, tarneeb, text, Scratch};
use serde_json::Value;
use tarneeb_referee::rules::{DealSource, Seat};

const SEARCH_BOT: &str = "tests/bots/seed_search_bot.py";

/// What each seat's search said: `FOUND ...` or `NOTFOUND ...`, from its stderr log.
fn verdicts(record: &Path) -> Vec<String> {
    (0..4)
        .map(|seat| {
            let log = tarneeb_referee::bot::stderr_log_path(record, seat);
            let t = std::fs::read_to_string(&log).unwrap_or_default();
            t.lines()
                .find(|l| l.starts_with("FOUND") || l.starts_with("NOTFOUND"))
                .unwrap_or_else(|| panic!("seat {seat}: no search verdict in {t:?}"))
                .to_string()
        })
        .collect()
}

/// The record's first deal, and whether the seed in its header alone makes it.
fn seed_alone_deals(record: &Path) -> bool {
    let lines = json_lines(record);
    let header = &lines[0];
    let seed = header["seed"].as_u64().expect("a seed in the header");
    let deal = lines.iter().find(|l| l["type"] == "deal").expect("a deal");
    let mut from_seed = DealSource::from_seed(seed);
    from_seed.first_dealer();
    let d = from_seed.next_deal();
    Seat::ALL.iter().all(|&s| {
        let mut cards: Vec<String> = d.hand(s).iter().map(|c| c.to_string()).collect();
        let mut recorded: Vec<String> = deal["hands"][s.index()]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        cards.sort();
        recorded.sort();
        cards == recorded
    })
}

fn play(s: &Scratch, name: &str, flags: &[&str]) -> std::path::PathBuf {
    let record = s.path(name);
    // The search takes a few seconds of Python on a loaded machine.
    let mut all = vec!["--move-timeout", "120s", "--handshake-timeout", "60s"];
    all.extend_from_slice(&["--rules", "classic"]);
    all.extend_from_slice(flags);
    let o = play_four(&record, &python_bot(SEARCH_BOT, &[]), &all);
    assert!(o.status.success(), "{flags:?}: {}", text(&o.stderr));
    record
}

#[test]
fn a_seed_searching_bot_finds_no_deal_in_play() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("secret-play");
    // Default flags (a random seed) and a well-known seed: no seed gives any seat its hand,
    // not even the true one the record names afterwards.
    for (name, flags) in [
        ("default.jsonl", vec![]),
        ("seed1.jsonl", vec!["--seed", "1"]),
    ] {
        let record = play(&s, name, &flags);
        for v in verdicts(&record) {
            assert!(v.starts_with("NOTFOUND"), "{flags:?}: {v}");
        }
        assert!(
            !seed_alone_deals(&record),
            "{flags:?}: the seed alone deals the game"
        );
        let header = &json_lines(&record)[0];
        assert!(header["deal_secret"].is_string(), "{header}");
    }
    // The old behaviour, for research runs: the same bots find the seed.
    let record = play(&s, "public.jsonl", &["--seed", "1", "--public-deals"]);
    for v in verdicts(&record) {
        assert!(v.starts_with("FOUND seed 1"), "--public-deals: {v}");
    }
    assert!(seed_alone_deals(&record));
    assert!(json_lines(&record)[0].get("deal_secret").is_none());
}

fn tournament(s: &Scratch, dir: &str, flags: &[&str]) -> std::path::PathBuf {
    let out = s.path(dir);
    let bot = python_bot(SEARCH_BOT, &[]);
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b"] {
        args.push("--bot".into());
        args.push(format!("{name}={bot}"));
    }
    for f in [
        "--games",
        "1",
        "--jobs",
        "2",
        "--move-timeout",
        "120s",
        "--handshake-timeout",
        "60s",
    ] {
        args.push(f.into());
    }
    args.push("--out".into());
    args.push(out.display().to_string());
    args.extend(flags.iter().map(|f| f.to_string()));
    let o = tarneeb(&args);
    assert!(o.status.success(), "{flags:?}: {}", text(&o.stderr));
    out
}

fn games(out: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(out.join("games"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_seed_searching_bot_finds_no_deal_in_a_tournament_with_the_default_seed() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("secret-tournament");
    // --seed 1 is the default: every deal set's seed is guessable.
    let out = tournament(&s, "secret", &[]);
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    assert!(config["deal_key_id"].is_string(), "{config}");
    let key = out.join(".deal-key");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    assert!(!games(&out).is_empty());
    for g in games(&out) {
        for v in verdicts(&g) {
            assert!(v.starts_with("NOTFOUND"), "{}: {v}", g.display());
        }
        assert!(!seed_alone_deals(&g));
    }
    let public = tournament(&s, "public", &["--public-deals"]);
    for g in games(&public) {
        for v in verdicts(&g) {
            assert!(
                v.starts_with("FOUND"),
                "--public-deals {}: {v}",
                g.display()
            );
        }
        assert!(seed_alone_deals(&g));
    }
}

#[test]
fn resume_and_reruns_with_one_key_play_the_same_deals() {
    let s = Scratch::new("secret-resume");
    let key = s.path("organiser.key");
    let o = tarneeb(&["keygen", key.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let random = python_bot(common::RANDOM_BOT, &[]);
    let run = |dir: &str, extra: &[&str]| {
        let out = s.path(dir);
        let mut args: Vec<String> = vec!["tournament".into()];
        for name in ["a", "b"] {
            args.push("--bot".into());
            args.push(format!("{name}={random}"));
        }
        for f in ["--games", "2", "--jobs", "1", "--out"] {
            args.push(f.into());
        }
        args.push(out.display().to_string());
        args.extend(extra.iter().map(|f| f.to_string()));
        let o = tarneeb(&args);
        (out, o)
    };
    let deals_of = |out: &Path| -> Vec<Value> {
        games(out)
            .iter()
            .map(|g| {
                json_lines(g)
                    .into_iter()
                    .find(|l| l["type"] == "deal")
                    .unwrap()["hands"]
                    .clone()
            })
            .collect()
    };
    let (a, o) = run("a", &["--deal-key", key.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (b, o) = run("b", &["--deal-key", key.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        deals_of(&a),
        deals_of(&b),
        "one key, one seed: the same deals"
    );
    assert!(!a.join(".deal-key").exists(), "a given key is not copied");
    // Its own key: a directory without --deal-key resumes with the key it keeps.
    let (c, o) = run("c", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_ne!(deals_of(&c), deals_of(&a), "another key, other deals");
    let results = c.join("results.jsonl");
    let full = std::fs::read_to_string(&results).unwrap();
    let first_line: String = full.lines().take(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, first_line).unwrap();
    let (_, o) = run("c", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("resuming"), "{}", text(&o.stderr));
    let again = std::fs::read_to_string(&results).unwrap();
    let strip = |t: &str| -> Vec<Value> {
        let mut v: Vec<Value> = t
            .lines()
            .map(|l| {
                let mut r: Value = serde_json::from_str(l).unwrap();
                r.as_object_mut().unwrap().remove("referee_us_per_move");
                r
            })
            .collect();
        v.sort_by_key(|r| r["game"].as_u64());
        v
    };
    assert_eq!(
        strip(&again),
        strip(&full),
        "the resumed games are the same games"
    );
    // A directory started with --deal-key needs it to resume; a sharded run needs one.
    let (_, o) = run("a", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("give the same --deal-key FILE"),
        "{}",
        text(&o.stderr)
    );
    let (_, o) = run("d", &["--shard", "1/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("tarneeb keygen"),
        "{}",
        text(&o.stderr)
    );
    // --deals-from a record needs no key: the record holds its deals.
    let record = &games(&a)[0];
    let (e, o) = run(
        "e",
        &["--deals-from", record.to_str().unwrap(), "--games", "1"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(deals_of(&e)[0], deals_of(&a)[0]);
}

#[test]
fn keygen_never_overwrites_and_a_bad_key_is_named() {
    let s = Scratch::new("keygen");
    let key = s.path("k");
    assert!(tarneeb(&["keygen", key.to_str().unwrap()]).status.success());
    let first = std::fs::read_to_string(&key).unwrap();
    let o = tarneeb(&["keygen", key.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("never overwritten"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&key).unwrap(), first);
    let bad = s.file("bad", "not a key\n");
    let o = tarneeb(&[
        "play",
        "--deal-key",
        bad.to_str().unwrap(),
        "--bot",
        "x",
        "--bot",
        "x",
        "--bot",
        "x",
        "--bot",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("64 hex digits"),
        "{}",
        text(&o.stderr)
    );
}
