//! protocol.md 4.1: `hello` names the game its rules are (issue 24 point 7), as a real bot
//! reads it: the preset, or for a rules file the preset it is closest to and what it changes.

use crate::common;

use common::{python_bot, stderr, tarneeb, Scratch};
use serde_json::{json, Value};

/// The first line seat 0 read in a game under `rules`: its hello.
fn hello_under(s: &Scratch, rules: &str) -> Value {
    let prefix = s.path("bot0");
    let _ = std::fs::remove_file(s.path("bot0.in"));
    let mut args: Vec<String> = vec![
        "play".into(),
        "--rules".into(),
        rules.into(),
        "--seed".into(),
        "3".into(),
        "--record".into(),
        s.path("g.jsonl").display().to_string(),
        // The tee bot keeps what it read in the scratch directory: no sandbox.
        "--sandbox".into(),
        "none".into(),
    ];
    for seat in 0..4 {
        args.push("--bot".into());
        args.push(if seat == 0 {
            python_bot(
                "tests/bots/tee_bot.py",
                &[prefix.to_str().unwrap(), &s.marker],
            )
        } else {
            python_bot(common::RANDOM_BOT, &[])
        });
    }
    let _ = std::fs::remove_file(s.path("g.jsonl"));
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = std::fs::read_to_string(s.path("bot0.in")).unwrap();
    serde_json::from_str(read.lines().next().unwrap()).unwrap()
}

#[test]
fn hello_names_the_game() {
    let s = Scratch::new("hello-game");
    for preset in ["classic", "egyptian", "400", "41"] {
        let hello = hello_under(&s, preset);
        assert_eq!(hello["type"], "hello");
        assert_eq!(
            hello["game"],
            json!({"name": preset, "changed": []}),
            "{hello}"
        );
    }
    // A rules file: 400 played to 31 is still 400, with what it changes.
    let file = s.path("long400.json");
    std::fs::write(&file, r#"{"preset": "400", "target": 31}"#).unwrap();
    let hello = hello_under(&s, file.to_str().unwrap());
    assert_eq!(
        hello["game"],
        json!({"name": "400", "changed": ["target"]}),
        "{hello}"
    );
    common::assert_no_leftovers(&s.marker);
}
