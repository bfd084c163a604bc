//! `--freeze-off-turn` (issue 21, "idle kept-up processes frozen ... and, optionally, off turn
//! (`--freeze-off-turn`, measured: cost per move, and what it changes for a spinning
//! opponent)"; docs/sandbox.md, "CPU fairness"): each bot's cgroup is frozen while the other
//! seats are to move, so a bot cannot think, or spin, on their time.
//!
//! tests/bots/offturn_bot.py spins a thread from its hello on and counts the CPU time its process
//! used between each of its replies and its next request; the other seats think (30 ms of CPU
//! before each reply). Frozen off turn, that count is what runs in the moment between its reply
//! and the freeze: a small part of what it takes without the flag. Compared between the two
//! runs, not against a clock.

use crate::common;

use common::{have_bwrap, root, tarneeb, text, Scratch, FAULT_BOT};

/// Plays one game; the off-turn CPU milliseconds and gaps the spinning seat reports.
fn off_turn(s: &Scratch, name: &str, flags: &[&str]) -> (u64, u64) {
    let rules = s.file("one-hand.json", r#"{"preset": "classic", "max-hands": 1}"#);
    let record = s.path(&format!("{name}.jsonl"));
    let spinner = format!(
        "{} {} {}",
        common::python(),
        root().join("tests/bots/offturn_bot.py").display(),
        s.marker
    );
    let honest = format!(
        "{} {} burn 30 {}",
        common::python(),
        root().join(FAULT_BOT).display(),
        s.marker
    );
    let mut args: Vec<String> = [
        "play",
        "--sandbox",
        "bwrap",
        "--public-deals",
        "--seed",
        "3",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.extend(["--rules".into(), rules.display().to_string()]);
    args.extend(["--record".into(), record.display().to_string()]);
    args.extend(flags.iter().map(|f| f.to_string()));
    for bot in [&spinner, &honest, &honest, &honest] {
        args.extend(["--bot".to_string(), bot.clone()]);
    }
    let o = tarneeb(&args);
    assert!(o.status.success(), "{name}: {}", text(&o.stderr));
    let game = std::fs::read_to_string(&record).unwrap();
    assert!(!game.contains(r#""type":"fault""#), "{name}: {game}");
    let log = std::fs::read_to_string(tarneeb_referee::bot::stderr_log_path(&record, 0))
        .unwrap_or_default();
    let line = log
        .lines()
        .find(|l| l.starts_with("OFFTURN"))
        .unwrap_or_else(|| panic!("{name}: no OFFTURN line in {log:?}"));
    let field = |k: &str| -> u64 {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {line}"))
    };
    common::assert_no_leftovers(&s.marker);
    (field("cpu_ms="), field("gaps="))
}

#[test]
fn a_bot_frozen_off_turn_does_not_run_on_the_others_time() {
    let _alone = crate::one_at_a_time();
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("freeze-off-turn");
    let (free_ms, free_gaps) = off_turn(&s, "free", &[]);
    let (frozen_ms, frozen_gaps) = off_turn(&s, "frozen", &["--freeze-off-turn"]);
    eprintln!("off-turn CPU over {free_gaps} gaps: {free_ms} ms, frozen {frozen_ms} ms");
    assert_eq!(free_gaps, frozen_gaps, "the same game: the same turns");
    assert!(free_gaps >= 10, "{free_gaps} gaps");
    // Without the flag it spins through the others' 3 x 30 ms of thinking at every gap.
    assert!(
        frozen_ms * 5 < free_ms,
        "off-turn CPU: {frozen_ms} ms frozen, {free_ms} ms without --freeze-off-turn, over {free_gaps} gaps"
    );
}
