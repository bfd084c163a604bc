//! End-to-end tests of what an organiser reads: the SPRT verdict, standings over pooled
//! tournaments, the crosstable and `--json`, configs. Uses the Python random sample bot.

use crate::common;

use std::io::Write as _;
use std::path::Path;

use common::{python_bot, tarneeb, text, Scratch, RANDOM_BOT};
use serde_json::{json, Value};
use tarneeb_referee::standings::sprt::{parse_sprt, sprt, SprtDecision, Units};

fn rows(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The schedule a directory played: (game, deal seed, seats) by game.
fn schedule(dir: &Path) -> Vec<(u64, u64, Value)> {
    let mut v: Vec<(u64, u64, Value)> = rows(dir)
        .iter()
        .map(|r| {
            (
                r["game"].as_u64().unwrap(),
                r["seed"].as_u64().unwrap(),
                r["seats"].clone(),
            )
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v
}

fn sprt_line(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("SPRT: "))
        .unwrap_or_else(|| panic!("no SPRT line in:\n{out}"))
        .to_string()
}

/// The SPRT verdict is the one of the first crossing: rows of games that were in flight at the
/// crossing (appended after it) pull the LLR back inside the bounds, yet the resumed run and
/// `tarneeb standings` both print "accept H1", the same line.
#[test]
fn the_sprt_verdict_is_fixed_at_the_first_crossing() {
    let scratch = Scratch::new("sprt-fixed");
    let dir = scratch.path("t");
    let random = python_bot(RANDOM_BOT, &[]);
    let spec = "elo0=0,elo1=10,alpha=0.05,beta=0.05";
    let args: Vec<String> = [
        "tournament",
        "--out",
        &dir.display().to_string(),
        "--bot",
        &format!("a={random}"),
        "--bot",
        &format!("b={random}"),
        "--format",
        "gauntlet",
        "--games",
        "1",
        "--no-duplicate",
        "--jobs",
        "1",
        "--sprt",
        spec,
    ]
    .map(String::from)
    .to_vec();
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(sprt_line(&text(&o.stdout)).contains("no decision yet"));
    // Game 0 was really played; the rows after it are written as the runner would have
    // appended them: wins until the test accepts H1, then the losses of games in flight.
    let first = rows(&dir).remove(0);
    let a_team = if first["seats"][0] == "a" { 0 } else { 1 };
    let mut scores = vec![match first["winner"].as_u64() {
        None => 0.5,
        Some(w) if w == a_team => 1.0,
        Some(_) => 0.0,
    }];
    let cfg = parse_sprt(spec).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("results.jsonl"))
        .unwrap();
    let mut game = 1u64;
    let mut add = |scores: &mut Vec<f64>, a_wins: bool| {
        let row = json!({"game": game, "pair": null, "seed": 1000 + game,
            "seats": ["a", "b", "a", "b"], "winner": if a_wins { 0 } else { 1 },
            "reason": "target", "team_scores": [31, 0], "hands": 4, "forfeit_seat": null,
            "record": format!("games/{game:06}.jsonl"), "referee_us_per_move": null});
        writeln!(file, "{row}").unwrap();
        record_for(&dir, &row);
        scores.push(if a_wins { 1.0 } else { 0.0 });
        game += 1;
    };
    while sprt(&cfg, Units::Games, &scores).decision == SprtDecision::Continue {
        add(&mut scores, true);
    }
    let at_crossing = sprt(&cfg, Units::Games, &scores);
    assert_eq!(at_crossing.decision, SprtDecision::AcceptH1);
    while sprt(&cfg, Units::Games, &scores).decision != SprtDecision::Continue {
        add(&mut scores, false);
    }
    drop(file);

    // Resuming: the test decided on the earlier rows, so no game is played.
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let resumed = sprt_line(&text(&o.stdout));
    let want = format!("SPRT: accept H1 (elo1): LLR {:.3}", at_crossing.llr);
    assert!(resumed.starts_with(&want), "{resumed}\nwanted {want}");
    assert!(resumed.contains("games in flight"), "{resumed}");
    assert_eq!(rows(&dir).len() as u64, game);

    let o = tarneeb(&["standings".into(), dir.display().to_string()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(sprt_line(&text(&o.stdout)), resumed);
}

/// Writes the record a hand-written row names: a header with the row's seed and a result line
/// with its outcome, what the results check reads (every row is checked against its record).
fn record_for(dir: &Path, row: &Value) {
    static RULES: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| {
        let o = tarneeb(&["rules", "classic"]);
        serde_json::from_slice(&o.stdout).expect("tarneeb rules prints JSON")
    });
    let header = json!({"type": "header", "format": 1, "referee": "test", "rules": rules,
        "seed": row["seed"], "first_dealer": 0, "bots": [],
        "time": {"handshake_ms": 1000, "move_ms": 1000, "bank_ms": null, "increment_ms": 0},
        "on_fault": "forfeit"});
    let mut result = json!({"type": "result", "winner": row["winner"], "reason": row["reason"],
        "hands": row["hands"], "team_scores": row["team_scores"]});
    if let Some(seat) = row["forfeit_seat"].as_u64() {
        let kind = row["forfeit_kind"].as_str().unwrap_or("timeout");
        result["forfeit"] = json!({"seat": seat, "kind": kind, "detail": "written by the test"});
    }
    let path = dir.join(row["record"].as_str().unwrap());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("{header}\n{result}\n")).unwrap();
}

/// A results file written by hand: A, B and C, duplicate pairs 0-3 and one game (8) whose twin
/// never ended; game 4 forfeited by A's seat 0 on a timeout.
fn known_results(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("tournament.json"), "{}\n").unwrap();
    // (game, pair, team 0, team 1, winner)
    let games: [(u64, u64, &str, &str, Option<u8>); 9] = [
        (0, 0, "A", "B", Some(0)),
        (1, 0, "B", "A", Some(0)),
        (2, 1, "A", "B", Some(0)),
        (3, 1, "B", "A", Some(1)),
        (4, 2, "A", "C", Some(1)),
        (5, 2, "C", "A", None),
        (6, 3, "B", "C", Some(0)),
        (7, 3, "C", "B", Some(0)),
        (8, 4, "B", "C", Some(0)),
    ];
    let mut text = String::new();
    for (game, pair, x, y, winner) in games {
        let scores = match winner {
            Some(0) => [41, 10],
            Some(_) => [10, 41],
            None => [20, 20],
        };
        let mut row = json!({"game": game, "pair": pair, "seed": 100 + pair,
            "seats": [x, y, x, y], "winner": winner, "reason": "target",
            "team_scores": scores, "hands": 6, "forfeit_seat": null,
            "record": format!("games/{game:06}.jsonl"), "referee_us_per_move": null,
            "hand_deltas": [[scores[0], scores[1]]]});
        if game == 4 {
            row["reason"] = json!("forfeit");
            row["forfeit_seat"] = json!(0);
            row["forfeit_kind"] = json!("timeout");
            row["timeouts"] = json!([1, 0, 0, 0]);
        }
        record_for(dir, &row);
        text.push_str(&format!("{row}\n"));
    }
    std::fs::write(dir.join("results.jsonl"), text).unwrap();
}

#[test]
fn standings_show_crosstable_faults_and_head_to_head_as_text_and_json() {
    let scratch = Scratch::new("known");
    let dir = scratch.path("t");
    known_results(&dir);
    let o = tarneeb(&[
        "standings".into(),
        dir.display().to_string(),
        "--json".into(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(
        (v["games"].as_u64(), v["pairs"].as_u64()),
        (Some(9), Some(4))
    );
    let entrant = |name: &str| {
        v["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()
            .clone()
    };
    let counts = |e: &Value| {
        ["games", "wins", "draws", "losses", "timeouts"].map(|k| e[k].as_u64().unwrap())
    };
    let (a, b, c) = (entrant("A"), entrant("B"), entrant("C"));
    assert_eq!(counts(&a), [6, 3, 1, 2, 1]);
    assert_eq!(counts(&b), [7, 3, 0, 4, 0]);
    assert_eq!(counts(&c), [5, 2, 1, 2, 0]);
    assert_eq!(a["forfeits"], json!({"timeout": 1}));
    assert_eq!(b["forfeits"], json!({}));
    // A: 41 + 10 + 41 + 41 + 10 + 20 for, 10 + 41 + 10 + 10 + 41 + 20 against.
    assert_eq!(a["points_for"], 163);
    assert_eq!(a["points_against"], 132);
    assert!((a["score"].as_f64().unwrap() - 3.5 / 6.0).abs() < 1e-12);
    // The crosstable, in standings order: points of the row entrant against the column one.
    let names: Vec<String> = v["crosstable"]["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    let at = |x: &str| names.iter().position(|n| n == x).unwrap();
    let cell = |x: &str, y: &str| {
        let c = &v["crosstable"]["cells"][at(x)][at(y)];
        (c["points"].as_f64().unwrap(), c["games"].as_u64().unwrap())
    };
    assert_eq!(cell("A", "B"), (3.0, 4));
    assert_eq!(cell("B", "A"), (1.0, 4));
    assert_eq!(cell("A", "C"), (0.5, 2));
    assert_eq!(cell("C", "A"), (1.5, 2));
    assert_eq!(cell("B", "C"), (2.0, 3));
    assert_eq!(cell("C", "B"), (1.0, 3));
    // Head to head: A-B is two pairs scoring 1/2 and 1 for A; B-C one pair (1/2) and game 8.
    let h2h = |x: &str, y: &str| {
        v["head_to_head"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| (h["a"] == x && h["b"] == y) || (h["a"] == y && h["b"] == x))
            .unwrap()
            .clone()
    };
    let ab = h2h("A", "B");
    assert_eq!(
        (ab["pairs"].as_u64(), ab["single_games"].as_u64()),
        (Some(2), Some(0))
    );
    let penta = if ab["a"] == "A" {
        json!([0, 0, 1, 0, 1])
    } else {
        json!([1, 0, 1, 0, 0])
    };
    assert_eq!(ab["pentanomial"], penta);
    let bc = h2h("B", "C");
    assert_eq!(
        (bc["pairs"].as_u64(), bc["single_games"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(v["leader"]["clear"].is_boolean());
    assert!(v["sprt"].is_null());

    // The same as text (with --detail: the statistics and their legends).
    let o = tarneeb(&[
        "standings".into(),
        dir.display().to_string(),
        "--detail".into(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // The first line names the winner (or why there is none), then the counts.
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("Winner: ") || first.starts_with("No clear winner: "),
        "{out}"
    );
    assert!(out.contains("\n9 games, 4 duplicate pairs\n"), "{out}");
    assert!(
        out.contains("won  drawn  lost  forfeits  timeouts  score  pts for  pts against"),
        "{out}"
    );
    assert!(
        out.contains("Columns: score: 1 per win, 1/2 per draw, over games;"),
        "{out}"
    );
    assert!(out.contains("Forfeits by kind:\n  A: timeout 1\n"), "{out}");
    let row_of = |x: &str| {
        let n = at(x) + 1;
        out.lines()
            .find(|l| l.starts_with(&format!("{n} {x} ")))
            .unwrap_or_else(|| panic!("no crosstable row for {x}:\n{out}"))
            .to_string()
    };
    let a_row = row_of("A");
    assert!(a_row.contains("3/4") && a_row.contains("0.5/2"), "{a_row}");
    assert!(row_of("C").contains("1.5/2"), "{out}");
    assert!(
        out.contains("Head to head: the first entrant against the second."),
        "{out}"
    );
    assert!(
        out.contains("LOS: the chance that the\nfirst is the stronger"),
        "{out}"
    );
}

/// config → tournament.json → config gives the same tournament: the same normalized file and
/// the same schedule (games, deal seeds, seats); a flag given with --config overrides it.
#[test]
fn a_config_round_trips_through_tournament_json() {
    let scratch = Scratch::new("config");
    let base = scratch.dir.clone();
    let random = python_bot(RANDOM_BOT, &[]);
    let toml = base.join("t.toml");
    std::fs::write(
        &toml,
        format!(
            "format = \"round-robin\"\ngames = 1\nseed = 5\nmove_timeout = \"20s\"\njobs = 2\n\
             rules = \"egyptian\"\nmemory_limit = \"1G\"\nsandbox_env = [\"LANG\"]\n\n[[bot]]\nname = \"r1\"\ncommand = \"{random}\"\n\n\
             [[bot]]\nname = \"r2\"\ncommand = [\"python3\", \"sample-bots/python/random_bot.py\"]\n\n\
             [[bot]]\nname = \"r3\"\ncommand = \"{random}\"\n"
        ),
    )
    .unwrap();
    let (a, b) = (base.join("a"), base.join("b"));
    let run = |args: &[&str]| {
        let o = tarneeb(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", text(&o.stderr));
    };
    run(&[
        "tournament",
        "--config",
        &toml.display().to_string(),
        "--seed",
        "6",
        "--out",
        &a.display().to_string(),
    ]);
    let first: Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(first["seed"], 6, "the flag overrides the file");
    assert_eq!(first["games"], 1);
    assert_eq!(first["time"]["move_ms"], 20000);
    assert_eq!(
        first["memory_limit"],
        1u64 << 30,
        "sandbox limits are kept as flags"
    );
    assert_eq!(first["sandbox_env"], serde_json::json!(["LANG"]));
    assert_eq!(first["entrants"].as_array().unwrap().len(), 3);
    let json = a.join("tournament.json").display().to_string();
    run(&[
        "tournament",
        "--config",
        &json,
        "--out",
        &b.display().to_string(),
    ]);
    let mut second: Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("tournament.json")).unwrap()).unwrap();
    // A new directory draws its own deal key (the old directory's records must not tell the
    // new games' deals); everything else is the same command.
    assert_ne!(first["deal_key_id"], second["deal_key_id"]);
    let mut first = first;
    first.as_object_mut().unwrap().remove("deal_key_id");
    second.as_object_mut().unwrap().remove("deal_key_id");
    assert_eq!(first, second);
    assert_eq!(schedule(&a).len(), 6);
    assert_eq!(schedule(&a), schedule(&b));
    // Resuming from the same file on the same directory is accepted as the same command.
    run(&[
        "tournament",
        "--config",
        &json,
        "--out",
        &a.display().to_string(),
    ]);
}

/// A Swiss tournament of five entrants: two rounds of two matches and a bye; resumed after
/// losing the last games it plays the same schedule.
#[test]
fn a_swiss_tournament_resumes_to_the_same_schedule() {
    let scratch = Scratch::new("swiss");
    let dir = scratch.path("t");
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b", "c", "d", "e"] {
        args.push("--bot".into());
        args.push(format!("{name}={random}"));
    }
    for a in [
        "--format", "swiss", "--rounds", "2", "--games", "1", "--seed", "3", "--jobs", "2", "--out",
    ] {
        args.push(a.into());
    }
    args.push(dir.display().to_string());
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first = schedule(&dir);
    assert_eq!(first.len(), 8, "2 rounds x 2 matches x 2 games");
    // Every entrant but one plays each round; nobody meets the same opponent twice.
    let mut met = std::collections::HashSet::new();
    for g in first.iter().step_by(2) {
        let mut m = [g.2[0].as_str().unwrap(), g.2[1].as_str().unwrap()];
        m.sort_unstable();
        assert!(met.insert(m), "{m:?} met twice: {first:?}");
    }
    // Lose the last round's last games (as if killed) and resume.
    let results = dir.join("results.jsonl");
    let kept: String = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .filter(|l| {
            serde_json::from_str::<Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
                < 6
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&results, kept).unwrap();
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("resuming"), "{}", text(&o.stderr));
    assert_eq!(schedule(&dir), first);
    // The Swiss table: a row per entrant with both rounds, one bye a round (five entrants),
    // the winner line on Swiss points; `standings` of the directory prints the same table.
    let out = text(&o.stdout);
    let swiss = |out: &str| -> Vec<String> {
        out.lines()
            .skip_while(|l| !l.starts_with("Swiss table"))
            .take(7)
            .map(String::from)
            .collect()
    };
    let table = swiss(&out);
    assert_eq!(table.len(), 7, "{out}");
    assert!(table[1].starts_with("rank  entrant  R1") && table[1].ends_with("points  Buchholz"));
    let byes = table[2..]
        .iter()
        .map(|l| l.matches("bye").count())
        .sum::<usize>();
    assert_eq!(byes, 2, "{out}");
    let first_line = out.lines().next().unwrap();
    assert!(
        first_line.starts_with("Winner of the Swiss: ")
            || first_line.starts_with("No clear winner: "),
        "{out}"
    );
    let again = tarneeb(&["standings".to_string(), dir.display().to_string()]);
    assert_eq!(swiss(&text(&again.stdout)), table);
}

/// `standings A B` on two runs of one command whose results differ is refused (exit 2) with
/// both directories named; the same games with the same results count once and say so.
#[test]
fn merging_two_runs_of_one_command_with_different_results_is_refused() {
    let scratch = Scratch::new("merge-conflict");
    let (a, b) = (scratch.path("a"), scratch.path("b"));
    known_results(&a);
    known_results(&b);
    let args = |x: &Path, y: &Path| {
        vec![
            "standings".to_string(),
            x.display().to_string(),
            y.display().to_string(),
        ]
    };
    // Identical results: counted once, and each directory is named with its command.
    let o = tarneeb(&args(&a, &b));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!("from {}: command ", a.display())),
        "{out}"
    );
    assert!(
        out.contains(
            "9 games (9 games also in an earlier directory, with the same results: counted once)"
        ),
        "{out}"
    );
    assert!(out.contains("\n9 games, 4 duplicate pairs\n"), "{out}");
    // Game 2 won by the other side in b.
    let mut rows_b = rows(&b);
    rows_b[2]["winner"] = json!(1);
    rows_b[2]["team_scores"] = json!([10, 41]);
    record_for(&b, &rows_b[2]);
    let lines: Vec<String> = rows_b.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(b.join("results.jsonl"), lines.concat()).unwrap();
    for (x, y) in [(&a, &b), (&b, &a)] {
        let o = tarneeb(&args(x, y));
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!(
                "{} and {} hold game 2 of the same command with different results",
                x.display(),
                y.display()
            )),
            "{err}"
        );
    }
}

/// A run that stopped before its schedule ended says "incomplete: X of Y games", in the text
/// and the JSON.
#[test]
fn a_partial_run_is_reported_incomplete() {
    let scratch = Scratch::new("partial");
    let dir = scratch.path("t");
    known_results(&dir);
    // Three entrants, round robin, two duplicate deal sets a match: 3 × 2 × 2 = 12 games.
    let config = json!({"entrants": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "format": "round-robin", "partners": "own", "games": 2, "duplicate": true, "seed": 1});
    std::fs::write(dir.join("tournament.json"), format!("{config}\n")).unwrap();
    let o = tarneeb(&["standings".to_string(), dir.display().to_string()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("incomplete: 9 of 12 games: "), "{out}");
    let o = tarneeb(&[
        "standings".to_string(),
        dir.display().to_string(),
        "--json".to_string(),
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["incomplete"], "incomplete: 9 of 12 games");
    assert_eq!(v["merge"]["expected_games"], 12);
}

/// Issue 40 point 1: an interrupted 3-entrant round robin (8 of its 12 games; A and C never
/// met) has no "Winner:" line: `tarneeb standings DIR` names a provisional leader, says that A
/// and C have not met and what their margin is inferred through, in the text and the JSON;
/// the statistics (crosstable, intervals, LOS) only with `--detail`.
#[test]
fn an_interrupted_round_robin_names_a_provisional_leader_and_who_has_not_met() {
    let scratch = Scratch::new("provisional");
    let dir = scratch.path("t");
    std::fs::create_dir_all(&dir).unwrap();
    let config = json!({"entrants": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
        "format": "round-robin", "partners": "own", "games": 2, "duplicate": true, "seed": 1});
    std::fs::write(dir.join("tournament.json"), format!("{config}\n")).unwrap();
    // (game, pair, team 0, team 1, winner): A beats B in both pairs, B beats C 3 games of 4.
    let games: [(u64, u64, &str, &str, u8); 8] = [
        (0, 0, "A", "B", 0),
        (1, 0, "B", "A", 1),
        (2, 1, "A", "B", 0),
        (3, 1, "B", "A", 1),
        (4, 2, "B", "C", 0),
        (5, 2, "C", "B", 1),
        (6, 3, "B", "C", 0),
        (7, 3, "C", "B", 0),
    ];
    let mut text_rows = String::new();
    for (game, pair, x, y, winner) in games {
        let scores = if winner == 0 { [41, 10] } else { [10, 41] };
        let row = json!({"game": game, "pair": pair, "seed": 100 + pair,
            "seats": [x, y, x, y], "winner": winner, "reason": "target",
            "team_scores": scores, "hands": 6, "forfeit_seat": null,
            "record": format!("games/{game:06}.jsonl"), "referee_us_per_move": null,
            "hand_deltas": [[scores[0], scores[1]]]});
        record_for(&dir, &row);
        text_rows.push_str(&format!("{row}\n"));
    }
    std::fs::write(dir.join("results.jsonl"), text_rows).unwrap();

    // Without --detail (issue 40): the same first line and plain block, a short table, no
    // statistician's columns.
    let o = tarneeb(&["standings".to_string(), dir.display().to_string()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let short = text(&o.stdout);
    assert!(
        short.contains("  1  A  won 4, lost 0 of 4 games (100.0%)\n"),
        "{short}"
    );
    let (body, more) = short.split_once("\nMore: ").expect("where the rest is");
    for detail in [
        "Details (",
        "95% interval",
        "LOS",
        "Crosstable",
        "Not met: ",
    ] {
        assert!(!body.contains(detail), "{detail}: {short}");
    }
    assert!(more.contains("standings DIR --detail` adds"), "{short}");

    let o = tarneeb(&[
        "standings".to_string(),
        dir.display().to_string(),
        "--detail".to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().next(), short.lines().next(), "{out}");
    assert!(!out.contains("Winner"), "{out}");
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("Leader (provisional, 8 of 12 games played): A, ")
            && first.ends_with(
                "; not met: A and C have not played each other; the margin is inferred through B."
            ),
        "{out}"
    );
    assert!(out.contains("incomplete: 8 of 12 games"), "{out}");
    // The plain block comes before the details: the verdict in a sentence, then each
    // entrant's record in words.
    let details = out.find("\nDetails (").expect("a Details heading");
    let plain = &out[..details];
    assert!(
        plain.contains("A leads B by +")
            && plain.contains("8 of 12 games played, so this is provisional."),
        "{out}"
    );
    assert!(
        plain.contains("  1  A  won 4, lost 0 of 4 games (100.0%)\n"),
        "{out}"
    );
    assert!(
        !plain.contains("+inf") && !plain.contains("-inf") && !plain.contains("LOS"),
        "{plain}"
    );
    // The crosstable shows why: no games between A and C.
    assert!(out.contains("\n1 A    x  4/4    -\n"), "{out}");
    assert!(
        out.contains("\nNot met: A and C have not played each other"),
        "{out}"
    );

    let o = tarneeb(&[
        "standings".to_string(),
        dir.display().to_string(),
        "--json".to_string(),
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let verdict = &v["verdict"];
    assert_eq!(verdict["leader"], "A");
    assert_eq!(verdict["provisional"], true);
    assert_eq!(
        (
            verdict["games_played"].as_u64(),
            verdict["games_scheduled"].as_u64()
        ),
        (Some(8), Some(12))
    );
    assert_eq!(
        verdict["not_met"],
        json!([{"a": "A", "b": "C", "through": ["B"], "linked": true}])
    );
    assert!(verdict["sentence"]
        .as_str()
        .unwrap()
        .starts_with("A leads B by +"));
    assert_eq!(v["winner"]["champion"], Value::Null);
    assert_eq!(v["winner"]["line"].as_str(), Some(first));
}
