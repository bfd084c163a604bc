//! Process-level tests: real `sh` and `python3` children. Time bounds are deliberately loose
//! (the test machine is shared and slow); what is checked is that things happen at all, in
//! the right order, and that nothing is left behind.

use super::*;
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

const PATIENCE: Duration = Duration::from_secs(10);

/// A fresh directory per test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("tarneeb-bot-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn spec(dir: &Scratch, command: &[&str]) -> BotSpec {
    BotSpec {
        command: command.iter().map(|s| s.to_string()).collect(),
        cwd: None,
        env: Vec::new(),
        stderr_log: dir.0.join("logs/stderr.log"),
        stderr_cap: 1 << 20,
        max_line: 1 << 16,
        sandbox: std::sync::Arc::new(super::Sandbox::none()),
    }
}

fn sh(dir: &Scratch, script: &str) -> BotSpec {
    spec(dir, &["sh", "-c", script])
}

fn py(dir: &Scratch, code: &str) -> BotSpec {
    spec(dir, &["python3", "-c", code])
}

fn start(spec: &BotSpec) -> Bot {
    become_subreaper().expect("subreaper");
    Bot::spawn(spec).expect("spawn")
}

fn next(bot: &mut Bot) -> BotEvent {
    bot.recv_timeout(PATIENCE)
        .unwrap_or_else(|| panic!("no event from {bot:?} within {PATIENCE:?}"))
}

fn next_line(bot: &mut Bot) -> String {
    match next(bot) {
        BotEvent::Line { text, .. } => text,
        other => panic!("expected a line, got {other:?}"),
    }
}

/// Skips events until `Eof`; panics if none comes in time.
fn expect_eof(bot: &mut Bot) {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Some(BotEvent::Eof { .. }) = bot.recv_timeout(Duration::from_millis(100)) {
            return;
        }
    }
    panic!("no Eof within {PATIENCE:?}");
}

/// Writes a script from a child process. Written from this process, its file descriptor
/// could be inherited by a child another test thread is forking at that moment, and exec of
/// the script would then fail with ETXTBSY ("text file busy") until that child has exec'd.
fn write_script(path: &Path, text: &str, mode: &str) {
    let status = Command::new("sh")
        .args([
            "-c",
            r#"printf %s "$1" > "$2" && chmod "$3" "$2""#,
            "sh",
            text,
        ])
        .arg(path)
        .arg(mode)
        .status()
        .unwrap();
    assert!(status.success());
}

/// (state, ppid, pgrp) of a live or zombie process, from /proc/PID/stat.
fn proc_stat(pid: u32) -> Option<(char, u32, i32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: parse after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, ppid, pgrp))
}

/// Panics unless `pid`, a member of group `pgid`, is gone (neither alive nor a zombie). A pid
/// reused by an unrelated process (another group) counts as gone.
fn assert_gone(pid: u32, pgid: u32) {
    if let Some((state, _, pgrp)) = proc_stat(pid) {
        assert!(
            pgrp != pgid as i32,
            "pid {pid} of group {pgid} still exists in state {state}"
        );
    }
}

#[test]
fn echo_round_trip_reports_written_before_the_reply() {
    let dir = Scratch::new("echo");
    let mut bot = start(&sh(&dir, r#"while IFS= read -r l; do echo "got $l"; done"#));
    for id in 0..30u64 {
        bot.send(format!("m{id}\n").as_bytes(), Some(id));
        match next(&mut bot) {
            BotEvent::Written { id: w, .. } => assert_eq!(w, id),
            other => panic!("expected Written({id}) first, got {other:?}"),
        }
        assert_eq!(next_line(&mut bot), format!("got m{id}"));
    }
    // Without a request id nothing but the reply comes back.
    bot.send(b"quiet\n", None);
    assert_eq!(next_line(&mut bot), "got quiet");
    assert_eq!(bot.try_recv(), None);
}

#[test]
fn written_time_is_not_after_the_reply_time() {
    let dir = Scratch::new("times");
    let mut bot = start(&sh(&dir, "while read l; do echo ok; done"));
    bot.send(b"x\n", Some(1));
    let BotEvent::Written { at: written, .. } = next(&mut bot) else {
        panic!("expected Written")
    };
    let BotEvent::Line { at: replied, .. } = next(&mut bot) else {
        panic!("expected Line")
    };
    assert!(written <= replied);
}

#[test]
fn over_long_line_gives_too_long_without_reading_it_all() {
    let dir = Scratch::new("long");
    let mut s = py(
        &dir,
        "import sys, time\nsys.stdout.write('a' * 10_000_000)\nsys.stdout.flush()\ntime.sleep(1000)",
    );
    s.max_line = 65_536;
    let mut bot = start(&s);
    match next(&mut bot) {
        BotEvent::TooLong { limit, .. } => assert_eq!(limit, 65_536),
        other => panic!("expected TooLong, got {other:?}"),
    }
    // The reader stopped, so the bot is stuck writing the rest: stop must still end it.
    let pid = bot.pid();
    bot.stop(Duration::from_millis(200));
    assert_gone(pid, pid);
}

#[test]
fn exact_cap_line_is_accepted() {
    let dir = Scratch::new("cap");
    let mut s = py(
        &dir,
        "print('b' * 1000, flush=True)\nprint('c' * 1001, flush=True)",
    );
    s.max_line = 1000;
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot).len(), 1000);
    assert!(matches!(
        next(&mut bot),
        BotEvent::TooLong { limit: 1000, .. }
    ));
}

#[test]
fn stderr_flood_is_capped_and_does_not_block_the_bot() {
    let dir = Scratch::new("flood");
    let mut s = py(
        &dir,
        "import sys\nsys.stderr.write('e' * 20_000_000)\nsys.stderr.flush()\nprint('after', flush=True)\nsys.stdin.read()",
    );
    s.stderr_cap = 1_000_000;
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "after");
    bot.stop(Duration::from_millis(500));
    let log = fs::read(&s.stderr_log).unwrap();
    let marker = b"\n[tarneeb: stderr truncated at 1000000 bytes]\n";
    assert_eq!(log.len(), 1_000_000 + marker.len());
    assert!(log.ends_with(marker));
    assert!(log[..1_000_000].iter().all(|&b| b == b'e'));
}

#[test]
fn stderr_is_logged() {
    let dir = Scratch::new("log");
    let s = sh(&dir, "echo oops >&2; echo done");
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "done");
    expect_eof(&mut bot);
    bot.stop(Duration::from_millis(100));
    assert_eq!(fs::read_to_string(&s.stderr_log).unwrap(), "oops\n");
}

/// A quiet bot leaves no stderr log: the file is made at the first byte (four empty files
/// per game in a tournament otherwise).
#[test]
fn the_stderr_log_is_created_only_when_written() {
    let dir = Scratch::new("lazy-log");
    let s = sh(&dir, "echo done; read line; echo late >&2");
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "done");
    assert!(!s.stderr_log.exists(), "created before any stderr");
    bot.send(b"go\n", None);
    expect_eof(&mut bot);
    bot.stop(Duration::from_millis(100));
    assert_eq!(fs::read_to_string(&s.stderr_log).unwrap(), "late\n");
    let quiet = sh(&dir, "echo done");
    let quiet = BotSpec {
        stderr_log: dir.0.join("logs/quiet.log"),
        ..quiet
    };
    let mut bot = start(&quiet);
    assert_eq!(next_line(&mut bot), "done");
    expect_eof(&mut bot);
    bot.stop(Duration::from_millis(100));
    assert!(!quiet.stderr_log.exists());
}

/// A kept bot's next log in another directory, not there yet, gets its directory made (only a
/// log beside the last one skips that).
#[test]
fn stderr_can_move_to_a_log_in_a_new_directory() {
    let dir = Scratch::new("move-log-dir");
    let s = sh(&dir, "echo a; read x; echo late >&2; echo b; read y");
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "a");
    let other = dir.0.join("elsewhere/deeper/next.log");
    bot.log_stderr_to(&other, 1 << 20).unwrap();
    bot.send(b"go\n", None);
    assert_eq!(next_line(&mut bot), "b");
    bot.send(b"go\n", None);
    expect_eof(&mut bot);
    bot.stop(Duration::from_millis(100));
    assert_eq!(fs::read_to_string(&other).unwrap(), "late\n");
    assert!(!s.stderr_log.exists(), "the first log was never written");
}

/// A bot kept between games writes each game's stderr to that game's log, each capped anew.
#[test]
fn stderr_can_move_to_another_log() {
    let dir = Scratch::new("move-log");
    let s = sh(
        &dir,
        "echo one >&2; echo a; read x; echo twotwo >&2; echo b; read y",
    );
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "a");
    // The pump may not have read "one" yet: wait until it is in the first log.
    let t0 = Instant::now();
    while fs::read_to_string(&s.stderr_log).unwrap_or_default() != "one\n" {
        assert!(t0.elapsed() < PATIENCE, "first log never written");
        thread::sleep(Duration::from_millis(5));
    }
    let second = dir.0.join("logs/second.log");
    bot.log_stderr_to(&second, 3).unwrap();
    bot.send(b"go\n", None);
    assert_eq!(next_line(&mut bot), "b");
    bot.send(b"go\n", None);
    expect_eof(&mut bot);
    bot.stop(Duration::from_millis(100));
    assert_eq!(fs::read_to_string(&s.stderr_log).unwrap(), "one\n");
    assert_eq!(
        fs::read_to_string(&second).unwrap(),
        "two\n[tarneeb: stderr truncated at 3 bytes]\n"
    );
}

#[test]
fn a_flooding_bot_does_not_starve_the_stderr_of_another() {
    // Both are drained by the same pump thread: the flood must not keep it from the other pipe.
    let (dir_a, dir_b) = (Scratch::new("flood-a"), Scratch::new("flood-b"));
    let mut flood = py(
        &dir_a,
        "import sys\nprint('flooding', flush=True)\nwhile True: sys.stderr.write('e' * 65536)",
    );
    flood.stderr_cap = 1000;
    let mut flooder = start(&flood);
    assert_eq!(next_line(&mut flooder), "flooding");
    let quiet = sh(&dir_b, "echo note >&2; echo done; cat >/dev/null");
    let mut bot = start(&quiet);
    assert_eq!(next_line(&mut bot), "done");
    bot.stop(Duration::from_millis(500));
    assert_eq!(fs::read_to_string(&quiet.stderr_log).unwrap(), "note\n");
    flooder.stop(Duration::from_millis(500));
    let log = fs::read_to_string(&flood.stderr_log).unwrap();
    assert_eq!(
        log,
        format!(
            "{}\n[tarneeb: stderr truncated at 1000 bytes]\n",
            "e".repeat(1000)
        )
    );
}

#[test]
fn a_helper_that_keeps_stderr_open_holds_up_neither_stop_nor_other_bots() {
    // `setsid` takes the helper out of the bot's group: stop cannot kill it, and the stderr
    // pipe it inherited stays open after the bot is gone.
    let dir = Scratch::new("setsid");
    let mut bot = start(&sh(
        &dir,
        "setsid sleep 1000 & echo helper $!; exec cat >/dev/null",
    ));
    let line = next_line(&mut bot);
    let helper: i32 = line
        .strip_prefix("helper ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected line {line:?}"));
    let grace = Duration::from_millis(200);
    let t = Instant::now();
    bot.stop(grace);
    let took = t.elapsed();
    // The pump still serves the next bot.
    let other_dir = Scratch::new("setsid-next");
    let next_spec = sh(&other_dir, "echo next >&2");
    let mut next_bot = start(&next_spec);
    expect_eof(&mut next_bot);
    next_bot.stop(grace);
    assert_eq!(fs::read_to_string(&next_spec.stderr_log).unwrap(), "next\n");
    // SAFETY: kill touches no memory; `helper` is a live process this test started.
    unsafe { libc::kill(helper, libc::SIGKILL) };
    // Orphaned by the bot, it is our child (subreaper): reap it, leaving no zombie.
    let mut status = 0;
    // SAFETY: waitpid writes only `status`, a live local.
    unsafe { libc::waitpid(helper, &mut status, 0) };
    assert!(took < grace + PATIENCE, "stop took {took:?}");
}

#[test]
fn eof_and_exit_status_when_the_bot_exits() {
    let dir = Scratch::new("exit");
    let mut bot = start(&sh(&dir, "echo bye; exit 3"));
    assert_eq!(next_line(&mut bot), "bye");
    assert!(matches!(next(&mut bot), BotEvent::Eof { .. }));
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = bot.exit_status() {
            break status;
        }
        assert!(Instant::now() < deadline, "no exit status");
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(3));
    // Sending to a dead bot is silently ignored.
    bot.send(b"anyone?\n", Some(1));
}

#[test]
fn stop_kills_a_bot_that_ignores_sigterm() {
    let dir = Scratch::new("term");
    let mut bot = start(&sh(
        &dir,
        "trap '' TERM; echo ready; while :; do sleep 1; done",
    ));
    assert_eq!(next_line(&mut bot), "ready");
    let pid = bot.pid();
    let grace = Duration::from_millis(300);
    let t = Instant::now();
    bot.stop(grace);
    assert!(
        t.elapsed() < grace + PATIENCE,
        "stop took {:?}",
        t.elapsed()
    );
    assert_eq!(
        bot.exit_status().and_then(|s| s.signal()),
        Some(libc::SIGKILL)
    );
    assert_gone(pid, pid);
    expect_eof(&mut bot);
}

#[test]
fn stop_lets_a_cooperative_bot_exit_on_sigterm() {
    let dir = Scratch::new("coop");
    let mut bot = start(&sh(&dir, "echo ready; exec sleep 1000"));
    assert_eq!(next_line(&mut bot), "ready");
    bot.stop(Duration::from_secs(2));
    assert_eq!(
        bot.exit_status().and_then(|s| s.signal()),
        Some(libc::SIGTERM)
    );
}

#[test]
fn stop_lets_a_bot_finish_on_end_of_input_before_any_signal() {
    let dir = Scratch::new("eof");
    let s = sh(&dir, "echo ready; cat >/dev/null; echo saved >&2; exit 7");
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "ready");
    bot.stop(Duration::from_secs(4));
    // It exited by itself (code 7, no signal) and finished its work first.
    assert_eq!(bot.exit_status().and_then(|s| s.code()), Some(7));
    assert_eq!(fs::read_to_string(&s.stderr_log).unwrap(), "saved\n");
}

#[test]
fn stop_all_kills_bots_that_ignore_end_of_input_and_sigterm() {
    let dir = Scratch::new("all");
    let mut bots: Vec<Bot> = (0..4)
        .map(|_| {
            start(&sh(
                &dir,
                "trap '' TERM; echo ready; while :; do sleep 1; done",
            ))
        })
        .collect();
    for bot in &mut bots {
        assert_eq!(next_line(bot), "ready");
    }
    let pids: Vec<u32> = bots.iter().map(|b| b.pid()).collect();
    let grace = Duration::from_millis(400);
    let mut refs: Vec<&mut Bot> = bots.iter_mut().collect();
    let t = Instant::now();
    stop_all(&mut refs, grace);
    // Bounded for four bots that ignore both end of input and SIGTERM.
    assert!(
        t.elapsed() < grace + PATIENCE,
        "stop_all took {:?}",
        t.elapsed()
    );
    for (bot, pid) in bots.iter_mut().zip(pids) {
        assert_eq!(
            bot.exit_status().and_then(|s| s.signal()),
            Some(libc::SIGKILL)
        );
        assert_gone(pid, pid);
    }
}

/// A bot whose background child keeps stdout open: after `stop` both are dead and reaped,
/// and the reader sees EOF. With `ignore_term`, both survive SIGTERM and need SIGKILL.
fn background_child_holding_stdout(name: &str, ignore_term: bool) {
    let dir = Scratch::new(name);
    let trap = if ignore_term { "trap '' TERM; " } else { "" };
    let mut bot = start(&sh(
        &dir,
        &format!("{trap}sleep 1000 & echo ready $!; sleep 1000"),
    ));
    let line = next_line(&mut bot);
    let helper: u32 = line
        .strip_prefix("ready ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected line {line:?}"));
    let pid = bot.pid();
    assert!(proc_stat(helper).is_some(), "helper {helper} not running");
    let grace = Duration::from_millis(500);
    let t = Instant::now();
    bot.stop(grace);
    assert!(
        t.elapsed() < grace + PATIENCE,
        "stop took {:?}",
        t.elapsed()
    );
    assert_gone(pid, pid);
    assert_gone(helper, pid);
    expect_eof(&mut bot);
}

#[test]
fn stop_reaps_a_background_child_holding_stdout() {
    background_child_holding_stdout("bg", false);
}

#[test]
fn stop_reaps_a_background_child_that_ignores_sigterm() {
    background_child_holding_stdout("bgterm", true);
}

#[test]
fn orphaned_helper_is_reparented_to_us_and_reaped() {
    let dir = Scratch::new("orphan");
    // The subshell starts the helper and exits at once, orphaning it while the bot lives on.
    let mut bot = start(&sh(
        &dir,
        "(sleep 1000 & echo helper $!); echo ready; sleep 1000",
    ));
    let line = next_line(&mut bot);
    let helper: u32 = line
        .strip_prefix("helper ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected line {line:?}"));
    assert_eq!(next_line(&mut bot), "ready");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (_, ppid, _) = proc_stat(helper).expect("helper running");
        if ppid == std::process::id() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "helper's parent is {ppid}, not us"
        );
        thread::sleep(Duration::from_millis(10));
    }
    let pid = bot.pid();
    bot.stop(Duration::from_millis(200));
    assert_gone(helper, pid);
    assert_gone(pid, pid);
}

#[test]
fn stop_is_idempotent_and_send_after_stop_is_ignored() {
    let dir = Scratch::new("twice");
    let mut bot = start(&sh(&dir, "cat"));
    bot.stop(Duration::from_millis(100));
    bot.stop(Duration::from_millis(100));
    bot.send(b"late\n", Some(5));
    drop(bot);
}

#[test]
fn send_never_blocks_on_a_bot_that_does_not_read() {
    let dir = Scratch::new("noread");
    let mut bot = start(&sh(&dir, "echo ready; exec sleep 1000"));
    assert_eq!(next_line(&mut bot), "ready");
    let big = "x".repeat(1 << 20) + "\n";
    let t = Instant::now();
    for id in 0..8 {
        bot.send(big.as_bytes(), Some(id));
    }
    assert!(t.elapsed() < PATIENCE, "send blocked for {:?}", t.elapsed());
    // 8 MiB cannot fit in a pipe: at most the first write could have completed.
    thread::sleep(Duration::from_millis(50));
    assert!(matches!(
        bot.try_recv(),
        None | Some(BotEvent::Written { id: 0, .. })
    ));
    let t = Instant::now();
    bot.stop(Duration::from_millis(200));
    assert!(t.elapsed() < PATIENCE, "stop took {:?}", t.elapsed());
}

#[test]
fn a_request_larger_than_the_pipe_is_written_as_the_bot_reads_and_timed_from_the_end() {
    let dir = Scratch::new("bigreq");
    let flag = dir.0.join("go");
    // The bot does not read until the test creates `flag`.
    let code = format!(
        "import os, sys, time\nwhile not os.path.exists({flag:?}): time.sleep(0.01)\nprint(len(sys.stdin.readline()), flush=True)",
        flag = flag.display().to_string()
    );
    let mut bot = start(&py(&dir, &code));
    let big = "y".repeat(1 << 20) + "\n";
    let t = Instant::now();
    bot.send(big.as_bytes(), Some(7));
    assert!(t.elapsed() < PATIENCE, "send blocked for {:?}", t.elapsed());
    // Most of the line is still queued: the request is not written, so no clock runs yet.
    assert_eq!(bot.try_recv(), None);
    fs::write(&flag, "").unwrap();
    let BotEvent::Written { id: 7, at: written } = next(&mut bot) else {
        panic!("expected Written(7)")
    };
    let BotEvent::Line { text, at: replied } = next(&mut bot) else {
        panic!("expected the reply")
    };
    assert_eq!(text, big.len().to_string());
    assert!(written <= replied);
}

#[test]
fn env_and_working_directory_are_applied() {
    let dir = Scratch::new("env");
    let mut s = sh(&dir, r#"echo "$TARNEEB_X"; pwd -P"#);
    s.env = vec![("TARNEEB_X".to_string(), "hello there".to_string())];
    s.cwd = Some(dir.0.clone());
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "hello there");
    assert_eq!(
        PathBuf::from(next_line(&mut bot)),
        dir.0.canonicalize().unwrap()
    );
}

#[test]
fn relative_program_path_is_resolved_against_cwd() {
    let dir = Scratch::new("relprog");
    write_script(
        &dir.0.join("bot.sh"),
        "#!/bin/sh\necho from script\n",
        "755",
    );
    let mut s = spec(&dir, &["./bot.sh"]);
    s.cwd = Some(dir.0.clone());
    let mut bot = start(&s);
    assert_eq!(next_line(&mut bot), "from script");
}

#[test]
fn spawn_errors_name_the_command() {
    let dir = Scratch::new("missing");
    let err = Bot::spawn(&spec(&dir, &["/nonexistent/tarneeb-bot", "--fast"])).unwrap_err();
    assert!(matches!(err, BotError::Spawn { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("/nonexistent/tarneeb-bot --fast"), "{msg}");
    assert!(msg.contains("executable"), "{msg}");

    let script = dir.0.join("not-executable.sh");
    write_script(&script, "#!/bin/sh\necho hi\n", "644");
    let err = Bot::spawn(&spec(&dir, &[script.to_str().unwrap()])).unwrap_err();
    assert!(err.to_string().contains("ermission denied"), "{err}");

    let err = Bot::spawn(&spec(&dir, &[])).unwrap_err();
    assert!(matches!(err, BotError::EmptyCommand { .. }), "{err:?}");
}

/// Issue 39: 600 idle connections to the live page once made the referee run out of
/// descriptors, and the next bot's start was reported as "check that the program exists". A
/// referee out of descriptors (EMFILE, or the system's ENFILE) is named as that.
#[test]
fn out_of_descriptors_is_the_referees_failure_not_the_bots() {
    for errno in [24, 23] {
        let err = super::spawn_error("python3 bot.py", io::Error::from_raw_os_error(errno));
        assert!(matches!(err, BotError::Descriptors { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(msg.contains("python3 bot.py"), "{msg}");
        assert!(msg.contains("not the bot's fault"), "{msg}");
        assert!(msg.contains("ulimit -n"), "{msg}");
        assert!(!msg.contains("program exists"), "{msg}");
    }
    let err = super::spawn_error("x", io::Error::from_raw_os_error(2));
    assert!(matches!(err, BotError::Spawn { .. }), "{err:?}");
}

#[test]
fn unwritable_stderr_log_is_an_error_naming_the_path() {
    let dir = Scratch::new("badlog");
    let mut s = sh(&dir, "true");
    // A regular file where a directory is needed.
    fs::write(dir.0.join("file"), "").unwrap();
    s.stderr_log = dir.0.join("file/stderr.log");
    let err = Bot::spawn(&s).unwrap_err();
    assert!(matches!(err, BotError::StderrLog { .. }), "{err:?}");
    assert!(err.to_string().contains("file/stderr.log"), "{err}");
}

#[test]
fn split_command_follows_shell_quoting() {
    assert_eq!(
        split_command(r#"python3 'my bot.py' --name "a b" c\ d e\"f"#).unwrap(),
        ["python3", "my bot.py", "--name", "a b", "c d", "e\"f"]
    );
    assert_eq!(split_command("  ./bot  ").unwrap(), ["./bot"]);
    assert_eq!(split_command(r#"a "" b"#).unwrap(), ["a", "", "b"]);
    assert_eq!(split_command(r#"'$HOME' "x'y""#).unwrap(), ["$HOME", "x'y"]);
}

#[test]
fn split_command_rejects_empty_and_unbalanced_input() {
    for input in ["", "   "] {
        let err = split_command(input).unwrap_err();
        assert!(matches!(err, BotError::EmptyCommand { .. }), "{err:?}");
        assert!(err.to_string().contains("python3 bot.py"), "{err}");
    }
    for input in ["python3 'bot.py", r#"run "x"#, r"bot \"] {
        let err = split_command(input).unwrap_err();
        assert!(
            matches!(err, BotError::Unbalanced { .. }),
            "{input}: {err:?}"
        );
        assert!(err.to_string().contains(input), "{err}");
    }
}

#[test]
fn pin_to_cpu_sets_the_affinity_of_a_bot() {
    // Pick a CPU this process may use (a container may not allow cpu 0).
    // SAFETY: an all-zero cpu_set_t is valid; sched_getaffinity fills it.
    let allowed = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        assert_eq!(
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set),
            0
        );
        (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &set))
    };
    let cpu = allowed.expect("some cpu allowed");
    let dir = Scratch::new("pin");
    let mut bot = start(&sh(&dir, "echo ready; exec sleep 1000"));
    assert_eq!(next_line(&mut bot), "ready");
    pin_to_cpu(bot.pid(), cpu).unwrap();
    let status = fs::read_to_string(format!("/proc/{}/status", bot.pid())).unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap();
    assert_eq!(list.trim(), cpu.to_string());
    let err = pin_to_cpu(bot.pid(), 1 << 20).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
}

/// The log name is what README and protocol.md promise (`RECORD.seatN.stderr.log`), and a
/// compressed tournament record's logs are named like a plain one's.
#[test]
fn stderr_logs_are_named_after_the_record() {
    use std::path::Path;
    let log = |r: &str, s| super::stderr_log_path(Path::new(r), s);
    assert_eq!(
        log("out/game.jsonl", 2),
        Path::new("out/game.seat2.stderr.log")
    );
    assert_eq!(log("r", 0), Path::new("r.seat0.stderr.log"));
    assert_eq!(
        log("games/000012.jsonl.zst", 3),
        Path::new("games/000012.seat3.stderr.log")
    );
    assert_eq!(
        log("games/000012.jsonl", 3),
        log("games/000012.jsonl.zst", 3)
    );
}
