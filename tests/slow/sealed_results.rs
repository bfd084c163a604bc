//! Sealed results (issue 14): a sandboxed tournament seals results.jsonl with a keyed MAC
//! (`results.seal`, key `.seal-key`), and `standings` and resume take the sealed rows without
//! opening their records, checking every other row as before. The real binary, the Python
//! random bot, the default sandbox.
//!
//! Without bwrap these tests cannot run: they say so and pass on a developer's machine, and
//! fail under CI (CI=true), which must install bubblewrap (.ci/run does).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{have_bwrap, python_bot, stderr, stdout, Scratch, RANDOM_BOT};
use serde_json::Value;

/// The note `standings` gives when it checked rows against their records.
const SLOW: &str = "checked against their records (the slow way)";

/// Three entrants, one deal set per match, duplicate: six games.
fn tournament(s: &Scratch, dir: &Path, extra: &[&str]) -> Output {
    let bot = python_bot(RANDOM_BOT, &[&s.marker]);
    common::command()
        .args(["tournament", "--games", "1", "--seed", "9", "--jobs", "2"])
        .args(["--handshake-timeout", "120s"])
        .arg("--out")
        .arg(dir)
        .args(["--bot", &format!("x={bot}")])
        .args(["--bot", &format!("y={bot}")])
        .args(["--bot", &format!("z={bot}")])
        .args(extra)
        .output()
        .unwrap()
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn standings(dir: &Path, flags: &[&str]) -> Output {
    common::command()
        .arg("standings")
        .args(flags)
        .arg(dir)
        .output()
        .unwrap()
}

fn results(dir: &Path) -> PathBuf {
    dir.join("results.jsonl")
}

fn lines(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(results(dir)).unwrap();
    text.lines().map(|l| format!("{l}\n")).collect()
}

/// The MAC the runner would write over `bytes` with the directory's key.
fn mac(dir: &Path, bytes: &[u8]) -> String {
    let hex = std::fs::read_to_string(dir.join(".seal-key")).unwrap();
    let mut key = [0u8; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(&hex.trim()[2 * i..2 * i + 2], 16).unwrap();
    }
    blake3::keyed_hash(&key, bytes).to_hex().to_string()
}

/// Writes a seal over the first `n` lines of results.jsonl, as a run killed after that
/// checkpoint leaves it.
fn seal_first(dir: &Path, n: usize) {
    let prefix: String = lines(dir)[..n].concat();
    let seal =
        serde_json::json!({"rows": n, "bytes": prefix.len(), "mac": mac(dir, prefix.as_bytes())});
    std::fs::write(dir.join("results.seal"), format!("{seal}\n")).unwrap();
}

/// The seal covers the whole file with the right MAC.
fn assert_sealed_whole(dir: &Path) {
    let seal: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.seal")).unwrap()).unwrap();
    let text = std::fs::read(results(dir)).unwrap();
    assert_eq!(seal["bytes"], text.len(), "{seal}");
    assert_eq!(seal["mac"], mac(dir, &text), "{seal}");
}

fn flip_winner(line: &str) -> String {
    let mut row: Value = serde_json::from_str(line).unwrap();
    row["winner"] = row["winner"].as_u64().map_or(0, |w| 1 - w).into();
    format!("{row}\n")
}

#[test]
fn sealed_standings_equal_checked_ones_and_a_forged_sealed_row_is_refused() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("sealed");
    let dir = s.path("t");
    ok(tournament(&s, &dir, &[]));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join(".seal-key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_sealed_whole(&dir);
    let sealed = ok(standings(&dir, &[]));
    assert!(!stderr(&sealed).contains(SLOW), "{}", stderr(&sealed));
    let checked = ok(standings(&dir, &["--check-records"]));
    assert_eq!(stdout(&sealed), stdout(&checked));
    assert!(stdout(&sealed).contains("games"), "{}", stdout(&sealed));

    // A forged winner inside the sealed prefix: the seal no longer matches, every row is
    // checked, and the forged one is refused, with the reason for the slow check.
    let mut l = lines(&dir);
    l[2] = flip_winner(&l[2]);
    std::fs::write(results(&dir), l.concat()).unwrap();
    let out = standings(&dir, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("seal does not match: results.jsonl was changed after the runner wrote it"),
        "{err}"
    );
    assert!(err.contains("results.jsonl:3: the row of game"), "{err}");
    // Resume refuses it too.
    let out = tournament(&s, &dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // --trust-rows takes it (the owner's choice) and the table changes.
    let trusted = ok(standings(&dir, &["--trust-rows"]));
    assert_ne!(stdout(&trusted), stdout(&sealed));
}

#[test]
fn rows_after_the_seal_are_checked_and_a_forged_one_refused() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("after-seal");
    let dir = s.path("t");
    ok(tournament(&s, &dir, &[]));
    let full = ok(standings(&dir, &[]));
    let n = lines(&dir).len();
    assert_eq!(n, 6);
    // A run killed after sealing four rows.
    seal_first(&dir, 4);
    let out = ok(standings(&dir, &[]));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "2 of 6 rows {SLOW}: rows written after the last seal"
        )),
        "{err}"
    );
    assert_eq!(stdout(&out), stdout(&full));
    // A forged row after the seal is refused although the seal holds.
    let mut l = lines(&dir);
    l[5] = flip_winner(&l[5]);
    std::fs::write(results(&dir), l.concat()).unwrap();
    let out = standings(&dir, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("results.jsonl:6: the row of game"), "{err}");
    assert!(!err.contains("seal does not match"), "{err}");
}

#[test]
fn resume_goes_on_from_the_seal_and_extends_it_past_a_torn_line() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("resume");
    let dir = s.path("t");
    ok(tournament(&s, &dir, &[]));
    // Killed while writing the fourth row, after a checkpoint of two rows.
    let l = lines(&dir);
    std::fs::write(results(&dir), format!("{}{}", l[..3].concat(), &l[3][..20])).unwrap();
    seal_first(&dir, 2);
    let out = ok(standings(&dir, &[]));
    let err = stderr(&out);
    assert!(
        err.contains("results.jsonl:4: an incomplete last line"),
        "{err}"
    );
    assert!(err.contains(&format!("1 of 3 rows {SLOW}")), "{err}");
    let resumed = ok(tournament(&s, &dir, &[]));
    assert!(
        stderr(&resumed).contains("3 finished games kept"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(lines(&dir).len(), 6);
    assert_sealed_whole(&dir);
    let after = ok(standings(&dir, &[]));
    assert!(!stderr(&after).contains(SLOW), "{}", stderr(&after));
    assert_eq!(
        stdout(&after),
        stdout(&ok(standings(&dir, &["--check-records"])))
    );
}

#[test]
fn without_a_sandbox_nothing_is_sealed_and_a_planted_seal_is_not_trusted() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("no-sandbox");
    let dir = s.path("t");
    let out = ok(tournament(&s, &dir, &["--sandbox", "none"]));
    assert!(
        stderr(&out).contains("results.jsonl is not sealed"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join(".seal-key").exists());
    assert!(!dir.join("results.seal").exists());
    let st = ok(standings(&dir, &[]));
    assert!(
        stderr(&st).contains(&format!(
            "6 of 6 rows {SLOW}: the tournament ran without a sandbox"
        )),
        "{}",
        stderr(&st)
    );
    // A key and a valid seal planted there (what an unsandboxed bot could do) change nothing:
    // a forged row is still refused.
    std::fs::write(dir.join(".seal-key"), "ab".repeat(32)).unwrap();
    let mut l = lines(&dir);
    l[1] = flip_winner(&l[1]);
    std::fs::write(results(&dir), l.concat()).unwrap();
    seal_first(&dir, 6);
    let out = standings(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("results.jsonl:2: the row of game"));
    let out = standings(&dir, &["--reseal"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot be sealed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn reseal_checks_then_seals() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("reseal");
    let dir = s.path("t");
    ok(tournament(&s, &dir, &[]));
    std::fs::remove_file(dir.join("results.seal")).unwrap();
    let st = ok(standings(&dir, &[]));
    assert!(
        stderr(&st).contains(&format!("6 of 6 rows {SLOW}: no seal")),
        "{}",
        stderr(&st)
    );
    let out = ok(standings(&dir, &["--reseal"]));
    assert!(stderr(&out).contains("sealed 6 rows"), "{}", stderr(&out));
    assert_sealed_whole(&dir);
    let st = ok(standings(&dir, &[]));
    assert!(!stderr(&st).contains(SLOW), "{}", stderr(&st));
    // A forged row is not sealed by --reseal: the check refuses it first.
    let mut l = lines(&dir);
    l[0] = flip_winner(&l[0]);
    std::fs::write(results(&dir), l.concat()).unwrap();
    let out = standings(&dir, &["--reseal"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = standings(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
