//! `tarneeb replay --analyze`: the double-dummy analysis of recorded games of every preset is
//! consistent with the tricks actually taken (DDS's values are checked against an independent
//! search in the unit tests of `src/analysis/`).

use crate::common;

use std::path::Path;

use common::{python_bot, stderr, tarneeb, Scratch};
use serde_json::Value;
use tarneeb_referee::analysis::{analyse_game_by, game_accuracy, Method};
use tarneeb_referee::record::replay_file;

/// Plays a short game (at most four deals: analysis solves every card) between random bots.
fn play(scratch: &Scratch, preset: &str, seed: &str) -> std::path::PathBuf {
    play_rules(
        scratch,
        &format!("{preset}-{seed}"),
        &format!(r#"{{"preset": "{preset}", "max-hands": 4}}"#),
        seed,
    )
}

/// Plays a short game under the rules `json` between random bots; its record is `name.jsonl`.
fn play_rules(scratch: &Scratch, name: &str, json: &str, seed: &str) -> std::path::PathBuf {
    let rules = scratch.file(&format!("{name}.rules.json"), json);
    let record = scratch.path(&format!("{name}.jsonl"));
    let bot = python_bot("sample-bots/python/random_bot.py", &[]);
    let mut args = vec![
        "play".to_string(),
        "--json".into(),
        "--rules".into(),
        rules.display().to_string(),
        "--seed".into(),
        seed.into(),
        "--record".into(),
        record.display().to_string(),
    ];
    for _ in 0..4 {
        args.extend(["--bot".to_string(), bot.clone()]);
    }
    let out = tarneeb(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    record
}

fn analysed(record: &Path) -> Value {
    let out = tarneeb(&["replay", record.to_str().unwrap(), "--analyze", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn n(v: &Value) -> i64 {
    v.as_i64().unwrap()
}

/// Every card moves the declaring side's double-dummy total down by its cost when its own side
/// plays it and up by its cost when the other side does; so from par to the tricks taken, the
/// side's costs minus the other side's add up to par minus taken, hand by hand, and the total
/// after the last card is the tricks taken.
fn check_costs_sum_to_par_minus_taken(game: &Value) {
    let a = &game["analysis"];
    let hands = a["hands"].as_array().unwrap();
    assert!(!hands.is_empty(), "no hand was played out");
    let mut lost = [0i64; 4];
    let mut any_cost = false;
    for h in hands {
        let side = n(&h["side"]);
        let cards = h["cards"].as_array().unwrap();
        assert_eq!(cards.len(), 52);
        let (mut ours, mut theirs) = (0, 0);
        let mut total = n(&h["par"]);
        for c in cards {
            let cost = n(&c["cost"]);
            let seat = n(&c["seat"]);
            lost[seat as usize] += cost;
            any_cost |= cost > 0;
            if seat % 2 == side {
                ours += cost;
                total -= cost;
            } else {
                theirs += cost;
                total += cost;
            }
            assert_eq!(
                total,
                n(&c["side_tricks_after"]),
                "hand {}: {c}",
                h["number"]
            );
            let best = c["best"].as_array().unwrap();
            assert_eq!(cost == 0, best.contains(&c["card"]), "{c}");
        }
        assert_eq!(
            n(&h["par"]) - n(&h["taken"]),
            ours - theirs,
            "hand {}",
            h["number"]
        );
        assert_eq!(total, n(&h["taken"]));
        // The tricks taken as the verified record has them.
        let verified = game["hands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["number"] == h["number"])
            .unwrap();
        let taken = verified["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| n(&t["winner"]) % 2 == side)
            .count() as i64;
        assert_eq!(taken, n(&h["taken"]));
    }
    assert!(
        any_cost,
        "random bots made no double-dummy mistake: the test proves little"
    );
    for (seat, l) in lost.iter().enumerate() {
        assert_eq!(*l, n(&a["seats"][seat]["tricks_lost"]), "seat {seat}");
    }
    assert_eq!(lost.iter().sum::<i64>(), n(&a["game"]["tricks_lost"]));
}

/// A game of each preset and the seed it is played with.
const EVERY_PRESET: [(&str, &str); 4] = [
    ("classic", "3"),
    ("egyptian", "4"),
    ("400", "5"),
    ("41", "6"),
];

#[test]
fn card_costs_of_recorded_games_of_every_preset_add_up_to_par_minus_tricks_taken() {
    let scratch = Scratch::new("analysis-costs");
    for (preset, seed) in EVERY_PRESET {
        let record = play(&scratch, preset, seed);
        let game = analysed(&record);
        check_costs_sum_to_par_minus_taken(&game);
        let strains = game["analysis"]["hands"][0]["strains"].as_array().unwrap();
        match preset {
            "classic" => assert_eq!(strains.len(), 4, "four suits, no No Trump"),
            "egyptian" => assert_eq!(strains.len(), 5, "four suits and No Trump"),
            _ => assert!(strains.is_empty(), "400 and 41 have no trump choice"),
        }
    }
}

/// `--hand N` solves only hand N (a long game's other hands would cost minutes), and what it
/// prints is that hand of the whole game's analysis, as JSON and as text.
#[test]
fn one_hand_s_analysis_is_that_hand_of_the_whole_game_s() {
    let scratch = Scratch::new("analysis-one-hand");
    for (preset, seed) in EVERY_PRESET {
        let record = play(&scratch, preset, seed);
        let rec = record.to_str().unwrap();
        let whole = analysed(&record);
        let hands = whole["analysis"]["hands"].as_array().unwrap();
        assert!(!hands.is_empty(), "{preset}: no hand was played out");
        let whole_text = tarneeb(&["replay", rec, "--analyze"]);
        let whole_text = String::from_utf8(whole_text.stdout).unwrap();
        for h in hands {
            let number = h["number"].to_string();
            let one = tarneeb(&["replay", rec, "--analyze", "--json", "--hand", &number]);
            assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
            let one: Value = serde_json::from_slice(&one.stdout).unwrap();
            assert_eq!(&one["analysis"], h, "{preset} hand {number}");
            // The text of one hand is that hand's block of the whole game's text.
            let text = tarneeb(&["replay", rec, "--analyze", "--hand", &number]);
            let text = String::from_utf8(text.stdout).unwrap();
            let block = text
                .split_once(&format!("Hand {number}: team"))
                .map(|(_, b)| b)
                .unwrap_or_else(|| panic!("{preset} hand {number}: {text}"));
            assert!(
                whole_text.contains(block),
                "{preset} hand {number}: {block}"
            );
        }
    }
}

#[test]
fn the_text_analysis_shows_par_costs_and_accuracy() {
    let scratch = Scratch::new("analysis-text");
    let record = play(&scratch, "classic", "3");
    let out = tarneeb(&[
        "replay",
        record.to_str().unwrap(),
        "--analyze",
        "--hand",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Hand 1: team"), "{text}");
    assert!(text.contains(" par "), "{text}");
    assert!(text.contains("declarer's tricks by trump: C "), "{text}");
    assert!(text.contains("trick 13:"), "{text}");
    let full = tarneeb(&["replay", record.to_str().unwrap(), "--analyze"]);
    let full = String::from_utf8(full.stdout).unwrap();
    for seat in 0..4 {
        assert!(full.contains(&format!("  seat {seat}: ")), "{full}");
    }
    assert!(full.contains("tricks lost ("), "{full}");
}

#[test]
fn the_html_page_embeds_the_analysis_when_asked() {
    let scratch = Scratch::new("analysis-html");
    let record = play(&scratch, "classic", "3");
    let rec = record.to_str().unwrap();
    let page = scratch.path("g.html");
    let out = tarneeb(&["replay", rec, "--analyze", "--html", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html
        .find(r#"<script type="application/json" id="analysis">"#)
        .unwrap();
    let body = &html[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    let embedded: Value = serde_json::from_str(&body.replace("<\\/", "</")).unwrap();
    assert_eq!(embedded, analysed(&record)["analysis"]);
    assert!(html.contains("sup.cost"), "the page styles card costs");
    // Without --analyze the page carries no analysis.
    let plain = scratch.path("plain.html");
    let out = tarneeb(&["replay", rec, "--html", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(&plain).unwrap();
    assert!(html.contains(r#"id="analysis">null</script>"#));
}

/// The fast analysis (DDS's play analyser, best cards at a known value, the par reused as the
/// played trump's strain) gives exactly what solving every position afresh gives, on games of
/// every preset and of the two rules DDS cannot see (trump named by the first lead, first lead
/// in trumps), which the fast path solves lead by lead at the first card.
#[test]
fn the_fast_analysis_equals_solving_every_position_on_games_of_every_preset() {
    let scratch = Scratch::new("analysis-fast");
    let mut games = Vec::new();
    for (preset, seeds) in [
        ("classic", ["11", "12"]),
        ("egyptian", ["13", "14"]),
        ("400", ["15", "16"]),
        ("41", ["17", "18"]),
    ] {
        for seed in seeds {
            games.push(play(&scratch, preset, seed));
        }
    }
    for (name, contract) in [
        ("first-lead", r#"{"trump": "first-lead"}"#),
        ("trump-first-lead", r#"{"trump-first-lead": true}"#),
    ] {
        let rules = format!(r#"{{"preset": "classic", "max-hands": 3, "contract": {contract}}}"#);
        games.push(play_rules(&scratch, name, &rules, "19"));
    }
    let mut hands = 0;
    for record in &games {
        let g = replay_file(record).unwrap();
        let fast = analyse_game_by(&g, Method::Play).unwrap();
        let full = analyse_game_by(&g, Method::Positions).unwrap();
        assert_eq!(fast, full, "{}", record.display());
        let (seats, game) = game_accuracy(&g).unwrap();
        assert_eq!(
            (seats, game),
            (fast.seats, fast.game),
            "{}",
            record.display()
        );
        hands += fast.hands.len();
    }
    assert!(hands >= 20, "only {hands} hands were played out");
}

/// docs/rules.md#contract-trump (first-lead): no naming; the suit of the declarer's first lead
/// becomes trump. The strain table of such a game lists the suits the declarer held, each solved
/// with his lead in it, so its best entry is the hand's par (the declarer free to pick the suit he
/// leads): no entry above the par, none for a suit he could not lead.
#[test]
fn a_first_lead_strain_table_lists_the_declarers_suits_and_tops_out_at_the_par() {
    use tarneeb_referee::rules::Strain;
    let scratch = Scratch::new("analysis-first-lead");
    let mut hands = 0;
    for seed in ["21", "22", "23"] {
        let rules = r#"{"preset": "classic", "max-hands": 4, "contract": {"trump": "first-lead"}}"#;
        let record = play_rules(&scratch, &format!("first-lead-{seed}"), rules, seed);
        let g = replay_file(&record).unwrap();
        let a = analyse_game_by(&g, Method::Play).unwrap();
        for h in &a.hands {
            let v = g.hands.iter().find(|v| v.number == h.number).unwrap();
            let declarer = v.contract.as_ref().unwrap().declarer;
            let held: Vec<Strain> = Strain::ALL
                .into_iter()
                .filter(|s| {
                    s.trump()
                        .is_some_and(|t| v.hands[declarer].count_suit(t) > 0)
                })
                .collect();
            let listed: Vec<Strain> = h.strains.iter().map(|t| t.strain).collect();
            assert_eq!(listed, held, "hand {} of {}", h.number, record.display());
            let best = h.strains.iter().map(|t| t.tricks).max();
            assert_eq!(best, Some(h.par), "hand {}: {:?}", h.number, h.strains);
            hands += 1;
        }
    }
    assert!(hands >= 6, "only {hands} hands were played out");
}

/// Issue 41, point 6: "`replay --analyze` of a 200-hand game ran 88 s with no output, even on
/// a terminal". On a terminal (a pseudo-terminal made by `script`) it says how many hands are
/// played out of how many; with stderr not a terminal it says nothing of it.
#[test]
fn analyze_shows_its_progress_on_a_terminal_only() {
    let scratch = Scratch::new("analysis-progress");
    let record = play(&scratch, "classic", "7");
    let hands = analysed(&record)["analysis"]["hands"]
        .as_array()
        .unwrap()
        .len();
    assert!(hands > 0, "no hand was played out");
    let cmd = format!(
        "{} replay {} --analyze",
        env!("CARGO_BIN_EXE_tarneeb"),
        record.display()
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = String::from_utf8_lossy(&o.stdout);
    for done in 1..=hands {
        assert!(
            shown.contains(&format!("analysing: {done} of {hands} hands played out")),
            "hand {done} of {hands}: {shown}"
        );
    }
    let piped = tarneeb(&["replay", record.to_str().unwrap(), "--analyze"]);
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert!(!stderr(&piped).contains("analysing"), "{}", stderr(&piped));
}
