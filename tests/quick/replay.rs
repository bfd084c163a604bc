//! End-to-end tests of `tarneeb replay` and `tarneeb play --deals-from`: real games between the
//! Python sample bots, replayed by the real binary, then tampered with line by line.

use crate::common;

use common::{fault_count, root, stderr, stdout, tarneeb, Scratch, FAULT_BOT, RANDOM_BOT};

use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn random_bot() -> String {
    format!("{} {}", common::python(), root().join(RANDOM_BOT).display())
}

fn fault_bot(mode: &str) -> String {
    format!(
        "{} {} {mode} 3",
        common::python(),
        root().join(FAULT_BOT).display()
    )
}

/// Plays one game into `record`; the game must reach a result.
fn play(record: &Path, bots: [&str; 4], flags: &[&str]) -> Output {
    let rec = record.to_str().unwrap();
    let mut args = vec!["play", "--json", "--record", rec];
    for b in &bots {
        args.push("--bot");
        args.push(b);
    }
    args.extend_from_slice(flags);
    let out = tarneeb(&args);
    assert_eq!(out.status.code(), Some(0), "play failed: {}", stderr(&out));
    out
}

fn raw_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap()
}

fn replay(path: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["replay", path.to_str().unwrap()];
    args.extend_from_slice(flags);
    tarneeb(&args)
}

/// Writes `lines` to a copy and checks that replaying it fails at `line` with `words` in the
/// message.
fn assert_fails_at(scratch: &Scratch, name: &str, lines: &[String], line: usize, words: &str) {
    let path = scratch.path(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = replay(&path, &[]);
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: expected exit 1, stderr: {err}"
    );
    assert!(
        err.contains(&format!("line {line}: ")),
        "{name}: expected 'line {line}: ' in: {err}"
    );
    assert!(err.contains(words), "{name}: expected '{words}' in: {err}");
}

/// `replay --json` holds what the record holds: header, deals, moves, tricks, scores, result.
fn check_json_matches_record(record: &Path) {
    let out = replay(record, &["--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "replay --json: {}",
        stderr(&out)
    );
    let g: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let lines: Vec<Value> = raw_lines(record).iter().map(|l| parse(l)).collect();
    let header = &lines[0];
    for k in [
        "rules",
        "seed",
        "first_dealer",
        "bots",
        "time",
        "on_fault",
        "format",
    ] {
        assert_eq!(g[k], header[k], "header field {k}");
    }
    let hands = g["hands"].as_array().unwrap();
    let deals: Vec<&Value> = lines.iter().filter(|l| l["type"] == "deal").collect();
    assert_eq!(hands.len(), deals.len());
    for (h, d) in hands.iter().zip(&deals) {
        assert_eq!(h["number"], d["hand_number"]);
        assert_eq!(h["dealer"], d["dealer"]);
        assert_eq!(h["hands"], d["hands"]);
    }
    // Moves per hand, in order, as recorded.
    for h in hands {
        let n = &h["number"];
        let recorded: Vec<Value> = lines
            .iter()
            .filter(|l| l["type"] == "move" && &l["hand_number"] == n)
            .map(|l| {
                serde_json::json!({
                    "seat": l["seat"], "decision": l["decision"], "move": l["move"],
                    "ms": l["ms"], "substituted": l.get("substituted").cloned().unwrap_or(Value::Bool(false)),
                })
            })
            .collect();
        assert_eq!(
            h["moves"].as_array().unwrap(),
            &recorded,
            "moves of hand {n}"
        );
        // The tricks hold the played cards in order, 4 to a trick.
        let plays: Vec<&Value> = recorded
            .iter()
            .filter(|m| m["decision"] == "play")
            .map(|m| &m["move"])
            .collect();
        // A hand cut short in the middle of a trick ends with its unfinished trick.
        let trick_cards: Vec<&Value> = h["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .chain(
                h["unfinished_trick"]
                    .as_object()
                    .map(|_| &h["unfinished_trick"]),
            )
            .flat_map(|t| t["cards"].as_array().unwrap())
            .collect();
        assert_eq!(trick_cards, plays, "tricks of hand {n}");
        let calls: Vec<&Value> = recorded
            .iter()
            .filter(|m| m["decision"] == "call")
            .map(|m| &m["move"])
            .collect();
        let auction: Vec<&Value> = h["auction"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["move"])
            .collect();
        assert_eq!(auction, calls, "auction of hand {n}");
        let end = lines
            .iter()
            .find(|l| l["type"] == "hand_end" && &l["hand_number"] == n);
        if let Some(end) = end {
            let mut end = end.clone();
            end.as_object_mut().unwrap().remove("type");
            assert_eq!(h["end"], end, "hand_end of hand {n}");
        }
    }
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "result");
    let mut result = last.clone();
    result.as_object_mut().unwrap().remove("type");
    assert_eq!(g["result"], result);
    assert_eq!(g["finished"], true);
}

/// Tampered copies of a good record fail at the right line.
fn check_tampering(scratch: &Scratch, record: &Path) {
    let lines = raw_lines(record);
    let values: Vec<Value> = lines.iter().map(|l| parse(l)).collect();

    // A card changed in a move line: a card of another seat's hand.
    let i = values
        .iter()
        .position(|v| v["type"] == "move" && v["decision"] == "play")
        .expect("a card play");
    let seat = values[i]["seat"].as_u64().unwrap() as usize;
    let deal = values[..i]
        .iter()
        .rev()
        .find(|v| v["type"] == "deal")
        .unwrap();
    let other = deal["hands"][(seat + 1) % 4][0]
        .as_str()
        .unwrap()
        .to_string();
    let mut v = values[i].clone();
    v["move"] = Value::from(other.clone());
    let mut t = lines.clone();
    t[i] = v.to_string();
    assert_fails_at(
        scratch,
        "card.jsonl",
        &t,
        i + 1,
        &format!("seat {seat} played {other} but does not hold it"),
    );

    // A score changed in a hand_end line.
    let i = values
        .iter()
        .position(|v| v["type"] == "hand_end")
        .expect("a hand_end");
    let mut v = values[i].clone();
    let real = v["team_scores"][1].as_i64().unwrap();
    v["team_scores"][1] = Value::from(real + 3);
    let mut t = lines.clone();
    t[i] = v.to_string();
    let words = format!(
        "hand_end says team_scores [{}, {}]",
        v["team_scores"][0],
        real + 3
    );
    assert_fails_at(scratch, "score.jsonl", &t, i + 1, &words);

    // A move removed (one in the middle of a trick: the next seat seems to play out of turn).
    let i = (0..values.len() - 1)
        .find(|&i| {
            values[i]["type"] == "move"
                && values[i]["decision"] == "play"
                && values[i + 1]["type"] == "move"
                && values[i + 1]["decision"] == "play"
        })
        .expect("two card plays in a row");
    let mut t = lines.clone();
    t.remove(i);
    assert_fails_at(scratch, "removed.jsonl", &t, i + 1, "turn");

    // Truncated: the result line cut off.
    let t = &lines[..lines.len() - 1];
    assert_fails_at(scratch, "truncated.jsonl", t, lines.len(), "truncated");

    // The header's rules changed: at most one hand, so the second deal is one too many.
    if let Some(i) = values
        .iter()
        .position(|v| v["type"] == "deal" && v["hand_number"] == 2)
    {
        let mut h = values[0].clone();
        h["rules"]["max-hands"] = Value::from(1);
        let mut t = lines.clone();
        t[0] = h.to_string();
        assert_fails_at(scratch, "max-hands.jsonl", &t, i + 1, "the game is over");
    }
    // A game won on the target: a higher target leaves it unfinished at the result line.
    let last = values.last().unwrap();
    if last["reason"] == "target" {
        let mut h = values[0].clone();
        h["rules"]["target"] = Value::from(100_000);
        let mut t = lines.clone();
        t[0] = h.to_string();
        assert_fails_at(
            scratch,
            "target.jsonl",
            &t,
            lines.len(),
            "the game is not over",
        );
    }
}

fn preset_game(preset: &str, seed: &str) {
    let scratch = Scratch::new(preset);
    let record = scratch.path("game.jsonl");
    let b = random_bot();
    play(
        &record,
        [&b, &b, &b, &b],
        &["--rules", preset, "--seed", seed],
    );
    let out = replay(&record, &[]);
    assert_eq!(out.status.code(), Some(0), "replay: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(&format!("preset {preset}")), "{text}");
    assert!(text.contains("Hand 1, dealer "), "{text}");
    assert!(text.contains("\nresult: "), "{text}");
    check_json_matches_record(&record);
    check_tampering(&scratch, &record);
}

#[test]
fn classic_games_replay_and_tampering_is_caught() {
    preset_game("classic", "11");
}

#[test]
fn egyptian_games_replay_and_tampering_is_caught() {
    preset_game("egyptian", "12");
}

#[test]
fn four_hundred_games_replay_and_tampering_is_caught() {
    preset_game("400", "13");
}

#[test]
fn forty_one_games_replay_and_tampering_is_caught() {
    preset_game("41", "14");
}

/// hand_end's slow_play_penalty (protocol.md 4.3) is checked like every field, and a record
/// written before it existed (no such field) still replays.
#[test]
fn slow_play_penalty_is_checked_and_older_records_without_it_replay() {
    let scratch = Scratch::new("slow-play-field");
    let record = scratch.path("game.jsonl");
    let b = random_bot();
    play(
        &record,
        [&b, &b, &b, &b],
        &["--rules", "400", "--seed", "15"],
    );
    let lines = raw_lines(&record);
    let i = lines
        .iter()
        .position(|l| l.contains("\"slow_play_penalty\":[false,false,false,false]"))
        .expect("a hand_end with the field");
    let old: Vec<String> = lines
        .iter()
        .map(|l| l.replace("\"slow_play_penalty\":[false,false,false,false],", ""))
        .collect();
    assert!(!old.join("\n").contains("slow_play_penalty"));
    let path = scratch.path("old.jsonl");
    std::fs::write(&path, old.join("\n") + "\n").unwrap();
    let out = replay(&path, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut t = lines.clone();
    t[i] = t[i].replacen(
        "\"slow_play_penalty\":[false,false,false,false]",
        "\"slow_play_penalty\":[true,false,false,false]",
        1,
    );
    assert_fails_at(&scratch, "tampered.jsonl", &t, i + 1, "slow_play_penalty");
}

#[test]
fn the_transcript_shows_hands_auctions_tricks_and_scores() {
    let scratch = Scratch::new("transcript");
    let record = scratch.path("game.jsonl");
    let b = random_bot();
    play(
        &record,
        [&b, &b, &b, &b],
        &["--rules", "classic", "--seed", "21"],
    );
    let values: Vec<Value> = raw_lines(&record).iter().map(|l| parse(l)).collect();
    let out = replay(&record, &["--hand", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let deal = values.iter().find(|v| v["type"] == "deal").unwrap();
    assert!(
        text.starts_with(&format!("Hand 1, dealer {}\n", deal["dealer"])),
        "{text}"
    );
    assert!(!text.contains("Hand 2,"), "{text}");
    for seat in 0..4 {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("  seat {seat}: S: ")))
            .unwrap_or_else(|| panic!("seat {seat}'s hand in {text}"));
        // Every card of the seat's hand is shown under its suit.
        for card in deal["hands"][seat].as_array().unwrap() {
            let card = card.as_str().unwrap();
            let (rank, suit) = card.split_at(1);
            let part = line.split(&format!("{suit}: ")).nth(1).unwrap();
            let part = part.split("  ").next().unwrap();
            assert!(part.split(' ').any(|r| r == rank), "{card} in {line}");
        }
    }
    assert!(text.contains("  auction: "), "{text}");
    let first_call = values
        .iter()
        .find(|v| v["type"] == "move" && v["decision"] == "call")
        .unwrap();
    assert!(
        text.contains(&format!(
            "auction: {}: {}",
            first_call["seat"],
            first_call["move"].as_str().unwrap()
        )),
        "{text}"
    );
    let end = values.iter().find(|v| v["type"] == "hand_end").unwrap();
    if end["end"] == "played" {
        assert!(text.contains("  contract: "), "{text}");
        assert!(text.contains("  trick 1: "), "{text}");
        assert!(text.contains("  trick 13: "), "{text}");
    }
    assert!(
        text.contains(&format!(
            "scores {} : {}",
            end["team_scores"][0], end["team_scores"][1]
        )),
        "{text}"
    );
    // --hand with --json prints that hand only.
    let out = replay(&record, &["--hand", "1", "--json"]);
    let h: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(h["number"], 1);
    assert_eq!(h["hands"], deal["hands"]);
    // A hand the record does not hold is bad usage.
    let out = replay(&record, &["--hand", "999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--hand 999"), "{}", stderr(&out));
}

#[test]
fn unreadable_paths_exit_2_and_bad_records_exit_1() {
    let scratch = Scratch::new("paths");
    let out = replay(&scratch.path("missing.jsonl"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot read the record"),
        "{}",
        stderr(&out)
    );
    let out = replay(&scratch.dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = tarneeb(&["replay"]);
    assert_eq!(out.status.code(), Some(2));

    let bad = scratch.path("bad.jsonl");
    std::fs::write(&bad, "{\"type\":\"deal\",\"hand_number\":1}\n").unwrap();
    let out = replay(&bad, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1: "), "{}", stderr(&out));
    std::fs::write(&bad, "").unwrap();
    let out = replay(&bad, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("line 1: the record is empty"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn games_with_faults_replay() {
    let scratch = Scratch::new("faults");
    let b = random_bot();
    // Substitute: a garbage reply and a bot that exits; the referee's moves replay too.
    let record = scratch.path("substitute.jsonl");
    let g = fault_bot("garbage");
    let x = fault_bot("exit");
    play(
        &record,
        [&b, &g, &b, &x],
        &[
            "--rules",
            "400",
            "--seed",
            "31",
            // This seed's own deals: with them the game ends between tricks.
            "--public-deals",
            "--on-fault",
            "substitute:5",
        ],
    );
    let values: Vec<Value> = raw_lines(&record).iter().map(|l| parse(l)).collect();
    assert!(values.iter().any(|v| v["type"] == "fault"));
    assert!(values.iter().any(|v| v["substituted"] == true));
    let out = replay(&record, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let game: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let faults = fault_count(&game);
    assert_eq!(
        faults,
        values.iter().filter(|v| v["type"] == "fault").count()
    );
    check_json_matches_record(&record);
    let out = replay(&record, &[]);
    assert!(
        stdout(&out).contains("fault: seat 1 not-json (substitute)"),
        "{}",
        stdout(&out)
    );

    // A fault whose action is changed no longer matches the policy.
    let lines = raw_lines(&record);
    let i = values.iter().position(|v| v["type"] == "fault").unwrap();
    let mut t = lines.clone();
    t[i] = t[i].replace("\"substitute\"", "\"forfeit\"");
    assert_fails_at(
        &scratch,
        "action.jsonl",
        &t,
        i + 1,
        "under on_fault substitute:5",
    );

    // Forfeit: the result names the fault.
    let record = scratch.path("forfeit.jsonl");
    play(
        &record,
        [&b, &g, &b, &b],
        &["--rules", "classic", "--seed", "32"],
    );
    let out = replay(&record, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("forfeit: seat 1 (not-json)"),
        "{}",
        stdout(&out)
    );
    check_json_matches_record(&record);
    // A forfeit result with the fault line removed is caught at the result.
    let lines = raw_lines(&record);
    let values: Vec<Value> = lines.iter().map(|l| parse(l)).collect();
    let i = values.iter().position(|v| v["type"] == "fault").unwrap();
    let mut t = lines.clone();
    t.remove(i);
    assert_fails_at(&scratch, "no-fault.jsonl", &t, i + 1, "");
}

/// A game forfeited in the middle of a trick: `replay --json` holds the cards on the table
/// (they are in its moves), as `unfinished_trick`, and the transcript shows them.
#[test]
fn a_forfeit_in_the_middle_of_a_trick_keeps_the_trick() {
    let scratch = Scratch::new("mid-trick");
    let b = random_bot();
    // Seat 1 sends garbage at its 17th request: with these public deals, in the first trick of
    // hand 2 (cards already on the table).
    let g = format!(
        "{} {} garbage 17",
        common::python(),
        root().join(FAULT_BOT).display()
    );
    let record = scratch.path("mid.jsonl");
    play(
        &record,
        [&b, &g, &b, &b],
        &["--rules", "classic", "--seed", "5", "--public-deals"],
    );
    let lines: Vec<Value> = raw_lines(&record).iter().map(|l| parse(l)).collect();
    let last_hand =
        lines.iter().rev().find(|l| l["type"] == "deal").unwrap()["hand_number"].clone();
    let plays = lines
        .iter()
        .filter(|l| l["type"] == "move" && l["decision"] == "play" && l["hand_number"] == last_hand)
        .count();
    assert!(
        plays % 4 != 0,
        "the test needs a game forfeited in the middle of a trick ({plays} cards played)"
    );
    check_json_matches_record(&record);
    let out = replay(&record, &["--json"]);
    let game: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let hand = game["hands"].as_array().unwrap().last().unwrap();
    let t = &hand["unfinished_trick"];
    assert_eq!(t["cards"].as_array().unwrap().len(), plays % 4, "{t}");
    assert_eq!(t["number"], plays / 4 + 1, "{t}");
    let text = stdout(&replay(&record, &[]));
    assert!(
        text.contains(&format!("  trick {}: ", plays / 4 + 1)) && text.contains("(unfinished)"),
        "{text}"
    );
}

#[test]
fn deals_from_without_rules_uses_the_records_rules() {
    let scratch = Scratch::new("deals-from-rules");
    let first = scratch.path("first.jsonl");
    let b = random_bot();
    play(
        &first,
        [&b, &b, &b, &b],
        &["--rules", "egyptian", "--seed", "42"],
    );
    let second = scratch.path("second.jsonl");
    play(
        &second,
        [&b, &b, &b, &b],
        &["--seed", "43", "--deals-from", first.to_str().unwrap()],
    );
    let a = parse(&raw_lines(&first)[0]);
    let c = parse(&raw_lines(&second)[0]);
    assert_eq!(
        a["rules"], c["rules"],
        "the new game is played under the record's rules"
    );
    assert_eq!(c["rules"]["contract"]["bids"], "strains");
}

#[test]
fn deals_from_plays_the_same_deals_with_other_bots() {
    let scratch = Scratch::new("deals-from");
    let first = scratch.path("first.jsonl");
    let b = random_bot();
    play(
        &first,
        [&b, &b, &b, &b],
        &["--rules", "classic", "--seed", "41"],
    );
    let second = scratch.path("second.jsonl");
    let other = fault_bot("none");
    let first_arg = first.to_str().unwrap();
    play(
        &second,
        [&other, &other, &other, &other],
        &[
            "--rules",
            "classic",
            "--seed",
            "999",
            "--deals-from",
            first_arg,
        ],
    );
    let a: Vec<Value> = raw_lines(&first).iter().map(|l| parse(l)).collect();
    let c: Vec<Value> = raw_lines(&second).iter().map(|l| parse(l)).collect();
    assert_eq!(a[0]["first_dealer"], c[0]["first_dealer"]);
    assert_eq!(c[0]["seed"], 999);
    let deals = |v: &[Value]| -> Vec<Value> {
        v.iter()
            .filter(|l| l["type"] == "deal")
            .map(|l| l["hands"].clone())
            .collect()
    };
    let (da, dc) = (deals(&a), deals(&c));
    let n = da.len().min(dc.len());
    assert!(n >= 1);
    assert_eq!(da[..n], dc[..n], "the same deals in the same order");
    // The new bots played differently (their moves are not the first game's).
    let moves = |v: &[Value]| -> Vec<Value> {
        v.iter()
            .filter(|l| l["type"] == "move")
            .map(|l| l["move"].clone())
            .collect()
    };
    assert_ne!(moves(&a), moves(&c));
    // The new record replays.
    let out = replay(&second, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // --deals-from conflicts with --deals and --first-dealer, and never overwrites its source.
    for extra in [["--first-dealer", "2"], ["--deals", first_arg]] {
        let mut args = vec!["play", "--deals-from", first_arg, "--record"];
        let third = scratch.path("third.jsonl");
        args.push(third.to_str().unwrap());
        for _ in 0..4 {
            args.push("--bot");
            args.push(&b);
        }
        args.extend_from_slice(&extra);
        let out = tarneeb(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{}",
            stderr(&out)
        );
    }
    let mut args = vec!["play", "--deals-from", first_arg, "--record", first_arg];
    for _ in 0..4 {
        args.push("--bot");
        args.push(&b);
    }
    let before = std::fs::read(&first).unwrap();
    let out = tarneeb(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(&first).unwrap(), before);
    let out = tarneeb(&[
        "play",
        "--deals-from",
        scratch.path("missing.jsonl").to_str().unwrap(),
        "--bot",
        &b,
        "--bot",
        &b,
        "--bot",
        &b,
        "--bot",
        &b,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A record whose name ends in `.zst` is written zstd-compressed, and `replay` (and
/// `--deals-from`) read it as they read the plain record of the same game: same output.
#[test]
fn a_compressed_record_replays() {
    let s = Scratch::new("zst");
    let bot = random_bot();
    let plain = s.path("game.jsonl");
    let packed = s.path("game.jsonl.zst");
    for rec in [&plain, &packed] {
        play(
            rec,
            [&bot, &bot, &bot, &bot],
            &["--seed", "9", "--public-deals"],
        );
    }
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(bytes[..4], [0x28, 0xB5, 0x2F, 0xFD], "a zstd frame");
    assert!(bytes.len() * 3 < std::fs::metadata(&plain).unwrap().len() as usize);
    let a = replay(&plain, &["--json"]);
    let b = replay(&packed, &["--json"]);
    assert_eq!(b.status.code(), Some(0), "replay: {}", stderr(&b));
    // Reply times differ between the two games; the play does not.
    fn without_ms(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("ms");
                m.values_mut().for_each(without_ms);
            }
            Value::Array(a) => a.iter_mut().for_each(without_ms),
            _ => {}
        }
    }
    let moves = |o: &Output| {
        let mut v: Value = serde_json::from_str(&stdout(o)).unwrap();
        without_ms(&mut v);
        (v["hands"].clone(), v["result"].clone())
    };
    let (ma, mb) = (moves(&a), moves(&b));
    assert!(ma == mb, "the compressed record replays to another game");
    assert!(mb.0.as_array().is_some_and(|h| !h.is_empty()));
    // Its deals can be played again from the compressed record.
    let again = s.path("again.jsonl");
    let out = play(
        &again,
        [&bot, &bot, &bot, &bot],
        &["--deals-from", packed.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0));
    let deals = |p: &Path| -> Vec<Value> {
        raw_lines(p)
            .iter()
            .map(|l| parse(l))
            .filter(|l| l["type"] == "deal")
            .map(|l| l["hands"].clone())
            .take(1)
            .collect()
    };
    assert_eq!(deals(&again), deals(&plain));
}
