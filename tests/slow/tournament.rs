//! End-to-end tests of `tarneeb tournament` and `tarneeb standings` with the Python sample bots.

use crate::common;

use common::{tarneeb, text};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

fn random() -> &'static str {
    common::python_rel("sample-bots/python/random_bot.py")
}
fn heuristic_py() -> &'static str {
    common::python_rel("sample-bots/python/heuristic_bot.py")
}

fn heuristic() -> &'static str {
    if Path::new("sample-bots/python/heuristic_bot.py").exists() {
        heuristic_py()
    } else {
        random()
    }
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tarneeb-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Three entrants, one deal set per match: six games with duplicate.
fn three(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "tournament".into(),
        "--bot".into(),
        format!("alpha={}", random()),
        "--bot".into(),
        format!("beta={}", heuristic()),
        "--bot".into(),
        format!("gamma={}", random()),
        "--games".into(),
        "1".into(),
        "--seed".into(),
        "42".into(),
        "--jobs".into(),
        "2".into(),
        // Results are compared across runs: a Python bot slow to start on a loaded machine
        // must not forfeit one run's handshake and not another's.
        "--handshake-timeout".into(),
        "120s".into(),
        "--out".into(),
        dir.display().to_string(),
        // Runs are compared with each other (whole, resumed, shards): one deal key for all.
        "--deal-key".into(),
        common::shared_deal_key().display().to_string(),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn rows(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect()
}

/// Rows without timing, sorted by game.
fn comparable(dir: &Path) -> Vec<Value> {
    let mut v: Vec<Value> = rows(dir)
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("referee_us_per_move");
            r
        })
        .collect();
    v.sort_by_key(|r| r["game"].as_u64());
    v
}

#[test]
fn round_robin_of_three_counts_every_game_once() {
    let dir = out_dir("rr");
    let o = tarneeb(&three(&dir, &[]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = rows(&dir);
    assert_eq!(rows.len(), 6, "3 matches x 1 deal set x 2 games");
    let mut games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    games.sort();
    assert_eq!(games, (0..6).collect::<Vec<_>>());
    // Per entrant: wins + losses + draws = games played (4 each: 2 matches x 2 games).
    let mut tally: BTreeMap<String, [u32; 4]> = BTreeMap::new();
    for r in &rows {
        let seats: Vec<String> = serde_json::from_value(r["seats"].clone()).unwrap();
        for team in 0..2usize {
            let name = &seats[team];
            assert_eq!(name, &seats[team + 2], "own partners: one entrant per team");
            let t = tally.entry(name.clone()).or_default();
            t[3] += 1;
            match r["winner"].as_u64() {
                Some(w) if w as usize == team => t[0] += 1,
                Some(_) => t[1] += 1,
                None => t[2] += 1,
            }
        }
        assert!(r["referee_us_per_move"].as_f64().is_some_and(|x| x >= 0.0));
        assert!(dir.join(r["record"].as_str().unwrap()).is_file());
    }
    assert_eq!(tally.len(), 3);
    for (name, [w, l, d, n]) in &tally {
        assert_eq!(*n, 4, "{name}");
        assert_eq!(w + l + d, *n, "{name}");
    }
    let total_wins: u32 = tally.values().map(|t| t[0]).sum();
    let total_losses: u32 = tally.values().map(|t| t[1]).sum();
    assert_eq!(total_wins, total_losses);
    let out = text(&o.stdout);
    for name in ["alpha", "beta", "gamma"] {
        assert!(out.contains(name), "{out}");
    }
    let saved = std::fs::read_to_string(dir.join("standings.txt")).unwrap();
    assert!(saved.starts_with(out.trim_end()) || out.starts_with(saved.trim_end()));
    // The same command again finds every game done and prints the same standings.
    let again = tarneeb(&three(&dir, &[]));
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), out);
    assert_eq!(comparable(&dir).len(), 6);

    // Duplicate pairs: the same deals and first dealer, the partnerships' seats swapped.
    let by_pair = |p: u64| -> Vec<&Value> {
        let mut v: Vec<&Value> = rows.iter().filter(|r| r["pair"] == p).collect();
        v.sort_by_key(|r| r["game"].as_u64());
        v
    };
    for p in 0..3u64 {
        let pair = by_pair(p);
        assert_eq!(pair.len(), 2);
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(a["seed"], b["seed"]);
        assert_eq!(a["seats"][0], b["seats"][1]);
        assert_eq!(a["seats"][1], b["seats"][0]);
        let deals = |r: &Value| -> (Value, Vec<Value>) {
            let t = std::fs::read_to_string(dir.join(r["record"].as_str().unwrap())).unwrap();
            let lines: Vec<Value> = t
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let dealer = lines[0]["first_dealer"].clone();
            let hands = lines
                .iter()
                .filter(|l| l["type"] == "deal")
                .map(|l| l["hands"].clone())
                .collect();
            (dealer, hands)
        };
        let ((da, ha), (db, hb)) = (deals(a), deals(b));
        assert_eq!(da, db, "pair {p}: first dealer");
        let n = ha.len().min(hb.len());
        assert!(n >= 1);
        assert_eq!(
            ha[..n],
            hb[..n],
            "pair {p}: the same cards at the same seats"
        );
    }
}

#[test]
fn an_interrupted_tournament_resumes_to_the_same_results_and_shards_merge() {
    let whole = out_dir("whole");
    let o = tarneeb(&three(&whole, &[]));
    assert!(o.status.success(), "{}", text(&o.stderr));

    // Interrupt a run once a few results exist, then resume it.
    let cut = out_dir("cut");
    let child = common::command()
        .args(three(&cut, &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while rows(&cut).len() < 2 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let n = rows(&cut).len();
    if n < 6 {
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    }
    assert!(n >= 2);
    let resumed = tarneeb(&three(&cut, &[]));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert!(text(&resumed.stderr).contains("resuming"));
    assert_eq!(comparable(&cut), comparable(&whole));

    // Two shards merged give the standings of the whole run.
    let s1 = out_dir("shard1");
    let s2 = out_dir("shard2");
    for (d, k) in [(&s1, "1/2"), (&s2, "2/2")] {
        let o = tarneeb(&three(d, &["--shard", k]));
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    // Shards own whole deal sets (3 here, of two games each): both twins of a pair are in
    // one shard, so no shard's directory holds a deal another shard's bots play.
    for (d, n) in [(&s1, 4), (&s2, 2)] {
        let own = rows(d);
        assert_eq!(own.len(), n);
        for r in &own {
            assert_eq!(
                own.iter().filter(|o| o["pair"] == r["pair"]).count(),
                2,
                "{r}"
            );
        }
    }
    // A shard directory of a version that split the pairs cannot be resumed.
    let config = s2.join("tournament.json");
    let mut old: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    old.as_object_mut().unwrap().remove("shard_unit").unwrap();
    let kept = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let refused = tarneeb(&three(&s2, &["--shard", "2/2"]));
    let e = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{e}");
    assert!(
        e.contains("made by an older tarneeb") && e.contains("new --out directories"),
        "{e}"
    );
    std::fs::write(&config, kept).unwrap();
    let merged = tarneeb(&[
        "standings".into(),
        s1.display().to_string(),
        s2.display().to_string(),
    ]);
    let one = tarneeb(&["standings".into(), whole.display().to_string()]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    // The merge names its two directories, one command, its two shards; then the same.
    let merged = text(&merged.stdout);
    let from: Vec<&str> = merged.lines().filter(|l| l.starts_with("from ")).collect();
    assert_eq!(from.len(), 2, "{merged}");
    assert!(
        from[0].contains(", shard 1/2, ") && from[1].contains(", shard 2/2, "),
        "{merged}"
    );
    assert_eq!(
        from[0]
            .split(',')
            .next()
            .unwrap()
            .split(": command ")
            .nth(1),
        from[1]
            .split(',')
            .next()
            .unwrap()
            .split(": command ")
            .nth(1)
    );
    let without: Vec<&str> = merged.lines().filter(|l| !l.starts_with("from ")).collect();
    assert_eq!(without.join("\n") + "\n", text(&one.stdout));
    assert_eq!(
        text(&one.stdout),
        text(&o.stdout).split("champion").next().unwrap()
    );

    // Issue 40 point 4: "A full run merged with one of its own shards counts games twice
    // ... refuse or de-duplicate, and say which." The whole run and its shard 1/2 are one
    // command; the shard's 4 games are the whole run's and count once, as the output says,
    // and the standings are the whole run's.
    let twice = tarneeb(&[
        "standings".into(),
        whole.display().to_string(),
        s1.display().to_string(),
    ]);
    assert!(twice.status.success(), "{}", text(&twice.stderr));
    let twice = text(&twice.stdout);
    let from: Vec<&str> = twice.lines().filter(|l| l.starts_with("from ")).collect();
    assert_eq!(from.len(), 2, "{twice}");
    assert!(
        from[1].contains(
            ", shard 1/2, 4 games (4 games also in an earlier directory, with the same results: counted once)"
        ),
        "{twice}"
    );
    assert!(!twice.contains("different commands"), "{twice}");
    let without: Vec<&str> = twice.lines().filter(|l| !l.starts_with("from ")).collect();
    assert_eq!(without.join("\n") + "\n", text(&one.stdout));
}

#[test]
fn knockout_and_king_of_the_hill_crown_a_champion() {
    for format in ["knockout", "king-of-the-hill"] {
        let dir = out_dir(format);
        let o = tarneeb(&three(&dir, &["--format", format, "--no-duplicate"]));
        assert!(o.status.success(), "{format}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        let champion = out
            .lines()
            .find_map(|l| l.strip_prefix("champion: "))
            .unwrap_or_else(|| panic!("{format}: no champion in {out}"));
        assert!(["alpha", "beta", "gamma"].contains(&champion), "{out}");
        // Two matches of one game each.
        assert_eq!(rows(&dir).len(), 2, "{format}");
        // The first line names the champion and how its last match was won; the bracket or
        // ladder lists both matches; `standings` of the directory replays the same.
        assert!(
            out.starts_with(&format!("Champion: {champion} (final: ")),
            "{out}"
        );
        let step = if format == "knockout" {
            "round"
        } else {
            "match"
        };
        assert!(
            out.lines()
                .filter(|l| l.starts_with(&format!("  {step} ")))
                .count()
                == 2,
            "{out}"
        );
        let again = tarneeb(&["standings".to_string(), dir.display().to_string()]);
        assert!(again.status.success(), "{}", text(&again.stderr));
        assert_eq!(text(&again.stdout), out.split("champion: ").next().unwrap());
        let json = tarneeb(&[
            "standings".to_string(),
            dir.display().to_string(),
            "--json".to_string(),
        ]);
        let v: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(v["winner"]["champion"], champion, "{v}");
    }
}

#[test]
fn a_changed_command_on_an_existing_directory_is_refused() {
    let dir = out_dir("changed");
    let args = |seed: &str| -> Vec<String> {
        [
            "tournament",
            "--bot",
            &format!("a={}", random()),
            "--bot",
            &format!("b={}", random()),
            "--games",
            "1",
            "--no-duplicate",
            "--seed",
            seed,
            "--out",
            &dir.display().to_string(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let o = tarneeb(&args("1"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = tarneeb(&args("2"));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("seed: was 1, now 2"), "{err}");
    assert_eq!(rows(&dir).len(), 1);
}

#[test]
fn bad_usage_exits_2() {
    let dir = out_dir("usage");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--bot", "a=x"], "at least two entrants"),
        (vec!["--bot", "a=x", "--bot", "a=y"], "unique"),
        (vec!["--bot", "a b=x", "--bot", "c=y"], "name"),
        (
            vec![
                "--bot",
                "a=x",
                "--bot",
                "b=y",
                "--sprt",
                "elo0=0,elo1=5,alpha=0.05,beta=0.05",
            ],
            "gauntlet",
        ),
        (
            vec![
                "--bot", "a=x", "--bot", "b=y", "--format", "knockout", "--shard", "1/2",
            ],
            "--shard",
        ),
        (
            vec!["--bot", "a=x", "--bot", "b=y", "--partners", "rotate"],
            "four entrants",
        ),
    ];
    for (args, needle) in cases {
        let mut v: Vec<String> = vec![
            "tournament".into(),
            "--out".into(),
            dir.display().to_string(),
        ];
        v.extend(args.iter().map(|s| s.to_string()));
        let o = tarneeb(&v);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(needle),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn rotating_partners_and_deals_from_an_earlier_tournament() {
    let dir = out_dir("rotate");
    let mut args: Vec<String> = vec![
        "tournament".into(),
        "--out".into(),
        dir.display().to_string(),
    ];
    for (n, cmd) in [
        ("a", random()),
        ("b", random()),
        ("c", heuristic()),
        ("d", heuristic()),
    ] {
        args.push("--bot".into());
        args.push(format!("{n}={cmd}"));
    }
    args.extend(
        [
            "--partners",
            "rotate",
            "--games",
            "1",
            "--no-duplicate",
            "--jobs",
            "2",
        ]
        .map(String::from),
    );
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = rows(&dir);
    // Six partnerships, three disjoint pairings of them, one game each.
    assert_eq!(rows.len(), 3);
    let mut partnerships = std::collections::BTreeSet::new();
    for r in &rows {
        let seats: Vec<String> = serde_json::from_value(r["seats"].clone()).unwrap();
        let mut sorted = seats.clone();
        sorted.sort();
        assert_eq!(sorted, ["a", "b", "c", "d"]);
        for team in 0..2 {
            let mut p = [seats[team].clone(), seats[team + 2].clone()];
            p.sort();
            partnerships.insert(p);
        }
    }
    assert_eq!(
        partnerships.len(),
        6,
        "every entrant partners every other one"
    );

    // The same deals (and first dealer) with other bots.
    let again = out_dir("deals-from");
    let o = tarneeb(
        &[
            "tournament",
            "--out",
            &again.display().to_string(),
            "--bot",
            &format!("x={}", random()),
            "--bot",
            &format!("y={}", heuristic()),
            "--games",
            "3",
            "--no-duplicate",
            "--deals-from",
            &dir.display().to_string(),
        ]
        .map(String::from),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first = |path: PathBuf| -> (Value, Value) {
        let t = std::fs::read_to_string(path).unwrap();
        let lines: Vec<Value> = t
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let deal = lines.iter().find(|l| l["type"] == "deal").unwrap()["hands"].clone();
        (lines[0]["first_dealer"].clone(), deal)
    };
    for g in 0..3 {
        let rec = format!("games/{g:06}.jsonl");
        assert_eq!(first(again.join(&rec)), first(dir.join(&rec)), "game {g}");
    }
}

#[test]
fn sprt_stops_a_gauntlet_of_two() {
    let dir = out_dir("sprt");
    let o = tarneeb(
        &[
            "tournament",
            "--out",
            &dir.display().to_string(),
            "--bot",
            &format!("h={}", heuristic()),
            "--bot",
            &format!("r={}", random()),
            "--format",
            "gauntlet",
            "--games",
            "8",
            "--jobs",
            "2",
            "--sprt",
            "elo0=0,elo1=300,alpha=0.1,beta=0.1",
        ]
        .map(String::from),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("SPRT: "))
        .expect("an SPRT line");
    if line.contains("accept") {
        assert!(rows(&dir).len() < 16, "{line}");
    }
}

/// `--compress` writes zstd records (games/NNNNNN.jsonl.zst) that `replay`, the runner's own
/// timing and `--deals-from` read like plain ones; no stderr log is left by quiet bots.
#[test]
fn compressed_records_are_read_everywhere() {
    let dir = out_dir("zst");
    let o = tarneeb(&three(&dir, &["--compress"]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = rows(&dir);
    assert_eq!(rows.len(), 6);
    let games: Vec<String> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(games.len(), 6, "only the records: {games:?}");
    for r in &rows {
        let rec = r["record"].as_str().unwrap();
        assert!(rec.ends_with(".jsonl.zst"), "{rec}");
        assert!(r["referee_us_per_move"].is_number(), "{r}");
    }
    let first = dir.join(rows[0]["record"].as_str().unwrap());
    let replayed = tarneeb(&["replay".into(), first.display().to_string()]);
    assert!(replayed.status.success(), "{}", text(&replayed.stderr));
    // Standings and resume check every row against its record, compressed too.
    let standings = tarneeb(&["standings".into(), dir.display().to_string()]);
    assert!(standings.status.success(), "{}", text(&standings.stderr));
    let resumed = tarneeb(&three(&dir, &["--compress"]));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(
        self::rows(&dir).len(),
        6,
        "a resume keeps every compressed game"
    );
    let again = out_dir("zst-again");
    let o = tarneeb(&three(
        &again,
        &["--deals-from", &dir.display().to_string()],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&again);
}

/// `--analyze`: every row carries each seat's double-dummy tricks lost, the standings show
/// the column (text and JSON, also `tarneeb standings` over the directory), and over a small
/// duplicate match the random bot gives away more tricks per hand than the heuristic bot.
#[test]
fn analyze_ranks_card_play_by_double_dummy_tricks_lost() {
    let dir = out_dir("analyze");
    let o = tarneeb(&[
        "tournament".to_string(),
        "--bot".into(),
        format!("rnd={}", random()),
        "--bot".into(),
        format!("heur={}", heuristic()),
        "--games".into(),
        "1".into(),
        "--seed".into(),
        "5".into(),
        "--jobs".into(),
        "2".into(),
        "--analyze".into(),
        "--out".into(),
        dir.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let all = rows(&dir);
    assert_eq!(all.len(), 2);
    for r in &all {
        let a = &r["accuracy"];
        assert!(a["hands"].as_u64().unwrap() > 0, "{r}");
        assert_eq!(a["tricks_lost"].as_array().unwrap().len(), 4, "{r}");
    }
    let table = text(&o.stdout);
    assert!(table.contains("DD lost/hand"), "{table}");
    // Its interval and its legend with --detail (issue 40: the closing standings are the
    // short report).
    let detail = tarneeb(&[
        "standings".to_string(),
        dir.display().to_string(),
        "--detail".to_string(),
    ]);
    let detail = text(&detail.stdout);
    assert!(
        detail.lines().any(|l| l.starts_with("rank")
            && l.split_whitespace().collect::<Vec<_>>().ends_with(&[
                "lost/hand",
                "95%",
                "interval"
            ]))
            && detail.contains("DD lost/hand: tricks the entrant's cards gave away per hand"),
        "{detail}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap())
            .unwrap();
    let lost = |name: &str| -> Value {
        json["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()["dd_lost"]
            .clone()
    };
    let (rnd, heur) = (lost("rnd"), lost("heur"));
    assert_eq!(rnd["games"], 2, "{rnd}");
    assert!(rnd["low"].as_f64().unwrap() <= rnd["per_hand"].as_f64().unwrap());
    assert!(
        rnd["per_hand"].as_f64().unwrap() > heur["per_hand"].as_f64().unwrap(),
        "random {rnd} against heuristic {heur}"
    );
    // The standings of the directory read the rows' analysis back.
    let again = tarneeb(&["standings".to_string(), dir.display().to_string()]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("DD lost/hand"));
    assert_eq!(text(&again.stdout), table.split("champion").next().unwrap());
}

/// Both partnerships fail the handshake (bots that exit at once): the game is a draw
/// (protocol.md 6) and the forfeit is charged to both sides, not to the recorded seat's alone.
#[test]
fn a_double_handshake_forfeit_is_charged_to_both_sides() {
    let dir = out_dir("double-forfeit");
    let o = tarneeb(&[
        "tournament",
        "--out",
        &dir.display().to_string(),
        "--bot",
        "a=/bin/true",
        "--bot",
        "b=/bin/true",
        "--games",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r = rows(&dir);
    assert_eq!(r.len(), 2);
    for row in &r {
        assert!(row["winner"].is_null(), "{row}");
        let (first, also) = (row["forfeit_seat"].as_u64(), row["also_forfeited"].as_u64());
        assert!(
            first.zip(also).is_some_and(|(f, a)| f % 2 != a % 2),
            "{row}"
        );
    }
    let json = tarneeb(&["standings", &dir.display().to_string(), "--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    for e in v["entrants"].as_array().unwrap() {
        assert_eq!(e["forfeits"]["handshake"], 2, "{e}");
        assert_eq!(
            (e["draws"].as_u64(), e["losses"].as_u64()),
            (Some(2), Some(0)),
            "{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 40 point 6: "Progress lines when stderr is not a terminal (`--progress every=30s`,
/// default on in that case)". stderr is a pipe here; a games-based interval makes the lines
/// deterministic: one a game, each in plain text (no terminal escapes) with games done of the
/// total, the rate and the time left.
#[test]
fn a_redirected_tournament_prints_progress_lines() {
    let dir = out_dir("progress");
    let o = tarneeb(&three(&dir, &["--progress", "every=1"]));
    let e = text(&o.stderr);
    assert!(o.status.success(), "{e}");
    let lines: Vec<&str> = e.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(!lines.is_empty(), "{e}");
    assert!(lines.iter().any(|l| l.contains("games 6/6 ")), "{e}");
    for l in &lines {
        assert!(l.contains("/min, ETA "), "{l}");
        assert!(!l.contains('\x1b') && !l.contains('\r'), "{l:?}");
    }
    let refused = tarneeb(&three(&out_dir("progress-bad"), &["--progress", "every=0"]));
    let e = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{e}");
    assert!(e.contains("--progress") && e.contains("every=30s"), "{e}");
}
