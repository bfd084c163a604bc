//! The few libc calls std does not offer: group signals, group reaping, subreaper, affinity.

use std::io;
use std::process::Child;
use std::thread;
use std::time::{Duration, Instant};

/// Makes this process the "child subreaper" (Linux `PR_SET_CHILD_SUBREAPER`).
///
/// Why: a bot may start helpers (a shell wrapper, an engine process, `cmd &`). When the bot
/// dies first, its orphans are normally reparented to init, out of our reach: we could still
/// signal them through their process group, but never learn when they are gone, and a helper
/// still holding the bot's stdout keeps the reader thread from seeing EOF. As a subreaper, the
/// referee inherits those orphans instead, so [`Bot::stop`](super::Bot::stop) can kill the group
/// and then `waitpid(-pgid)` every member until none is left: no zombies, no survivors.
///
/// Call it once at startup, before spawning bots (orphans made earlier went to init already).
/// Later calls return the first call's result. The flag is process-wide, so any other orphan
/// of a descendant also becomes the referee's to reap; the referee starts nothing else.
pub fn become_subreaper() -> io::Result<()> {
    use std::sync::OnceLock;
    static ERRNO: OnceLock<Option<i32>> = OnceLock::new();
    let errno = *ERRNO.get_or_init(|| set_subreaper().err().and_then(|e| e.raw_os_error()));
    match errno {
        None => Ok(()),
        Some(code) => Err(io::Error::from_raw_os_error(code)),
    }
}

#[cfg(target_os = "linux")]
fn set_subreaper() -> io::Result<()> {
    // SAFETY: PR_SET_CHILD_SUBREAPER takes one integer argument and touches no memory of ours.
    let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn set_subreaper() -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "a child subreaper needs Linux",
    ))
}

/// Restricts `pid` (0: the calling thread) to one CPU, so a benchmark measures bots that do not
/// migrate between cores or compete with the referee for one.
#[cfg(target_os = "linux")]
pub fn pin_to_cpu(pid: u32, cpu: usize) -> io::Result<()> {
    // CPU_SETSIZE bits fit in a cpu_set_t; CPU_SET would index out of its array past that.
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "cpu {cpu} is out of range: a cpu set holds {}",
                libc::CPU_SETSIZE
            ),
        ));
    }
    let pid = libc::pid_t::try_from(pid)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, format!("bad pid {pid}")))?;
    // SAFETY: cpu_set_t is plain bits, all-zero is the empty set; `cpu` was bounds-checked and
    // the kernel reads exactly size_of::<cpu_set_t>() bytes from `set`.
    let rc = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Restricts `pid` to one CPU: only Linux can do it.
#[cfg(not(target_os = "linux"))]
pub fn pin_to_cpu(_pid: u32, _cpu: usize) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "pinning to a CPU needs Linux",
    ))
}

/// Sends `sig` to every process of group `pgid`. Errors are ignored: ESRCH just means the
/// group is already empty.
pub(super) fn signal_group(pgid: i32, sig: i32) {
    // kill(0, ..) would hit the referee's own group and kill(-1, ..) every process we may
    // signal: never let a bad id get that far.
    if pgid > 1 {
        // SAFETY: kill touches no memory.
        unsafe { libc::kill(-pgid, sig) };
    }
}

/// Polls `try_wait` until every child has exited or `deadline` passes. Polling, not `wait`,
/// keeps stopping bounded even for a process the kernel is slow to finish.
pub(super) fn wait_children_until<'a>(
    children: impl Iterator<Item = &'a mut Child>,
    deadline: Instant,
) {
    let mut running: Vec<&mut Child> = children.collect();
    let mut nap = Duration::from_millis(1);
    loop {
        // Already reaped elsewhere (an error) counts as exited: nothing left to wait for.
        running.retain_mut(|c| matches!(c.try_wait(), Ok(None)));
        let now = Instant::now();
        if running.is_empty() || now >= deadline {
            return;
        }
        thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(20));
    }
}

/// Reaps every exited member of group `pgid` that is our child (as a subreaper, orphaned
/// descendants are), until none is left or `deadline` passes. Only this group is waited for,
/// so other bots' exit statuses are never stolen from their `Child`.
pub(super) fn reap_group(pgid: i32, deadline: Instant) {
    if pgid <= 1 {
        return;
    }
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only `status`, a live local.
        let rc = unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) };
        if rc > 0 {
            continue;
        }
        if rc < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return; // ECHILD: no child of ours is left in the group
        }
        // Members are still alive (SIGKILL is delivered, not yet finished).
        if Instant::now() >= deadline {
            return;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Puts our end of a pipe in non-blocking mode, so the referee's thread can write to and read
/// from a bot without ever blocking on it. Only our end changes: the bot's end of the same pipe
/// is a separate open file and stays blocking, as bots expect.
pub(super) fn set_nonblocking(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = fd.as_raw_fd();
    // SAFETY: fcntl with F_GETFL/F_SETFL on a descriptor we own touches no memory.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Waits until one of `fds` is ready or `timeout` passes (rounded up to a whole millisecond,
/// so a short wait is never a busy loop). Returns how many are ready; 0 on timeout. EINTR is
/// returned as an error so callers get back to check their stop flag.
pub(super) fn poll(fds: &mut [libc::pollfd], timeout: Duration) -> io::Result<usize> {
    let ms = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
    // SAFETY: `fds` is a live, exclusively borrowed slice of pollfd of the length passed.
    let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc as usize)
    }
}
