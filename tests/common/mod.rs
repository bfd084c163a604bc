//! Helpers every end-to-end test uses: the real binary run from the project root, scratch
//! directories that clean up after themselves, bot command lines, and a look through /proc for
//! processes a test left behind. Each test file uses a part of it.
#![allow(dead_code)]

pub mod browser;
pub mod remote;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The random sample bot, relative to the project root.
pub const RANDOM_BOT: &str = "sample-bots/python/random_bot.py";
/// The test bot that misbehaves on request (tests/bots/fault_bot.py).
pub const FAULT_BOT: &str = "tests/bots/fault_bot.py";

/// The project root (tests run the binary from here, so relative bot paths work).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A `tarneeb` command run from the project root, to add arguments to.
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tarneeb"));
    c.current_dir(root());
    c
}

/// Runs `tarneeb ARGS` from the project root and waits for it.
pub fn tarneeb<S: AsRef<OsStr>>(args: &[S]) -> Output {
    command().args(args).output().expect("tarneeb runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// The interpreter Python bots start with: the program `python3` on PATH runs (its
/// `sys.executable`, asked once). On this project's machines `python3` is a pyenv shim, a bash
/// script that runs `pyenv exec`: about 0.4 s a start against 0.05 s for the interpreter
/// itself, and the suite starts thousands of bots. A few tests still start `python3` by name
/// (tests/quick/errors.rs, a `--config` file), so the shim's way through the sandbox stays
/// tested. Falls back to `python3` when the answer cannot be used (none, a path with a space,
/// or under /tmp, which sandboxed bots do not see).
pub fn python() -> &'static str {
    static PYTHON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| text(&o.stdout).trim().to_string())
            .filter(|p| {
                p.starts_with('/') && !p.starts_with("/tmp/") && !p.contains(char::is_whitespace)
            })
            .unwrap_or_else(|| "python3".to_string())
    })
}

/// `PYTHON SCRIPT` for a script path relative to the project root (where tests run the
/// referee), for the tests' tables of bot commands.
pub fn python_rel(script: &'static str) -> &'static str {
    static MADE: std::sync::Mutex<Vec<(&str, &str)>> = std::sync::Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, cmd)) = made.iter().find(|(s, _)| *s == script) {
        return cmd;
    }
    let cmd: &'static str = Box::leak(format!("{} {script}", python()).into_boxed_str());
    made.push((script, cmd));
    cmd
}

/// `PYTHON /abs/path/to/script ARGS...`: a Python bot's command line.
pub fn python_bot(script: &str, args: &[&str]) -> String {
    let mut cmd = format!("{} {}", python(), root().join(script).display());
    for a in args {
        cmd.push(' ');
        cmd.push_str(a);
    }
    cmd
}

/// A fresh directory under the system's temp dir, removed when dropped. Its `marker` is unique
/// to it and this test process: bots given it as an argument can be found in /proc afterwards.
pub struct Scratch {
    pub dir: PathBuf,
    pub marker: String,
}

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let marker = format!(
            "tarneeb-test-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let dir = std::env::temp_dir().join(&marker);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch { dir, marker }
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// Writes `text` to a file of the directory and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Processes whose command line holds this directory's marker.
    pub fn leftovers(&self) -> Vec<String> {
        leftovers(&self.marker)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The /proc directories (pid, path) and command lines of this test's processes whose command
/// line holds `marker` (see [`is_ours`]).
fn processes_with(marker: &str) -> Vec<(String, PathBuf, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let text = cmdline_of(&entry.path());
        if text.contains(marker) && is_ours(&name, marker) {
            found.push((name, entry.path(), text));
        }
    }
    found
}

/// A process's command line, its arguments joined by spaces (empty once it is gone).
fn cmdline_of(dir: &Path) -> String {
    let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
    String::from_utf8_lossy(&cmdline).replace('\0', " ")
}

/// A process's parent pid (`None` once it is gone), from /proc/PID/stat, whose second field,
/// the command name in parentheses, may itself hold spaces and parentheses.
pub fn parent_of(pid: &str) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1).map(str::to_string)
}

/// Whether `pid`, whose command line holds `marker`, is this test's: the first process above
/// it whose command line does not hold the marker is this test process, a process it started
/// (a referee still running), or one above it (init, or a subreaper that adopted an orphaned
/// bot). Another program that only names the scratch directory, such as another session's
/// bwrap binding every entry of /tmp, has its own parent above it and is not counted (a false
/// "processes left behind" of `no_message_reveals_a_hidden_card`). A chain that cannot be read
/// to its end (a process gone meanwhile) counts as ours: a leftover is never missed for a race.
fn is_ours(pid: &str, marker: &str) -> bool {
    let me = std::process::id().to_string();
    let mut above = parent_of(pid);
    while let Some(p) = above.as_deref() {
        if p == "0" || p == me || !cmdline_of(Path::new(&format!("/proc/{p}"))).contains(marker) {
            break;
        }
        above = parent_of(p);
    }
    let Some(first) = above else {
        return true;
    };
    // The process and those above it, up to init; `None` if one was gone before the end.
    let line = |from: &str| -> Option<Vec<String>> {
        let mut chain = vec![from.to_string()];
        loop {
            match parent_of(chain.last().unwrap())? {
                up if up == "0" => return Some(chain),
                up => chain.push(up),
            }
        }
    };
    let (Some(up_from_first), Some(up_from_me)) = (line(&first), line(&me)) else {
        return true;
    };
    first == "0" || up_from_first.contains(&me) || up_from_me.contains(&first)
}

/// Processes whose command line holds `marker`, with their state.
pub fn leftovers(marker: &str) -> Vec<String> {
    processes_with(marker)
        .into_iter()
        .map(|(pid, dir, text)| {
            let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
            format!(
                "pid {pid}: {text} [{}]",
                stat.split(' ').nth(2).unwrap_or("?")
            )
        })
        .collect()
}

/// Whether a process holding `marker` sleeps on a timer (a bot in `time.sleep`, not in a read
/// of its input): the event a test waits for instead of a fixed sleep when a bot is to be
/// caught hanging on a request.
pub fn one_sleeps_on_a_timer(marker: &str) -> bool {
    processes_with(marker).iter().any(|(_, dir, _)| {
        std::fs::read_to_string(dir.join("wchan")).is_ok_and(|w| w.contains("nanosleep"))
    })
}

/// Waits until no process holds `marker` (the kernel may still be reaping when the referee
/// exits), then asserts that none is left.
pub fn assert_no_leftovers(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !leftovers(marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = leftovers(marker);
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// Stops a referee as Ctrl-C would (SIGTERM: it then stops its bots' process trees) and kills
/// it only if it is still there after `grace`: a referee killed outright cannot stop its
/// sandboxed bots, which then outlive the failed test.
pub fn stop_referee(child: &mut Child, grace: Duration) {
    // SAFETY: a plain kill(2) of our own child's pid, which `child` has not reaped yet.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let start = Instant::now();
    while start.elapsed() < grace {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Waits for `child` with its output; kills it and fails the test past `limit` (a bound for a
/// hung referee, generous for a loaded machine: never a timing assertion).
pub fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "tarneeb ran past {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lines of a JSON-lines file (a record, results.jsonl), each parsed.
pub fn json_lines(path: &Path) -> Vec<Value> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

/// How many faults a game's `replay --json` lists, over all its hands.
pub fn fault_count(replay_json: &Value) -> usize {
    replay_json["hands"]
        .as_array()
        .expect("replay --json has hands")
        .iter()
        .map(|h| {
            h["faults"]
                .as_array()
                .expect("each hand lists its faults")
                .len()
        })
        .sum()
}

/// Writes `text` to `name` in a directory of this test process (kept for a look afterwards).
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tarneeb-test-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The lines of a `--trace` file as (sent to the bot, the line as it crossed the pipe).
pub fn trace_lines(path: &Path) -> Vec<(bool, String)> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .map(|l| {
            // `SECONDS seatN to-bot|from-bot LINE`
            let mut p = l.splitn(4, ' ');
            let (_, _, dir) = (p.next(), p.next(), p.next().expect("a direction"));
            (dir == "to-bot", p.next().unwrap_or("").to_string())
        })
        .collect()
}

/// A validator for one of protocol/schema.json's top-level definitions (`to_bot` or `from_bot`).
pub fn schema_validator(def: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("protocol/schema.json")).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    let obj = schema.as_object_mut().unwrap();
    obj.remove("oneOf");
    obj.insert("$ref".into(), Value::String(format!("#/$defs/{def}")));
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// False (after saying why) when bwrap is missing on a developer's machine; panics under CI.
pub fn have_bwrap() -> bool {
    let ok = std::process::Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "bubblewrap (bwrap) is missing: CI must install it (apt-get install bubblewrap)"
        );
        eprintln!("SKIPPED: bwrap is not installed; install bubblewrap to run the sandbox tests");
    }
    ok
}

/// A deal key file (`tarneeb keygen`) shared by the runs of this test process that must play
/// the same deals (a whole run against its shards, a run against its resumed copy).
#[allow(dead_code)]
pub fn shared_deal_key() -> PathBuf {
    static KEY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let p = std::env::temp_dir().join(format!("tarneeb-deal-key-{}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        let o = tarneeb(&["keygen".as_ref(), p.as_os_str()]);
        assert!(o.status.success(), "keygen: {}", text(&o.stderr));
        p
    })
    .clone()
}

/// `tarneeb play` of one game with `bot` in all four seats, its record at `record`, with
/// `flags`; the output, whatever the exit status.
#[allow(dead_code)]
pub fn play_four(record: &Path, bot: &str, flags: &[&str]) -> Output {
    let mut args: Vec<String> = vec!["play".into(), "--record".into()];
    args.push(record.display().to_string());
    args.extend(flags.iter().map(|f| f.to_string()));
    for _ in 0..4 {
        args.push("--bot".into());
        args.push(bot.to_string());
    }
    tarneeb(&args)
}
