//! Bot-supplied text reaches the organiser's terminal escaped (issue "Secret cards", point 5):
//! a hello name, a stderr tail or a quoted reply with an escape sequence, a clipboard write
//! (OSC 52) or a carriage return that forges a `winner:` line is printed with those characters
//! made visible, by `play` and by `replay`; a hello name with control characters is refused.

use crate::common;

use common::{python_bot, tarneeb, text, Scratch};

fn play(s: &Scratch, mode: &str) -> (String, std::path::PathBuf) {
    let record = s.path(&format!("{mode}.jsonl"));
    let evil = python_bot("tests/bots/escape_bot.py", &[mode]);
    let good = python_bot(common::RANDOM_BOT, &[]);
    let o = tarneeb(&[
        "play",
        "--seed",
        "1",
        "--record",
        record.to_str().unwrap(),
        "--bot",
        &evil,
        "--bot",
        &good,
        "--bot",
        &good,
        "--bot",
        &good,
    ]);
    assert!(o.status.success(), "{mode}: {}", text(&o.stderr));
    (text(&o.stdout) + &text(&o.stderr), record)
}

fn assert_inert(what: &str, out: &str) {
    assert!(
        !out.contains('\x1b'),
        "{what}: a raw escape reached the terminal: {out:?}"
    );
    assert!(
        !out.contains('\r'),
        "{what}: a raw carriage return: {out:?}"
    );
    assert!(!out.contains('\x07'), "{what}: a raw bell: {out:?}");
    assert!(
        !out.lines().any(|l| l.starts_with("winner: team 9")),
        "{what}: a forged line: {out}"
    );
}

#[test]
fn bot_text_is_printed_escaped_and_control_names_are_refused() {
    let s = Scratch::new("terminal-text");
    for mode in ["name", "stderr", "reply"] {
        let (out, record) = play(&s, mode);
        assert_inert(mode, &out);
        assert!(out.contains("forfeit: seat 0"), "{mode}: {out}");
        let replay = tarneeb(&["replay", record.to_str().unwrap()]);
        assert_inert(&format!("replay of {mode}"), &text(&replay.stdout));
        if mode == "name" {
            assert!(out.contains("control characters"), "{out}");
        } else {
            assert!(
                out.contains("\\u{1b}"),
                "{mode}: the escape is shown: {out}"
            );
        }
    }
}

/// Issue 41, point 7: `play`'s report is the seed, the winner and the final scores; a line per
/// hand only with `--verbose` (a game to the hand cap used to print 200 near-identical lines).
#[test]
fn play_prints_a_line_per_hand_only_when_asked() {
    let s = Scratch::new("play-verbose");
    let exe = env!("CARGO_BIN_EXE_tarneeb");
    let run = |extra: &[&str]| {
        let record = s.path(&format!("v{}.jsonl", extra.len()));
        let mut args: Vec<String> = vec![
            "play".into(),
            "--public-deals".into(),
            "--seed".into(),
            "3".into(),
            "--record".into(),
            record.display().to_string(),
        ];
        for i in 0..4 {
            args.push("--bot".into());
            args.push(format!("{exe} scripted-bot --seed {i}"));
        }
        args.extend(extra.iter().map(|x| x.to_string()));
        let o = tarneeb(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let short = run(&[]);
    assert!(
        short.contains("final scores: ") && !short.contains("(dealer "),
        "{short}"
    );
    let long = run(&["--verbose"]);
    assert!(long.contains("hand   1 (dealer "), "{long}");
    assert!(long.contains("final scores: "), "{long}");
}
