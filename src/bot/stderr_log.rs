//! Draining bots' stderr into their capped log files, on a thread of its own: a bot whose
//! stderr pipe fills blocks in `write` and would then look like a bot that is thinking too
//! long, so stderr is read continuously whatever the referee is doing.
//!
//! One thread, the pump, drains every bot of the process, waiting in `poll(2)` on all their
//! pipes at once. Why not a thread per bot: starting, waking and joining four threads was a
//! visible part of every game's fixed cost (thread creation, a malloc arena per thread, and a
//! wake-up per thread when the pipes close), and a tournament would pay it again for each game.
//! The pump is started by the first bot and then serves every later bot and game of the process.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::ChildStderr;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread;

use super::os::{poll, pollfd};

/// Bytes asked for in one read: the default Linux pipe capacity, so one read usually empties
/// the pipe and a flood costs one syscall per 64 KiB.
const CHUNK: usize = 64 * 1024;

/// A log file that keeps at most `cap` bytes of what it is given, then one truncation line,
/// and drops the rest. Write errors (disk full) stop the copying, never the caller's draining.
pub(super) struct CappedLog<W: Write> {
    log: W,
    cap: u64,
    written: u64,
    copying: bool,
    ends_in_newline: bool,
}

impl<W: Write> CappedLog<W> {
    pub(super) fn new(log: W, cap: u64) -> Self {
        CappedLog {
            log,
            cap,
            written: 0,
            copying: true,
            ends_in_newline: true,
        }
    }

    /// Takes the next bytes read from the pipe.
    pub(super) fn take(&mut self, buf: &[u8]) {
        if !self.copying || buf.is_empty() {
            return;
        }
        let n = buf.len();
        let take = (n as u64).min(self.cap - self.written) as usize;
        if take > 0 {
            if self.log.write_all(&buf[..take]).is_err() {
                self.copying = false;
                return;
            }
            self.written += take as u64;
            self.ends_in_newline = buf[take - 1] == b'\n';
        }
        if take < n {
            self.copying = false;
            let sep = if self.ends_in_newline { "" } else { "\n" };
            let _ = writeln!(
                self.log,
                "{sep}[tarneeb: stderr truncated at {} bytes]",
                self.cap
            );
            let _ = self.log.flush();
        }
    }

    /// The pipe closed: flushes the log and gives it back.
    pub(super) fn finish(mut self) -> W {
        let _ = self.log.flush();
        self.log
    }
}

/// The last `n` lines of a bot's stderr log, to quote in a message about why the bot failed
/// (a bot that cannot start says why only there). `None` when the log is missing or empty.
pub fn tail(path: &std::path::Path, n: usize) -> Option<Vec<String>> {
    let text = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(n);
    // Printed to the organiser's terminal: a bot's escape sequences are shown, not obeyed.
    let tail: Vec<String> = lines[start..]
        .iter()
        .map(|l| crate::protocol::printable(l).into_owned())
        .collect();
    (!tail.is_empty()).then_some(tail)
}

/// Copies `stderr` into `log` up to `cap` bytes until the pipe closes (see [`CappedLog`]):
/// what the pump does for one bot, in one blocking loop.
#[cfg(test)]
pub(super) fn pump_stderr<R: Read, W: Write>(mut stderr: R, log: W, cap: u64) -> W {
    let mut log = CappedLog::new(log, cap);
    let mut buf = vec![0u8; CHUNK];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => log.take(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    log.finish()
}

/// A log file created only when the first byte arrives, so a quiet bot leaves no empty file
/// behind (four per game in a tournament otherwise). A failed creation is tried once: the
/// bytes are then dropped, like a full disk's.
pub(super) struct LazyFile {
    path: PathBuf,
    file: Option<File>,
    failed: bool,
}

impl LazyFile {
    pub(super) fn new(path: PathBuf) -> Self {
        LazyFile {
            path,
            file: None,
            failed: false,
        }
    }
}

impl Write for LazyFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && !self.failed {
            // Owner-only, like the record it sits beside (it may quote a bot's hand).
            let created = {
                use std::os::unix::fs::OpenOptionsExt;
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .mode(0o600)
                    .open(&self.path)
            };
            match created {
                Ok(f) => self.file = Some(f),
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
        match self.file.as_mut() {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("the stderr log could not be created")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().map_or(Ok(()), |f| f.flush())
    }
}

/// Where one bot's stderr goes now. Shared between the pump and the [`Bot`](super::Bot), so a
/// bot kept between games can have each game's stderr written to that game's log.
pub(super) type LogSlot = Arc<Mutex<CappedLog<LazyFile>>>;

/// A slot writing to `path` (created at the first byte), at most `cap` bytes.
pub(super) fn log_slot(path: PathBuf, cap: u64) -> LogSlot {
    Arc::new(Mutex::new(CappedLog::new(LazyFile::new(path), cap)))
}

/// Sends what comes next to `path` with a fresh cap, after flushing the current log. Bytes
/// the pump has not read yet when this is called go to the new log.
pub(super) fn redirect(slot: &LogSlot, path: PathBuf, cap: u64) {
    let mut log = slot.lock().unwrap_or_else(|e| e.into_inner());
    let old = std::mem::replace(&mut *log, CappedLog::new(LazyFile::new(path), cap));
    old.finish();
}

/// One bot's stderr as the pump holds it.
struct Job {
    stderr: ChildStderr,
    log: LogSlot,
    /// Dropped when the pipe closes and the log is flushed: the bot's `stop` waits for that.
    _done: Sender<()>,
}

/// What the bots' side holds of the pump: the jobs to take on, and the socket that wakes it.
struct Pump {
    new_jobs: Mutex<Vec<Job>>,
    wake: UnixStream,
}

/// The pump of this process and its thread, started by the first bot. A failed start is not
/// remembered, so a later bot tries again; nor is a pump whose thread has died (it cannot
/// panic by design, but a dead pump would leave every later bot's stderr undrained).
static PUMP: Mutex<Option<(Arc<Pump>, thread::JoinHandle<()>)>> = Mutex::new(None);

/// Hands `stderr` to the pump, which copies it into the log `log` holds at the time until the
/// pipe closes, then drops `done`. Fails only if the pump thread cannot be started; then nothing
/// drains this pipe, and the caller must not start the game.
pub(super) fn drain(stderr: ChildStderr, log: LogSlot, done: Sender<()>) -> io::Result<()> {
    // Our end only: the bot's end of the pipe is a separate open file and stays blocking.
    super::os::set_nonblocking(stderr_fd(&stderr))?;
    let pump = pump()?;
    let job = Job {
        stderr,
        log,
        _done: done,
    };
    pump.new_jobs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(job);
    // A full socket (WouldBlock) means a wake-up is already pending: enough.
    let _ = (&pump.wake).write(&[1]);
    Ok(())
}

fn lock(slot: &LogSlot) -> std::sync::MutexGuard<'_, CappedLog<LazyFile>> {
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

fn stderr_fd(stderr: &ChildStderr) -> BorrowedFd<'_> {
    use std::os::fd::AsFd;
    stderr.as_fd()
}

fn pump() -> io::Result<Arc<Pump>> {
    let mut slot = PUMP.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((p, thread)) = slot.as_ref() {
        if !thread.is_finished() {
            return Ok(Arc::clone(p));
        }
    }
    let (wake, woken) = UnixStream::pair()?;
    wake.set_nonblocking(true)?;
    woken.set_nonblocking(true)?;
    let p = Arc::new(Pump {
        new_jobs: Mutex::new(Vec::new()),
        wake,
    });
    let shared = Arc::clone(&p);
    let thread = thread::Builder::new()
        .name("bots-stderr".into())
        .spawn(move || run_pump(&shared, woken))?;
    *slot = Some((Arc::clone(&p), thread));
    Ok(p)
}

/// The pump thread: waits on the wake socket and every bot's stderr, reads at most one chunk
/// per ready pipe per round (so a flooding bot cannot starve the others), and finishes a job
/// when its pipe closes. Never returns; it ends with the process.
fn run_pump(pump: &Pump, mut woken: UnixStream) {
    let mut jobs: Vec<Job> = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    let mut fds: Vec<libc::pollfd> = Vec::new();
    loop {
        jobs.append(&mut pump.new_jobs.lock().unwrap_or_else(|e| e.into_inner()));
        fds.clear();
        fds.push(pollfd(woken.as_raw_fd(), libc::POLLIN));
        fds.extend(
            jobs.iter()
                .map(|j| pollfd(j.stderr.as_raw_fd(), libc::POLLIN)),
        );
        // No timeout: every change comes through one of these descriptors. An error (EINTR,
        // or ENOMEM) just goes round again, trying every pipe once (after a short nap unless it
        // was a signal, so a lasting failure does not spin).
        let ready = poll(&mut fds, None);
        if matches!(&ready, Err(e) if e.kind() != io::ErrorKind::Interrupted) {
            thread::sleep(std::time::Duration::from_millis(1));
        }
        if ready.is_err() || fds[0].revents != 0 {
            let mut sink = [0u8; 64];
            while matches!(woken.read(&mut sink), Ok(n) if n > 0) {}
        }
        // Back to front, so finishing (swap_remove) leaves the unvisited indices in place.
        for i in (0..jobs.len()).rev() {
            if ready.is_ok() && fds[i + 1].revents == 0 {
                continue;
            }
            let open = match jobs[i].stderr.read(&mut buf) {
                Ok(0) => false,
                Ok(n) => {
                    lock(&jobs[i].log).take(&buf[..n]);
                    true
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) =>
                {
                    true
                }
                // Any other read error means the pipe is unusable: the same as a close.
                Err(_) => false,
            };
            if !open {
                let job = jobs.swap_remove(i);
                let _ = lock(&job.log).log.flush();
                // Dropping the job closes the pipe and then drops `done`.
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_under_cap_is_copied_whole() {
        let log = pump_stderr(&b"hello\n"[..], Vec::new(), 100);
        assert_eq!(log, b"hello\n");
    }

    #[test]
    fn stderr_over_cap_is_cut_with_one_marker_line() {
        let flood = vec![b'x'; 1_000_000];
        let log = pump_stderr(&flood[..], Vec::new(), 10);
        assert_eq!(
            String::from_utf8(log).unwrap(),
            "xxxxxxxxxx\n[tarneeb: stderr truncated at 10 bytes]\n"
        );
        let log = pump_stderr(&b"abc\nmore"[..], Vec::new(), 4);
        assert_eq!(
            String::from_utf8(log).unwrap(),
            "abc\n[tarneeb: stderr truncated at 4 bytes]\n"
        );
    }

    #[test]
    fn the_cap_holds_across_chunks() {
        let mut log = CappedLog::new(Vec::new(), 5);
        log.take(b"abc");
        log.take(b"def");
        log.take(b"ghi");
        assert_eq!(
            String::from_utf8(log.finish()).unwrap(),
            "abcde\n[tarneeb: stderr truncated at 5 bytes]\n"
        );
    }
}
