//! The machine failing under the referee (docs/reliability.md, "A full disk" and "Out of file
//! descriptors"): a tournament on a small file system that fills up stops with a message
//! naming the full disk, its finished games intact, and the same command resumes once space
//! is freed with nothing lost or doubled; a referee at its file-descriptor limit fails its
//! games with a named error, without a hang or a panic; a `--out` on a read-only file system,
//! or one made read-only mid-run, is named with its fix and resumes with nothing lost; a pipe
//! closed on either side (the referee's stdout, a bot's stdin or stdout) is neither a panic
//! nor a hang; and a clock step moves no time limit.
//!
//! No root here: the small file system is a tmpfs of a fixed size mounted by bubblewrap in a
//! user namespace (`bwrap --size BYTES --tmpfs DIR`), with the referee running inside it and
//! its bots in their own (nested) bwrap sandbox, as in any sealed run. The file-descriptor
//! limit is `prlimit --nofile` on the referee process. The file system made read-only
//! mid-run is a tmpfs in a user and mount namespace (`unshare -rm`) with a read-only bind
//! mount put over it.

use crate::common::{self, stderr, Scratch, RANDOM_BOT};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The tournament both the whole run and the run on the small disk play: five deal sets of
/// the random bot against itself (10 games of 4 hands), with one deal key so both play the
/// same games.
fn tournament_args(rules: &Path, out: &Path) -> Vec<String> {
    let bot = common::python_rel(RANDOM_BOT);
    let mut v: Vec<String> = ["tournament", "--games", "5", "--seed", "17", "--jobs", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend([
        "--handshake-timeout".into(),
        "120s".into(),
        "--deal-key".into(),
    ]);
    v.push(common::shared_deal_key().display().to_string());
    v.extend(["--rules".into(), rules.display().to_string()]);
    v.extend(["--out".into(), out.display().to_string()]);
    v.extend([
        "--bot".into(),
        format!("x={bot}"),
        "--bot".into(),
        format!("y={bot}"),
    ]);
    v
}

/// The rows of a run without their timing, which differs between runs.
fn rows_of(dir: &Path) -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = common::json_lines(&dir.join("results.jsonl"));
    for r in &mut v {
        r.as_object_mut().unwrap().remove("referee_us_per_move");
    }
    v.sort_by_key(|r| r["game"].as_u64());
    v
}

/// Shell-quoted, for the script run inside the sandbox.
fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

const PAGE: u64 = 4096;
const DISK_PAGES: u64 = 256;

#[test]
fn a_tournament_on_a_disk_that_fills_stops_named_and_resumes_once_space_is_freed() {
    if !common::have_bwrap() {
        return;
    }
    let s = Scratch::new("full-disk");
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":4}"#);
    let whole = s.path("whole");
    let out = common::command()
        .args(tournament_args(&rules, &whole))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let expect = rows_of(&whole);
    assert_eq!(expect.len(), 10);
    let tarneeb = env!("CARGO_BIN_EXE_tarneeb");
    // A tmpfs counts whole pages: each record (a few KB here) takes one or two, results.jsonl
    // one per 14 rows or so, the seal and its temporary file one each, the standings two.
    // Left free: two pages more each time, from room for a game or two until the whole run
    // fits; each stops at another write (a record, the seal, a row, the standings).
    let mut stopped = 0;
    for free_pages in (4..=60).step_by(2) {
        let disk = s.path(&format!("disk-{free_pages}"));
        std::fs::create_dir_all(&disk).unwrap();
        let run = disk.join("run");
        let cmd = quoted(
            &std::iter::once(tarneeb.to_string())
                .chain(tournament_args(&rules, &run))
                .collect::<Vec<_>>(),
        );
        let log = |name: &str| {
            s.path(&format!("{name}-{free_pages}"))
                .display()
                .to_string()
        };
        // Inside the sandbox: fill the disk but for `free_pages` with a ballast file, run the
        // tournament (it must stop), keep what it left, free the space, and run the same
        // command again. The tmpfs goes with the sandbox, so the directory is copied out.
        let script = format!(
            "head -c {ballast} /dev/zero > {d}/ballast\n\
             {cmd} > {o1} 2> {e1}; echo $? > {c1}\n\
             cp -a {d}/run {kept}\n\
             rm {d}/ballast\n\
             {cmd} > {o2} 2> {e2}; echo $? > {c2}\n\
             cp -a {d}/run {resumed}\n",
            ballast = (DISK_PAGES - free_pages) * PAGE,
            d = disk.display(),
            o1 = log("out1"),
            e1 = log("err1"),
            c1 = log("code1"),
            o2 = log("out2"),
            e2 = log("err2"),
            c2 = log("code2"),
            kept = log("kept"),
            resumed = log("resumed"),
        );
        let mut child = Command::new("bwrap")
            .args(["--dev-bind", "/", "/", "--size"])
            .arg((DISK_PAGES * PAGE).to_string())
            .arg("--tmpfs")
            .arg(&disk)
            .arg("--chdir")
            .arg(common::root())
            .args(["--die-with-parent", "sh", "-c", &script])
            .spawn()
            .unwrap();
        // A bound for a hung run (about 10 s of games under no load).
        let deadline = std::time::Instant::now() + Duration::from_secs(600);
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the runs on the small disk did not end in 600 s");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let read = |name: &str| std::fs::read_to_string(log(name)).unwrap_or_default();
        let first = read("err1");
        if read("code1").trim() == "0" {
            // The disk was big enough: the run is whole, and the larger disks need no try.
            assert_eq!(rows_of(&s.path(&format!("kept-{free_pages}"))), expect);
            break;
        }
        stopped += 1;
        assert_eq!(
            read("code1").trim(),
            "1",
            "free {free_pages} pages: {first}"
        );
        assert!(
            first.contains("No space left on device")
                && first.contains("the disk is full")
                && first.contains("free space and run the same command again to resume"),
            "free {free_pages} pages: {first}"
        );
        assert!(!first.contains("panicked"), "{first}");
        // The finished games are intact: every whole row left is one of the uncut run's (a
        // row torn by the full disk is not a whole line and is played again on resume).
        let kept = std::fs::read_to_string(s.path(&format!("kept-{free_pages}/results.jsonl")))
            .unwrap_or_default();
        let whole_rows: Vec<serde_json::Value> = kept
            .split_inclusive('\n')
            .filter(|l| l.ends_with('\n'))
            .map(|l| {
                let mut r: serde_json::Value = serde_json::from_str(l).expect("a whole row");
                r.as_object_mut().unwrap().remove("referee_us_per_move");
                r
            })
            .collect();
        assert!(
            whole_rows.len() < 10 || first.contains("standings"),
            "free {free_pages} pages: {first}"
        );
        for r in &whole_rows {
            assert!(
                expect.contains(r),
                "free {free_pages} pages: {r} is not the uncut run's"
            );
        }
        let second = read("err2");
        assert_eq!(
            read("code2").trim(),
            "0",
            "free {free_pages} pages: {second}"
        );
        assert!(
            second.contains(&format!("{} finished games kept", whole_rows.len())),
            "free {free_pages} pages: {second}"
        );
        let resumed = s.path(&format!("resumed-{free_pages}"));
        assert_eq!(rows_of(&resumed), expect, "free {free_pages} pages");
        // The seal vouches for the resumed rows: standings read the directory without a word
        // about unsealed rows, and every record verifies.
        let st = common::tarneeb(&["standings".as_ref(), resumed.as_os_str()]);
        assert!(st.status.success(), "{}", stderr(&st));
        assert!(!stderr(&st).contains("the slow way"), "{}", stderr(&st));
        for r in &expect {
            let rec = resumed.join(r["record"].as_str().unwrap());
            let v = common::tarneeb(&["replay".as_ref(), rec.as_os_str()]);
            assert!(v.status.success(), "{}: {}", rec.display(), stderr(&v));
        }
    }
    // The disk filled at several places before it was big enough.
    assert!(stopped >= 3, "{stopped}");
}

/// Issue 43: the referee at its file-descriptor limit (`ulimit -n`, set on the referee
/// process alone and inherited by what it starts). From a limit too low to start the bots'
/// sandbox to one where the bots start and fail later: every run ends (no hang), with no
/// panic, either whole or stopped with exit code 2 and a message that names the referee's
/// descriptor limit and the fix; and no bot is left behind.
#[test]
fn a_referee_at_its_file_descriptor_limit_fails_its_games_named_without_a_hang() {
    use std::os::unix::process::CommandExt;
    if !common::have_bwrap() {
        return;
    }
    let s = Scratch::new("fd-limit");
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":2}"#);
    let bot = common::python_bot(RANDOM_BOT, &[&s.marker]);
    let mut named = 0;
    for (limit, jobs) in [(8u64, "1"), (16, "1"), (24, "2"), (40, "2"), (64, "2")] {
        let out_dir = s.path(&format!("run-{limit}"));
        let mut cmd = common::command();
        cmd.args(["tournament", "--games", "2", "--seed", "5", "--jobs", jobs])
            .args(["--handshake-timeout", "120s", "--rules"])
            .arg(&rules)
            .arg("--out")
            .arg(&out_dir)
            .args(["--bot", &format!("x={bot}"), "--bot", &format!("y={bot}")])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let r = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = common::wait_with_limit(cmd.spawn().unwrap(), Duration::from_secs(600));
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "limit {limit}: {err}");
        match out.status.code() {
            Some(0) => {}
            Some(2) => {
                assert!(
                    err.contains("the referee has run out of file descriptors")
                        && err.contains("raise it (ulimit -n)")
                        && !err.contains("user namespaces"),
                    "limit {limit}: {err}"
                );
                named += 1;
            }
            other => panic!("limit {limit}: exit {other:?}: {err}"),
        }
        common::assert_no_leftovers(&s.marker);
    }
    // The lowest limits cannot play a game: the named failure was seen, not assumed.
    assert!(named >= 2, "{named}");
}

/// An LD_PRELOAD library that steps the wall clock (CLOCK_REALTIME, gettimeofday, time) by
/// `TARNEEB_TEST_CLOCK_STEP` seconds more at every read: a clock stepped again and again, as
/// NTP or an administrator would once, for the referee's process alone (stepping the
/// machine's clock would disturb everyone on it). CLOCK_MONOTONIC is left alone.
const CLOCK_STEP_SHIM: &str = r#"
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
static long long stepped;
static long long next_step(void) {
    const char *s = getenv("TARNEEB_TEST_CLOCK_STEP");
    stepped += s ? atoll(s) : 0;
    return stepped;
}
int clock_gettime(clockid_t c, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int r = real(c, ts);
    if (r == 0 && (c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE)) ts->tv_sec += next_step();
    return r;
}
int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    int r = clock_gettime(CLOCK_REALTIME, &ts);
    if (r == 0 && tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
    (void)tz;
    return r;
}
time_t time(time_t *t) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (t) *t = ts.tv_sec;
    return ts.tv_sec;
}
"#;

/// Issue 43: a clock step during a move. The wall clock jumps ten days at every read, forward
/// (a deadline on it would pass at once: a bot answering in 0.2 s of a 5 s limit would time
/// out) and backward (a deadline on it would never come: a bot that never answers would hang
/// the game). Neither happens: time limits are on the monotonic clock.
#[test]
fn a_wall_clock_stepped_during_moves_neither_times_out_a_bot_nor_lets_one_hang() {
    let s = Scratch::new("clock-step");
    let src = s.file("clock_step.c", CLOCK_STEP_SHIM);
    let shim = s.path("clock_step.so");
    let built = Command::new("gcc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&shim)
        .arg(&src)
        .arg("-ldl")
        .output()
        .expect("gcc runs");
    assert!(built.status.success(), "gcc: {}", stderr(&built));
    // The shim works: `date` under it is ten days ahead (one read).
    let date = |step: &str| -> i64 {
        let o = Command::new("date")
            .arg("+%s")
            .env("LD_PRELOAD", &shim)
            .env("TARNEEB_TEST_CLOCK_STEP", step)
            .output()
            .unwrap();
        common::stdout(&o).trim().parse().unwrap()
    };
    let now = date("0");
    assert!(
        date("864000") - now >= 864000 - 60,
        "the shim does not step the clock"
    );
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":1}"#);
    let random = common::python_bot(RANDOM_BOT, &[&s.marker]);
    // slow 200: 0.2 s before every card; hang 1: no reply from its first card on.
    for (step, mode, trigger, limit) in [
        ("864000", "slow", "200", "5s"),
        ("-864000", "hang", "1", "1s"),
    ] {
        let record = s.path(&format!("game{step}.jsonl"));
        let fault = common::python_bot(common::FAULT_BOT, &[mode, trigger, &s.marker]);
        let child = common::command()
            .args(["play", "--seed", "3", "--move-timeout", limit, "--rules"])
            .arg(&rules)
            .arg("--record")
            .arg(&record)
            .args([
                "--bot", &fault, "--bot", &random, "--bot", &random, "--bot", &random,
            ])
            .env("LD_PRELOAD", &shim)
            .env("TARNEEB_TEST_CLOCK_STEP", step)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A bound for a hung game, far above the 1 s limit: a wall-clock deadline stepped back
        // ten days at every read would never come.
        let out = common::wait_with_limit(child, Duration::from_secs(300));
        let err = stderr(&out);
        assert!(out.status.success(), "step {step}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let text = std::fs::read_to_string(&record).unwrap();
        let timed_out = text.contains("\"timeout\"");
        if mode == "slow" {
            assert!(!timed_out, "step {step}: a bot in time timed out:\n{text}");
        } else {
            assert!(
                timed_out,
                "step {step}: the silent bot was not timed out:\n{text}"
            );
        }
    }
    common::assert_no_leftovers(&s.marker);
}

/// A run of `deal_sets` deal sets (twice as many games) of the random bot against itself
/// without a sandbox, into `out`.
fn sandboxless_run(rules: &Path, out: &Path, deal_sets: u32, seed: u32) -> Vec<String> {
    let bot = common::python_rel(RANDOM_BOT);
    let mut v: Vec<String> = vec!["tournament".into(), "--games".into(), deal_sets.to_string()];
    v.extend([
        "--seed".into(),
        seed.to_string(),
        "--jobs".into(),
        "1".into(),
    ]);
    v.extend(["--sandbox".into(), "none".into()]);
    v.extend(["--rules".into(), rules.display().to_string()]);
    v.extend(["--out".into(), out.display().to_string()]);
    v.extend([
        "--bot".into(),
        format!("x={bot}"),
        "--bot".into(),
        format!("y={bot}"),
    ]);
    v
}

/// A two-deal-set run (4 games) of the random bot without a sandbox, into `out`.
fn small_run(rules: &Path, out: &Path) -> Vec<String> {
    sandboxless_run(rules, out, 2, 23)
}

/// Issue 43: `--out` on a read-only file system (a directory bound read-only by bubblewrap in
/// a user namespace, no root needed). A new tournament is refused before it starts, exit code
/// 2, the message naming the directory, the file system and the fix; a finished tournament's
/// directory run again there stops with exit code 1, named the same way, and not a byte of it
/// changes.
#[test]
fn an_out_on_a_read_only_file_system_is_named_with_its_fix() {
    if !common::have_bwrap() {
        return;
    }
    let s = Scratch::new("read-only");
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":1}"#);
    let ro = s.path("ro");
    std::fs::create_dir_all(&ro).unwrap();
    let read_only = |args: &[String]| {
        let out = Command::new("bwrap")
            .args(["--dev-bind", "/", "/", "--ro-bind"])
            .arg(&ro)
            .arg(&ro)
            .arg("--chdir")
            .arg(common::root())
            .args(["--die-with-parent", env!("CARGO_BIN_EXE_tarneeb")])
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        common::wait_with_limit(out, Duration::from_secs(600))
    };
    let fresh = ro.join("fresh");
    let out = read_only(&small_run(&rules, &fresh));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot create {}", fresh.display()))
            && err.contains("Read-only file system")
            && err.contains(&format!(
                "--out {} is on a read-only file system: give --out a directory on a writable one",
                fresh.display()
            )),
        "{err}"
    );
    assert!(!err.contains("panicked") && !fresh.exists(), "{err}");
    // A finished run, then the same command on the directory made read-only.
    let done = ro.join("done");
    let out = common::command()
        .args(small_run(&rules, &done))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let snapshot = |d: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = Vec::new();
        for sub in [d.to_path_buf(), d.join("games")] {
            for e in std::fs::read_dir(&sub).unwrap().flatten() {
                if e.path().is_file() {
                    v.push((
                        e.path().display().to_string(),
                        std::fs::read(e.path()).unwrap(),
                    ));
                }
            }
        }
        v.sort();
        v
    };
    let before = snapshot(&done);
    let out = read_only(&small_run(&rules, &done));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&done.join("results.jsonl").display().to_string())
            && err.contains("Read-only file system")
            && err.contains(&format!(
                "the file system of {} is read-only: finished games are kept there; make it writable",
                done.display()
            )),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(snapshot(&done), before, "the directory changed");
}

/// Issue 43: `--out` whose file system becomes read-only in the middle of a run. In a user
/// and mount namespace of its own (`unshare -rm`, no root needed), the run's directory is on a
/// tmpfs; once three rows are written, a read-only bind mount is put over it (files already
/// open stay writable, as after a remount of a file system with open files; every new record
/// is refused). The run stops with exit code 1, the message naming the file system and the
/// fix; every whole row left is a finished game; with the bind mount gone, the same command
/// resumes to the whole run: every game once, each row checked against its record by
/// `standings`.
#[test]
fn an_out_made_read_only_mid_run_stops_named_and_resumes_with_nothing_lost() {
    let works = Command::new("unshare")
        .args(["-rm", "true"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        works || std::env::var("CI").is_err(),
        "unshare -rm (util-linux, user namespaces) is needed"
    );
    if !works {
        return;
    }
    let s = Scratch::new("read-only-mid");
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":1}"#);
    let disk = s.path("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let run = disk.join("run");
    // 40 games: a few seconds, far more than the three rows waited for. The read-only
    // remount is refused (EBUSY) while a file opened through the new bind mount is open for
    // writing (a record of the game being played), so it is tried again until it takes.
    let args: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_tarneeb").to_string())
        .chain(sandboxless_run(&rules, &run, 20, 29))
        .collect();
    let cmd = quoted(&args);
    let log = |name: &str| s.path(name).display().to_string();
    let script = format!(
        "mount -t tmpfs none {d}\n\
         {cmd} > {o1} 2> {e1} & pid=$!\n\
         while [ \"$(cat {d}/run/results.jsonl 2>/dev/null | wc -l)\" -lt 3 ]; do\n\
           kill -0 $pid 2>/dev/null || break; sleep 0.05\n\
         done\n\
         mount --bind {d} {d} || echo no-bind > {c1}\n\
         ro=0; while [ $ro = 0 ]; do\n\
           mount -o remount,bind,ro {d} 2>/dev/null && ro=1 && break\n\
           kill -0 $pid 2>/dev/null || break; sleep 0.01\n\
         done\n\
         [ $ro = 1 ] || echo no-remount > {c1}\n\
         wait $pid; echo $? >> {c1}\n\
         cp -a {d}/run {kept}\n\
         umount {d}\n\
         {cmd} > {o2} 2> {e2}; echo $? > {c2}\n\
         cp -a {d}/run {resumed}\n",
        d = disk.display(),
        o1 = log("out1"),
        e1 = log("err1"),
        c1 = log("code1"),
        o2 = log("out2"),
        e2 = log("err2"),
        c2 = log("code2"),
        kept = log("kept"),
        resumed = log("resumed"),
    );
    let child = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::wait_with_limit(child, Duration::from_secs(900));
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |name: &str| std::fs::read_to_string(log(name)).unwrap_or_default();
    let first = read("err1");
    assert_eq!(read("code1").trim(), "1", "{first}");
    assert!(
        first.contains("Read-only file system")
            && first.contains(&format!(
                "the file system of {} is read-only: finished games are kept there; make it writable (remount it read-write) and run the same command again to resume",
                run.display()
            )),
        "{first}"
    );
    assert!(!first.contains("panicked"), "{first}");
    let kept = std::fs::read_to_string(s.path("kept/results.jsonl")).unwrap();
    let kept_rows: Vec<&str> = kept
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    // Under load the remount may take only after the last row (it is refused while a record
    // is open for writing, which is nearly all the time): the run then stops at its last
    // checkpoint or its standings, exit 1 as above, and resume finds every row (CI saw 40).
    assert!(kept_rows.len() >= 3 && kept_rows.len() <= 40, "{kept}");
    let second = read("err2");
    assert_eq!(read("code2").trim(), "0", "{second}");
    assert!(
        second.contains(&format!("{} finished games kept", kept_rows.len())),
        "{second}"
    );
    let resumed = s.path("resumed");
    let rows = rows_of(&resumed);
    let games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    assert_eq!(games, (0..40).collect::<Vec<u64>>(), "every game once");
    // The rows kept are the resumed file's first lines, byte for byte.
    let whole = std::fs::read_to_string(resumed.join("results.jsonl")).unwrap();
    assert!(whole.starts_with(&kept_rows.concat()));
    // Unsealed (no sandbox): standings check every row against its record.
    let st = common::tarneeb(&["standings".as_ref(), resumed.as_os_str()]);
    assert!(st.status.success(), "{}", stderr(&st));
    assert!(
        stderr(&st).contains("40 of 40 rows checked"),
        "{}",
        stderr(&st)
    );
}

/// Issue 43: SIGPIPE. The referee's own stdout closed by its reader (`tarneeb ... | head -1`,
/// the reader gone before anything is written): `tournament`, `standings`, `play` and
/// `replay` end with exit code 0 and no panic, and the tournament still writes its standings
/// file. And a bot's pipes closed while it lives: its stdout (nothing more comes out of it)
/// or its stdin (the referee's next write meets a pipe without a reader): the game goes on
/// with the seat faulted, named in the record, no panic, no hang, no bot left.
#[test]
fn a_closed_pipe_on_either_side_is_neither_a_panic_nor_a_hang() {
    use std::process::Stdio;
    let s = Scratch::new("sigpipe");
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":1}"#);
    let dir = s.path("run");
    let record = s.path("game.jsonl");
    let random = common::python_bot(RANDOM_BOT, &[&s.marker]);
    let closed_stdout = |args: Vec<String>| {
        let mut child = common::command()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let out = common::wait_with_limit(child, Duration::from_secs(600));
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    };
    closed_stdout(small_run(&rules, &dir));
    assert!(dir.join("standings.txt").is_file());
    assert_eq!(rows_of(&dir).len(), 4);
    closed_stdout(vec!["standings".into(), dir.display().to_string()]);
    let play = |record: &Path, seat0: &str| -> Vec<String> {
        // A bot whose stdin is closed is faulted at the write that fails, not at this limit
        // (5 s: far above a random bot's move).
        let mut v: Vec<String> = [
            "play",
            "--seed",
            "3",
            "--sandbox",
            "none",
            "--move-timeout",
            "5s",
            "--rules",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        v.extend([rules.display().to_string(), "--record".into()]);
        v.push(record.display().to_string());
        for bot in [seat0, &random, &random, &random] {
            v.extend(["--bot".into(), bot.to_string()]);
        }
        v
    };
    closed_stdout(play(&record, &random));
    closed_stdout(vec!["replay".into(), record.display().to_string()]);
    common::assert_no_leftovers(&s.marker);
    for mode in ["close-stdout", "close-stdin"] {
        let fault = common::python_bot(common::FAULT_BOT, &[mode, "2", &s.marker]);
        let rec = s.path(&format!("{mode}.jsonl"));
        let child = common::command()
            .args(play(&rec, &fault))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = common::wait_with_limit(child, Duration::from_secs(600));
        let err = stderr(&out);
        assert!(out.status.success(), "{mode}: {err}");
        assert!(!err.contains("panicked"), "{mode}: {err}");
        let text = std::fs::read_to_string(&rec).unwrap();
        // Both named at once: closed stdout when the reply is awaited, closed stdin at the
        // write of its next request that fails.
        let cause = if mode == "close-stdout" {
            "output closed while request"
        } else {
            "closed its stdin: the referee's write of request"
        };
        assert!(
            text.lines().any(|l| l.contains("\"type\":\"fault\"")
                && l.contains("\"seat\":0")
                && l.contains("\"kind\":\"exited\"")
                && l.contains(cause)),
            "{mode}: no fault exited ({cause}) of seat 0:\n{text}"
        );
        let v = common::tarneeb(&["replay".as_ref(), rec.as_os_str()]);
        assert!(v.status.success(), "{mode}: {}", stderr(&v));
        common::assert_no_leftovers(&s.marker);
    }
}

/// Issue 43 (nothing doubled): the same tournament command started a second time while the
/// first still runs (two terminals, a restart while the old run lives) is refused before it
/// plays, exit code 2, naming the directory and the fix, and the first run's rows stay whole:
/// each game once, no line torn. Before the lock both runs played the missing games and their
/// appends interleaved (400 games gave 330 rows, the second torn). The first run is held at
/// its bots' start by a gate file, so the second surely starts while it runs.
#[test]
fn the_same_tournament_started_twice_at_once_is_refused_the_second_time() {
    let s = Scratch::new("two-runs");
    let gate = s.path("gate");
    let bot = s.file(
        "gated_bot.sh",
        &format!(
            "#!/bin/sh\n# {}\nwhile [ ! -e '{}' ]; do sleep 0.05; done\nexec {}\n",
            s.marker,
            gate.display(),
            common::python_bot(RANDOM_BOT, &[])
        ),
    );
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let rules = s.file("rules.json", r#"{"preset":"classic","max-hands":2}"#);
    let out = s.path("t");
    let mut args = small_run(&rules, &out);
    args.extend(["--handshake-timeout".into(), "300s".into()]);
    for a in args.iter_mut().filter(|a| a.ends_with(RANDOM_BOT)) {
        *a = format!("{}={}", &a[..1], bot.display());
    }
    let first_err = std::fs::File::create(s.path("first.err")).unwrap();
    let mut first = common::command()
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(first_err)
        .spawn()
        .unwrap();
    // The first run holds its lock before it writes tournament.json.
    let start = std::time::Instant::now();
    while !out.join("tournament.json").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the first run never claimed its directory"
        );
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = common::command().args(&args).output().unwrap();
    let said = stderr(&second);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "{} is in use by another tournament run on this machine",
            out.display()
        )) && said.contains("run the same command again to resume"),
        "{said}"
    );
    std::fs::write(&gate, "").unwrap();
    let status = first.wait().unwrap();
    assert!(
        status.success(),
        "the first run failed: {}",
        std::fs::read_to_string(s.path("first.err")).unwrap()
    );
    let rows = rows_of(&out);
    let games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    assert_eq!(games, vec![0, 1, 2, 3], "each game once");
    // Once the first run has ended, the same command resumes it: nothing to play, no row added.
    let again = common::command().args(&args).output().unwrap();
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(rows_of(&out), rows);
    common::assert_no_leftovers(&s.marker);
}
