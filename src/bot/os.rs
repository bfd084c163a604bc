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

/// The CPUs this process may run on (for pinning each game of a tournament to its own).
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// The CPUs this process may run on: none known off Linux, so nothing is pinned.
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
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

/// While alive, the calling thread runs under `SCHED_BATCH`: woken by a bot's reply, it does
/// not preempt whatever runs on its CPU (typically that bot, about to block in its next read)
/// but takes its turn when that yields.
///
/// Why: with the bots on the referee's CPU (a pinned game), a reply used to wake the referee
/// straight into the bot's last microseconds, and the bot then needed a switch of its own to
/// finish: 2.4 context switches per move instead of the 2 of a bare ping-pong. The cost is that
/// under other load the referee may wait up to one scheduler slice before reading a reply, a
/// few milliseconds that count toward the bot's measured time; move limits are seconds.
///
/// Set after the bots are started, since children inherit the policy; dropping it restores
/// the thread's policy (a tournament's worker thread plays many games). Best effort: where the
/// policy cannot be changed the thread keeps its own.
pub struct BatchScheduling {
    previous: Option<(libc::c_int, libc::sched_param)>,
}

impl BatchScheduling {
    #[cfg(target_os = "linux")]
    pub fn begin() -> BatchScheduling {
        // SAFETY: pid 0 is the calling thread; `param` is a live local the kernel reads or
        // fills in, of the type it expects.
        let previous = unsafe {
            let policy = libc::sched_getscheduler(0);
            let mut param: libc::sched_param = std::mem::zeroed();
            let batch: libc::sched_param = std::mem::zeroed();
            if policy < 0
                || libc::sched_getparam(0, &mut param) != 0
                || libc::sched_setscheduler(0, libc::SCHED_BATCH, &batch) != 0
            {
                None
            } else {
                Some((policy, param))
            }
        };
        BatchScheduling { previous }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn begin() -> BatchScheduling {
        BatchScheduling { previous: None }
    }
}

impl Drop for BatchScheduling {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some((policy, param)) = self.previous {
            // SAFETY: as in `begin`; restoring the policy and parameters read there.
            unsafe { libc::sched_setscheduler(0, policy, &param) };
        }
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

/// Waits until every child has exited or `deadline` passes, without reaping anything that is
/// not one of `children`.
///
/// Why pidfds: a bot that reads `game_end` or sees its stdin close exits within microseconds,
/// and sleep-polling `try_wait` noticed that only after its first nap (1 ms), on every game. A
/// pidfd becomes readable the moment its process exits, so one `poll` over the children's
/// pidfds wakes exactly then, with the same deadline. Where pidfds are missing (not Linux, a
/// kernel before 5.3, or out of descriptors) this falls back to polling `try_wait` with naps.
/// Neither ever blocks in `wait`, so stopping stays bounded even for a process the kernel is
/// slow to finish.
pub(super) fn wait_children_until<'a>(
    children: impl Iterator<Item = &'a mut Child>,
    deadline: Instant,
) {
    let mut running: Vec<&mut Child> = children.collect();
    // Already reaped elsewhere (an error) counts as exited: nothing left to wait for.
    running.retain_mut(|c| still_running(c));
    if running.is_empty() {
        return;
    }
    if let Some(fds) = pidfds(&running) {
        wait_pidfds(running, fds, deadline);
    } else {
        nap_until_exited(running, deadline);
    }
}

fn still_running(child: &mut Child) -> bool {
    matches!(child.try_wait(), Ok(None))
}

/// The sleep-polling fallback of [`wait_children_until`].
fn nap_until_exited(mut running: Vec<&mut Child>, deadline: Instant) {
    let mut nap = Duration::from_millis(1);
    loop {
        let now = Instant::now();
        if running.is_empty() || now >= deadline {
            return;
        }
        thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(20));
        running.retain_mut(|c| still_running(c));
    }
}

/// One pidfd per child, in the same order; `None` if any cannot be opened (then the caller
/// falls back to polling `try_wait`).
#[cfg(target_os = "linux")]
fn pidfds(children: &[&mut Child]) -> Option<Vec<std::os::fd::OwnedFd>> {
    children.iter().map(|c| pidfd_open(c.id()).ok()).collect()
}

#[cfg(not(target_os = "linux"))]
fn pidfds(_children: &[&mut Child]) -> Option<Vec<std::os::fd::OwnedFd>> {
    None
}

/// A pidfd for `pid` (Linux 5.3 and later), close-on-exec. Only sound for a child that has not
/// been reaped yet: until it is, its pid cannot be reused, so the pidfd refers to that child.
#[cfg(target_os = "linux")]
fn pidfd_open(pid: u32) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    let pid = libc::pid_t::try_from(pid)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, format!("bad pid {pid}")))?;
    // SAFETY: pidfd_open takes a pid and flags and touches no memory of ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0 as libc::c_uint) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = libc::c_int::try_from(fd).map_err(|_| io::Error::other("pidfd out of range"))?;
    // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// Waits in `poll` on the pidfds until every child has exited or `deadline` passes. A pidfd
/// reports readable once its process has exited (a zombie not yet reaped counts), so each
/// wake-up is checked with `try_wait`, which also reaps the child for its `Child`.
fn wait_pidfds(
    mut running: Vec<&mut Child>,
    mut fds: Vec<std::os::fd::OwnedFd>,
    deadline: Instant,
) {
    use std::os::fd::AsRawFd;
    loop {
        let now = Instant::now();
        if running.is_empty() || now >= deadline {
            return;
        }
        let mut pfds: Vec<libc::pollfd> = fds
            .iter()
            .map(|fd| pollfd(fd.as_raw_fd(), libc::POLLIN))
            .collect();
        match poll(&mut pfds, Some(deadline - now)) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // poll itself failing (ENOMEM) must not end the wait early: nap for the rest.
            Err(_) => return nap_until_exited(running, deadline),
        }
        let mut i = 0;
        while i < running.len() {
            if still_running(running[i]) {
                i += 1;
            } else {
                running.swap_remove(i);
                fds.swap_remove(i);
            }
        }
    }
}

/// Reaps every exited member of group `pgid` that is our child (as a subreaper, orphaned
/// descendants are), until none is left or `deadline` passes. Only this group is waited for,
/// so other bots' exit statuses are never stolen from their `Child`.
pub(super) fn reap_group(pgid: i32, deadline: Instant) {
    if pgid <= 1 {
        return;
    }
    let mut nap = Duration::from_micros(100);
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
        // Members are still alive (SIGKILL is delivered, not yet finished): they are not our
        // direct children, so no pidfd was opened for them; nap briefly, then longer.
        let now = Instant::now();
        if now >= deadline {
            return;
        }
        thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(2));
    }
}

/// Puts our end of a pipe in non-blocking mode, so the referee never blocks writing to a bot's
/// stdin and the stderr pump never blocks reading one bot while others wait. Only our end
/// changes: the bot's end of the same pipe is a separate open file and stays blocking, as bots
/// expect.
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

/// Clears `O_NONBLOCK` on `fd` (a socket handed over by whoever accepted it may have it).
pub(super) fn set_blocking(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = fd.as_raw_fd();
    // SAFETY: fcntl with F_GETFL/F_SETFL on a descriptor we own touches no memory.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A `pollfd` asking for `events` on `fd`.
pub(super) fn pollfd(fd: i32, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

/// Waits until one of `fds` is ready or `timeout` passes (`None`: however long that takes;
/// rounded up to a whole millisecond, so a short wait is never a busy loop). Returns how many
/// are ready; 0 on timeout. EINTR is returned as an error so callers get back to check their
/// stop flag.
pub(super) fn poll(fds: &mut [libc::pollfd], timeout: Option<Duration>) -> io::Result<usize> {
    let ms = timeout.map_or(-1, |t| {
        t.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int
    });
    // SAFETY: `fds` is a live, exclusively borrowed slice of pollfd of the length passed.
    let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc as usize)
    }
}

/// Writes what the socket takes now without waiting: `send(2)` with `MSG_DONTWAIT` (and
/// `MSG_NOSIGNAL`: a closed peer is an error, not a signal).
pub(super) fn send_nonblocking(
    socket: &impl std::os::fd::AsRawFd,
    bytes: &[u8],
) -> io::Result<usize> {
    // SAFETY: a valid descriptor and a buffer of `bytes.len()` bytes.
    let n = unsafe {
        libc::send(
            socket.as_raw_fd(),
            bytes.as_ptr().cast(),
            bytes.len(),
            libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
        )
    };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[cfg(target_os = "linux")]
    #[test]
    fn batch_scheduling_is_set_for_the_thread_and_restored() {
        std::thread::spawn(|| {
            // SAFETY: sched_getscheduler(0) reads the calling thread's policy.
            let policy = || unsafe { libc::sched_getscheduler(0) };
            let before = policy();
            {
                let _batch = BatchScheduling::begin();
                assert_eq!(policy(), libc::SCHED_BATCH);
            }
            assert_eq!(policy(), before);
        })
        .join()
        .unwrap();
    }

    fn sh(script: &str) -> Child {
        Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::null())
            .spawn()
            .expect("start sh")
    }

    #[test]
    fn waiting_returns_with_every_child_reaped_once_they_exit() {
        let mut kids = [sh("exit 3"), sh("sleep 0.1")];
        wait_children_until(kids.iter_mut(), Instant::now() + Duration::from_secs(60));
        for kid in &mut kids {
            assert!(
                kid.try_wait().unwrap().is_some(),
                "child {} still running",
                kid.id()
            );
        }
        assert_eq!(kids[0].wait().unwrap().code(), Some(3));
    }

    #[test]
    fn waiting_gives_up_at_the_deadline_on_a_child_that_does_not_exit() {
        let mut quick = sh("exit 0");
        let mut stuck = sh("sleep 60");
        wait_children_until(
            [&mut quick, &mut stuck].into_iter(),
            Instant::now() + Duration::from_millis(50),
        );
        assert!(stuck.try_wait().unwrap().is_none());
        stuck.kill().unwrap();
        stuck.wait().unwrap();
        quick.wait().unwrap();
    }

    #[test]
    fn the_napping_fallback_also_waits_for_every_child_and_for_the_deadline() {
        let mut kids = [sh("exit 0"), sh("sleep 0.05")];
        nap_until_exited(
            kids.iter_mut().collect(),
            Instant::now() + Duration::from_secs(60),
        );
        assert!(kids.iter_mut().all(|k| k.try_wait().unwrap().is_some()));
        let mut stuck = sh("sleep 60");
        nap_until_exited(vec![&mut stuck], Instant::now() + Duration::from_millis(30));
        assert!(stuck.try_wait().unwrap().is_none());
        stuck.kill().unwrap();
        stuck.wait().unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pidfd_turns_readable_when_its_child_exits() {
        use std::os::fd::AsRawFd;
        let mut kid = Command::new("sh")
            .args(["-c", "read line"])
            .stdin(Stdio::piped())
            .spawn()
            .expect("start sh");
        let fd = pidfd_open(kid.id()).expect("pidfd_open (Linux 5.3+)");
        let mut pfd = [pollfd(fd.as_raw_fd(), libc::POLLIN)];
        assert_eq!(
            poll(&mut pfd, Some(Duration::ZERO)).unwrap(),
            0,
            "running: not readable"
        );
        drop(kid.stdin.take()); // `read` sees end of input and the shell exits
        assert_eq!(poll(&mut pfd, Some(Duration::from_secs(60))).unwrap(), 1);
        assert!(kid.try_wait().unwrap().is_some());
    }
}
