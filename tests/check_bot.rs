//! `tarneeb check-bot`: every sample bot passes; bots broken in one way each fail, each
//! failure reported with the message that triggered it and the bot's answer.

mod common;

use std::process::Output;

use common::{python_bot, stdout, tarneeb, Scratch, FAULT_BOT};

/// Runs check-bot with its files in a scratch directory of its own.
fn check_bot(bot: &str, extra: &[&str]) -> Output {
    let s = Scratch::new("check-out");
    let out = s.path("out");
    let mut args = vec!["check-bot", bot, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    tarneeb(&args)
}

/// The report's block for the check named `name`: its verdict line and detail lines.
fn block<'a>(report: &'a str, name: &str) -> Vec<&'a str> {
    let mut lines = report.lines().skip_while(|l| !l.contains(name));
    let mut out: Vec<&str> = lines.next().into_iter().collect();
    out.extend(lines.take_while(|l| l.starts_with("        ")));
    out
}

fn assert_passes(bot: &str, extra: &[&str]) {
    let o = check_bot(bot, extra);
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{bot}:\n{out}{}",
        common::stderr(&o)
    );
    assert!(out.contains("summary: all "), "{out}");
    for forced in [
        "throw-in offer",
        "dealer forced",
        "No Trump",
        "double and redouble",
        "bid of 13",
        "minimum bid by score",
        "the end of a game",
        "quiet after game_end",
        "exits at the end of its input",
    ] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("pass  ") && l.contains(forced)),
            "{forced} checked: {out}"
        );
    }
    assert!(out.contains("reply times: "), "{out}");
}

#[test]
fn the_python_sample_bots_pass() {
    let s = Scratch::new("check-py");
    assert_passes(
        &python_bot("sample-bots/python/random_bot.py", &[&s.marker]),
        &["--games", "1"],
    );
    assert_passes(
        &python_bot("sample-bots/python/heuristic_bot.py", &[&s.marker]),
        &["--games", "1"],
    );
    common::assert_no_leftovers(&s.marker);
}

#[test]
fn the_js_c_and_rust_sample_bots_pass() {
    let s = Scratch::new("check-native");
    let node_missing = !std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if node_missing {
        assert!(std::env::var("CI").is_err(), "node is needed under CI");
        eprintln!("note: `node` is not installed; skipping the Node.js bot");
    } else {
        assert_passes(
            &format!("node sample-bots/js/heuristic_bot.js {}", s.marker),
            &["--games", "1"],
        );
    }
    let c = s.path("heuristic_bot");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&c)
        .arg(common::root().join("sample-bots/c/heuristic_bot.c"))
        .status()
        .expect("gcc runs");
    assert!(built.success());
    assert_passes(&c.display().to_string(), &["--games", "1"]);
    let manifest = common::root().join("sample-bots/rust/Cargo.toml");
    let built = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()))
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(&manifest)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .expect("cargo runs");
    assert!(built.success());
    let rust = common::root().join("sample-bots/rust/target/release/heuristic_bot");
    assert_passes(&rust.display().to_string(), &["--games", "1"]);
}

/// protocol.md section 1: a bot "may exit at game_end"; one that waits for the end of its input
/// instead (without declaring multi_game) is right, and check-bot says so.
#[test]
fn a_bot_may_wait_for_the_end_of_its_input_after_game_end() {
    let s = Scratch::new("check-stays");
    let bot = python_bot(
        "tests/bots/broken_bot.py",
        &["stays-after-game-end", &s.marker],
    );
    let o = check_bot(&bot, &["--rules", "classic", "--games", "1"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let b = block(&out, "quiet after game_end");
    assert!(b.first().is_some_and(|l| l.starts_with("pass")), "{out}");
    assert!(b.join("\n").contains("it stayed up, quiet"), "{out}");
    common::assert_no_leftovers(&s.marker);
}

/// Each broken bot: the check that must fail, and texts its report must hold (the fault, the
/// message sent, the bot's answer).
#[test]
fn bots_broken_one_way_each_fail_with_the_triggering_message() {
    let s = Scratch::new("check-broken");
    let fault = |mode: &str| python_bot(FAULT_BOT, &[mode, "3", &s.marker]);
    let broken = |mode: &str| python_bot("tests/bots/broken_bot.py", &[mode, &s.marker]);
    let cases: Vec<(String, &str, Vec<&str>)> = vec![
        (
            fault("illegal"),
            "classic: game 1",
            vec![
                "illegal-move",
                "sent:   {\"type\":\"request\"",
                "answer: {\"type\": \"move\"",
            ],
        ),
        (
            fault("garbage"),
            "classic: game 1",
            vec![
                "not-json",
                "write diagnostics to stderr",
                "answer: this is not json",
            ],
        ),
        (
            fault("wrong-id"),
            "classic: game 1",
            vec![
                "bad-reply",
                "request",
                "answer: {\"type\": \"move\", \"id\": 10",
            ],
        ),
        (
            fault("unsolicited"),
            "classic: game 1",
            vec!["unsolicited", "answer: {\"type\": \"note\""],
        ),
        (
            fault("exit"),
            "classic: game 1",
            vec!["exited", "sent:   {\"type\":\"request\"", "answer: (none)"],
        ),
        (
            fault("no-hello"),
            "classic: game 1",
            vec!["handshake", "sent:   {\"type\":\"hello\""],
        ),
        (
            broken("talks-after-game-end"),
            "quiet after game_end",
            vec![
                "wrote 1 line(s) after game_end",
                "sent:   {\"type\":\"game_end\"",
            ],
        ),
        (
            broken("stays-after-eof"),
            "exits at the end of its input",
            vec!["still running"],
        ),
        (
            broken("no-throw-in"),
            "throw-in offer",
            vec!["exited", "\"decision\":\"throw-in\"", "KeyError"],
        ),
        (
            broken("no-trump-nt"),
            "dealer forced",
            vec!["exited", "\"decision\":\"trump\"", "unknown suit NT"],
        ),
        (
            broken("debug-print"),
            "classic: game 1",
            vec!["not-json", "answer: my hand:"],
        ),
    ];
    for (bot, check, want) in &cases {
        let o = check_bot(
            bot,
            &[
                "--rules",
                "classic",
                "--games",
                "1",
                "--handshake-timeout",
                "3s",
            ],
        );
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{bot}:\n{out}");
        let b = block(&out, check);
        assert!(
            b.first().is_some_and(|l| l.starts_with("FAIL")),
            "{bot}: {check} fails:\n{out}"
        );
        let text = b.join("\n");
        for w in want {
            assert!(
                text.contains(w),
                "{bot}: {check} reports {w:?}:\n{text}\n---\n{out}"
            );
        }
        assert!(out.contains("summary: ") && out.contains("failed"), "{out}");
    }
    common::assert_no_leftovers(&s.marker);
}
