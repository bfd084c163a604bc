//! End-to-end attacks on the sandbox (issue 11): the real `tarneeb` binary with a hostile bot
//! (tests/bots/attack_bot.py) at seat 1 and three random bots, default sandbox flags.
//!
//! Each attack is checked three ways: it gains nothing (the game's moves and result are those
//! of the same game with a harmless bot, up to the attacker's own fault; the bot reports any
//! success on stderr and then plays differently), a limit it runs into is a fault of the right
//! kind, and no process with the test's tag is left afterwards (found through /proc).
//!
//! Without bwrap these tests cannot run: they say so and pass on a developer's machine, and
//! fail under CI (CI=true), which must install bubblewrap (.ci/run does).

use crate::common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{
    assert_no_leftovers, have_bwrap, json_lines, python_bot, root, wait_with_limit, Scratch,
};
use serde_json::Value;

const ATTACK_BOT: &str = "tests/bots/attack_bot.py";
const LIMIT: Duration = Duration::from_secs(120);

/// One attack game's files and bots; the scratch marker is every bot's tag.
struct Game(Scratch);

impl Game {
    fn new(name: &str) -> Game {
        Game(Scratch::new(&format!("attack-{name}")))
    }

    fn record(&self) -> PathBuf {
        self.0.path("game.jsonl")
    }

    fn log(&self, seat: usize) -> PathBuf {
        self.0.path(&format!("game.seat{seat}.stderr.log"))
    }

    fn random_bot(&self) -> String {
        python_bot(common::RANDOM_BOT, &[&self.0.marker])
    }

    fn attacker(&self, mode: &str, args: &[&str]) -> String {
        let mut all = vec![mode, self.0.marker.as_str()];
        all.extend_from_slice(args);
        python_bot(ATTACK_BOT, &all)
    }

    fn command(&self, attacker: &str, flags: &[&str]) -> Command {
        let mut cmd = common::command();
        let random = self.random_bot();
        cmd.env("TARNEEB_ATTACK_SECRET", "only-the-referee-knows")
            .args(["play", "--json", "--seed", "5", "--move-timeout", "20s"])
            // The attack's game is compared with the baseline's: one deal key for both.
            .arg("--deal-key")
            .arg(common::shared_deal_key())
            .arg("--record")
            .arg(self.record())
            .args([
                "--bot", &random, "--bot", attacker, "--bot", &random, "--bot", &random,
            ])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Plays one game; returns the output and the record's moves (without their times).
    fn play(&self, attacker: &str, flags: &[&str]) -> (Output, Vec<Value>) {
        let child = self
            .command(attacker, flags)
            .spawn()
            .expect("tarneeb starts");
        let out = wait_with_limit(child, LIMIT);
        assert_no_leftovers(&self.0.marker);
        let moves = json_lines(&self.record())
            .into_iter()
            .filter(|l| l["type"] == "move")
            .map(|mut l| {
                l.as_object_mut().unwrap().remove("ms");
                l
            })
            .collect();
        (out, moves)
    }

    fn attacker_log(&self) -> String {
        std::fs::read_to_string(self.log(1)).unwrap_or_default()
    }
}

fn result_of(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_else(|| {
        panic!(
            "no output; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    serde_json::from_str::<Value>(line).unwrap()["result"].clone()
}

/// The same game with a harmless attacker (mode `none`): moves and result.
fn baseline(name: &str) -> (Value, Vec<Value>) {
    let s = Game::new(&format!("{name}-baseline"));
    let (out, moves) = s.play(&s.attacker("none", &[]), &[]);
    (result_of(&out), moves)
}

/// An attack that must change nothing: same moves, same result, nothing gained.
fn attack_gains_nothing(name: &str, mode: &str, args: &dyn Fn(&Game) -> Vec<String>) {
    if !have_bwrap() {
        return;
    }
    let (base_result, base_moves) = baseline(name);
    let s = Game::new(name);
    let args = args(&s);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, moves) = s.play(&s.attacker(mode, &args), &[]);
    let log = s.attacker_log();
    assert!(
        log.contains(&format!("NOTHING: {mode}")),
        "the attack {mode} gained something or did not run: {log}"
    );
    assert_eq!(result_of(&out), base_result, "{mode}: the result changed");
    assert_eq!(moves, base_moves, "{mode}: the moves changed");
}

/// A limit attack: the attacker faults with `kind` at its first request, the moves before are
/// the baseline's, nothing is left behind.
fn attack_hits_limit(name: &str, mode: &str, kind: &str, flags: &[&str]) -> Value {
    if !have_bwrap() {
        return Value::Null;
    }
    let (_, base_moves) = baseline(name);
    let s = Game::new(name);
    let (out, moves) = s.play(&s.attacker(mode, &[]), flags);
    let r = result_of(&out);
    assert_eq!(r["reason"], "forfeit", "{mode}: {r}");
    assert_eq!(r["forfeit"]["seat"], 1, "{mode}: {r}");
    assert_eq!(r["forfeit"]["kind"], kind, "{mode}: {r}");
    assert!(moves.len() < base_moves.len());
    assert_eq!(
        moves[..],
        base_moves[..moves.len()],
        "{mode}: moves before the fault"
    );
    let faults: Vec<Value> = json_lines(&s.record())
        .into_iter()
        .filter(|l| l["type"] == "fault")
        .collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["kind"], kind);
    r
}

#[test]
fn reading_the_record_and_other_logs_by_path_and_through_proc_gains_nothing() {
    attack_gains_nothing("read-files", "read-files", &|s| {
        vec![
            s.record().display().to_string(),
            s.log(0).display().to_string(),
            s.log(2).display().to_string(),
        ]
    });
}

#[test]
fn writing_into_and_reading_from_other_bots_pipes_gains_nothing() {
    attack_gains_nothing("pipes", "pipes", &|_| Vec::new());
}

#[test]
fn reading_other_processes_memory_and_environment_gains_nothing() {
    attack_gains_nothing("memory", "memory", &|_| Vec::new());
}

#[test]
fn ptrace_of_other_processes_gains_nothing() {
    attack_gains_nothing("ptrace", "ptrace", &|_| Vec::new());
}

#[test]
fn connecting_to_a_local_tcp_port_gains_nothing() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    attack_gains_nothing("tcp", "tcp", &|_| vec![port.clone()]);
    assert!(listener.accept().is_err(), "a bot connected to the port");
}

#[test]
fn a_setsid_escape_ends_with_the_game() {
    // The game plays as the baseline, and `play` checks no process with the tag remains.
    attack_gains_nothing("setsid", "setsid", &|_| Vec::new());
}

#[test]
fn a_bot_that_ignores_sigterm_and_end_of_input_ends_with_the_game() {
    attack_gains_nothing("ignore-term", "ignore-term", &|_| Vec::new());
}

#[test]
fn going_over_the_memory_limit_is_a_memory_fault() {
    let r = attack_hits_limit(
        "memory-hog",
        "memory-hog",
        "memory",
        &["--memory-limit", "64M"],
    );
    if !r.is_null() {
        let detail = r["forfeit"]["detail"].as_str().unwrap();
        assert!(
            detail.contains("64M") && detail.contains("--memory-limit"),
            "{detail}"
        );
    }
}

#[test]
fn forking_past_the_process_limit_is_a_processes_fault() {
    attack_hits_limit(
        "fork-bomb",
        "fork-bomb",
        "processes",
        &["--process-limit", "24"],
    );
}

#[test]
fn writing_past_the_disk_limit_is_a_disk_fault_and_leaves_nothing_behind() {
    attack_hits_limit("disk-fill", "disk-fill", "disk", &["--disk-limit", "8M"]);
    assert!(
        !root().join("attack-fill.bin").exists(),
        "the bot's file is in the referee's working directory"
    );
}

#[test]
fn writing_past_the_file_size_limit_is_a_file_size_fault() {
    attack_hits_limit(
        "big-file",
        "big-file",
        "file-size",
        &["--file-size-limit", "1M"],
    );
}

#[test]
fn no_bot_outlives_a_referee_killed_with_sigkill() {
    if !have_bwrap() {
        return;
    }
    let s = Game::new("kill9");
    let mut child = s
        .command(&s.attacker("hang", &[]), &[])
        .spawn()
        .expect("tarneeb starts");
    let deadline = Instant::now() + LIMIT;
    while !s.attacker_log().contains("HANGING") {
        assert!(
            Instant::now() < deadline,
            "the hanging bot never got its request"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !s.0.leftovers().is_empty(),
        "the bots run while the game does"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_no_leftovers(&s.0.marker);
}

#[test]
fn a_tournament_entrant_cannot_touch_the_results() {
    if !have_bwrap() {
        return;
    }
    let s = Game::new("results");
    let out_dir = s.0.path("t");
    let results = out_dir.join("results.jsonl");
    let run = |attacker: &str, dir: &Path, flags: &[&str]| {
        let child = common::command()
            .arg("tournament")
            .args(flags)
            .args(["--seed", "3"])
            // The attacked run is compared with the clean one: one deal key for both.
            .arg("--deal-key")
            .arg(common::shared_deal_key())
            .arg("--out")
            .arg(dir)
            .args([
                "--bot",
                &format!("a={attacker}"),
                "--bot",
                &format!("r={}", s.random_bot()),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_with_limit(child, LIMIT);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let tournament =
        |attacker: &str, dir: &Path| run(attacker, dir, &["--games", "2", "--jobs", "2"]);
    // Every game's stderr log gained nothing; true when the attack ran in one of them.
    let attack_ran = |dir: &Path| {
        let mut tried = false;
        for log in std::fs::read_dir(dir.join("games")).unwrap().flatten() {
            let text = std::fs::read_to_string(log.path()).unwrap_or_default();
            assert!(!text.contains("GAINED"), "{}: {text}", log.path().display());
            tried |= text.contains("NOTHING: results");
        }
        tried
    };
    // The seal's key and checkpoint (issue 14) are in the same directory: neither readable
    // nor writable, named or found by walking the directory above it.
    let (key, seal) = (out_dir.join(".seal-key"), out_dir.join("results.seal"));
    let above = s.0.dir.display().to_string();
    let targets = [&results, &key, &seal].map(|p| p.display().to_string());
    let mut targets: Vec<&str> = targets.iter().map(String::as_str).collect();
    targets.push(&above);
    let attacked = tournament(&s.attacker("results", &targets), &out_dir);
    assert_no_leftovers(&s.0.marker);
    // The same attack in the strict view, walking the directory above the tournament's (a file
    // the operator names on a bot's command line is shown to it by design, so none is named).
    let strict_dir = s.0.path("strict");
    let strict_targets = [above.as_str()];
    run(
        &s.attacker("results", &strict_targets),
        &strict_dir,
        &["--games", "1", "--sandbox-view", "strict"],
    );
    assert!(attack_ran(&strict_dir), "the attack did not run");
    assert_no_leftovers(&s.0.marker);
    attack_ran(&out_dir);
    let clean_dir = s.0.path("clean");
    let clean = tournament(&s.attacker("none", &[]), &clean_dir);
    assert_eq!(
        attacked, clean,
        "the standings differ from the same tournament without the attack"
    );
    assert!(attacked.contains("sandbox: bwrap wide"), "{attacked}");
    // standings of the attacked directory agree too (its rows all match their records).
    let st = common::command()
        .arg("standings")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    // ... and all of them under the seal.
    assert!(
        !String::from_utf8_lossy(&st.stderr).contains("the slow way"),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
}

/// What a bot could do without a sandbox (or a crash mid-write): a forged row, a torn line or
/// a duplicated row in results.jsonl is found on `standings` and on resume, naming the line.
#[test]
fn forged_and_torn_result_rows_are_named_on_standings_and_resume() {
    let s = Game::new("forged");
    let dir = s.0.path("t");
    let run = |extra: &[&str]| {
        common::command()
            .args([
                "tournament",
                "--games",
                "1",
                "--seed",
                "4",
                "--sandbox",
                "none",
            ])
            .arg("--out")
            .arg(&dir)
            .args(["--bot", &format!("x={}", s.random_bot())])
            .args(["--bot", &format!("y={}", s.random_bot())])
            .args(extra)
            .output()
            .unwrap()
    };
    let standings = || {
        common::command()
            .arg("standings")
            .arg(&dir)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = dir.join("results.jsonl");
    let good = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 2);
    let st = standings();
    assert!(st.status.success());
    assert!(String::from_utf8_lossy(&st.stdout).contains("sandbox: none (WARNING"));

    // A forged winner on line 2.
    let mut row: Value = serde_json::from_str(lines[1]).unwrap();
    let forged_game = row["game"].clone();
    let first_game = serde_json::from_str::<Value>(lines[0]).unwrap()["game"].clone();
    let w = row["winner"].as_u64().map_or(0, |w| 1 - w);
    row["winner"] = w.into();
    std::fs::write(&results, format!("{}\n{row}\n", lines[0])).unwrap();
    for out in [standings(), run(&[])] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "results.jsonl:2: the row of game {forged_game} does not match its record"
            )),
            "{err}"
        );
    }
    // `--trust-rows` skips that check (and says nothing): the forged row is counted.
    let trusted = common::command()
        .args(["standings", "--trust-rows"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        trusted.status.success(),
        "{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
    assert_ne!(
        trusted.stdout, st.stdout,
        "the forged winner changes the table"
    );
    // A torn line in the middle.
    std::fs::write(
        &results,
        format!("{}\n{{\"game\": 1, \"pa\n{}\n", lines[0], lines[1]),
    )
    .unwrap();
    let err = String::from_utf8_lossy(&standings().stderr).into_owned();
    assert!(err.contains("results.jsonl:2: not a result row"), "{err}");
    // The same game twice.
    std::fs::write(
        &results,
        format!("{}\n{}\n{}\n", lines[0], lines[1], lines[0]),
    )
    .unwrap();
    let err = String::from_utf8_lossy(&standings().stderr).into_owned();
    assert!(
        err.contains(&format!(
            "results.jsonl:3: a second row for game {first_game}"
        )),
        "{err}"
    );
    // A torn last line (a run killed while writing) is named, not counted, and replayed.
    std::fs::write(&results, format!("{}\n{}", lines[0], &lines[1][..20])).unwrap();
    let st = standings();
    assert!(st.status.success());
    assert!(
        String::from_utf8_lossy(&st.stderr).contains("results.jsonl:2: an incomplete last line")
    );
    let out = run(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&results).unwrap().lines().count(),
        2
    );
}

/// `--sandbox bwrap` without bwrap is a usage error naming the install command; `auto` warns
/// loudly and plays unsandboxed, and says so in the record.
#[test]
fn a_missing_bwrap_is_an_error_with_bwrap_and_a_warning_with_auto() {
    let s = Game::new("no-bwrap");
    let bot = "/bin/true";
    let play = |choice: &str| {
        common::command()
            .env("PATH", "/nonexistent")
            .args(["play", "--seed", "1", "--sandbox", choice, "--record"])
            .arg(s.record())
            .args(["--bot", bot, "--bot", bot, "--bot", bot, "--bot", bot])
            .output()
            .unwrap()
    };
    let out = play("bwrap");
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(common::stderr(&out).contains("apt-get install bubblewrap"));
    let out = play("auto");
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(common::stderr(&out).contains("WARNING: bots run WITHOUT a sandbox"));
    assert_eq!(json_lines(&s.record())[0]["sandbox"], "none");
}

/// A bot that dies in the sandbox is told apart: the fault's detail says the sandbox ran it,
/// what it sees, how to rule it out, and quotes its last stderr lines.
#[test]
fn a_bot_that_dies_in_the_sandbox_is_told_so_with_its_stderr() {
    if !have_bwrap() {
        return;
    }
    let s = Game::new("dies");
    let dying =
        "python3 -c 'import sys; sys.stderr.write(\"cannot find my weights\\n\"); sys.exit(3)'";
    let (out, _) = s.play(dying, &["--sandbox-view", "strict"]);
    let r = result_of(&out);
    assert_eq!(r["forfeit"]["kind"], "handshake", "{r}");
    let detail = r["forfeit"]["detail"].as_str().unwrap();
    for part in [
        "the bot ran in the sandbox (bwrap strict)",
        "--sandbox-ro PATH",
        "--sandbox none",
        "cannot find my weights",
    ] {
        assert!(detail.contains(part), "{part}: {detail}");
    }
}

/// The record and logs in the referee's working directory itself (`--record game.jsonl`): the
/// bot's working directory shows that directory read-only, but not them, not even the logs of
/// seats started after it.
#[test]
fn a_record_in_the_working_directory_is_hidden_too() {
    if !have_bwrap() {
        return;
    }
    let s = Game::new("record-in-cwd");
    let random = s.random_bot();
    let attacker = s.attacker(
        "read-files",
        &[
            "game.jsonl",
            "game.seat0.stderr.log",
            "game.seat3.stderr.log",
        ],
    );
    let child = common::command()
        .current_dir(&s.0.dir)
        .args(["play", "--json", "--seed", "5", "--record", "game.jsonl"])
        .args([
            "--bot", &random, "--bot", &attacker, "--bot", &random, "--bot", &random,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_with_limit(child, LIMIT);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_no_leftovers(&s.0.marker);
    let log = s.attacker_log();
    assert!(log.contains("NOTHING: read-files"), "{log}");
}

fn tmux(args: &[&str]) -> String {
    let o = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A sandboxed bot cannot reach the terminal the referee runs in: no `/dev/tty` to open, so no
/// TIOCSTI into it. The referee's child gives up the controlling terminal before bwrap starts
/// (instead of a new session per bot, which made every bot a scheduling autogroup of its own).
/// Played in tmux, so that the referee has a terminal.
#[test]
fn the_referees_terminal_is_out_of_reach() {
    if !have_bwrap() {
        return;
    }
    if !Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "tmux is needed under CI (.ci/run installs it)"
        );
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let s = Game::new("tty");
    let out = s.0.path("out.txt");
    let quote = |c: &str| format!("'{c}'");
    let random = quote(&s.random_bot());
    let attacker = quote(&s.attacker("tty", &[]));
    let script = format!(
        "{} play --seed 5 --record {} --bot {random} --bot {attacker} --bot {random} --bot {random} > {} 2>&1; echo EXIT=$? >> {}; sleep 600",
        env!("CARGO_BIN_EXE_tarneeb"),
        s.record().display(),
        out.display(),
        out.display()
    );
    let session = format!("{}-tty", s.0.marker);
    tmux(&["new-session", "-d", "-s", &session, &script]);
    let start = Instant::now();
    let report = loop {
        let report = std::fs::read_to_string(&out).unwrap_or_default();
        if report.contains("EXIT=") {
            break report;
        }
        if start.elapsed() > LIMIT {
            tmux(&["kill-session", "-t", &session]);
            panic!("the game did not end: {report}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let pane = tmux(&["capture-pane", "-p", "-t", &session]);
    tmux(&["kill-session", "-t", &session]);
    assert_no_leftovers(&s.0.marker);
    assert!(report.contains("EXIT=0"), "{report}");
    let log = s.attacker_log();
    assert!(
        log.contains("NOTHING: tty") && log.contains("open /dev/tty"),
        "the bot reached the terminal: {log}"
    );
    assert!(
        !pane.contains("PWNED"),
        "input pushed into the terminal: {pane}"
    );
}
