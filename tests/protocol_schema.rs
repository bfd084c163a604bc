//! Every message of real games, in both directions, validates against protocol/schema.json, the
//! machine-readable form of protocol.md.

mod common;

use std::process::Command;

use common::{root, schema_validator as validator, trace_lines};

use serde_json::Value;

fn errors(v: &jsonschema::Validator, msg: &Value) -> Vec<String> {
    v.iter_errors(msg)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn every_message_of_real_games_validates() {
    let to_bot = validator("to_bot");
    let from_bot = validator("from_bot");
    let dir = std::env::temp_dir().join(format!("tarneeb-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = format!(
        "python3 {}",
        root().join("sample-bots/python/random_bot.py").display()
    );
    let mut seen = std::collections::BTreeSet::new();
    let games: &[(&str, &str)] = &[
        ("classic", "classic"),
        ("egyptian", "egyptian"),
        ("400", "400"),
        ("41", "41"),
        (
            "throw-ins",
            r#"{"preset": "classic", "contract": {"throw-in-weak-hand": true, "throw-in-long-suit": true, "no-trump": true}}"#,
        ),
        (
            "dakak",
            r#"{"preset": "egyptian", "contract": {"dakak": true, "out-of-call": true, "doubling": "redouble"}}"#,
        ),
        ("faults", "classic"),
    ];
    let garbage = format!(
        "python3 {} garbage 3",
        root().join("tests/bots/fault_bot.py").display()
    );
    for (i, (name, rules)) in games.iter().enumerate() {
        let rules_arg = if rules.starts_with('{') {
            let p = dir.join(format!("{name}.json"));
            std::fs::write(&p, rules).unwrap();
            p.display().to_string()
        } else {
            rules.to_string()
        };
        let trace = dir.join(format!("{name}-trace"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tarneeb"));
        cmd.current_dir(root()).args([
            "play",
            "--json",
            "--seed",
            &(40 + i).to_string(),
            "--rules",
            &rules_arg,
        ]);
        cmd.arg("--record")
            .arg(dir.join(format!("{name}.jsonl")))
            .arg("--trace")
            .arg(&trace);
        for seat in 0..4 {
            // In the "faults" game seat 1 writes garbage and the referee substitutes for it.
            let b = if *name == "faults" && seat == 1 {
                &garbage
            } else {
                &bot
            };
            cmd.arg("--bot").arg(b);
        }
        if *name == "faults" {
            cmd.args(["--on-fault", "substitute:3"]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let traced: Vec<(usize, bool, String)> = (0..4)
            .flat_map(|seat| {
                trace_lines(&trace.join(format!("{name}.seat{seat}.trace")))
                    .into_iter()
                    .map(move |(sent, line)| (seat, sent, line))
            })
            .collect();
        for (seat, sent, line) in &traced {
            if *name == "faults" && !*sent && *seat == 1 {
                continue; // the faulty bot's own lines are invalid on purpose
            }
            let msg: Value = serde_json::from_str(line).unwrap();
            let (v, dir_name) = if *sent {
                (&to_bot, "to bot")
            } else {
                (&from_bot, "from bot")
            };
            let errs = errors(v, &msg);
            assert!(
                errs.is_empty(),
                "{name}: {dir_name} message does not match the schema: {msg}\n{}",
                errs.join("\n")
            );
            seen.insert(format!(
                "{dir_name} {}",
                msg["type"].as_str().unwrap_or("?")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for t in [
        "hello", "deal", "request", "move", "trick", "hand_end", "fault", "game_end",
    ] {
        assert!(
            seen.contains(&format!("to bot {t}")),
            "no {t} message was checked: {seen:?}"
        );
    }
    assert!(
        seen.contains("from bot hello") && seen.contains("from bot move"),
        "{seen:?}"
    );
}

#[test]
fn the_schema_rejects_bad_messages() {
    let to_bot = validator("to_bot");
    let from_bot = validator("from_bot");
    let bad_out = [
        r#"{"type": "deal", "hand_number": 1, "dealer": 4, "hand": [], "announcements": []}"#,
        r#"{"type": "trick", "hand_number": 1, "number": 1, "leader": 0, "cards": ["AS", "1H", "2C", "3D"], "winner": 0}"#,
        r#"{"type": "fault", "seat": 1, "kind": "sulking", "action": "forfeit"}"#,
        r#"{"type": "unknown"}"#,
    ];
    for m in bad_out {
        assert!(
            !errors(&to_bot, &serde_json::from_str(m).unwrap()).is_empty(),
            "accepted: {m}"
        );
    }
    let bad_in = [
        r#"{"type": "move", "id": 1}"#,
        r#"{"type": "move", "id": 1, "move": "AS", "extra": true}"#,
        r#"{"type": "hello", "name": ""}"#,
        r#"{"type": "move", "id": 0, "move": "AS"}"#,
    ];
    for m in bad_in {
        assert!(
            !errors(&from_bot, &serde_json::from_str(m).unwrap()).is_empty(),
            "accepted: {m}"
        );
    }
    let good = r#"{"type": "move", "id": 3, "move": "10H"}"#;
    assert!(errors(&from_bot, &serde_json::from_str(good).unwrap()).is_empty());
}

/// protocol.md section 4.4: `new_game` as the referee writes it, and a hello reply declaring
/// `multi_game`, match the schema; `multi_game` must be a boolean.
#[test]
fn new_game_and_multi_game_match_the_schema() {
    use tarneeb_referee::protocol::{TimeLimits, ToBot, PROTOCOL_VERSION};
    use tarneeb_referee::rules::{Rules, Seat};
    let to_bot = validator("to_bot");
    let from_bot = validator("from_bot");
    let rules = Rules::classic();
    let msg = ToBot::NewGame {
        protocol: PROTOCOL_VERSION,
        seat: Seat::from_index(2),
        rules: &rules,
        time: TimeLimits {
            handshake_ms: 10_000,
            move_ms: 30_000,
            bank_ms: None,
            increment_ms: 0,
        },
    };
    let line = serde_json::to_value(&msg).unwrap();
    assert_eq!(line["type"], "new_game");
    assert!(errors(&to_bot, &line).is_empty(), "{line}");
    let ok: Value =
        serde_json::from_str(r#"{"type": "hello", "name": "b", "multi_game": true}"#).unwrap();
    assert!(errors(&from_bot, &ok).is_empty());
    let bad: Value =
        serde_json::from_str(r#"{"type": "hello", "name": "b", "multi_game": "yes"}"#).unwrap();
    assert!(!errors(&from_bot, &bad).is_empty());
}
