//! `tarneeb check-bot`: every sample bot passes; bots broken in one way each fail, each
//! failure reported with the message that triggered it and the bot's answer.

use crate::common;

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

/// The report's streamed block for the check named `name`: its verdict line and the lines
/// under it (a pass's notes, a failure's cause).
fn block<'a>(report: &'a str, name: &str) -> Vec<&'a str> {
    let mut lines = report.lines().skip_while(|l| !l.contains(name));
    let mut out: Vec<&str> = lines.next().into_iter().collect();
    out.extend(lines.take_while(|l| l.starts_with("        ")));
    out
}

/// The failures section's group that holds the check named `name` (in its `in:` list or as
/// its example): its header, the example's details and the hint.
fn group<'a>(report: &'a str, name: &str) -> Vec<&'a str> {
    let section: Vec<&str> = report
        .lines()
        .skip_while(|l| *l != "failures:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for l in section {
        if l.starts_with("  ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit) {
            groups.push(Vec::new());
        }
        if let Some(g) = groups.last_mut() {
            g.push(l);
        }
    }
    groups
        .into_iter()
        .find(|g| {
            g.iter().any(|l| {
                (l.starts_with("    in: ") || l.starts_with("    example: ")) && l.contains(name)
            })
        })
        .unwrap_or_default()
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
        assert!(
            out.lines()
                .any(|l| l.starts_with("FAIL  ") && l.contains(check)),
            "{bot}: {check} fails:\n{out}"
        );
        let text = group(&out, check).join("\n");
        assert!(text.contains("    hint: "), "{bot}: a hint:\n{out}");
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

/// Issue 24 point 2: check-bot says each check's result as it finishes (name, result, time),
/// tells a failure shared by many checks once with one example, and its hint names the likely
/// cause from what was seen: a bot that never flushes wrote nothing at all, so: flush.
#[test]
fn a_bot_that_never_flushes_is_reported_as_it_goes_grouped_with_the_flush_hint() {
    use std::io::BufRead;
    let s = Scratch::new("check-noflush");
    let out_dir = s.path("out");
    let bot = python_bot("tests/bots/broken_bot.py", &["no-flush", &s.marker]);
    let mut child = common::command()
        .args(["check-bot", &bot, "--rules", "classic", "--games", "1"])
        .args(["--handshake-timeout", "3s", "--out"])
        .arg(&out_dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let first_result = line.starts_with("FAIL  ") || line.starts_with("pass  ");
        seen.push(line);
        if first_result {
            break;
        }
    }
    // Streamed: when the first result is out, the later scenarios have not been played (each
    // waits out the 3 s handshake), so their records do not exist yet.
    let records = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "jsonl")
        })
        .count();
    assert!(
        records <= 2,
        "the first result came after {records} games: {seen:?}"
    );
    seen.extend(lines.map(Result::unwrap));
    assert_eq!(child.wait().unwrap().code(), Some(1));
    let out = seen.join("\n");
    let streamed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL  ")).collect();
    assert_eq!(streamed.len(), 5, "one line per scenario: {out}");
    for l in &streamed {
        assert!(l.ends_with(" s)"), "its time: {l}");
    }
    let g = group(&out, "classic: game 1");
    assert!(
        g.first()
            .is_some_and(|h| h.starts_with("  5 checks: handshake: no hello reply")),
        "one group for the five: {out}"
    );
    assert_eq!(
        out.matches("    example: ").count(),
        1,
        "one example: {out}"
    );
    let hint = g.iter().find(|l| l.starts_with("    hint: ")).unwrap();
    assert!(
        hint.contains("wrote nothing at all") && hint.contains("flush stdout"),
        "{hint}"
    );
    assert!(!out.contains("--sandbox none"), "not the sandbox: {out}");
    common::assert_no_leftovers(&s.marker);
}

/// `--fail-fast` stops at the first failure; a program that cannot start is a usage error,
/// said once, exit 2, as for `play`.
#[test]
fn fail_fast_stops_at_the_first_failure_and_a_missing_program_is_exit_2() {
    let s = Scratch::new("check-fast");
    let bot = python_bot("tests/bots/broken_bot.py", &["no-flush", &s.marker]);
    let o = check_bot(
        &bot,
        &["--games", "1", "--handshake-timeout", "1s", "--fail-fast"],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("FAIL  ")).count(),
        1,
        "{out}"
    );
    assert!(out.contains("stopped after 1 of "), "{out}");
    assert!(out.contains("--fail-fast"), "{out}");
    let o = check_bot("/nonexistent/tarneeb-bot", &[]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("cannot start bot").count(), 1, "{err}");
    assert!(stdout(&o).is_empty(), "no check was run: {}", stdout(&o));
    common::assert_no_leftovers(&s.marker);
}

/// Issue 24 point 2: check-bot's plain games of 41 against the built-in seats ran to the
/// rules' 200-hand cap (thousands of requests; it looked like a hang). They stop at a dozen
/// hands, and the streamed line says so.
#[test]
fn plain_games_stop_at_a_dozen_hands_and_say_so() {
    let s = Scratch::new("check-cap");
    let bot = python_bot("sample-bots/python/random_bot.py", &[&s.marker]);
    let o = check_bot(&bot, &["--rules", "41", "--games", "2"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for name in ["41: game 1 (seat 0", "41: game 2 (seat 1"] {
        let b = block(&out, name);
        assert!(
            b.first()
                .is_some_and(|l| l.starts_with("pass") && l.contains("at most 12 hands")),
            "{name}: {out}"
        );
        let hands: u32 = b
            .iter()
            .find_map(|l| l.trim().split_once(" hands, "))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: its hands: {out}"));
        assert!((1..=12).contains(&hands), "{name}: {hands} hands: {out}");
    }
    // The forced games keep their own caps and reach a game's end.
    assert!(
        block(&out, "41: from 38,20,30,10")
            .first()
            .is_some_and(|l| !l.contains("at most")),
        "{out}"
    );
    common::assert_no_leftovers(&s.marker);
}

/// Issue 24 point 2: a bot that writes every reply twice passed check-bot (the referee
/// discards a reply to a request already answered, protocol.md section 3's faults: up to 100
/// a game). It fails every game, told once with the request, the doubled reply and the fix.
#[test]
fn a_bot_that_answers_twice_fails_with_a_hint() {
    let s = Scratch::new("check-twice");
    let bot = python_bot("tests/bots/broken_bot.py", &["double-replies", &s.marker]);
    let o = check_bot(&bot, &["--rules", "classic", "--games", "2"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let streamed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL  ")).collect();
    assert_eq!(streamed.len(), 6, "every game fails: {out}");
    let g = group(&out, "classic: game 1").join("\n");
    assert!(
        g.starts_with("  6 checks: answered-twice: "),
        "one group: {g}\n---\n{out}"
    );
    assert!(g.contains("sent:   {\"type\":\"request\""), "{g}");
    assert!(g.contains("(twice)"), "{g}");
    assert!(
        g.contains("hint: it answered a request more than once")
            && g.contains("exactly one reply per request"),
        "{g}"
    );
    assert!(out.contains("pass  quiet after game_end"), "{out}");
    common::assert_no_leftovers(&s.marker);
}

/// Issue 41 point 4: check-bot's hint for a reply cut short mid-object said "write diagnostics
/// to stderr"; it now says the message was cut short and cites protocol.md section 2.
#[test]
fn a_reply_cut_short_gets_the_cut_short_hint() {
    let s = Scratch::new("check-cut");
    let bot = python_bot("tests/bots/broken_bot.py", &["cut-short", &s.marker]);
    let o = check_bot(&bot, &["--rules", "classic", "--games", "1", "--fail-fast"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let hint = out
        .lines()
        .find(|l| l.trim_start().starts_with("hint: "))
        .unwrap_or_else(|| panic!("a hint: {out}"));
    assert!(hint.contains("cut short"), "{hint}");
    assert!(hint.contains("protocol.md section 2"), "{hint}");
    assert!(!hint.contains("stderr"), "{hint}");
    common::assert_no_leftovers(&s.marker);
}
