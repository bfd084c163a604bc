//! The Python and Node.js heuristic sample bots (sample-bots/python/heuristic_bot.py,
//! sample-bots/js/heuristic_bot.js) play full games of every preset through the real referee
//! binary: the bot in all four seats, and mixed with the random bot. Each game must end with
//! exit code 0 and a result that is not a forfeit (a forfeit would mean a crash, a timeout or an
//! illegal move). The JS games are skipped, with a note, when `node` is not installed.

use crate::common;

use common::root;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

const PRESETS: [&str; 4] = ["classic", "egyptian", "400", "41"];
fn random() -> &'static str {
    common::python_rel("sample-bots/python/random_bot.py")
}

fn scratch_dir(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tarneeb-sample-bots-{}-{}-{}",
        tag,
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays one game and checks its result; returns a description of the failure, if any.
fn play(preset: &str, seed: u64, bots: [&str; 4], dir: &Path) -> Result<(), String> {
    let record = dir.join(format!("{preset}-{seed}.jsonl"));
    let mut cmd = common::command();
    cmd.current_dir(root())
        .args([
            "play",
            "--rules",
            preset,
            "--seed",
            &seed.to_string(),
            "--json",
        ])
        // generous limits: the test machine may be busy (these games are about legality)
        .args([
            "--handshake-timeout",
            "60s",
            "--move-timeout",
            "60s",
            "--record",
        ])
        .arg(&record);
    for bot in bots {
        cmd.args(["--bot", bot]);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run tarneeb: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let what = format!("{preset} seed {seed} {bots:?}");
    if !out.status.success() {
        return Err(format!(
            "{what}: exit {:?}\nstdout: {stdout}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let json: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("{what}: bad --json output {e}: {stdout}"))?;
    let reason = json["result"]["reason"].as_str().unwrap_or("");
    if reason.is_empty() || reason == "forfeit" {
        let logs: String = (0..4)
            .map(|s| {
                let log = dir.join(format!("{preset}-{seed}.seat{s}.stderr.log"));
                format!(
                    "seat {s}: {}\n",
                    std::fs::read_to_string(log).unwrap_or_default()
                )
            })
            .collect();
        return Err(format!("{what}: result {}\n{logs}", json["result"]));
    }
    Ok(())
}

/// Every preset, the bot alone and the bot mixed with the random bot; a few games at a time.
fn all_presets(bot: &'static str, tag: &str) {
    let dir = scratch_dir(tag);
    let mut games: Vec<(&'static str, u64, [&'static str; 4])> = Vec::new();
    for (i, preset) in PRESETS.iter().enumerate() {
        let seed = 11 + i as u64;
        games.push((preset, seed, [bot; 4]));
        games.push((preset, seed + 100, [bot, random(), bot, random()]));
        games.push((preset, seed + 200, [random(), bot, random(), bot]));
    }
    let mut failures = Vec::new();
    for chunk in games.chunks(4) {
        let handles: Vec<_> = chunk
            .iter()
            .map(|&(preset, seed, bots)| {
                let dir = dir.clone();
                thread::spawn(move || play(preset, seed, bots, &dir))
            })
            .collect();
        failures.extend(handles.into_iter().filter_map(|h| h.join().unwrap().err()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} game(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn python_heuristic_bot_plays_every_preset() {
    all_presets(
        common::python_rel("sample-bots/python/heuristic_bot.py"),
        "py",
    );
}

#[test]
fn js_heuristic_bot_plays_every_preset() {
    let node = Command::new("node").arg("--version").output();
    if !matches!(node, Ok(ref o) if o.status.success()) {
        eprintln!("note: `node` is not installed; skipping the Node.js heuristic bot games");
        return;
    }
    all_presets("node sample-bots/js/heuristic_bot.js", "js");
}
