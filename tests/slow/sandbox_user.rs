//! The bot as an unprivileged user of its own when the referee runs as root (issue 21, "the
//! bot as an unprivileged user when the referee runs as root (IOI's isolate gives each box its
//! own uid)"; docs/sandbox.md, "Users"). In bwrap's user namespace a bot maps to the user that
//! started bwrap: for a root referee, root outside, so in the wide view it read root's 0600
//! files (another run's `.deal-key`).
//!
//! These tests need a referee running as root (CI runs as root); elsewhere they say so and pass.

use crate::common;

use common::{have_bwrap, python_bot, root, tarneeb, text, Scratch, RANDOM_BOT};

const ATTACK_BOT: &str = "tests/bots/attack_bot.py";

fn running_as_root() -> bool {
    // SAFETY: geteuid has no arguments and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("SKIPPED: the referee does not run as root here, so bots already run as an ordinary user");
    }
    root
}

/// Plays one game, the attacker `attacker` at seat 1 and random bots elsewhere; the attacker's
/// stderr log.
fn attack_log(s: &Scratch, name: &str, attacker: &str, flags: &[&str]) -> String {
    let record = s.path(&format!("{name}.jsonl"));
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = ["play", "--sandbox", "bwrap", "--record"]
        .iter()
        .map(|a| a.to_string())
        .collect();
    args.push(record.display().to_string());
    args.extend(flags.iter().map(|f| f.to_string()));
    for bot in [&random, &attacker.to_string(), &random, &random] {
        args.push("--bot".into());
        args.push(bot.clone());
    }
    let o = tarneeb(&args);
    assert!(o.status.success(), "{name}: {}", text(&o.stderr));
    let log = tarneeb_referee::bot::stderr_log_path(&record, 1);
    std::fs::read_to_string(&log).unwrap_or_default()
}

/// A file only root may read, where the wide view shows it (/var/tmp), removed when dropped.
struct RootOnlyFile(std::path::PathBuf);

impl RootOnlyFile {
    fn new() -> RootOnlyFile {
        use std::os::unix::fs::PermissionsExt;
        let p =
            std::path::PathBuf::from(format!("/var/tmp/tarneeb-root-only-{}", std::process::id()));
        std::fs::write(&p, "the deal key of another run").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        RootOnlyFile(p)
    }
}

impl Drop for RootOnlyFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_bot_of_a_root_referee_reads_no_file_only_root_may_read() {
    if !have_bwrap() || !running_as_root() {
        return;
    }
    let s = Scratch::new("user-read");
    let secret = RootOnlyFile::new();
    let path = secret.0.display().to_string();
    let attacker = python_bot(ATTACK_BOT, &["read-files", &s.marker, &path]);
    for view in ["wide", "strict"] {
        let log = attack_log(&s, view, &attacker, &["--sandbox-view", view]);
        assert!(log.contains("NOTHING: read-files"), "{view} view: {log}");
    }
    // The attack works where the bot is root outside: as the referee's user.
    let log = attack_log(&s, "referee", &attacker, &["--sandbox-user", "referee"]);
    assert!(
        log.contains(&format!("GAINED: read {path}")),
        "--sandbox-user referee: {log}"
    );
}

/// The bot's `IDENTITY` line: (uid, euid, gid, groups, places it wrote in).
fn identity(log: &str) -> (u32, u32, u32, String, String) {
    let line = log
        .lines()
        .find(|l| l.starts_with("IDENTITY"))
        .unwrap_or_else(|| panic!("no identity in {log}"));
    let field = |k: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")).map(str::to_string))
            .unwrap_or_default()
    };
    let num = |k: &str| field(k).parse::<u32>().unwrap();
    (
        num("uid"),
        num("euid"),
        num("gid"),
        field("groups"),
        field("wrote"),
    )
}

#[test]
fn each_bot_runs_as_a_uid_of_its_own_and_writes_its_scratch_places() {
    if !have_bwrap() || !running_as_root() {
        return;
    }
    let s = Scratch::new("user-id");
    let record = s.path("ids.jsonl");
    let bot = python_bot(ATTACK_BOT, &["identity", &s.marker]);
    for view in ["wide", "strict"] {
        let o = common::play_four(
            &record,
            &bot,
            &["--sandbox", "bwrap", "--sandbox-view", view],
        );
        assert!(o.status.success(), "{view}: {}", text(&o.stderr));
        let mut uids = Vec::new();
        for seat in 0..4 {
            let log = std::fs::read_to_string(tarneeb_referee::bot::stderr_log_path(&record, seat))
                .unwrap_or_default();
            let (uid, euid, gid, groups, wrote) = identity(&log);
            assert!(
                (60000..61000).contains(&uid) && euid == uid && gid == uid,
                "{view} seat {seat}: {log}"
            );
            assert_eq!(groups, "", "{view} seat {seat}: no supplementary group");
            assert_eq!(wrote, ".,/tmp,/dev/shm", "{view} seat {seat}: {log}");
            uids.push(uid);
        }
        uids.sort();
        uids.dedup();
        assert_eq!(uids.len(), 4, "{view}: four bots, four uids");
    }
    // As the referee's user the same bot is root (uid 0 in its namespace, root outside).
    let o = common::play_four(
        &record,
        &bot,
        &["--sandbox", "bwrap", "--sandbox-user", "referee"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let log = std::fs::read_to_string(tarneeb_referee::bot::stderr_log_path(&record, 0)).unwrap();
    assert_eq!(identity(&log).0, 0, "{log}");
}

#[test]
fn a_sandbox_user_that_cannot_work_is_a_usage_error_naming_the_fix() {
    let bot = format!("{} {}", common::python(), root().join(RANDOM_BOT).display());
    let play = |flags: &[&str]| {
        let mut args = vec!["play"];
        args.extend_from_slice(flags);
        for _ in 0..4 {
            args.extend_from_slice(&["--bot", &bot]);
        }
        tarneeb(&args)
    };
    let o = play(&["--sandbox", "none", "--sandbox-user", "70000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("needs --sandbox bwrap"),
        "{}",
        text(&o.stderr)
    );
    let o = play(&["--sandbox-user", "nobody"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("auto, referee or the first uid"),
        "{}",
        text(&o.stderr)
    );
    if have_bwrap() && running_as_root() {
        // uid 1 (daemon on Debian) lies in 1..1001: refused, not shared with the bots.
        let o = play(&["--sandbox", "bwrap", "--sandbox-user", "1"]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("belongs to the account"),
            "{}",
            text(&o.stderr)
        );
    }
}

/// Issue 38 (6): a bot of a second run with the same `--deal-key` found its own deal in the
/// first run's `round1/games/000000.jsonl`. Tournament directories are now closed to other
/// users and records are owner-only, so a bot running as a user of its own reads neither.
#[test]
fn an_earlier_runs_records_are_closed_to_a_later_runs_bots() {
    use std::os::unix::fs::PermissionsExt;
    if !have_bwrap() || !running_as_root() {
        return;
    }
    let s = Scratch::new("user-earlier-run");
    let round1 = s.path("round1");
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b"] {
        args.push("--bot".into());
        args.push(format!("{name}={random}"));
    }
    for f in ["--games", "1", "--jobs", "1", "--sandbox", "bwrap", "--out"] {
        args.push(f.into());
    }
    args.push(round1.display().to_string());
    let o = tarneeb(&args);
    assert!(o.status.success(), "round 1: {}", text(&o.stderr));
    let record = round1.join("games/000000.jsonl");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&round1), 0o700, "{}", round1.display());
    assert_eq!(mode(&round1.join("games")), 0o700);
    assert_eq!(mode(&record), 0o600, "{}", record.display());
    // A game's own record, outside any tournament, is owner-only too.
    let first = s.path("first.jsonl");
    attack_log(&s, "first", &random, &[]);
    assert_eq!(mode(&first), 0o600);

    let targets = [record.display().to_string(), first.display().to_string()];
    let attack = |name: &str, flags: &[&str]| {
        let mut a = vec!["read-files".to_string(), s.marker.clone()];
        // "@": not named as paths, or the sandbox would bind them (and fail as the bot's user).
        a.extend(targets.iter().map(|t| format!("@{t}")));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        // In a directory of its own: a record's directory is hidden from its game's bots.
        attack_log(
            &s,
            &format!("round2/{name}"),
            &python_bot(ATTACK_BOT, &a),
            flags,
        )
    };
    // The scratch directory is under /tmp, which the sandbox replaces: shown with --sandbox-ro.
    for view in ["wide", "strict"] {
        let extra = format!("--sandbox-ro={}", s.dir.display());
        let log = attack(view, &["--sandbox-view", view, &extra]);
        assert!(log.contains("NOTHING: read-files"), "{view} view: {log}");
    }
    // The attack works where the bot is root outside: as the referee's user.
    let extra = format!("--sandbox-ro={}", s.dir.display());
    let log = attack("referee", &["--sandbox-user", "referee", &extra]);
    assert!(
        log.contains(&format!("GAINED: read {}", targets[0])),
        "--sandbox-user referee: {log}"
    );
}
