//! `tarneeb bot pimc`, the double-dummy reference bot, through the real referee: every decision
//! of every preset answered legally (an illegal move or a bad reply forfeits the game), and a
//! duplicate match it wins against the heuristic sample bot by a margin random play never
//! reaches.

use crate::common;

use common::{fault_count, python_bot, root, stderr, stdout, tarneeb, Scratch};
use serde_json::Value;

fn pimc(extra: &str) -> String {
    format!("{} bot pimc {extra}", env!("CARGO_BIN_EXE_tarneeb"))
}

fn rules(scratch: &Scratch, name: &str, json: &str) -> String {
    scratch.file(name, json).display().to_string()
}

/// Plays one game; it must end without a forfeit and its record must replay.
fn play_clean(scratch: &Scratch, rules: &str, seed: &str, bots: [&str; 4]) {
    let record = scratch.path(&format!("{seed}.jsonl"));
    let rec = record.display().to_string();
    let mut args = vec![
        "play", "--json", "--rules", rules, "--seed", seed, "--record", &rec,
    ];
    for b in &bots {
        args.extend(["--bot", b]);
    }
    let out = tarneeb(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = stdout(&out);
    assert!(!result.contains("forfeit"), "{rules}: {result}");
    let replay = tarneeb(&["replay", &rec, "--json"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let game: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert!(game["finished"].as_bool().unwrap());
    let faults = fault_count(&game);
    assert_eq!(faults, 0, "{rules}");
    let log = std::fs::read_to_string(record.with_extension("seat0.stderr.log")).unwrap();
    assert!(log.contains(" samples in "), "{log}");
}

#[test]
fn pimc_answers_every_decision_of_every_preset_legally() {
    let scratch = Scratch::new("pimc-legal");
    let random = python_bot("sample-bots/python/random_bot.py", &[]);
    let bot = pimc("--ms 30");
    let presets = [
        ("classic", r#"{"preset": "classic", "max-hands": 2}"#),
        ("egyptian", r#"{"preset": "egyptian", "max-hands": 2}"#),
        ("400", r#"{"preset": "400", "max-hands": 3}"#),
        ("41", r#"{"preset": "41", "max-hands": 3}"#),
        // The two rules double-dummy solvers do not know: the first lead names the trump,
        // and the declarer must lead a trump first.
        (
            "first-lead",
            r#"{"preset": "classic", "max-hands": 2, "contract": {"trump": "first-lead"}}"#,
        ),
        (
            "trump-first-lead",
            r#"{"preset": "classic", "max-hands": 2, "contract": {"trump-first-lead": true}}"#,
        ),
    ];
    for (i, (name, json)) in presets.iter().enumerate() {
        let r = rules(&scratch, &format!("{name}.json"), json);
        let seed = (11 + i).to_string();
        play_clean(&scratch, &r, &seed, [&bot, &random, &bot, &random]);
    }
    // pimc at all four seats: it also has to follow its own kind's play; one side plays the
    // last tricks by the search against strategy fusion (issue 28), which must stay legal.
    let r = rules(
        &scratch,
        "all.json",
        r#"{"preset": "egyptian", "max-hands": 1}"#,
    );
    let fused = pimc("--ms 30 --fusion endgame");
    play_clean(&scratch, &r, "30", [&bot, &fused, &bot, &fused]);
}

/// The entrant's summed score margin (its team's score minus the other's) over a gauntlet's
/// games, and its wins.
fn margin(dir: &std::path::Path, name: &str) -> (i64, usize, usize) {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let (mut sum, mut wins, mut games) = (0, 0, 0);
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let team = if r["seats"][0] == name { 0 } else { 1 };
        let s = &r["team_scores"];
        sum += s[team].as_i64().unwrap() - s[1 - team].as_i64().unwrap();
        wins += usize::from(r["winner"].as_i64() == Some(team as i64));
        games += 1;
        if !r["forfeit_seat"].is_null() {
            let record = dir.join(r["record"].as_str().unwrap());
            let text = std::fs::read_to_string(record).unwrap_or_default();
            panic!(
                "a forfeit: {line}\nrecord ends: {}",
                text.lines().last().unwrap_or("")
            );
        }
    }
    (sum, wins, games)
}

fn gauntlet(scratch: &Scratch, tag: &str, entrant: &str, rules: &str) -> std::path::PathBuf {
    let out = scratch.path(tag);
    let heuristic = python_bot("sample-bots/python/heuristic_bot.py", &[]);
    let args = [
        "tournament".to_string(),
        "--format".into(),
        "gauntlet".into(),
        "--bot".into(),
        format!("{tag}={entrant}"),
        "--bot".into(),
        format!("heur={heuristic}"),
        "--games".into(),
        "2".into(),
        "--seed".into(),
        "15".into(),
        // The deals this margin was measured on (the seed's own, trusted bots), the same for
        // both gauntlets.
        "--public-deals".into(),
        "--rules".into(),
        rules.into(),
        "--out".into(),
        out.display().to_string(),
    ];
    let o = tarneeb(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    out
}

#[test]
fn pimc_beats_the_heuristic_bot_on_duplicate_deals_by_a_margin_random_play_never_reaches() {
    let scratch = Scratch::new("pimc-match");
    let r = rules(
        &scratch,
        "classic.json",
        r#"{"preset": "classic", "max-hands": 4}"#,
    );
    // The same deals, each played twice with the sides swapped.
    let random = python_bot("sample-bots/python/random_bot.py", &[]);
    let (random_margin, random_wins, games) =
        margin(&gauntlet(&scratch, "rnd", &random, &r), "rnd");
    assert_eq!(games, 4);
    let (pimc_margin, pimc_wins, _) = margin(
        &gauntlet(&scratch, "pimc", &pimc("--samples 6 --ms 60000"), &r),
        "pimc",
    );
    eprintln!(
        "over {games} games: pimc margin {pimc_margin} ({pimc_wins} wins), random {random_margin} ({random_wins} wins)"
    );
    assert!(pimc_margin > 0, "pimc lost on points: {pimc_margin}");
    assert!(pimc_wins * 2 >= games, "pimc won {pimc_wins} of {games}");
    assert!(
        pimc_margin > random_margin + 40,
        "{pimc_margin} vs {random_margin}"
    );
    let _ = root();
}

/// docs/rules.md and protocol.md through `check-bot`: the handshake, every preset, every rare
/// situation (throw-in, forced dealer, No Trump, double and redouble, a bid of 13, 400's minimum by
/// score, the end of a game) and exiting on `game_end` and at the end of input.
#[test]
fn pimc_passes_check_bot_on_every_preset() {
    let scratch = Scratch::new("pimc-check");
    let out = scratch.path("out");
    let o = tarneeb(&[
        "check-bot",
        &pimc("--ms 20"),
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let report = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{report}{}", stderr(&o));
    assert!(report.contains("summary: all "), "{report}");
    for preset in ["classic", "egyptian", "400", "41"] {
        assert!(
            report
                .lines()
                .any(|l| l.starts_with(&format!("pass  {preset}: game 1"))),
            "{preset} played: {report}"
        );
    }
    assert!(report.contains("exits at the end of its input"), "{report}");
    // Every answer is logged with its sample rate (the number a bot author tunes --ms by).
    let logs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with("stderr.log"))
        .collect();
    let mut answers = 0;
    for log in logs {
        let text = std::fs::read_to_string(&log).unwrap();
        for l in text.lines().filter(|l| l.starts_with("pimc: request ")) {
            assert!(l.contains(" samples/s)"), "{}: {l}", log.display());
            answers += 1;
        }
    }
    assert!(answers > 100, "{answers} answers logged");
}
