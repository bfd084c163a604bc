//! A sandbox that fails to start a bot is not the bot's fault (issue 21: "bwrap's own start
//! failure (bad mount, missing path) is today a handshake fault of the bot"; docs/sandbox.md,
//! "When the sandbox cannot start a bot"). bwrap's `--json-status-fd` says whether it set the
//! sandbox up and started the program: when it did not, `play` and `tournament` stop with
//! bwrap's message and exit 2 instead of scoring a forfeit. A bot that only pretends (prints a
//! bwrap message and exits) is still faulted.

use crate::common;

use common::{have_bwrap, python_bot, tarneeb, text, Scratch, RANDOM_BOT};

/// An executable script whose interpreter does not exist: bwrap cannot start it (wide view:
/// execvp fails) or cannot even bind the interpreter's directory (strict view: a mount fails).
fn unstartable(s: &Scratch) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = s.file(
        "unstartable.py",
        "#!/nonexistent-tarneeb-dir/python9\nprint(1)\n",
    );
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

fn play(s: &Scratch, name: &str, seat1: &str, flags: &[&str]) -> (std::process::Output, String) {
    let record = s.path(&format!("{name}.jsonl"));
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = vec!["play".into(), "--sandbox".into(), "bwrap".into()];
    args.extend(flags.iter().map(|f| f.to_string()));
    args.extend(["--record".into(), record.display().to_string()]);
    for bot in [random.as_str(), seat1, &random, &random] {
        args.extend(["--bot".to_string(), bot.to_string()]);
    }
    let o = tarneeb(&args);
    (o, std::fs::read_to_string(&record).unwrap_or_default())
}

#[test]
fn bwraps_own_failure_stops_play_with_its_message_and_no_forfeit() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("setup-play");
    let bad = unstartable(&s);
    for (view, says) in [
        ("wide", "bwrap: execvp"),
        (
            "strict",
            "bwrap: Can't find source path /nonexistent-tarneeb-dir",
        ),
    ] {
        let (o, record) = play(&s, view, &bad, &["--sandbox-view", view]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{view}: {err}");
        assert!(
            err.contains("seat 1") && err.contains("the sandbox could not start it"),
            "{view}: {err}"
        );
        assert!(err.contains(says), "{view}: {err}");
        assert!(err.contains("not the bot's fault"), "{view}: {err}");
        let last = record.lines().last().unwrap_or_default();
        assert!(last.contains(r#""type":"aborted""#), "{view}: {record}");
        assert!(!record.contains(r#""type":"fault""#), "{view}: {record}");
        assert!(!record.contains(r#""type":"result""#), "{view}: {record}");
    }
}

#[test]
fn a_bot_that_pretends_to_be_bwrap_failing_is_still_faulted() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("setup-fake");
    use std::os::unix::fs::PermissionsExt;
    let p = s.file(
        "fake.sh",
        "#!/bin/sh\necho \"bwrap: Can't find source path /x: No such file or directory\" >&2\nexit 1\n",
    );
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (o, record) = play(&s, "fake", &p.display().to_string(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(record.contains(r#""type":"fault""#), "{record}");
    assert!(record.contains(r#""kind":"handshake""#), "{record}");
}

#[test]
fn bwraps_own_failure_stops_a_tournament_rather_than_scoring_forfeits() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("setup-tournament");
    let bad = unstartable(&s);
    let out = s.path("t");
    let random = python_bot(RANDOM_BOT, &[]);
    let o = tarneeb(&[
        "tournament".to_string(),
        "--sandbox".into(),
        "bwrap".into(),
        "--out".into(),
        out.display().to_string(),
        "--games".into(),
        "2".into(),
        "--bot".into(),
        format!("random={random}"),
        "--bot".into(),
        format!("bad={bad}"),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the sandbox could not start it"), "{err}");
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap_or_default();
    assert!(results.trim().is_empty(), "no game is scored: {results}");
}
