//! protocol.md's examples are real: every example request (section 7) and the transcript of a
//! short hand (section 8) are played again with the seed, rules and scripted seats their marker
//! names, and must be exactly what the referee sends (and the bot writes), and match
//! protocol/schema.json.

use crate::common;

use std::collections::BTreeMap;

use serde_json::Value;

use common::{command, root, schema_validator as validator, trace_lines, Scratch};

/// `key=value` pairs of a marker comment; `rules` runs to the next ` seed=`-style key or the end.
fn attributes(marker: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = marker.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let (value, next) = if after.starts_with('{') {
            let end = after.rfind('}').unwrap() + 1;
            (&after[..end], &after[end..])
        } else {
            after.split_once(' ').unwrap_or((after, ""))
        };
        out.insert(key.trim().to_string(), value.to_string());
        rest = next.trim();
    }
    out
}

/// Plays the game a marker names with four scripted seats; returns each seat's trace lines as
/// (to_bot, line).
fn replay_game(s: &Scratch, tag: usize, a: &BTreeMap<String, String>) -> Vec<Vec<(bool, String)>> {
    let rules = &a["rules"];
    let rules = if rules.starts_with('{') {
        s.file(&format!("rules{tag}.json"), rules)
            .display()
            .to_string()
    } else {
        rules.clone()
    };
    let dir = s.path(&format!("t{tag}"));
    let exe = env!("CARGO_BIN_EXE_tarneeb");
    let mut cmd = command();
    // The examples are the seed's own deals: public deals, so anyone can make them again.
    cmd.args(["play", "--json", "--public-deals", "--rules", &rules])
        .args(["--seed", &a["seed"]])
        .arg("--record")
        .arg(s.path(&format!("g{tag}.jsonl")))
        .arg("--trace")
        .arg(&dir);
    for seat in 0..4 {
        let mut bot = format!("{exe} scripted-bot --seed {seat}");
        if let Some(p) = a.get("prefer") {
            bot.push_str(&format!(" --prefer {p}"));
        }
        cmd.arg("--bot").arg(bot);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (0..4)
        .map(|seat| trace_lines(&dir.join(format!("g{tag}.seat{seat}.trace"))))
        .collect()
}

/// The marker comments of protocol.md with the lines of the code block after each.
fn marked_blocks(kind: &str) -> Vec<(String, Vec<String>)> {
    let doc = std::fs::read_to_string(root().join("protocol.md")).unwrap();
    let open = format!("<!-- {kind}:");
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(l) = lines.next() {
        let Some(marker) = l.strip_prefix(&open) else {
            continue;
        };
        let marker = marker.trim_end_matches("-->").trim().to_string();
        assert!(
            lines.next().unwrap().starts_with("```"),
            "a code block follows {l}"
        );
        let body: Vec<String> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .map(str::to_string)
            .collect();
        out.push((marker, body));
    }
    out
}

/// Issue 41 point 8: section 7 said its examples came from `play` "with the built-in scripted
/// seats", which no command offered; it names the command these tests run (`replay_game`).
#[test]
fn section_7_names_the_command_its_examples_come_from() {
    let text = std::fs::read_to_string(root().join("protocol.md")).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "`tarneeb play --public-deals --seed S --rules R`",
        "`--bot \"tarneeb scripted-bot --seed N\"` for seat N",
    ] {
        assert!(flat.contains(part), "protocol.md section 7 lacks {part}");
    }
    // The command runs: a hidden subcommand, not a missing one.
    let o = command().args(["scripted-bot", "--help"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn example_requests_are_what_the_referee_sends() {
    let s = Scratch::new("protocol-examples");
    let to_bot = validator("to_bot");
    let blocks = marked_blocks("example");
    assert!(blocks.len() >= 5, "one block per game and the throw-in");
    let mut decisions = std::collections::BTreeSet::new();
    for (tag, (marker, body)) in blocks.iter().enumerate() {
        let a = attributes(marker);
        let sent: Vec<String> = replay_game(&s, tag, &a)
            .into_iter()
            .flatten()
            .filter(|(to, _)| *to)
            .map(|(_, l)| l)
            .collect();
        for line in body {
            let msg: Value = serde_json::from_str(line).unwrap();
            let errs: Vec<String> = to_bot.iter_errors(&msg).map(|e| e.to_string()).collect();
            assert!(errs.is_empty(), "{marker}: {line}: {errs:?}");
            assert!(
                sent.iter().any(|l| l == line),
                "{marker}: the referee did not send this line: {line}"
            );
            decisions.insert(format!("{} {}", a["rules"], msg["decision"]));
        }
    }
    for want in [
        "classic \"call\"",
        "classic \"trump\"",
        "classic \"play\"",
        "egyptian \"call\"",
        "400 \"call\"",
        "41 \"play\"",
    ] {
        assert!(decisions.contains(want), "{want} shown: {decisions:?}");
    }
}

#[test]
fn the_short_hand_transcript_is_a_real_exchange() {
    let s = Scratch::new("protocol-transcript");
    let to_bot = validator("to_bot");
    let from_bot = validator("from_bot");
    let blocks = marked_blocks("transcript");
    assert_eq!(blocks.len(), 1);
    let (marker, body) = &blocks[0];
    let a = attributes(marker);
    let seat: usize = a["seat"].parse().unwrap();
    let trace = &replay_game(&s, 0, &a)[seat];
    assert!(body.len() > 5, "{body:?}");
    for (i, line) in body.iter().enumerate() {
        let (to, text) = match line.split_at(2) {
            ("> ", t) => (true, t),
            ("< ", t) => (false, t),
            _ => panic!("a transcript line starts with > or <: {line}"),
        };
        assert_eq!(
            trace[i],
            (to, text.to_string()),
            "line {} of the transcript",
            i + 1
        );
        let msg: Value = serde_json::from_str(text).unwrap();
        let v = if to { &to_bot } else { &from_bot };
        assert!(v.iter_errors(&msg).next().is_none(), "{text}");
    }
    assert!(body.last().unwrap().contains("\"type\":\"hand_end\""));
}

/// The request example of section 4.2 and the reply under it name the same id.
#[test]
fn the_reply_example_answers_the_request_example() {
    let doc = std::fs::read_to_string(root().join("protocol.md")).unwrap();
    let section = &doc[doc.find("### 4.2").unwrap()..doc.find("### 4.3").unwrap()];
    let request_id = section
        .split("\"id\": ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    assert!(
        section.contains(&format!(
            "{{\"type\": \"move\", \"id\": {request_id}, \"move\""
        )),
        "the reply example echoes id {request_id}"
    );
}

/// Every JSON example in protocol.md, the illustrations of sections 4.1 to 4.4 too (a `"..."`
/// key stands for the rest of the rules, which the schema leaves open), is a message the schema
/// allows: one to a bot or one from a bot.
#[test]
fn every_json_example_matches_the_schema() {
    let doc = std::fs::read_to_string(root().join("protocol.md")).unwrap();
    let to_bot = validator("to_bot");
    let from_bot = validator("from_bot");
    let transport = validator("transport");
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(l) = lines.next() {
        if l.trim_end() == "```json" {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks.push(body);
        }
    }
    let mut checked = 0;
    for body in &blocks {
        // A block is one pretty-printed message or one message per line.
        let messages: Vec<Value> = match serde_json::from_str::<Value>(&body.join("\n")) {
            Ok(v) => vec![v],
            Err(_) => body
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
                .collect(),
        };
        for msg in messages {
            let to = to_bot.iter_errors(&msg).next().is_none();
            let from = from_bot.iter_errors(&msg).next().is_none();
            // Section 9's lines between a relay and the server.
            let relay = transport.iter_errors(&msg).next().is_none();
            assert!(
                to || from || relay,
                "a protocol.md example the schema refuses: {msg}\nto a bot: {:?}\nfrom a bot: {:?}",
                to_bot
                    .iter_errors(&msg)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>(),
                from_bot
                    .iter_errors(&msg)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
            );
            checked += 1;
        }
    }
    // hello, its replies, request (pretty), move reply, deal, move, trick, hand_end, fault,
    // game_end, new_game and the per-game requests of section 7.
    assert!(checked >= 20, "only {checked} examples found");
}
