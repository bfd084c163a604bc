//! The Rust and C heuristic sample bots (sample-bots/rust, sample-bots/c) play real games
//! through the referee: every preset, the bot in all four seats and mixed with the random
//! Python bot, plus rules files that switch on the options with extra decisions (throw-ins,
//! No Trump, doubling, Dakak, Out of Call, trump by first lead, ...). Every game must end with
//! exit code 0 and a result that is not a forfeit (a forfeit would mean a crash, a bad line or
//! an illegal move). And every sample bot, Python and JS too, fed by hand, ignores what a later
//! version of the protocol may add (`every_sample_bot_ignores_what_it_does_not_know_and_plays_on`).
//!
//! The bots are built here: `cargo build --release --manifest-path sample-bots/rust/Cargo.toml`
//! (its own workspace and target directory; slow the first time) and `gcc -O2` into a temp dir.

use crate::common;

use common::root;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

fn random() -> &'static str {
    common::python_rel("sample-bots/python/random_bot.py")
}

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tarneeb-sample-bots-rust-c-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn rust_bot() -> &'static str {
    static BOT: OnceLock<String> = OnceLock::new();
    BOT.get_or_init(|| {
        let manifest = root().join("sample-bots/rust/Cargo.toml");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--release", "--quiet", "--manifest-path"])
            .arg(&manifest)
            .current_dir(root())
            // Our own target dir must not be inherited from the outer build.
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "building the Rust bot failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bin = root().join("sample-bots/rust/target/release/heuristic_bot");
        assert!(bin.exists(), "{} was not built", bin.display());
        bin.to_string_lossy().into_owned()
    })
}

fn c_bot() -> &'static str {
    static BOT: OnceLock<String> = OnceLock::new();
    BOT.get_or_init(|| {
        let bin = temp_dir().join("heuristic_bot");
        let out = Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&bin)
            .arg(root().join("sample-bots/c/heuristic_bot.c"))
            .output()
            .expect("gcc runs");
        assert!(
            out.status.success(),
            "building the C bot failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        bin.to_string_lossy().into_owned()
    })
}

/// Play one game; assert exit 0 and a non-forfeit result; return the result object.
fn play(rules: &str, seed: u64, bots: [&str; 4]) -> serde_json::Value {
    let dir = temp_dir();
    static GAME: AtomicUsize = AtomicUsize::new(0);
    let tag = format!(
        "{}-{seed}-{}",
        Path::new(rules).file_stem().unwrap().to_string_lossy(),
        GAME.fetch_add(1, Ordering::Relaxed)
    );
    let record = dir.join(format!("{tag}.jsonl"));
    let mut cmd = common::command();
    cmd.current_dir(root())
        .args([
            "play",
            "--rules",
            rules,
            "--seed",
            &seed.to_string(),
            "--json",
            "--record",
        ])
        .arg(&record);
    for b in bots {
        cmd.args(["--bot", b]);
    }
    let out = cmd.output().expect("tarneeb runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{tag}: exit {:?}\nstdout: {stdout}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{tag}: {e}: {stdout}"));
    let result = v["result"].clone();
    let reason = result["reason"].as_str().unwrap_or("");
    assert!(
        ["target", "instant", "hand-cap"].contains(&reason),
        "{tag}: the game ended by {reason:?}: {result}"
    );
    result
}

fn rules_file(name: &str, json: &str) -> String {
    let p = temp_dir().join(format!("{name}.json"));
    std::fs::write(&p, json).unwrap();
    p.to_string_lossy().into_owned()
}

/// Every preset: the bot in all four seats, and against the random bot in either partnership.
fn presets_for(bot: &str) {
    std::thread::scope(|s| {
        for preset in ["classic", "egyptian", "400", "41"] {
            s.spawn(move || {
                play(preset, 7, [bot, bot, bot, bot]);
                play(preset, 8, [bot, random(), bot, random()]);
                play(preset, 9, [random(), bot, random(), bot]);
            });
        }
    });
}

/// Rules files with the options that add decisions or change which moves are legal.
fn options_for(bot: &str, other: &str) {
    let files = [
        rules_file(
            "classic-options",
            r#"{"preset": "classic", "contract": {"throw-in-weak-hand": true, "throw-in-long-suit": true,
               "no-trump": true, "trump-first-lead": true, "dealer-forced-7": true, "dakak": true,
               "out-of-call": true, "kaboot": "instant-win"}}"#,
        ),
        rules_file(
            "classic-first-lead",
            r#"{"preset": "classic", "contract": {"trump": "first-lead", "auction": "single-round",
               "all-pass": "next-dealer", "kaboot": "none"}}"#,
        ),
        rules_file(
            "egyptian-options",
            r#"{"preset": "egyptian", "contract": {"doubling": "redouble", "defenders-multiplied": true,
               "dakak": true, "out-of-call": true, "throw-in-weak-hand": true, "throw-in-long-suit": true,
               "dealer-forced-7": true, "strain-order": "c-s-h-d"}}"#,
        ),
        rules_file(
            "400-options",
            r#"{"preset": "400", "individual": {"sum-counts-big-bids-double": true, "thirteen": "points",
               "points": {"13": 52}, "partner": "non-negative", "trump": "S"}}"#,
        ),
    ];
    std::thread::scope(|s| {
        for f in &files {
            s.spawn(move || {
                play(f, 3, [bot, other, bot, other]);
            });
        }
    });
}

#[test]
fn rust_bot_plays_every_preset() {
    presets_for(rust_bot());
}

#[test]
fn c_bot_plays_every_preset() {
    presets_for(c_bot());
}

#[test]
fn rust_and_c_bots_play_the_options_against_each_other() {
    let (r, c) = (rust_bot(), c_bot());
    options_for(r, c);
    options_for(c, random());
}

/// protocol.md 4.4: every sample bot (C, Rust, Python, and JS when `node` is installed)
/// declares `multi_game` and plays the same games kept up as started afresh for each game: a
/// round robin of all of them gives the same rows with and without `--fresh-bots`, under the
/// classic and the 400 rules (whose rules the bots must re-read for each game).
#[test]
fn every_sample_bot_plays_the_same_kept_up_as_fresh() {
    let node = Command::new("node").arg("--version").output();
    let mut bots = vec![
        format!("c={}", c_bot()),
        format!("rust={}", rust_bot()),
        "py=python3 sample-bots/python/heuristic_bot.py".to_string(),
    ];
    if matches!(node, Ok(ref o) if o.status.success()) {
        bots.push("js=node sample-bots/js/heuristic_bot.js".to_string());
    } else {
        eprintln!("note: `node` is not installed; the JS bot is left out");
    }
    for rules in ["classic", "400"] {
        let rows = |extra: &[&str]| {
            static RUN: AtomicUsize = AtomicUsize::new(0);
            let out = temp_dir().join(format!(
                "kept-{rules}-{}",
                RUN.fetch_add(1, Ordering::Relaxed)
            ));
            let mut cmd = common::command();
            cmd.args(["tournament", "--games", "1", "--seed", "3", "--jobs", "2"])
                // Kept and fresh runs are compared: one deal key for both.
                .arg("--deal-key")
                .arg(common::shared_deal_key())
                .args(["--rules", rules, "--out"])
                .arg(&out)
                .args(extra);
            for b in &bots {
                cmd.arg("--bot").arg(b);
            }
            let o = cmd.output().unwrap();
            assert!(
                o.status.success(),
                "{rules} {extra:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            // "bot processes: N started, M seats of games played by a process kept up ..."
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            let kept: u64 = err
                .split(" started, ")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no process count: {err}"));
            let text = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
            let mut rows: Vec<serde_json::Value> = text
                .lines()
                .map(|l| {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    v.as_object_mut().unwrap().remove("referee_us_per_move");
                    v
                })
                .collect();
            rows.sort_by_key(|r| r["game"].as_u64());
            let _ = std::fs::remove_dir_all(&out);
            (rows, kept)
        };
        let (kept, reused) = rows(&[]);
        assert!(
            kept.iter().all(|r| r["reason"] != "forfeit"),
            "{rules}: {kept:?}"
        );
        // 12 games x 4 seats: most of them by kept processes.
        assert!(reused >= 12, "{rules}: only {reused} seats kept");
        let (fresh, none) = rows(&["--fresh-bots"]);
        assert_eq!(none, 0);
        assert_eq!(kept, fresh, "{rules}");
    }
}

/// protocol.md section 2's forward-compatibility rule and sections 4.3 and 4.4, for every
/// sample bot (C, Rust, both Python bots, and JS when `node` is installed), fed by hand: fields
/// it does not know (in `hello`, its rules, events, a request and its view) and a message type
/// it does not know are ignored; events are not answered; after `game_end` it answers
/// `new_game` like `hello`; every line it writes is a reply the schema allows, with a legal
/// move and the request's id; and it exits when its input ends.
#[test]
fn every_sample_bot_ignores_what_it_does_not_know_and_plays_on() {
    use serde_json::{json, Value};
    use std::io::{Read, Write};
    use std::process::Stdio;
    use std::time::Duration;
    let mut bots: Vec<String> = vec![
        c_bot().to_string(),
        rust_bot().to_string(),
        random().to_string(),
        common::python_rel("sample-bots/python/heuristic_bot.py").to_string(),
    ];
    let node = Command::new("node").arg("--version").output();
    if matches!(node, Ok(ref o) if o.status.success()) {
        bots.push("node sample-bots/js/heuristic_bot.js".to_string());
    } else {
        eprintln!("note: `node` is not installed; the JS bot is left out");
    }
    let mut rules = serde_json::to_value(tarneeb_referee::rules::Rules::classic()).unwrap();
    rules["a-house-rule-of-2030"] = json!({"on": true});
    let time = json!({"handshake_ms": 10000, "move_ms": 30000, "bank_ms": null, "increment_ms": 0});
    let hand =
        json!(["KS", "JS", "6S", "5S", "KH", "8H", "AD", "KD", "8D", "3D", "TC", "6C", "4C"]);
    // The classic call request of protocol.md 7.1, with fields of a later version added.
    let mut request: Value = serde_json::from_str(
        r#"{"type":"request","id":3,"decision":"call","legal":["pass","10","11","12","13"],"view":{"seat":0,"hand_number":1,"dealer":1,"phase":"auction","team_scores":[0,0],"hand":["KS","JS","6S","5S","KH","8H","AD","KD","8D","3D","TC","6C","4C"],"announcements":[],"auction":[{"seat":2,"call":"8"},{"seat":3,"call":"9"}],"contract":null,"trump":null,"tricks":[],"current_trick":{"leader":1,"cards":[]},"tricks_won":[0,0,0,0],"strikes":[0,0,0,0],"cards_left":[13,13,13,13]},"time":{"limit_ms":30000,"bank_ms":null}}"#,
    )
    .unwrap();
    request["hint"] = json!("a field of a later version");
    request["view"]["mood"] = json!({"table": "calm"});
    let mut second = request.clone();
    second["id"] = json!(1);
    let lines = [
        json!({"type": "hello", "protocol": 1, "seat": 0, "rules": rules, "time": time, "lobby": {"room": 7}}),
        json!({"type": "weather", "sky": "clear", "id": 3}),
        json!({"type": "deal", "hand_number": 1, "dealer": 1, "hand": hand, "announcements": [], "cut": 7}),
        json!({"type": "move", "hand_number": 1, "seat": 2, "decision": "call", "move": "8", "ms": 12}),
        json!({"type": "move", "hand_number": 1, "seat": 3, "decision": "call", "move": "9"}),
        request,
        json!({"type": "fault", "seat": 1, "kind": "a-kind-of-2030", "action": "substitute"}),
        json!({"type": "game_end", "winner": 0, "reason": "target", "hands": 1, "team_scores": [31, 0], "elo": 1500}),
        json!({"type": "new_game", "protocol": 1, "seat": 0, "rules": rules, "time": time}),
        json!({"type": "deal", "hand_number": 1, "dealer": 1, "hand": hand, "announcements": []}),
        second,
    ];
    let mut input = String::new();
    for l in &lines {
        input.push_str(&l.to_string());
        input.push('\n');
    }
    let from_bot = common::schema_validator("from_bot");
    for bot in &bots {
        let words = tarneeb_referee::bot::split_command(bot).unwrap();
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{bot}: {e}"));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        // stdin is closed here: the bot must exit by itself (generous bound, loaded machines).
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            let _ = stdout.read_to_string(&mut out);
            out
        });
        let mut waited = Duration::ZERO;
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if waited > Duration::from_secs(60) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
            waited += Duration::from_millis(50);
        };
        assert!(
            status.is_some(),
            "{bot}: still running 60 s after its input ended"
        );
        let out = reader.join().unwrap();
        let replies: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{bot}: {e}: {l}")))
            .collect();
        assert_eq!(replies.len(), 4, "{bot}: hello, move, hello, move:\n{out}");
        for (reply, (kind, id)) in replies.iter().zip([
            ("hello", None),
            ("move", Some(3)),
            ("hello", None),
            ("move", Some(1)),
        ]) {
            let errs: Vec<String> = from_bot.iter_errors(reply).map(|e| e.to_string()).collect();
            assert!(errs.is_empty(), "{bot}: {reply}: {errs:?}");
            assert_eq!(reply["type"], kind, "{bot}: {out}");
            if let Some(id) = id {
                assert_eq!(reply["id"], id, "{bot}: {out}");
                let mv = reply["move"].as_str().unwrap();
                assert!(
                    ["pass", "10", "11", "12", "13"].contains(&mv),
                    "{bot}: {mv}"
                );
            }
        }
        assert_eq!(
            replies[0], replies[2],
            "{bot}: new_game is answered like hello"
        );
    }
}
