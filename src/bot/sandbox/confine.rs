//! One bot's side of the sandbox: the command that starts it, its cgroup, and finding out
//! afterwards whether a limit (or the sandbox) is why it failed.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use super::user::{become_user, UidLease};
use super::{find_on_path, limits, Cgroup, LimitHit, LimitKind, Sandbox};

/// What a running bot keeps of its sandbox.
#[derive(Debug, Default)]
pub struct Confinement {
    cgroup: Option<Cgroup>,
    /// The sandbox's working directory and /tmp, opened once the bot is up (a tmpfs stays
    /// readable through them after the sandbox ends), to tell a full disk afterwards.
    disks: Vec<OwnedFd>,
    cwd: PathBuf,
    sandboxed: bool,
    /// The seccomp filters handed to bwrap (see `seccomp`), kept open until the bot is up.
    filters: Vec<OwnedFd>,
    /// The uid the bot runs as, when it runs as a user of its own: free again with the bot.
    user: Option<UidLease>,
    /// Our end of bwrap's `--json-status-fd` pipe (non-blocking), and what was read from it:
    /// bwrap writes `exit-code` at the end only if it set the sandbox up and started the bot.
    status: Option<OwnedFd>,
    status_text: Vec<u8>,
}

/// The command that starts `command` in `sandbox` with working directory `cwd`, and the
/// bot's confinement. The command still needs its pipes and process group.
pub fn command(
    sandbox: &Sandbox,
    command: &[String],
    cwd: &Path,
) -> io::Result<(Command, Confinement)> {
    let cgroup = Cgroup::create(sandbox.limits());
    let rlimits = sandbox
        .limits()
        .rlimits(cgroup.as_ref().is_some_and(|c| c.caps_memory()));
    let procs: Vec<CString> = cgroup
        .as_ref()
        .map(|c| c.procs_files().to_vec())
        .unwrap_or_default();
    let mut filters: Vec<OwnedFd> = Vec::new();
    let mut user = None;
    let mut status = None;
    // bwrap reads /proc's fixed files from these (see `counters`), kept open like the filters.
    let proc_data = if sandbox.bwrap.is_some() {
        super::counters::data_fds()?
    } else {
        Vec::new()
    };
    let proc_fds: Vec<i32> = proc_data.iter().map(|f| f.as_raw_fd()).collect();
    let mut cmd = match sandbox.wrap(command, cwd, &proc_fds) {
        Some(mut b) => {
            if let (Some(first), Some(staging)) = (sandbox.first_uid(), b.staging.take()) {
                user = Some((UidLease::take(first)?, staging));
            }
            check_program(&command[0], cwd)?;
            filters = super::seccomp::filter_fds()?;
            let (status_r, status_w) = status_pipe()?;
            let mut c = Command::new(&b.program);
            for fd in &filters {
                c.arg("--add-seccomp-fd").arg(fd.as_raw_fd().to_string());
            }
            c.arg("--json-status-fd")
                .arg(status_w.as_raw_fd().to_string());
            status = Some(status_r);
            // Kept open across the exec like the filters, dropped with them.
            filters.push(status_w);
            filters.extend(proc_data);
            c.args(&b.args).env_clear().envs(sandbox.environment());
            // SAFETY: the closure only makes async-signal-safe calls (see `detach_terminal`).
            unsafe {
                c.pre_exec(detach_terminal);
            }
            c
        }
        None => {
            let (program, args) = command.split_first().expect("a non-empty command");
            let mut c = Command::new(program_path(program, cwd));
            c.args(args).current_dir(cwd);
            c
        }
    };
    let keep: Vec<libc::c_int> = filters.iter().map(|f| f.as_raw_fd()).collect();
    // SAFETY: the closure only makes async-signal-safe calls (see `close_inherited`; fcntl),
    // on descriptor numbers taken before the fork.
    unsafe {
        cmd.pre_exec(move || {
            close_inherited()?;
            // bwrap reads its seccomp filters from these: open across the exec.
            for &fd in &keep {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    if !procs.is_empty() || !rlimits.is_empty() {
        // SAFETY: the closure only makes async-signal-safe calls on memory allocated before
        // the fork (see `apply_in_child`).
        unsafe {
            cmd.pre_exec(move || limits::apply_in_child(&procs, &rlimits));
        }
    }
    // Last, once the child has joined its cgroup as root: the view as root, then the user.
    let user = user.map(|(lease, staging)| {
        let uid = lease.uid;
        // SAFETY: the closure only makes system calls on memory prepared before the fork
        // (see `Staging::apply_in_child` and `become_user`).
        unsafe {
            cmd.pre_exec(move || {
                staging.apply_in_child()?;
                become_user(uid)
            });
        }
        lease
    });
    let conf = Confinement {
        cgroup,
        disks: Vec::new(),
        cwd: cwd.to_path_buf(),
        sandboxed: sandbox.is_sandboxed(),
        filters,
        user,
        status,
        status_text: Vec::new(),
    };
    Ok((cmd, conf))
}

/// A pipe for bwrap's status: (read end, write end), both close-on-exec and non-blocking (the
/// write end is opened across the exec for bwrap alone; its messages are a few hundred bytes).
fn status_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`, a live local array of two.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just gave us these descriptors; nothing else owns them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// In the child, before exec: every descriptor above stderr is closed at exec, whatever the
/// referee inherited from whoever started it (a launcher's descriptor reopened through
/// `/proc/self/fd/N` gave a bot write access to a host file, a directory descriptor the
/// tournament's seal key). Close-on-exec rather than closed: the standard library's own
/// exec-error pipe must stay open until the exec.
fn close_inherited() -> io::Result<()> {
    // SAFETY: close_range is a plain system call on descriptor numbers.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if rc == 0 {
        return Ok(());
    }
    // Kernels before 5.11: mark them one by one, up to the descriptor limit.
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes `lim`, a live local; fcntl on any number is harmless.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim);
        let top = lim.rlim_cur.min(1 << 20) as libc::c_int;
        for fd in 3..top {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok(())
}

/// In the child, before bwrap starts: gives up the referee's controlling terminal, so neither
/// bwrap nor the bot can open `/dev/tty` and push input into the terminal with TIOCSTI (the
/// child is never a session leader, so only it loses the terminal; the referee keeps it). Fails
/// closed: a terminal it cannot give up stops the bot from starting. What `--new-session` did,
/// without a session (and a scheduling autogroup) per bot; see `bwrap::NAMESPACES`.
fn detach_terminal() -> io::Result<()> {
    // SAFETY: open, ioctl and close are async-signal-safe and get a static C string and a
    // descriptor this closure owns.
    unsafe {
        let fd = libc::open(
            c"/dev/tty".as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            // ENXIO: no controlling terminal, nothing to give up.
            let err = io::Error::last_os_error();
            return match err.raw_os_error() {
                Some(libc::ENXIO) => Ok(()),
                _ => Err(err),
            };
        }
        let rc = libc::ioctl(fd, libc::TIOCNOTTY);
        let err = io::Error::last_os_error();
        libc::close(fd);
        if rc != 0 {
            return Err(err);
        }
    }
    Ok(())
}

/// Inside the sandbox a missing or non-executable program is only bwrap's complaint in the
/// stderr log (the bot then forfeits its games); found here, it is the same "cannot start"
/// error as without a sandbox.
pub(crate) fn check_program(program: &str, cwd: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !program.contains('/') {
        return match find_on_path(program) {
            Some(_) => Ok(()),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "No such file or directory (not found on PATH)",
            )),
        };
    }
    match std::fs::metadata(cwd.join(program)) {
        Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => Ok(()),
        Ok(m) if m.is_file() => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "Permission denied (the file is not executable)",
        )),
        Ok(_) => Err(io::Error::new(io::ErrorKind::NotFound, "not a file")),
        Err(e) => Err(e),
    }
}

/// std leaves it unspecified whether a relative program path is resolved before or after
/// `current_dir`; resolving it against `cwd` here makes `./bot` mean the same everywhere.
/// Bare names (`python3`) are still looked up on PATH.
fn program_path(program: &str, cwd: &Path) -> PathBuf {
    let path = Path::new(program);
    if path.is_relative() && program.contains('/') {
        cwd.join(path)
    } else {
        path.to_path_buf()
    }
}

impl Confinement {
    /// True when bwrap itself failed (a mount it could not make, a program it could not start)
    /// and the bot never ran: bwrap has exited (`status`, not killed) without writing the
    /// `exit-code` it writes whenever the sandbox was set up and the program started. Nothing
    /// the bot does can forge this: the pipe is bwrap's own, closed in the sandbox.
    pub fn setup_failed(&mut self, status: Option<ExitStatus>) -> bool {
        let (Some(fd), Some(_code)) = (&self.status, status.and_then(|s| s.code())) else {
            return false;
        };
        let mut buf = [0u8; 4096];
        loop {
            // SAFETY: read into a live local buffer of the length passed.
            let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 || self.status_text.len() > 1 << 16 {
                break;
            }
            self.status_text.extend_from_slice(&buf[..n as usize]);
        }
        !String::from_utf8_lossy(&self.status_text).contains("\"exit-code\"")
    }

    /// The uid the bot runs as, when it runs as a user of its own.
    pub fn uid(&self) -> Option<u32> {
        self.user.as_ref().map(|u| u.uid)
    }

    /// See [`crate::bot::Bot::freeze`].
    pub fn freeze(&self) -> bool {
        self.cgroup.as_ref().is_some_and(|c| c.freeze())
    }

    pub fn thaw(&self) {
        if let Some(c) = &self.cgroup {
            c.thaw();
        }
    }

    /// Called once the bot answered: opens its working directory and /tmp through the
    /// sandbox's PID 1 (`pid` is the bwrap process the referee started).
    pub fn watch_disks(&mut self, pid: u32) {
        // bwrap read its filters long ago.
        self.filters.clear();
        if !self.sandboxed || !self.disks.is_empty() {
            return;
        }
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        let Some(init) = children.split_whitespace().next() else {
            return;
        };
        let root = PathBuf::from(format!("/proc/{init}/root"));
        let rel = self.cwd.strip_prefix("/").unwrap_or(&self.cwd);
        for dir in [root.join(rel), root.join("tmp")] {
            if let Ok(f) = open_path(&dir) {
                self.disks.push(f);
            }
        }
    }

    /// The limit a failed bot ran into, if one is to blame: the cgroup's counters, the signal
    /// that ended it, a full working directory or /tmp.
    pub fn limit_hit(&self, sandbox: &Sandbox, status: Option<ExitStatus>) -> Option<LimitHit> {
        use std::os::unix::process::ExitStatusExt;
        if let Some(hit) = self.cgroup.as_ref().and_then(|c| c.hit()) {
            return Some(hit);
        }
        if let Some(s) = status {
            let code = if self.sandboxed { s.code() } else { None };
            if let Some(hit) = sandbox.limits().from_exit(code, s.signal()) {
                return Some(hit);
            }
        }
        let cap = sandbox.limits().file_size_limit;
        if cap > 0 && self.disks.iter().any(|fd| has_file_of(fd, cap)) {
            // Many runtimes (Python, the JVM) ignore SIGXFSZ and see EFBIG instead: the file
            // that reached the limit is the evidence.
            return sandbox.limits().from_exit(None, Some(libc::SIGXFSZ));
        }
        for fd in &self.disks {
            if is_full(fd) {
                return Some(LimitHit {
                    kind: LimitKind::Disk,
                    detail: format!(
                        "filled its working directory or /tmp (the disk limit is {} each); raise it with --disk-limit",
                        limits::show_size(sandbox.limits().disk_bytes())
                    ),
                });
            }
        }
        None
    }
}

fn open_path(dir: &Path) -> io::Result<OwnedFd> {
    use std::os::fd::FromRawFd;
    let c = CString::new(dir.as_os_str().as_encoded_bytes()).map_err(io::Error::other)?;
    // SAFETY: `c` is a NUL-terminated path; open touches no other memory.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor the kernel just gave us, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A regular file of at least `size` bytes in the directory `fd` or below (a bounded walk:
/// 3 levels, 2,000 entries).
fn has_file_of(fd: &OwnedFd, size: u64) -> bool {
    use std::os::fd::AsRawFd;
    let mut budget = 2000usize;
    fn walk(dir: &Path, depth: u32, size: u64, budget: &mut usize) -> bool {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return false;
        };
        for e in rd.flatten() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            match e.metadata() {
                Ok(m) if m.is_file() && m.len() >= size => return true,
                Ok(m) if m.is_dir() && depth > 0 && walk(&e.path(), depth - 1, size, budget) => {
                    return true
                }
                _ => {}
            }
        }
        false
    }
    walk(
        Path::new(&format!("/proc/self/fd/{}", fd.as_raw_fd())),
        3,
        size,
        &mut budget,
    )
}

/// Less than 64 KiB left: a write of a bot failed there for lack of space.
fn is_full(fd: &OwnedFd) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: statvfs is plain data; fstatvfs fills it in for a descriptor we own.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatvfs(fd.as_raw_fd(), &mut st) } != 0 || st.f_blocks == 0 {
        return false;
    }
    (st.f_bavail as u64).saturating_mul(st.f_frsize as u64) < 64 * 1024
}

/// The last `lines` lines of a stderr log, for a message about a bot that failed.
pub fn log_tail(path: &Path, lines: usize) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(4096)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}
