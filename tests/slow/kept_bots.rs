//! Bots kept up between games (protocol.md section 4.4, `multi_game` and `new_game`): a kept
//! process plays as a fresh one would, never plays the same deals twice, is replaced after a
//! fault, and only bots that declare it are kept. `tests/bots/multi_bot.py` names itself after
//! its process, so each record's header tells which process played which seat.

use crate::common;

use common::{python_bot, stderr, tarneeb, Scratch};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

const MULTI: &str = "tests/bots/multi_bot.py";

/// A two-entrant tournament in `dir`: `a` and `b` as given, `games` deal sets with duplicate,
/// one worker (so every game could reuse every kept process).
fn tournament(dir: &Path, a: &str, b: &str, games: u32, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "tournament",
        "--bot",
        &format!("a={a}"),
        "--bot",
        &format!("b={b}"),
        "--games",
        &games.to_string(),
        "--seed",
        "5",
        "--jobs",
        "1",
        // Runs are compared with each other: a Python bot slow to start on a loaded machine
        // must not forfeit a handshake in one run and not in the other.
        "--handshake-timeout",
        "120s",
        "--out",
        &dir.display().to_string(),
        // ... and must play the same deals: one deal key for all.
        "--deal-key",
        &common::shared_deal_key().display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_ok(args: &[String]) {
    let o = tarneeb(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

fn rows(dir: &Path) -> Vec<Value> {
    let mut v: Vec<Value> = std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect();
    v.sort_by_key(|r| r["game"].as_u64());
    v
}

/// Rows without timing, by game.
fn comparable(dir: &Path) -> Vec<Value> {
    rows(dir)
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("referee_us_per_move");
            r
        })
        .collect()
}

/// An entrant and the name its process gave in the game's hello reply.
type Process = (String, String);

/// Per game: its pair, and the (entrant, bot name from the record's header) of each seat.
fn processes(dir: &Path) -> Vec<(Option<u64>, Vec<Process>)> {
    rows(dir)
        .iter()
        .map(|r| {
            let record = dir.join(r["record"].as_str().unwrap());
            let text = std::fs::read_to_string(&record).unwrap();
            let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
            let seats = (0..4)
                .map(|s| {
                    (
                        r["seats"][s].as_str().unwrap().to_string(),
                        header["bots"][s]["name"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            (r["pair"].as_u64(), seats)
        })
        .collect()
}

/// How many games each (entrant, process) played.
fn games_per_process(dir: &Path) -> BTreeMap<Process, usize> {
    let mut n = BTreeMap::new();
    for (_, seats) in processes(dir) {
        for p in seats {
            *n.entry(p).or_insert(0) += 1;
        }
    }
    n
}

/// The moves of every game's record (seat, decision, move), without reply times.
fn moves(dir: &Path) -> Vec<Vec<String>> {
    rows(dir)
        .iter()
        .map(|r| {
            let text = std::fs::read_to_string(dir.join(r["record"].as_str().unwrap())).unwrap();
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .filter(|l| l["type"] == "move")
                .map(|l| format!("{} {} {}", l["seat"], l["decision"], l["move"]))
                .collect()
        })
        .collect()
}

/// Deterministic bots play the same games kept up as started afresh for each game: same rows,
/// same moves in every record. The Python sample bots and multi_bot all declare multi_game.
#[test]
fn kept_bots_play_the_same_games_as_fresh_ones() {
    let s = Scratch::new("kept-same");
    let a = python_bot(MULTI, &["multi", &s.marker]);
    let b = python_bot("sample-bots/python/heuristic_bot.py", &[&s.marker]);
    let kept = s.path("kept");
    let fresh = s.path("fresh");
    run_ok(&tournament(&kept, &a, &b, 3, &[]));
    run_ok(&tournament(&fresh, &a, &b, 3, &["--fresh-bots"]));
    assert_eq!(comparable(&kept).len(), 6);
    assert_eq!(comparable(&kept), comparable(&fresh));
    assert_eq!(moves(&kept), moves(&fresh));
    // Kept means kept: some process of `a` played more than one game, with --fresh-bots none.
    let most = |d: &Path| {
        let per = games_per_process(d);
        per.into_iter()
            .filter(|((e, _), _)| e == "a")
            .map(|(_, n)| n)
            .max()
            .unwrap()
    };
    assert!(most(&kept) > 1, "{:?}", games_per_process(&kept));
    assert_eq!(most(&fresh), 1, "{:?}", games_per_process(&fresh));
    common::assert_no_leftovers(&s.marker);
}

/// The two games of a duplicate pair are played on the same deals: they never share a
/// process (a kept bot could otherwise remember the other side's cards).
#[test]
fn duplicate_pairs_never_share_a_process() {
    let s = Scratch::new("kept-pairs");
    let bot = python_bot(MULTI, &["multi", &s.marker]);
    let dir = s.path("t");
    run_ok(&tournament(&dir, &bot, &bot, 4, &[]));
    let games = processes(&dir);
    assert_eq!(games.len(), 8);
    let mut by_pair: BTreeMap<u64, Vec<BTreeSet<String>>> = BTreeMap::new();
    for (pair, seats) in &games {
        let names = seats.iter().map(|(_, n)| n.clone()).collect();
        by_pair.entry(pair.unwrap()).or_default().push(names);
    }
    for (pair, games) in &by_pair {
        assert_eq!(games.len(), 2);
        let shared: Vec<_> = games[0].intersection(&games[1]).collect();
        assert!(
            shared.is_empty(),
            "pair {pair}: {shared:?} played both games"
        );
    }
    // And processes were kept at all: 8 games x 4 seats by fewer than 32 processes.
    let per = games_per_process(&dir);
    assert!(per.len() < 32 && per.values().any(|&n| n > 1), "{per:?}");
    // Each game's stderr is in that game's own log, under the name it played with there.
    for (row, (_, seats)) in rows(&dir).iter().zip(&games) {
        let record = dir.join(row["record"].as_str().unwrap());
        for (seat, (_, name)) in seats.iter().enumerate() {
            let stem = record.file_stem().unwrap().to_string_lossy();
            let log = record.with_file_name(format!("{stem}.seat{seat}.stderr.log"));
            let text = std::fs::read_to_string(&log).unwrap();
            assert!(
                text.lines().any(|l| l.ends_with(&format!(" of {name}"))),
                "{}: {text}",
                log.display()
            );
            assert_eq!(text.lines().count(), 1, "{}: {text}", log.display());
        }
    }
    common::assert_no_leftovers(&s.marker);
}

/// A process that faulted is not given another game, even under `--on-fault substitute`
/// where its game went on; one that did not declare multi_game gets a fresh process per game.
#[test]
fn faulted_and_undeclared_bots_get_fresh_processes() {
    let s = Scratch::new("kept-fault");
    let good = python_bot(MULTI, &["multi", &s.marker]);
    for mode in ["illegal-first", "single"] {
        let other = python_bot(MULTI, &[mode, &s.marker]);
        let dir = s.path(mode);
        run_ok(&tournament(
            &dir,
            &good,
            &other,
            3,
            &["--on-fault", "substitute:20"],
        ));
        let per = games_per_process(&dir);
        let b: Vec<usize> = per
            .iter()
            .filter(|((e, _), _)| e == "b")
            .map(|(_, n)| *n)
            .collect();
        assert_eq!(
            b.len(),
            12,
            "{mode}: 6 games x 2 seats, each its own process: {per:?}"
        );
        assert!(b.iter().all(|&n| n == 1), "{mode}: {per:?}");
        assert!(
            per.iter().any(|((e, _), n)| e == "a" && *n > 1),
            "{mode}: the well-behaved entrant is kept: {per:?}"
        );
        if mode == "illegal-first" {
            let faults = rows(&dir).len();
            assert_eq!(faults, 6);
        }
    }
    common::assert_no_leftovers(&s.marker);
}

/// protocol.md 4.4: limits are per game. The kernel counts `--cpu-limit` over a process's whole
/// life, so under it no process is kept: every game gets fresh ones, multi_game or not.
#[test]
fn no_process_is_kept_under_a_cpu_limit() {
    let s = Scratch::new("kept-cpu");
    let bot = python_bot(MULTI, &["multi", &s.marker]);
    let dir = s.path("cpu");
    run_ok(&tournament(&dir, &bot, &bot, 2, &["--cpu-limit", "5m"]));
    let per = games_per_process(&dir);
    assert_eq!(
        per.len(),
        16,
        "4 games x 4 seats, each its own process: {per:?}"
    );
    assert!(per.values().all(|&n| n == 1), "{per:?}");
    common::assert_no_leftovers(&s.marker);
}

/// An interrupted tournament with bots kept up resumes to the results of a run with a fresh
/// process per game.
#[test]
fn resume_with_kept_bots_gives_the_same_results() {
    let s = Scratch::new("kept-resume");
    let a = python_bot(MULTI, &["multi", &s.marker]);
    let b = python_bot("sample-bots/python/random_bot.py", &[&s.marker]);
    let whole = s.path("whole");
    run_ok(&tournament(&whole, &a, &b, 4, &["--fresh-bots"]));
    let cut = s.path("cut");
    let child = common::command()
        .args(tournament(&cut, &a, &b, 4, &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while rows(&cut).len() < 2 && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert!(rows(&cut).len() >= 2, "{out:?}");
    run_ok(&tournament(&cut, &a, &b, 4, &[]));
    assert_eq!(comparable(&cut), comparable(&whole));
    common::assert_no_leftovers(&s.marker);
}

/// Issue 39 (5): "nothing outlives a killed referee". Bots kept up between games are frozen
/// while they wait (and, with `--freeze-off-turn`, while others move); a frozen process cannot
/// die, so after a `kill -9` of the referee they stayed, bwrap's processes with them, with
/// parent 1. The referee's guardian (bot::sandbox::guardian) now ends them.
#[test]
fn frozen_kept_bots_do_not_outlive_a_referee_killed_with_sigkill() {
    if !common::have_bwrap() {
        return;
    }
    let s = Scratch::new("frozen-kill9");
    let bot = python_bot(MULTI, &["multi", &s.marker]);
    let dir = s.path("t");
    let mut child = common::command()
        .args([
            "tournament",
            "--bot",
            &format!("a={bot}"),
            "--bot",
            &format!("b={bot}"),
            "--games",
            "200",
            "--jobs",
            "1",
            "--sandbox",
            "bwrap",
            "--freeze-off-turn",
            "--handshake-timeout",
            "120s",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Two games done: the kept bots have been frozen between games and are frozen off turn.
    let deadline = Instant::now() + Duration::from_secs(300);
    let done = || {
        std::fs::read_to_string(dir.join("results.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    while done() < 2 {
        assert!(Instant::now() < deadline, "two games never finished");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        !common::leftovers(&s.marker).is_empty(),
        "the kept bots run while the tournament does"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !common::leftovers(&s.marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let left = common::leftovers(&s.marker);
    assert!(left.is_empty(), "processes left behind: {left:?}");
}
