//! Every message of real games, in both directions, validates against protocol/schema.json, the
//! machine-readable form of protocol.md.

use crate::common;

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
        "{} {}",
        common::python(),
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
        "{} {} garbage 3",
        common::python(),
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
        r#"{"type": "hello", "name": "   "}"#,
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
    // A name is 1 to 100 characters, not bytes: 100 Arabic letters are 200 bytes.
    let arabic = serde_json::json!({"type": "hello", "name": "\u{637}".repeat(100)});
    assert!(errors(&from_bot, &arabic).is_empty());
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
        game: tarneeb_referee::protocol::game_name(&rules),
        time: TimeLimits {
            handshake_ms: 10_000,
            move_ms: 30_000,
            bank_ms: None,
            increment_ms: 0,
        },
        seed: (1 << 53) - 1,
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

// ---------------------------------------------------------------------------------------------
// protocol.md's prose against the schema and the code: the lists a bot author reads there are
// the ones the referee works with.
// ---------------------------------------------------------------------------------------------

fn doc() -> String {
    std::fs::read_to_string(root().join("protocol.md")).unwrap()
}

/// The text of protocol.md from the heading that starts with `heading` to the next heading of
/// the same or a higher level.
fn section(doc: &str, heading: &str) -> String {
    let start = doc
        .find(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("protocol.md has a heading {heading:?}"));
    let level = heading.split(' ').next().unwrap();
    let rest = &doc[start + 1..];
    let end = rest
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let line = &rest[i..];
            line.starts_with('#')
                && line
                    .split(' ')
                    .next()
                    .is_some_and(|h| h.len() <= level.len())
        })
        .unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The first cells (without their backticks) of the rows of the markdown table whose header
/// row is `header`, in `text`; and the cells of column `column` when asked for.
fn table_column(text: &str, header: &str, column: usize) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(header));
    assert!(lines.next().is_some(), "a table headed {header:?}");
    lines
        .skip(1) // | --- | --- |
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cell = l.split('|').nth(column + 1).unwrap().trim();
            cell.to_string()
        })
        .collect()
}

/// Backticked words of `text`.
fn ticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("protocol/schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn strings(v: &Value) -> std::collections::BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// Every fault kind, through a match that stops compiling when a kind is added: whoever adds
/// one adds it here, and the test below then wants it in protocol.md and the schema.
fn all_fault_kinds() -> Vec<tarneeb_referee::protocol::FaultKind> {
    use tarneeb_referee::protocol::FaultKind::*;
    let all = vec![
        Handshake,
        Timeout,
        Exited,
        Disconnected,
        Absent,
        NotJson,
        BadReply,
        LineTooLong,
        IllegalMove,
        Unsolicited,
        Flood,
        Memory,
        Processes,
        FileSize,
        CpuTime,
        Disk,
    ];
    for k in &all {
        match k {
            Handshake | Timeout | Exited | Disconnected | Absent | NotJson | BadReply
            | LineTooLong | IllegalMove | Unsolicited | Flood | Memory | Processes | FileSize
            | CpuTime | Disk => {}
        }
    }
    all
}

/// protocol.md section 5's fault table names exactly the kinds the referee has, and the schema
/// allows exactly those in `fault` and in a forfeit's `game_end`; the fault kinds of the limits
/// table (section 1.1) are the ones a limit leads to.
#[test]
fn fault_kinds_agree_in_the_doc_the_schema_and_the_code() {
    use std::collections::BTreeSet;
    use tarneeb_referee::bot::LimitKind;
    use tarneeb_referee::protocol::FaultKind;
    let doc = doc();
    let code: BTreeSet<String> = all_fault_kinds().iter().map(|k| k.to_string()).collect();
    let table: Vec<String> = table_column(&section(&doc, "## 5."), "| fault |", 0);
    let in_doc: BTreeSet<String> = table.iter().flat_map(|c| ticked(c)).collect();
    assert_eq!(table.len(), in_doc.len(), "one row per kind: {table:?}");
    assert_eq!(in_doc, code, "protocol.md section 5 against FaultKind");
    let schema = schema();
    let defs = &schema["$defs"];
    let in_fault = strings(&defs["to_bot_fault"]["properties"]["kind"]["enum"]);
    let in_forfeit =
        strings(&defs["to_bot_game_end"]["properties"]["forfeit"]["properties"]["kind"]["enum"]);
    assert_eq!(in_fault, code, "schema: fault.kind");
    assert_eq!(in_forfeit, code, "schema: game_end.forfeit.kind");
    for name in &in_doc {
        let k: FaultKind = serde_json::from_value(Value::String(name.clone())).unwrap();
        assert_eq!(&k.to_string(), name);
    }
    // Section 1.1: the limits and the fault each leads to (a limit without one says what the
    // bot gets instead, in parentheses).
    let limits: BTreeSet<String> = table_column(&section(&doc, "### 1.1"), "| flag |", 3)
        .iter()
        .filter(|c| !c.starts_with('('))
        .flat_map(|c| ticked(c))
        .collect();
    let from_limits: BTreeSet<String> = [
        LimitKind::Memory,
        LimitKind::Processes,
        LimitKind::FileSize,
        LimitKind::CpuTime,
        LimitKind::Disk,
    ]
    .into_iter()
    .map(|l| {
        match l {
            LimitKind::Memory
            | LimitKind::Processes
            | LimitKind::FileSize
            | LimitKind::CpuTime
            | LimitKind::Disk => {}
        }
        FaultKind::from(l).to_string()
    })
    .collect();
    assert_eq!(limits, from_limits, "protocol.md 1.1's limits table");
}

/// Every message type protocol.md shows is one the schema describes, in the direction the
/// schema says; every message the referee can send (each `ToBot` variant, through a match
/// that stops compiling when one is added) and every reply it reads is in both.
#[test]
fn message_types_agree_in_the_doc_the_schema_and_the_code() {
    use std::collections::BTreeSet;
    use tarneeb_referee::protocol::{
        read_hello, read_move, FaultAction, FaultKind, GameEndMsg, HandEndMsg, ReadReply,
        TimeLimits, ToBot, TurnClock, PROTOCOL_VERSION,
    };
    use tarneeb_referee::rules::{ByTeam, CardSet, DecisionKind, Move, Rules, Seat, View};
    let doc = doc();
    let mut in_doc = BTreeSet::new();
    for quote in ["\"type\": \"", "\"type\":\""] {
        for (i, _) in doc.match_indices(quote) {
            let rest = &doc[i + quote.len()..];
            in_doc.insert(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    let schema = schema();
    let defs = schema["$defs"].as_object().unwrap();
    let consts = |prefix: &str| -> BTreeSet<String> {
        defs.iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .filter_map(|(_, v)| v["properties"]["type"]["const"].as_str())
            .map(str::to_string)
            .collect()
    };
    let (to_bot, from_bot) = (consts("to_bot_"), consts("from_bot_"));
    // Section 9's lines between a relay and the server.
    let transport = consts("transport_");
    let union: BTreeSet<String> = to_bot
        .union(&from_bot)
        .chain(transport.iter())
        .cloned()
        .collect();
    assert_eq!(
        in_doc, union,
        "the types protocol.md shows against the schema's"
    );

    // What the referee sends.
    let rules = Rules::classic();
    let time = TimeLimits {
        handshake_ms: 1,
        move_ms: 1,
        bank_ms: None,
        increment_ms: 0,
    };
    let seat = Seat::from_index(0);
    let view = View::empty();
    let legal = [Move::Keep];
    let hand_end = HandEndMsg {
        hand_number: 1,
        dealer: seat,
        end: "played".into(),
        thrown_in_by: None,
        team_delta: ByTeam([0, 0]),
        team_scores: ByTeam([0, 0]),
        seat_delta: None,
        seat_scores: None,
        slow_play_penalty: None,
        reneged: None,
        instant_winner: None,
    };
    let game_end = GameEndMsg {
        winner: None,
        reason: "hand-cap".into(),
        hands: 1,
        team_scores: ByTeam([0, 0]),
        seat_scores: None,
        forfeit: None,
    };
    let sent = [
        ToBot::Hello {
            protocol: PROTOCOL_VERSION,
            seat,
            rules: &rules,
            game: tarneeb_referee::protocol::game_name(&rules),
            time,
            seed: 7,
        },
        ToBot::NewGame {
            protocol: PROTOCOL_VERSION,
            seat,
            rules: &rules,
            game: tarneeb_referee::protocol::game_name(&rules),
            time,
            seed: 7,
        },
        ToBot::Deal {
            hand_number: 1,
            dealer: seat,
            hand: CardSet::EMPTY,
            announcements: vec![],
        },
        ToBot::Request {
            id: 1,
            decision: DecisionKind::ThrowIn,
            legal: &legal,
            view: &view,
            time: TurnClock {
                limit_ms: 1,
                bank_ms: None,
            },
        },
        ToBot::Move {
            hand_number: 1,
            seat,
            decision: DecisionKind::ThrowIn,
            mv: Move::ThrowIn,
        },
        ToBot::Trick {
            hand_number: 1,
            number: 1,
            leader: seat,
            cards: vec![],
            winner: seat,
        },
        ToBot::HandEnd(hand_end),
        ToBot::Fault {
            seat,
            kind: FaultKind::Timeout,
            action: FaultAction::Forfeit,
        },
        ToBot::GameEnd(game_end),
    ];
    let mut from_code = BTreeSet::new();
    for msg in &sent {
        match msg {
            ToBot::Hello { .. }
            | ToBot::NewGame { .. }
            | ToBot::Deal { .. }
            | ToBot::Request { .. }
            | ToBot::Move { .. }
            | ToBot::Trick { .. }
            | ToBot::HandEnd(_)
            | ToBot::Fault { .. }
            | ToBot::GameEnd(_) => {}
        }
        let v = serde_json::to_value(msg).unwrap();
        from_code.insert(v["type"].as_str().unwrap().to_string());
    }
    assert_eq!(
        from_code.len(),
        sent.len(),
        "one type per variant: {from_code:?}"
    );
    assert_eq!(
        from_code, to_bot,
        "the messages the referee sends against the schema's"
    );

    // What the referee reads: a hello reply and a move reply, nothing else.
    let read: BTreeSet<String> = ["hello", "move", "request", "note"]
        .into_iter()
        .filter(|t| {
            let hello = read_hello(&format!(r#"{{"type":"{t}","name":"x"}}"#)).is_ok();
            let mv = matches!(
                read_move(&format!(r#"{{"type":"{t}","id":1,"move":"AS"}}"#)),
                ReadReply::Move { .. }
            );
            hello || mv
        })
        .map(str::to_string)
        .collect();
    assert_eq!(
        read, from_bot,
        "the replies the referee reads against the schema's"
    );
}

/// protocol.md 1.1: a sandboxed bot's environment is exactly the variables listed there.
#[test]
fn the_documented_environment_is_the_sandbox_s() {
    use std::collections::BTreeSet;
    use tarneeb_referee::bot::sandbox::PASSED_ENV;
    let sandbox = section(&doc(), "### 1.1");
    let start = sandbox
        .find("- **Environment**")
        .expect("an Environment item");
    let item = &sandbox[start..];
    let item = &item[..item[2..].find("\n- ").map_or(item.len(), |i| i + 2)];
    let words = ticked(item);
    let names: BTreeSet<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        .collect();
    let code: BTreeSet<&str> = PASSED_ENV.iter().copied().collect();
    assert_eq!(names, code, "protocol.md 1.1 against PASSED_ENV");
    assert!(words.iter().any(|w| w == "TMPDIR=/tmp"), "{words:?}");
    assert!(words.iter().any(|w| w == "--sandbox-env NAME"), "{words:?}");
}

/// The defaults protocol.md gives for the flags a bot lives under are `tarneeb play`'s.
#[test]
fn documented_defaults_are_the_referee_s() {
    let help = Command::new(env!("CARGO_BIN_EXE_tarneeb"))
        .args(["play", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // The help of one flag: its line (`  -x, --flag <V>` or `      --flag <V>`) and the
    // description under it, up to the next flag's line.
    let is_flag_line = |l: &str| {
        let t = l.trim_start();
        t.starts_with('-') && l.len() - t.len() <= 6
    };
    let flag_help = |flag: &str| -> String {
        let lines: Vec<&str> = help.lines().collect();
        let at = lines
            .iter()
            .position(|l| {
                is_flag_line(l)
                    && (l.trim_start().starts_with(&format!("{flag} "))
                        || l.contains(&format!(", {flag} ")))
            })
            .unwrap_or_else(|| panic!("play --help shows {flag}:\n{help}"));
        let end = (at + 1..lines.len())
            .find(|&i| is_flag_line(lines[i]))
            .unwrap_or(lines.len());
        lines[at..end].join("\n")
    };
    let default_of = |flag: &str| -> Option<String> {
        let h = flag_help(flag);
        let at = h.find("[default: ")?;
        Some(h[at + 10..at + h[at..].find(']').unwrap()].to_string())
    };
    let doc = doc();
    let limits = section(&doc, "### 1.1");
    let flags = table_column(&limits, "| flag |", 0);
    let defaults = table_column(&limits, "| flag |", 1);
    assert!(flags.len() >= 6, "{flags:?}");
    for (flag, default) in flags.iter().zip(&defaults) {
        let flag = flag.trim_matches('`');
        let want = (default != "none").then(|| default.trim_matches('`').to_string());
        assert_eq!(default_of(flag), want, "{flag}");
    }
    for (flag, said) in [
        ("--max-line", "`--max-line` bytes (default 1 MiB)"),
        ("--stderr-cap", "`--stderr-cap` bytes (default 1 MiB"),
    ] {
        assert!(doc.contains(said), "protocol.md says {said:?}");
        assert_eq!(default_of(flag).as_deref(), Some("1048576"), "{flag}");
    }
    assert!(doc.contains("`--sandbox auto`, the default"));
    assert_eq!(default_of("--sandbox").as_deref(), Some("auto"));
    assert!(doc.contains("`wide` (default)"));
    assert_eq!(default_of("--sandbox-view").as_deref(), Some("wide"));
    assert!(doc.contains("`forfeit` (default)"));
    assert_eq!(default_of("--on-fault").as_deref(), Some("forfeit"));
    // Section 2: events are batched unless `--events immediate` is given.
    assert!(doc.contains("--events\n  immediate` sends every event"));
    assert_eq!(default_of("--events").as_deref(), Some("batched"));
}
