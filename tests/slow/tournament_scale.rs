//! The runner's memory does not grow with the length of the schedule: a ten-million-game round
//! robin, stopped after a few games, peaks (VmHWM) about where a thousand-game one does. Until
//! the schedule was made lazily, the whole schedule was built before the first game (about
//! 390 MB per million games), and every row was kept.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn random() -> &'static str {
    common::python_rel("sample-bots/python/random_bot.py")
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tarneeb-scale-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn rows(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("results.jsonl")).map_or(0, |t| t.lines().count())
}

fn hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Runs a round robin of `games` scheduled games until `want` rows exist; returns the runner's
/// peak RSS in kB then, and stops it (SIGINT, as a user would).
fn peak_after(name: &str, games: u64, want: usize) -> u64 {
    let dir = out_dir(name);
    let mut child = common::command()
        .args(["tournament", "--seed", "3", "--jobs", "1", "--games"])
        .arg((games / 2).to_string())
        .args([
            "--bot",
            &format!("a={}", random()),
            "--bot",
            &format!("b={}", random()),
        ])
        .arg("--out")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while rows(&dir) < want && t0.elapsed() < Duration::from_secs(300) {
        assert!(child.try_wait().unwrap().is_none(), "{name}: ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(rows(&dir) >= want, "{name}: no {want} games in 300 s");
    let peak = hwm_kb(child.id()).expect("VmHWM of the runner");
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    peak
}

#[test]
fn a_ten_million_game_schedule_runs_in_the_memory_of_a_thousand_game_one() {
    let small = peak_after("1k", 1_000, 6);
    let big = peak_after("10m", 10_000_000, 6);
    eprintln!("runner VmHWM: {small} kB for 1,000 scheduled games, {big} kB for 10,000,000");
    // Generous: anything held per scheduled game (even 8 bytes) would add 80 MB.
    assert!(big < 2 * small + 16 * 1024, "{small} kB vs {big} kB");
}
