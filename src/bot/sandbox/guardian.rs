//! The guardian: a small process of its own that outlives a referee killed with `kill -9` and
//! ends what the referee could not.
//!
//! Why it is needed: bwrap's `--die-with-parent` kills a bot when the referee dies, but a bot
//! kept up between games and frozen (or frozen off turn with `--freeze-off-turn`) cannot die
//! while its cgroup is frozen, and nobody is left to thaw it: after a `kill -9` of the referee
//! its processes (bwrap's too) stayed, frozen, with parent 1 (issue 39). So the first time the
//! referee makes a bot cgroup it starts `tarneeb guard-bots` with one end of a pipe as its
//! stdin, and keeps the other end open for as long as it lives. When the referee ends, however
//! it ends, the guardian reads end-of-file, kills every process in the referee's bot cgroups
//! (`tarneeb-PID-N`), thaws them so that the kill lands, waits for them to empty, and removes
//! them. It runs in a session of its own, so a signal to the referee's process group or from
//! its terminal does not reach it. On a normal exit the referee has already removed its
//! cgroups, and the guardian finds nothing to do.
//!
//! Only the `tarneeb` binary starts one (it names itself with [`enable`]): a library user that
//! is not that binary has no `guard-bots` command to run.

use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The binary to run as `PROGRAM guard-bots`, set by `tarneeb`'s `main`.
static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// The referee's end of the guardian's pipe: open until the process ends.
static LIFELINE: OnceLock<OwnedFd> = OnceLock::new();

/// Lets this process start a guardian: `program guard-bots` must be the command below.
pub fn enable(program: PathBuf) {
    let _ = PROGRAM.set(program);
}

/// Starts the guardian for the bot cgroups this process makes in `dirs`, once. Best effort: a
/// guardian that cannot start leaves the referee as it was before guardians existed.
pub(super) fn start(dirs: &[PathBuf]) {
    let Some(program) = PROGRAM.get() else {
        return;
    };
    if dirs.is_empty() || LIFELINE.get().is_some() {
        return;
    }
    let Ok((read, write)) = std::io::pipe() else {
        return;
    };
    let mut cmd = Command::new(program);
    cmd.arg("guard-bots")
        .arg("--referee")
        .arg(std::process::id().to_string());
    for d in dirs {
        cmd.arg("--dir").arg(d);
    }
    cmd.stdin(Stdio::from(OwnedFd::from(read)))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no memory.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    if let Ok(child) = cmd.spawn() {
        // Not waited for: it outlives us by design; if we outlive it, init reaps it.
        std::mem::forget(child);
        let _ = LIFELINE.set(OwnedFd::from(write));
    }
}

/// The guardian itself (`tarneeb guard-bots`): waits for end-of-file on stdin, then ends and
/// removes every bot cgroup of `referee` in `dirs`.
pub fn guard(referee: u32, dirs: &[PathBuf]) -> io::Result<()> {
    let mut sink = [0u8; 64];
    let mut stdin = io::stdin().lock();
    loop {
        match stdin.read(&mut sink) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    end_all(referee, dirs);
    Ok(())
}

/// Kills, thaws, waits for and removes every `tarneeb-REFEREE-N` group in `dirs`.
pub(super) fn end_all(referee: u32, dirs: &[PathBuf]) {
    let prefix = format!("tarneeb-{referee}-");
    let mut groups: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if let Ok(entries) = std::fs::read_dir(dir) {
            groups.extend(
                entries
                    .flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                    .map(|e| e.path()),
            );
        }
    }
    if groups.is_empty() {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut left = false;
        for g in &groups {
            // cgroup v2 (5.14+) kills the whole group in one write.
            let _ = std::fs::write(g.join("cgroup.kill"), "1");
            for pid in pids(g) {
                // SAFETY: kill has no memory effects; a pid that is gone gives ESRCH.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
                left = true;
            }
            // The kill is pending in a frozen task: thaw so that it lands.
            let _ = std::fs::write(g.join("freezer.state"), "THAWED");
            let _ = std::fs::write(g.join("cgroup.freeze"), "0");
        }
        if !left || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for g in &groups {
        let _ = std::fs::remove_dir(g);
    }
}

fn pids(group: &Path) -> Vec<i32> {
    std::fs::read_to_string(group.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}
