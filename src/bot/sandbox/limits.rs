//! Limits per bot: memory and processes through a cgroup of its own where the machine lets the
//! referee make one, file size, open files and CPU time through rlimits, disk through the size
//! of the sandbox's tmpfs mounts.
//!
//! Why cgroups for memory and processes: rlimits count per process (RLIMIT_DATA) or per user
//! across the whole machine (RLIMIT_NPROC, not even enforced for root), so only a cgroup holds
//! a bot and all its helpers to one budget. Which cgroup: a delegated cgroup v2 subtree (the
//! referee's own cgroup has the memory and pids controllers and is writable, e.g. under
//! `systemd-run --user --scope -p Delegate=yes`), else the v1 memory and pids hierarchies when
//! writable (as root), else none: then memory is capped per process by RLIMIT_DATA and the
//! number of processes is not capped (docs/sandbox.md says so).

use std::ffi::CString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Limits per bot (`tarneeb play --help` lists the flags and their defaults; 0 or `None`:
/// no limit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Memory of a bot and every process it starts (cgroup; per process without one).
    pub memory_limit: u64,
    /// Processes and threads a bot may have at once (cgroup pids controller).
    pub process_limit: u64,
    /// Largest file a bot may write (RLIMIT_FSIZE).
    pub file_size_limit: u64,
    /// Open files per process (RLIMIT_NOFILE).
    pub open_files_limit: u64,
    /// Size of a sandboxed bot's working directory, and separately of its /tmp.
    pub disk_limit: u64,
    /// CPU time per bot process for the whole game, in milliseconds (RLIMIT_CPU).
    pub cpu_limit: Option<u64>,
}

/// Which limit a bot ran into (each is a fault kind of the same name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Memory,
    Processes,
    FileSize,
    CpuTime,
    Disk,
}

/// The fault kind of each limit: the bot layer speaks the protocol's terms (the arrow points
/// down, from bot to protocol).
impl From<LimitKind> for crate::protocol::FaultKind {
    fn from(k: LimitKind) -> crate::protocol::FaultKind {
        use crate::protocol::FaultKind as F;
        match k {
            LimitKind::Memory => F::Memory,
            LimitKind::Processes => F::Processes,
            LimitKind::FileSize => F::FileSize,
            LimitKind::CpuTime => F::CpuTime,
            LimitKind::Disk => F::Disk,
        }
    }
}

/// A limit a bot ran into, with a detail naming the limit and the flag that raises it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitHit {
    pub kind: LimitKind,
    pub detail: String,
}

impl Limits {
    /// No limits at all (unit tests of the bot layer).
    pub fn unlimited() -> Limits {
        Limits {
            memory_limit: 0,
            process_limit: 0,
            file_size_limit: 0,
            open_files_limit: 0,
            disk_limit: 0,
            cpu_limit: None,
        }
    }

    pub fn disk_bytes(&self) -> u64 {
        if self.disk_limit == 0 {
            1 << 30
        } else {
            self.disk_limit
        }
    }

    /// One line for messages: the limits in force.
    pub fn describe(&self) -> String {
        let cpu = match self.cpu_limit {
            Some(ms) => format!(", cpu time {} s", ms.div_ceil(1000)),
            None => String::new(),
        };
        format!(
            "its limits: memory {}, {} processes, files of {}, {} open files, {} of disk in its working directory and in /tmp{cpu}",
            show_size(self.memory_limit),
            self.process_limit,
            show_size(self.file_size_limit),
            self.open_files_limit,
            show_size(self.disk_bytes())
        )
    }

    /// The rlimits to set in the child before `exec` (inherited by bwrap and the bot).
    pub(crate) fn rlimits(&self, with_cgroup_memory: bool) -> Vec<(RlimitResource, u64, u64)> {
        let mut v = Vec::new();
        if self.file_size_limit > 0 {
            v.push((
                libc::RLIMIT_FSIZE,
                self.file_size_limit,
                self.file_size_limit,
            ));
        }
        if self.open_files_limit > 0 {
            v.push((
                libc::RLIMIT_NOFILE,
                self.open_files_limit,
                self.open_files_limit,
            ));
        }
        if let Some(ms) = self.cpu_limit {
            let s = ms.div_ceil(1000).max(1);
            // SIGXCPU at the soft limit (a named fault), SIGKILL a little later.
            v.push((libc::RLIMIT_CPU, s, s + 2));
        }
        if !with_cgroup_memory && self.memory_limit > 0 {
            v.push((libc::RLIMIT_DATA, self.memory_limit, self.memory_limit));
        }
        v
    }

    /// The limit a bot that exited with `code` (the sandbox reports a signal as 128 + signal)
    /// or `signal` most likely hit.
    pub fn from_exit(&self, code: Option<i32>, signal: Option<i32>) -> Option<LimitHit> {
        let sig = signal.or(code.filter(|c| *c > 128).map(|c| c - 128))?;
        if sig == libc::SIGXFSZ && self.file_size_limit > 0 {
            return Some(LimitHit {
                kind: LimitKind::FileSize,
                detail: format!(
                    "wrote past the file size limit of {} (killed by SIGXFSZ); raise it with --file-size-limit",
                    show_size(self.file_size_limit)
                ),
            });
        }
        if sig == libc::SIGXCPU {
            if let Some(ms) = self.cpu_limit {
                return Some(LimitHit {
                    kind: LimitKind::CpuTime,
                    detail: format!(
                        "used its CPU time limit of {} s (killed by SIGXCPU); raise it with --cpu-limit",
                        ms.div_ceil(1000)
                    ),
                });
            }
        }
        None
    }
}

#[cfg(target_os = "linux")]
pub(crate) type RlimitResource = libc::__rlimit_resource_t;

/// `512M`, `2G`, `64k`, or bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                'T' => 1 << 40,
                _ => 0,
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .filter(|_| mult > 0)
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("'{text}' is not a size: write 64k, 512M, 2G or a number of bytes"))
}

pub(crate) fn show_size(n: u64) -> String {
    for (unit, size) in [("G", 1u64 << 30), ("M", 1 << 20), ("k", 1 << 10)] {
        if n >= size && n.is_multiple_of(size) {
            return format!("{}{unit}", n / size);
        }
    }
    format!("{n} bytes")
}

/// Where the referee can make bot cgroups, found once per process.
#[derive(Debug)]
enum Base {
    V2(PathBuf),
    V1 {
        memory: Option<PathBuf>,
        pids: Option<PathBuf>,
        /// Each bot its own group of equal weight: a bot's threads share one bot's CPU.
        cpu: Option<PathBuf>,
        /// To freeze a kept-up bot between its games.
        freezer: Option<PathBuf>,
    },
}

fn base() -> Option<&'static Base> {
    static BASE: OnceLock<Option<Base>> = OnceLock::new();
    BASE.get_or_init(find_base).as_ref()
}

fn find_base() -> Option<Base> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let root = Path::new("/sys/fs/cgroup");
    // cgroup v2 mounted at /sys/fs/cgroup (no v1 hierarchies).
    if root.join("cgroup.controllers").exists() {
        let rel = own.lines().find_map(|l| l.strip_prefix("0::"))?;
        let dir = root.join(rel.trim_start_matches('/'));
        if v2_delegate(&dir).is_ok() {
            remove_stale(&dir);
            super::guardian::start(std::slice::from_ref(&dir));
            return Some(Base::V2(dir));
        }
        return None;
    }
    let v1 = |controller: &str| -> Option<PathBuf> {
        let rel = own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
            names.split(',').any(|n| n == controller).then_some(path)
        })?;
        let dir = root.join(controller).join(rel.trim_start_matches('/'));
        // Writable here: try making (and removing) a child.
        let probe = dir.join(format!("tarneeb-probe-{}", std::process::id()));
        std::fs::create_dir(&probe).ok()?;
        let _ = std::fs::remove_dir(&probe);
        Some(dir)
    };
    let (memory, pids) = (v1("memory"), v1("pids"));
    let (cpu, freezer) = (v1("cpu"), v1("freezer"));
    for dir in [&memory, &pids, &cpu, &freezer].into_iter().flatten() {
        remove_stale(dir);
    }
    let dirs: Vec<PathBuf> = [&memory, &pids, &cpu, &freezer]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    if memory.is_some() || pids.is_some() {
        super::guardian::start(&dirs);
    }
    (memory.is_some() || pids.is_some()).then_some(Base::V1 {
        memory,
        pids,
        cpu,
        freezer,
    })
}

/// Removes the bot cgroups of referees that are gone (killed with `kill -9`, they could not
/// remove their own; their bots died with them, so the groups are empty): `tarneeb-PID-N` and
/// `tarneeb-referee-PID` whose PID no longer runs.
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let Some(rest) = name.strip_prefix("tarneeb-") else {
            continue;
        };
        let rest = rest.strip_prefix("referee-").unwrap_or(rest);
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            // Removing a group only succeeds when it is empty; a busy one is left alone.
            let _ = std::fs::remove_dir(e.path());
        }
    }
}

/// Makes `dir` (the referee's own v2 cgroup) able to hold bot cgroups with the memory and
/// pids controllers: the referee moves itself into a leaf child first, since a v2 cgroup with
/// controllers enabled for its children may not hold processes itself.
fn v2_delegate(dir: &Path) -> io::Result<()> {
    let controllers = std::fs::read_to_string(dir.join("cgroup.controllers"))?;
    let has = |c: &str| controllers.split_whitespace().any(|w| w == c);
    if !has("memory") || !has("pids") {
        return Err(io::Error::other(
            "memory and pids controllers not delegated",
        ));
    }
    let subtree = std::fs::read_to_string(dir.join("cgroup.subtree_control"))?;
    let enabled = |c: &str| subtree.split_whitespace().any(|w| w == c);
    if !(enabled("memory") && enabled("pids")) {
        let leaf = dir.join(format!("tarneeb-referee-{}", std::process::id()));
        std::fs::create_dir_all(&leaf)?;
        std::fs::write(leaf.join("cgroup.procs"), "0")?;
        std::fs::write(dir.join("cgroup.subtree_control"), "+memory +pids")?;
    }
    // The CPU controller where it is delegated (equal weights: each bot one share).
    if has("cpu") && !enabled("cpu") {
        let _ = std::fs::write(dir.join("cgroup.subtree_control"), "+cpu");
    }
    Ok(())
}

/// One bot's cgroup(s), removed when dropped (after the bot's processes are gone).
#[derive(Debug)]
pub struct Cgroup {
    dirs: Vec<PathBuf>,
    /// `cgroup.procs` of each, for the child to join before `exec`.
    procs: Vec<CString>,
    v2: bool,
    memory: u64,
    processes: u64,
    has_memory: bool,
    /// The file that freezes and thaws the bot: v1 `freezer.state`, v2 `cgroup.freeze`.
    freeze_file: Option<PathBuf>,
}

impl Cgroup {
    /// A new cgroup with `limits`, or `None` where the machine offers none to the referee.
    pub fn create(limits: &Limits) -> Option<Cgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if limits.memory_limit == 0 && limits.process_limit == 0 {
            return None;
        }
        let base = base()?;
        let name = format!(
            "tarneeb-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut cg = Cgroup {
            dirs: Vec::new(),
            procs: Vec::new(),
            v2: matches!(base, Base::V2(_)),
            memory: limits.memory_limit,
            processes: limits.process_limit,
            has_memory: false,
            freeze_file: None,
        };
        let mut make = |dir: PathBuf, files: &[(&str, String)]| -> io::Result<()> {
            std::fs::create_dir(&dir)?;
            cg.dirs.push(dir.clone());
            for (f, v) in files {
                let r = std::fs::write(dir.join(f), v);
                // Swap accounting is optional in the kernel: without it there is no swap cap.
                if !f.ends_with("swap.max") {
                    r?;
                }
            }
            let procs = dir
                .join("cgroup.procs")
                .into_os_string()
                .into_encoded_bytes();
            cg.procs
                .push(CString::new(procs).map_err(io::Error::other)?);
            Ok(())
        };
        let ok = match base {
            Base::V2(dir) => {
                let r = make(
                    dir.join(&name),
                    &[
                        ("memory.max", max_text(limits.memory_limit)),
                        ("memory.swap.max", "0".into()),
                        ("pids.max", max_text(limits.process_limit)),
                    ],
                );
                cg.has_memory = r.is_ok() && limits.memory_limit > 0;
                cg.freeze_file = Some(dir.join(&name).join("cgroup.freeze"));
                r
            }
            Base::V1 {
                memory,
                pids,
                cpu,
                freezer,
            } => {
                let mut r = Ok(());
                if let (Some(m), true) = (memory, limits.memory_limit > 0) {
                    r = make(
                        m.join(&name),
                        &[("memory.limit_in_bytes", limits.memory_limit.to_string())],
                    );
                    cg.has_memory = r.is_ok();
                }
                if let (Some(p), true, true) = (pids, limits.process_limit > 0, r.is_ok()) {
                    r = make(
                        p.join(&name),
                        &[("pids.max", limits.process_limit.to_string())],
                    );
                }
                // Fairness and freezing are best effort: a machine without these
                // controllers still runs its bots, as before.
                if let (Some(c), true) = (cpu, r.is_ok()) {
                    let _ = make(c.join(&name), &[("cpu.shares", "1024".into())]);
                }
                if let (Some(f), true) = (freezer, r.is_ok()) {
                    if make(f.join(&name), &[]).is_ok() {
                        cg.freeze_file = Some(f.join(&name).join("freezer.state"));
                    }
                }
                r
            }
        };
        ok.ok().map(|_| cg)
    }

    /// Stops every process of the bot where it stands (a kept-up bot between its games: it
    /// takes no CPU from the games being played). False where the machine cannot.
    pub fn freeze(&self) -> bool {
        let text = if self.v2 { "1" } else { "FROZEN" };
        self.freeze_file
            .as_ref()
            .is_some_and(|f| std::fs::write(f, text).is_ok())
    }

    /// Lets a frozen bot run again.
    pub fn thaw(&self) {
        let text = if self.v2 { "0" } else { "THAWED" };
        if let Some(f) = &self.freeze_file {
            let _ = std::fs::write(f, text);
        }
    }

    /// Whether memory is capped here (else RLIMIT_DATA caps it per process).
    pub fn caps_memory(&self) -> bool {
        self.has_memory
    }

    /// The `cgroup.procs` files the child writes itself into before `exec`.
    pub(crate) fn procs_files(&self) -> &[CString] {
        &self.procs
    }

    /// The limit the bot's processes ran into, from the cgroup's event counters.
    pub fn hit(&self) -> Option<LimitHit> {
        for dir in &self.dirs {
            let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
            let count = |text: &str, key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok())
                    .unwrap_or(0)
            };
            let oom = if self.v2 {
                count(&read("memory.events"), "oom_kill ")
            } else {
                count(&read("memory.oom_control"), "oom_kill ")
            };
            if oom > 0 {
                return Some(LimitHit {
                    kind: LimitKind::Memory,
                    detail: format!(
                        "went over the memory limit of {} (killed by the out-of-memory killer); raise it with --memory-limit",
                        show_size(self.memory)
                    ),
                });
            }
            if count(&read("pids.events"), "max ") > 0 {
                return Some(LimitHit {
                    kind: LimitKind::Processes,
                    detail: format!(
                        "tried to run more than {} processes and threads at once; raise it with --process-limit",
                        self.processes
                    ),
                });
            }
        }
        None
    }
}

fn max_text(n: u64) -> String {
    if n == 0 {
        "max".into()
    } else {
        n.to_string()
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        for dir in &self.dirs {
            // Empty by now (the bot's processes were killed and reaped); a last straggler of
            // the kill gets a few tries.
            for _ in 0..50 {
                if std::fs::remove_dir(dir).is_ok() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
}

/// In the child between `fork` and `exec`: joins the cgroups and sets the rlimits. Only
/// async-signal-safe calls (open, write, close, setrlimit) on memory prepared before the fork.
pub(crate) fn apply_in_child(
    procs: &[CString],
    rlimits: &[(RlimitResource, u64, u64)],
) -> io::Result<()> {
    for p in procs {
        // SAFETY: `p` is a NUL-terminated path prepared before the fork; the buffer is static.
        unsafe {
            let fd = libc::open(p.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            let rc = libc::write(fd, b"0".as_ptr().cast(), 1);
            libc::close(fd);
            if rc != 1 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    for &(res, soft, hard) in rlimits {
        let lim = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        // SAFETY: setrlimit reads `lim`, a live local.
        if unsafe { libc::setrlimit(res, &lim) } != 0 {
            // Lowering a limit cannot fail for lack of rights; raising past the hard limit
            // can: keep the lower limit already in force.
            let mut cur = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes `cur`, a live local.
            if unsafe { libc::getrlimit(res, &mut cur) } == 0 && cur.rlim_max < hard {
                let lim = libc::rlimit {
                    rlim_cur: soft.min(cur.rlim_max),
                    rlim_max: cur.rlim_max,
                };
                // SAFETY: as above.
                unsafe { libc::setrlimit(res, &lim) };
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("12x").is_err());
        assert_eq!(show_size(256 << 20), "256M");
        assert_eq!(show_size(1000), "1000 bytes");
    }

    #[test]
    fn a_killing_signal_names_its_limit() {
        let mut l = Limits::unlimited();
        l.file_size_limit = 1 << 20;
        assert_eq!(
            l.from_exit(Some(128 + libc::SIGXFSZ), None).unwrap().kind,
            LimitKind::FileSize
        );
        assert_eq!(
            l.from_exit(None, Some(libc::SIGXFSZ)).unwrap().kind,
            LimitKind::FileSize
        );
        assert_eq!(l.from_exit(Some(1), None), None);
        assert_eq!(l.from_exit(None, Some(libc::SIGXCPU)), None);
        l.cpu_limit = Some(2000);
        assert_eq!(
            l.from_exit(None, Some(libc::SIGXCPU)).unwrap().kind,
            LimitKind::CpuTime
        );
    }
}
