//! A Swiss tournament played in shards, round by round, is the unsharded one: the same games,
//! the same results rows, the same standings once merged; a shard that lacks an earlier
//! round's results refuses and names the fix.

use crate::common;

use common::{python_bot, tarneeb, text, Scratch, RANDOM_BOT};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// Five entrants (two matches and a bye a round), three rounds of one duplicate pair.
fn swiss(out: &Path, seed: &str, extra: &[String]) -> Vec<String> {
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b", "c", "d", "e"] {
        args.push("--bot".into());
        args.push(format!("{name}={random}"));
    }
    for a in [
        "--format", "swiss", "--rounds", "3", "--games", "1", "--jobs", "2", "--seed", seed,
    ] {
        args.push(a.into());
    }
    args.push("--out".into());
    args.push(out.display().to_string());
    // The shards and the whole Swiss play the same deals: one deal key for all.
    args.push("--deal-key".into());
    args.push(common::shared_deal_key().display().to_string());
    args.extend(extra.iter().cloned());
    args
}

fn shard(out: &Path, k: u64, round: u64, peers: &[&PathBuf]) -> Vec<String> {
    let mut extra = vec![
        "--shard".to_string(),
        format!("{k}/2"),
        "--round".into(),
        round.to_string(),
    ];
    if !peers.is_empty() {
        extra.push("--peers".into());
        extra.extend(peers.iter().map(|p| p.display().to_string()));
    }
    swiss(out, "3", &extra)
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// Rows without the referee's timing, by game.
fn rows(dirs: &[&PathBuf]) -> Vec<Value> {
    let mut v: Vec<Value> = dirs
        .iter()
        .flat_map(|d| {
            std::fs::read_to_string(d.join("results.jsonl"))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .map(|mut r| {
            r.as_object_mut().unwrap().remove("referee_us_per_move");
            r
        })
        .collect();
    v.sort_by_key(|r| r["game"].as_u64());
    v
}

fn standings(dirs: &[&PathBuf]) -> String {
    let mut args = vec!["standings".to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let o = tarneeb(&args);
    ok(&o);
    // Without the lines that name each merged directory (a merge of shards has them).
    text(&o.stdout)
        .lines()
        .filter(|l| !l.starts_with("from "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_swiss_in_shards_is_the_whole_swiss() {
    let scratch = Scratch::new("swiss-shards");
    let whole = scratch.path("whole");
    ok(&tarneeb(&swiss(&whole, "3", &[])));
    assert_eq!(rows(&[&whole]).len(), 12, "3 rounds x 2 matches x 2 games");

    let (p1, p2) = (scratch.path("part1"), scratch.path("part2"));
    // Round 1 needs nobody; a shard not started yet among the peers is only noted.
    ok(&tarneeb(&shard(&p1, 1, 1, &[&p2])));
    ok(&tarneeb(&shard(&p2, 2, 1, &[&p1])));
    for round in 2..=3 {
        ok(&tarneeb(&shard(&p1, 1, round, &[&p2])));
        ok(&tarneeb(&shard(&p2, 2, round, &[&p1])));
    }
    // Each shard holds its own games only: whole deal sets, both games of each duplicate
    // pair (even deal sets for 1/2, odd ones for 2/2), so no shard's directory holds a deal
    // the other plays.
    for (dir, parity) in [(&p1, 0), (&p2, 1)] {
        let own = rows(&[dir]);
        assert_eq!(own.len(), 6);
        for r in &own {
            let pair = r["pair"].as_u64().unwrap();
            assert_eq!(r["game"].as_u64().unwrap() / 2 % 2, parity, "{r}");
            assert_eq!(own.iter().filter(|o| o["pair"] == pair).count(), 2, "{r}");
        }
    }
    assert_eq!(rows(&[&p1, &p2]), rows(&[&whole]));
    assert_eq!(standings(&[&p1, &p2]), standings(&[&whole]));

    // A killed shard (its last game of round 2 lost) resumes with the same command and plays
    // it, then its round 3 games, as they were.
    let before = rows(&[&p1]);
    let results = p1.join("results.jsonl");
    let kept: String = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).unwrap()["game"] != 5)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&results, kept).unwrap();
    let o = tarneeb(&shard(&p1, 1, 3, &[&p2]));
    ok(&o);
    assert!(text(&o.stderr).contains("resuming"), "{}", text(&o.stderr));
    assert_eq!(rows(&[&p1]), before);
}

#[test]
fn a_shard_without_the_earlier_rounds_refuses_and_names_the_fix() {
    let scratch = Scratch::new("swiss-shards-refuse");
    let (p1, p2) = (scratch.path("part1"), scratch.path("part2"));
    // Round 2 before anyone played round 1's games of shard 2/2.
    let o = tarneeb(&shard(&p1, 1, 2, &[&p2]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    assert!(e.contains("round 1 is not finished"), "{e}");
    assert!(e.contains("games 2, 3 of shard 2/2"), "{e}");
    assert!(e.contains("--round 1") && e.contains("--peers"), "{e}");
    assert!(
        rows(&[&p1]).is_empty(),
        "nothing is played on a refusal: {e}"
    );

    // Without --round.
    let mut args = swiss(&p1, "3", &["--shard".into(), "1/2".into()]);
    let o = tarneeb(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("needs --round"),
        "{}",
        text(&o.stderr)
    );
    args.extend(["--round".into(), "4".into()]);
    let o = tarneeb(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("from 1 to --rounds"));

    // A peer of another tournament (another seed).
    let other = scratch.path("other");
    ok(&tarneeb(&swiss(
        &other,
        "4",
        &["--shard".into(), "2/2".into(), "--round".into(), "1".into()],
    )));
    let o = tarneeb(&shard(&p1, 1, 2, &[&other]));
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("another tournament") && e.contains("seed"),
        "{e}"
    );

    // A peer that is no tournament's directory at all.
    let stray = scratch.path("stray");
    std::fs::create_dir_all(&stray).unwrap();
    let o = tarneeb(&shard(&p1, 1, 2, &[&stray]));
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("is not a tournament directory")
            && e.contains("tournament.json")
            && e.contains("give the --out directories of the other shards"),
        "{e}"
    );
}
