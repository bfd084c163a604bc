//! Lets the referee's thread wait for a reply in a plain blocking `read(2)`, the cheapest wait
//! there is, and still never wait past a deadline or ignore Ctrl-C.
//!
//! Why not `poll(2)` with a timeout: on every move it costs about 0.9 us more than a blocking
//! read (the wait-queue setup and a high-resolution timer per call), which was a tenth of what
//! a whole move cost through the referee (bench/run.sh). A watchdog thread that looks at the
//! armed deadline every few milliseconds costs the move nothing: arming and disarming are two
//! atomic stores, no system call. When the deadline has passed, or the stop flag is set, it
//! sends the waiting thread a signal whose handler does nothing; the signal makes the read fail
//! with EINTR, and the caller looks at its clock and flag. It goes on signalling every tick for
//! as long as that holds, so a signal that lands just before the thread starts its read is not
//! lost: the next one interrupts the read.
//!
//! A deadline is noticed up to one [`TICK`] late. The move limit is measured by the caller from
//! its own clock, so lateness only delays the timeout fault, it never shortens a bot's time.

use std::io;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// How often the watchdog looks at the deadline and the stop flag.
pub const TICK: Duration = Duration::from_millis(5);

/// Watches one thread: the one that started it, which is the only one that may arm it. Not
/// `Send`, so it cannot leave that thread; it joins its own thread when dropped, so it never
/// signals a thread that has ended.
pub struct Watchdog<'scope> {
    shared: &'scope Shared,
    thread: Option<ScopedJoinHandle<'scope, ()>>,
    _not_send: PhantomData<*const ()>,
}

/// What the watched thread and the watchdog share.
pub struct Shared {
    /// The armed deadline in nanoseconds after `epoch`, plus one; 0 when disarmed.
    deadline: AtomicU64,
    epoch: Instant,
    quit: AtomicBool,
    target: libc::pthread_t,
}

impl Shared {
    /// State for watching the calling thread. Kept by the caller (on its stack) so a scoped
    /// watchdog thread can borrow it.
    pub fn for_this_thread() -> Shared {
        Shared {
            deadline: AtomicU64::new(0),
            epoch: Instant::now(),
            quit: AtomicBool::new(false),
            // SAFETY: pthread_self has no preconditions.
            target: unsafe { libc::pthread_self() },
        }
    }
}

impl<'scope> Watchdog<'scope> {
    /// Starts watching the calling thread, which must be the one that made `shared`. While
    /// armed, the watchdog also signals when `stop` is set (Ctrl-C), so a blocked read returns
    /// to look at it. One watchdog may serve many games played one after another on its thread.
    pub fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        shared: &'scope Shared,
        stop: &'env AtomicBool,
    ) -> io::Result<Watchdog<'scope>> {
        // SAFETY: pthread_self has no preconditions; pthread_equal compares two ids.
        if unsafe { libc::pthread_equal(shared.target, libc::pthread_self()) } == 0 {
            return Err(io::Error::other(
                "a watchdog must be started by the thread it watches",
            ));
        }
        let signal = wake_signal()?;
        let thread = thread::Builder::new()
            .name("watchdog".to_string())
            .spawn_scoped(scope, move || watch(shared, stop, signal))?;
        Ok(Watchdog {
            shared,
            thread: Some(thread),
            _not_send: PhantomData,
        })
    }

    /// From now until [`Watchdog::disarm`], a blocking call of this thread is interrupted
    /// (EINTR) once `deadline` has passed.
    pub fn arm(&self, deadline: Instant) {
        let ns = deadline
            .saturating_duration_since(self.shared.epoch)
            .as_nanos()
            .min(u128::from(u64::MAX - 1)) as u64;
        self.shared.deadline.store(ns + 1, Ordering::Release);
    }

    pub fn disarm(&self) {
        self.shared.deadline.store(0, Ordering::Release);
    }
}

impl Drop for Watchdog<'_> {
    fn drop(&mut self) {
        self.shared.quit.store(true, Ordering::Release);
        if let Some(handle) = self.thread.take() {
            handle.thread().unpark();
            let _ = handle.join();
        }
    }
}

fn watch(shared: &Shared, stop: &AtomicBool, signal: libc::c_int) {
    while !shared.quit.load(Ordering::Acquire) {
        let armed = shared.deadline.load(Ordering::Acquire);
        let elapsed = shared.epoch.elapsed();
        let due = armed != 0 && elapsed.as_nanos() >= u128::from(armed - 1);
        // Only while armed: the watched thread blocks only in an armed wait, and a thread that
        // plays game after game under one watchdog (a tournament worker) must not be signalled
        // between games, in the middle of whatever it does then, once Ctrl-C has set `stop`.
        if armed != 0 && (due || stop.load(Ordering::Relaxed)) {
            // SAFETY: the target thread is alive: it owns the Watchdog, whose Drop joins this
            // thread before the target can return past it (the Watchdog is not Send).
            unsafe { libc::pthread_kill(shared.target, signal) };
        }
        let nap = if armed != 0 && !due {
            Duration::from_nanos(armed - 1)
                .saturating_sub(elapsed)
                .min(TICK)
        } else {
            TICK
        };
        thread::park_timeout(nap);
    }
}

/// The signal used to interrupt a blocked call: the first real-time signal the C library
/// leaves to programs, with a handler that does nothing and without SA_RESTART, so the
/// interrupted call fails with EINTR instead of being restarted.
fn wake_signal() -> io::Result<libc::c_int> {
    static INSTALLED: OnceLock<Result<libc::c_int, i32>> = OnceLock::new();
    let result = INSTALLED.get_or_init(|| {
        let signal = libc::SIGRTMIN();
        // SAFETY: a zeroed sigaction is valid (empty mask, no flags); the handler is an
        // `extern "C" fn(c_int)` that touches nothing, so it is async-signal-safe.
        let rc = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_wake as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if rc == 0 {
            Ok(signal)
        } else {
            Err(io::Error::last_os_error().raw_os_error().unwrap_or(0))
        }
    });
    result.map_err(io::Error::from_raw_os_error)
}

extern "C" fn on_wake(_: libc::c_int) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::fd::FromRawFd;

    /// A pipe whose write end is kept open and never written: a read of it blocks for good.
    fn silent_pipe() -> (std::fs::File, std::fs::File) {
        let mut fds = [0; 2];
        // SAFETY: pipe writes two descriptors into the array, which we then own.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: both descriptors were just created and are owned by nobody else.
        unsafe {
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::fs::File::from_raw_fd(fds[1]),
            )
        }
    }

    /// The seconds of a clock, read by clock_gettime.
    fn clock_seconds(clock: libc::clockid_t) -> i64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given.
        assert_eq!(unsafe { libc::clock_gettime(clock, &mut ts) }, 0);
        ts.tv_sec
    }

    /// A deadline is an `Instant`, and std reads an `Instant` from CLOCK_MONOTONIC on Linux:
    /// the clock that a step of the system time (settimeofday, `date -s`, NTP's step) does not
    /// move, so a clock step during a move neither forfeits a bot in time nor gives it more
    /// time (docs/reliability.md, "A clock step"). Seen here: the seconds inside an Instant
    /// are CLOCK_MONOTONIC's (seconds since boot), not CLOCK_REALTIME's (since 1970).
    #[test]
    fn deadlines_are_read_on_the_monotonic_clock() {
        let before = clock_seconds(libc::CLOCK_MONOTONIC);
        let now = Instant::now();
        let after = clock_seconds(libc::CLOCK_MONOTONIC);
        let wall = clock_seconds(libc::CLOCK_REALTIME);
        let debug = format!("{now:?}");
        let secs: i64 = debug
            .split("tv_sec:")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_else(|| panic!("no tv_sec in {debug}"));
        assert!(
            before <= secs && secs <= after,
            "{debug}: monotonic {before}..{after}"
        );
        // Unless the machine has been up for decades, the two clocks are far apart.
        assert!((wall - secs).abs() > 1_000_000, "{debug}: wall {wall}");
        // The watchdog keeps a deadline as nanoseconds after an Instant of its own.
        let shared = Shared::for_this_thread();
        let stop = AtomicBool::new(false);
        thread::scope(|scope| {
            let dog = Watchdog::start(scope, &shared, &stop).unwrap();
            dog.arm(shared.epoch + Duration::from_secs(7));
            assert_eq!(shared.deadline.load(Ordering::Acquire), 7_000_000_001);
            dog.disarm();
        });
    }

    #[test]
    fn a_blocked_read_is_interrupted_after_the_deadline() {
        let (mut reader, _writer) = silent_pipe();
        let stop = AtomicBool::new(false);
        let shared = Shared::for_this_thread();
        thread::scope(|scope| {
            let dog = Watchdog::start(scope, &shared, &stop).unwrap();
            let deadline = Instant::now() + Duration::from_millis(30);
            dog.arm(deadline);
            let mut buf = [0u8; 16];
            let err = loop {
                match reader.read(&mut buf) {
                    Err(e) if Instant::now() >= deadline => break e,
                    Err(_) => continue, // a signal before the deadline cannot come, but is harmless
                    Ok(n) => panic!("read {n} bytes from a silent pipe"),
                }
            };
            dog.disarm();
            assert_eq!(err.kind(), io::ErrorKind::Interrupted);
        });
    }

    #[test]
    fn a_blocked_read_is_interrupted_when_the_stop_flag_is_set() {
        let (mut reader, _writer) = silent_pipe();
        let stop = AtomicBool::new(false);
        let shared = Shared::for_this_thread();
        thread::scope(|scope| {
            let dog = Watchdog::start(scope, &shared, &stop).unwrap();
            // Set from another thread while this one is (about to be) blocked; a deadline an
            // hour away.
            dog.arm(Instant::now() + Duration::from_secs(3600));
            scope.spawn(|| {
                thread::sleep(Duration::from_millis(20));
                stop.store(true, Ordering::Relaxed);
            });
            let mut buf = [0u8; 16];
            let err = reader.read(&mut buf).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::Interrupted);
            drop(dog);
        });
    }

    #[test]
    fn a_disarmed_watchdog_lets_a_blocked_read_wait() {
        let (mut reader, mut writer) = silent_pipe();
        let stop = AtomicBool::new(false);
        let shared = Shared::for_this_thread();
        thread::scope(|scope| {
            let dog = Watchdog::start(scope, &shared, &stop).unwrap();
            // A deadline already past, then disarmed: no signal may come after this.
            dog.arm(Instant::now());
            dog.disarm();
            thread::sleep(TICK * 2);
            // The read blocks for many ticks before the byte comes; an armed watchdog would
            // have interrupted it by then.
            scope.spawn(move || {
                thread::sleep(TICK * 10);
                use std::io::Write;
                writer.write_all(b"x").unwrap();
            });
            let mut buf = [0u8; 16];
            assert_eq!(reader.read(&mut buf).unwrap(), 1);
        });
    }

    #[test]
    fn a_disarmed_watchdog_does_not_signal_on_stop() {
        // A tournament worker keeps one watchdog across its games: between them (disarmed) it
        // must not be interrupted, also once Ctrl-C has set the stop flag.
        let (mut reader, mut writer) = silent_pipe();
        let stop = AtomicBool::new(true);
        let shared = Shared::for_this_thread();
        thread::scope(|scope| {
            let dog = Watchdog::start(scope, &shared, &stop).unwrap();
            scope.spawn(move || {
                thread::sleep(TICK * 10);
                use std::io::Write;
                writer.write_all(b"x").unwrap();
            });
            let mut buf = [0u8; 16];
            assert_eq!(reader.read(&mut buf).unwrap(), 1);
            drop(dog);
        });
    }

    #[test]
    fn only_the_watched_thread_may_start_it() {
        let stop = AtomicBool::new(false);
        let shared = Shared::for_this_thread();
        thread::scope(|scope| {
            let other = thread::scope(|inner| {
                inner
                    .spawn(|| Watchdog::start(scope, &shared, &stop).err())
                    .join()
                    .unwrap()
            });
            assert!(other.is_some(), "started from another thread");
        });
    }
}
