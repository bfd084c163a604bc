//! What reaches the disk before a seal vouches for it (docs/reliability.md, "Power loss"): the
//! runner syncs each finished game's record, the records' directory and `results.jsonl`
//! before it writes `results.seal`, and the seal (a synced temporary file renamed over the old
//! one, then its directory) after. Seen from outside: the real tournament under strace, which
//! logs the sync and rename calls with the files they name. A power cut itself cannot be made
//! here; what it would keep follows from this order (the file system keeps what was synced).
//!
//! Needs bwrap (sealed runs are sandboxed ones) and strace: both installed by .ci/setup, so
//! under CI (CI=true) this fails rather than passes without them.

use crate::common;

use common::{have_bwrap, python_bot, stderr, Scratch, RANDOM_BOT};

fn have_strace() -> bool {
    let ok = std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok || std::env::var("CI").is_err(),
        "strace is missing: .ci/setup installs it"
    );
    ok
}

#[test]
fn every_sealed_row_s_record_and_the_rows_are_synced_before_the_seal() {
    if !have_bwrap() || !have_strace() {
        return;
    }
    let s = Scratch::new("durable");
    let (dir, trace) = (s.path("t"), s.path("calls.trace"));
    let bot = python_bot(RANDOM_BOT, &[&s.marker]);
    let out = std::process::Command::new("strace")
        .args(["-f", "-qq", "-y", "-e", "signal=none"])
        .args(["-e", "trace=fsync,fdatasync,rename,renameat,renameat2"])
        .arg("-o")
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_tarneeb"))
        .args(["tournament", "--games", "1", "--seed", "4", "--jobs", "2"])
        .args(["--handshake-timeout", "120s", "--rules"])
        .arg(common::temp_file(
            "durable-rules.json",
            r#"{"preset":"classic","max-hands":6}"#,
        ))
        .arg("--out")
        .arg(&dir)
        .args(["--bot", &format!("x={bot}"), "--bot", &format!("y={bot}")])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let calls: Vec<String> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("= -1"))
        .map(str::to_owned)
        .collect();
    let dir = dir.canonicalize().unwrap();
    let synced = |what: &str, path: &std::path::Path| {
        let name = format!("{what}(");
        let file = format!("<{}>", path.display());
        calls
            .iter()
            .position(|c| c.contains(&name) && c.contains(&file))
    };
    // The last seal: everything must reach the disk before it is renamed into place.
    let seal = calls
        .iter()
        .rposition(|c| c.contains("rename") && c.contains("results.seal\""))
        .unwrap_or_else(|| panic!("no seal written:\n{}", calls.join("\n")));
    let before = |what: &str, path: &std::path::Path| {
        let at = synced(what, path)
            .unwrap_or_else(|| panic!("{} never {what}ed:\n{}", path.display(), calls.join("\n")));
        assert!(
            at < seal,
            "{} {what}ed after the seal:\n{}",
            path.display(),
            calls.join("\n")
        );
    };
    let mut records = 0;
    for r in std::fs::read_dir(dir.join("games")).unwrap().flatten() {
        if r.path().extension().is_some_and(|e| e == "jsonl") {
            before("fdatasync", &r.path());
            records += 1;
        }
    }
    assert_eq!(records, 2, "one deal set, duplicate: two games");
    before("fsync", &dir.join("games"));
    before("fdatasync", &dir.join("results.jsonl"));
    before("fdatasync", &dir.join("results.seal.tmp"));
    // And the rename itself is made durable: the directory is synced after it.
    let dir_sync = calls
        .iter()
        .rposition(|c| c.contains("fsync(") && c.contains(&format!("<{}>", dir.display())))
        .expect("the tournament directory is synced");
    assert!(dir_sync > seal, "{}", calls.join("\n"));
}
