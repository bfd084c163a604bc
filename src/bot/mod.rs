//! Bot processes: starting them, talking to them line by line, and stopping them for good.
//!
//! Bots are untrusted programs in any language, so this layer is built so that nothing a bot
//! does can hang the referee, grow its memory without bound, or fill the disk:
//! - our end of the bot's stdin is non-blocking: the referee's own thread writes requests, and
//!   whatever the pipe does not take yet is kept and written as the bot reads, so a bot that
//!   stops reading can never block it;
//! - a reply is awaited in a blocking `read(2)` of the bot's stdout that a [`Watchdog`]
//!   interrupts at the deadline (or on Ctrl-C), so a bot that never answers or never ends a
//!   line cannot block the referee either; other waits use `poll(2)`;
//! - stdout lines are capped at [`BotSpec::max_line`] bytes and stdout is only read when the
//!   referee looks for an event (one read of at most 64 KiB at a time), so memory per bot is
//!   bounded; a bot that floods stdout just blocks on its own writes;
//! - stderr is drained into a file capped at [`BotSpec::stderr_cap`] by a thread that serves
//!   every bot of the process (see `stderr_log`);
//! - each bot runs in its own process group, so [`Bot::stop`] reaches every helper it forked,
//!   and with [`become_subreaper`] the referee can also reap those helpers once orphaned.
//!
//! Why no thread per pipe: a request and its reply then cost the referee one `write` and one
//! `read`, and the machine two context switches (the bot's and the referee's), the same as a
//! bare ping-pong between two processes. Handing each line to a writer thread and back from a
//! reader thread tripled the switches per move.
//!
//! Writes to a bot that has exited fail with EPIPE rather than killing the referee because
//! Rust programs start with SIGPIPE ignored.

mod evidence;
mod lines;
mod os;
mod remote_end;
pub mod sandbox;
mod script;
mod stderr_log;
mod stop;
#[cfg(test)]
mod tests;
mod tls_end;
#[cfg(test)]
mod tls_tests;
pub mod watchdog;
mod write;

use std::collections::VecDeque;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

pub use evidence::{detail_lines, points_at_sandbox};
use lines::LineSplitter;
use os::pollfd;
pub use os::{allowed_cpus, become_subreaper, pin_to_cpu, BatchScheduling};
pub use remote_end::RemoteInfo;
pub use sandbox::{LimitHit, LimitKind, Sandbox};
pub use stderr_log::tail as stderr_tail;
pub use stop::{stop_all, wait_any};
pub use watchdog::Watchdog;

/// Bytes asked for in one read of a bot's stdout: the default Linux pipe capacity, so one read
/// usually empties the pipe.
const READ_CHUNK: usize = 64 * 1024;

/// The longest single wait in `poll(2)`, so a wait that is not a blocking read still comes back
/// to look at the caller's stop flag.
const POLL_SLICE: Duration = Duration::from_millis(50);

thread_local! {
    /// The buffer stdout is read into, one per thread and shared by every bot that thread
    /// reads: a read's bytes are cut into events before the next read, so one buffer is enough.
    /// Why not one per bot: allocating and zeroing 64 KiB per bot cost page faults and a
    /// `memset` at the start of every game (and 256 KiB per game in flight).
    static READ_BUF: std::cell::RefCell<Box<[u8]>> =
        std::cell::RefCell::new(vec![0; READ_CHUNK].into_boxed_slice());
}

/// After SIGKILL, how long `stop` waits for the process tree to be reaped and the stderr log
/// to be complete before giving up on them, so `stop` ends within about grace + 1 s.
const AFTER_KILL: Duration = Duration::from_millis(900);

/// How to start one bot.
#[derive(Debug, Clone)]
pub struct BotSpec {
    /// Program and arguments, not passed through a shell (see [`split_command`]).
    /// A relative program path containing `/` is taken relative to `cwd` when that is set,
    /// as it would be after `cd cwd`.
    pub command: Vec<String>,
    /// Working directory of the bot; the referee's when `None`.
    pub cwd: Option<PathBuf>,
    /// Extra environment variables, added to the referee's environment.
    pub env: Vec<(String, String)>,
    /// File that receives the bot's stderr: created (or truncated) when the bot first writes
    /// to stderr, so a quiet bot leaves no file; its directory is created at the start.
    pub stderr_log: PathBuf,
    /// Most bytes of stderr kept in `stderr_log`; the rest is read and discarded.
    pub stderr_cap: u64,
    /// Longest stdout line accepted, in bytes, without its newline (a trailing `\r` counts).
    pub max_line: usize,
    /// The sandbox and limits it runs under (shared by every bot of a run).
    pub sandbox: Arc<Sandbox>,
}

/// Something that happened on a bot's pipes. `at` is taken when the `read` (or, for
/// `Written`, the `write`) returned, so reply time is measured from `Written` to `Line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotEvent {
    /// One complete line of stdout, without `\n` and without a trailing `\r`.
    Line { text: String, at: Instant },
    /// A line grew past `limit` bytes. The last event from the reader: the bot is faulted and
    /// the rest of its output is not read.
    TooLong { at: Instant, limit: usize },
    /// A line that is not UTF-8 (reading goes on with the next line).
    NotUtf8 { at: Instant },
    /// The request sent with id `id` has been written and flushed to the bot's stdin: the
    /// bot's clock starts here. Always delivered before the bot's reply to that request.
    Written { id: u64, at: Instant },
    /// stdout closed: the bot (and every helper that inherited its stdout) exited or closed it.
    Eof { at: Instant },
    /// A write to the bot's stdin failed (`error` says how: EPIPE when no process holds its
    /// read end any more, i.e. the bot closed its stdin or died): what was queued for it is
    /// dropped, nothing more is written, and no `Written` comes for those requests. Comes once,
    /// at the write, never after [`Bot::stop`] or [`Bot::close_stdin`].
    InputClosed { at: Instant, error: String },
}

/// Why a bot could not be started. Each message names the command and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("bot command '{input}' is empty: give the program to run and its arguments, e.g. 'python3 bot.py'")]
    EmptyCommand { input: String },
    #[error("bot command '{input}' has an unclosed quote or ends in a backslash: close every ' and \" (or escape it with \\) as in a POSIX shell")]
    Unbalanced { input: String },
    #[error("cannot start bot '{command}': {source}; check that the program exists, is executable (chmod +x, and a #! line for a script) and is on PATH, or run it through its interpreter, e.g. 'python3 bot.py'")]
    Spawn { command: String, source: io::Error },
    #[error(transparent)]
    MissingScript(#[from] script::MissingScript),
    /// The referee itself is out of descriptors (EMFILE) or the system is (ENFILE): the
    /// referee's limit, never the bot's fault.
    #[error("cannot start bot '{command}': the referee has run out of file descriptors ({source}); this is the referee's limit, not the bot's fault: raise it (ulimit -n), run fewer games at once (--jobs), or look for what holds the referee's connections open")]
    Descriptors { command: String, source: io::Error },
    #[error("cannot create the stderr log {} for bot '{command}': {source}; check that the directory is writable", path.display())]
    StderrLog {
        command: String,
        path: PathBuf,
        source: io::Error,
    },
    #[error("cannot drain the stderr of bot '{command}': {source}; the system is short of threads, descriptors or memory, run fewer games at once")]
    Thread { command: String, source: io::Error },
    #[error("cannot make the pipes of bot '{command}' non-blocking: {source}")]
    Pipe { command: String, source: io::Error },
}

/// Whether `command` can be started from the referee's working directory: its program found
/// on PATH, or, named with a path, an executable file. Checked before a game or a tournament
/// starts, so a mistyped bot is a usage error, not a forfeit in every game it was to play.
pub fn check_can_start(command: &[String]) -> Result<(), BotError> {
    let Some(program) = command.first() else {
        return Err(BotError::EmptyCommand {
            input: String::new(),
        });
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    sandbox::check_program(program, &cwd).map_err(|source| BotError::Spawn {
        command: command.join(" "),
        source,
    })?;
    script::check_script(command, &cwd)
}

impl BotSpec {
    /// A bot playing `seat` of the game recorded at `record`, with its stderr logged beside
    /// the record (see [`stderr_log_path`]), in the referee's working directory and
    /// environment.
    pub fn beside_record(
        command: Vec<String>,
        record: &Path,
        seat: usize,
        stderr_cap: u64,
        max_line: usize,
        sandbox: Arc<Sandbox>,
    ) -> BotSpec {
        BotSpec {
            command,
            cwd: None,
            env: Vec::new(),
            stderr_log: stderr_log_path(record, seat),
            stderr_cap,
            max_line,
            sandbox,
        }
    }
}

/// Where a seat's stderr goes: `RECORD.seatN.stderr.log` beside the record, where `RECORD`
/// is the record's file name without `.zst` and its last extension.
///
/// One function because the name is spelled by the writer (the bot's log) and by the sandbox
/// (which hides every log of a game from the bots): if the two ever disagreed, a log would
/// show through the read-only view of the working directory.
pub fn stderr_log_path(record: &Path, seat: usize) -> PathBuf {
    let plain = match record.extension() {
        Some(e) if e == "zst" => record.with_extension(""),
        _ => record.to_path_buf(),
    };
    let stem = plain
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    record.with_file_name(format!("{stem}.seat{seat}.stderr.log"))
}

/// Splits a command line the way a POSIX shell splits words (quotes, backslash escapes), so
/// users can write `--bot "python3 'my bot.py' --level 3"`. No shell runs: `$VAR`, globs,
/// pipes and redirections are not interpreted, which keeps one bot = one process tree that
/// [`Bot::stop`] owns.
pub fn split_command(cmd: &str) -> Result<Vec<String>, BotError> {
    match shlex::split(cmd) {
        None => Err(BotError::Unbalanced {
            input: cmd.to_string(),
        }),
        Some(words) if words.is_empty() => Err(BotError::EmptyCommand {
            input: cmd.to_string(),
        }),
        Some(words) => Ok(words),
    }
}

/// A running bot process and the two pipes the referee talks to it through (its stderr is
/// drained elsewhere). Dropping it stops the whole process tree.
pub struct Bot {
    /// A process the referee started, or a remote entrant's connection.
    peer: Peer,
    command: String,
    /// Our end of the bot's stdin (non-blocking); `None` once closed by `stop` or broken.
    stdin: Option<File>,
    /// Our end of the bot's stdout (blocking: it is read after `poll` says it is readable, or
    /// under a [`Watchdog`]; for a remote connection the same socket as `stdin`, also
    /// blocking); `None` after EOF or an over-long line.
    stdout: Option<File>,
    /// Bytes for stdin that the pipe has not taken yet: `out[out_pos..]`.
    out: Vec<u8>,
    out_pos: usize,
    /// Bytes ever queued for and written to stdin, to tell when a request is fully written.
    queued_total: u64,
    written_total: u64,
    /// Requests not yet fully written: (id, `queued_total` just after the request's newline).
    requests: VecDeque<(u64, u64)>,
    splitter: LineSplitter,
    /// Events seen but not yet handed to the caller, in the order they happened.
    events: VecDeque<BotEvent>,
    stopped: bool,
    sandbox: Arc<Sandbox>,
    /// The current game's stderr log, for the last lines a fault's detail quotes.
    stderr_path: PathBuf,
}

/// What is at the other end of a [`Bot`]'s two descriptors.
enum Peer {
    /// A process tree the referee started and owns.
    Process(Box<Process>),
    /// A remote entrant's connection (see `crate::remote`): one socket for both directions.
    Remote(remote_end::RemoteEnd),
}

/// The parts of a bot that only a local process has.
struct Process {
    child: Child,
    /// Equal to the child's pid: it leads its own group.
    pgid: i32,
    /// Disconnects once the stderr pipe has closed and the log is complete (the stderr pump
    /// holds the sender until then).
    stderr_done: Receiver<()>,
    /// Where the stderr pump writes this bot's stderr (changed for each game of a kept bot).
    stderr_log: stderr_log::LogSlot,
    /// Its cgroup (removed after the bot when dropped) and what tells a limit it hit.
    confinement: sandbox::Confinement,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("pid", &self.pid())
            .field("command", &self.command)
            .field("stopped", &self.stopped)
            .finish_non_exhaustive()
    }
}

/// A bot's start failed with `source`: out of descriptors is the referee's own failure
/// ([`BotError::Descriptors`]), anything else the bot's command's.
pub fn spawn_error(command: &str, source: io::Error) -> BotError {
    // EMFILE (this process's limit) and ENFILE (the system's).
    if matches!(source.raw_os_error(), Some(24 | 23)) {
        BotError::Descriptors {
            command: command.to_string(),
            source,
        }
    } else {
        BotError::Spawn {
            command: command.to_string(),
            source,
        }
    }
}

impl Bot {
    /// Starts the bot in a new process group with all three pipes captured, and hands its
    /// stderr to the thread that drains it.
    pub fn spawn(spec: &BotSpec) -> Result<Bot, BotError> {
        let command = spec.command.join(" ");
        if spec.command.is_empty() {
            return Err(BotError::EmptyCommand { input: command });
        }
        prepare_log(&spec.stderr_log).map_err(|source| match spawn_error(&command, source) {
            BotError::Spawn { source, .. } => BotError::StderrLog {
                command: command.clone(),
                path: spec.stderr_log.clone(),
                source,
            },
            descriptors => descriptors,
        })?;
        let log = stderr_log::log_slot(spec.stderr_log.clone(), spec.stderr_cap);

        let cwd = match &spec.cwd {
            Some(dir) => std::path::absolute(dir),
            None => std::env::current_dir(),
        }
        .map_err(|source| BotError::Spawn {
            command: command.clone(),
            source,
        })?;
        let (mut cmd, confinement) = sandbox::command(&spec.sandbox, &spec.command, &cwd)
            .map_err(|source| spawn_error(&command, source))?;
        cmd.envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so one kill(-pgid) reaches every helper the bot starts, and a
            // Ctrl-C at the terminal is not delivered straight to the bots: the referee decides.
            .process_group(0);
        let mut child = cmd.spawn().map_err(|source| {
            // Nothing ran, so nothing is left behind: the log was created for this bot only.
            let _ = std::fs::remove_file(&spec.stderr_log);
            spawn_error(&command, source)
        })?;
        let pid = child.id();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (done_tx, done_rx) = mpsc::channel::<()>();

        // From here on, an early return drops `bot`, which stops the child.
        let mut bot = Bot {
            peer: Peer::Process(Box::new(Process {
                child,
                pgid: pid as i32,
                stderr_done: done_rx,
                stderr_log: Arc::clone(&log),
                confinement,
            })),
            command,
            stdin: None,
            stdout: None,
            out: Vec::new(),
            out_pos: 0,
            queued_total: 0,
            written_total: 0,
            requests: VecDeque::new(),
            splitter: LineSplitter::new(spec.max_line),
            events: VecDeque::new(),
            stopped: false,
            sandbox: Arc::clone(&spec.sandbox),
            stderr_path: spec.stderr_log.clone(),
        };
        os::set_nonblocking(stdin.as_fd()).map_err(|source| BotError::Pipe {
            command: bot.command.clone(),
            source,
        })?;
        bot.stdin = Some(File::from(OwnedFd::from(stdin)));
        bot.stdout = Some(File::from(OwnedFd::from(stdout)));
        stderr_log::drain(stderr, log, done_tx).map_err(|source| BotError::Thread {
            command: bot.command.clone(),
            source,
        })?;
        Ok(bot)
    }

    /// Called once the bot has answered its hello: from now on a full working directory or
    /// /tmp of its sandbox can be told after it failed.
    pub fn started(&mut self) {
        if let Peer::Process(p) = &mut self.peer {
            p.confinement.watch_disks(p.pgid as u32);
        }
    }

    /// The limit this bot ran into, if one explains its failure. Best called after `stop`,
    /// when its exit status is known.
    pub fn limit_hit(&mut self) -> Option<LimitHit> {
        let Peer::Process(p) = &mut self.peer else {
            return None;
        };
        let status = p.child.try_wait().ok().flatten();
        p.confinement.limit_hit(&self.sandbox, status)
    }

    /// When the sandbox itself failed to start this bot (bwrap could not make a mount or start
    /// the program, so the bot never ran): bwrap's message, for an error that is not the bot's
    /// fault. `None` while bwrap runs, or when the bot ran.
    pub fn sandbox_setup_failure(&mut self) -> Option<String> {
        let Peer::Process(p) = &mut self.peer else {
            return None;
        };
        let status = p.child.try_wait().ok().flatten();
        if !p.confinement.setup_failed(status) {
            return None;
        }
        // bwrap has exited, so its stderr is closed: wait (bounded) for the pump to write it
        // all to the log, or a loaded machine reads the log before bwrap's message is in it.
        wait_for_stderr_log(&p.stderr_done, Instant::now() + Duration::from_secs(2));
        let code = status.and_then(|s| s.code()).unwrap_or_default();
        let tail = sandbox::log_tail(&self.stderr_path, 5);
        Some(format!(
            "the sandbox could not start it (bwrap exited with code {code} before the bot ran): {}",
            if tail.is_empty() {
                "bwrap said nothing"
            } else {
                &tail
            }
        ))
    }

    /// From now on the bot's stderr goes to `path` (created at the first byte), at most `cap`
    /// bytes: each game of a bot kept between games gets its own log.
    pub fn log_stderr_to(&mut self, path: &Path, cap: u64) -> Result<(), BotError> {
        // A remote bot's stderr stays on its owner's machine.
        let Peer::Process(p) = &self.peer else {
            return Ok(());
        };
        // The usual case, the next game's log beside the last one's: that directory was
        // made for the last game (two system calls per seat per game saved).
        if path.parent() != self.stderr_path.parent() {
            prepare_log(path).map_err(|source| BotError::StderrLog {
                command: self.command.clone(),
                path: path.to_path_buf(),
                source,
            })?;
        }
        stderr_log::redirect(&p.stderr_log, path.to_path_buf(), cap);
        self.stderr_path = path.to_path_buf();
        Ok(())
    }

    /// True while the bot has said nothing since its last reply and its output is open: what a
    /// bot kept between games must be before it is given the next game. Does not wait.
    pub fn is_quiet(&mut self) -> bool {
        if self.stopped || self.stdin.is_none() {
            return false;
        }
        while let Some(ev) = self.try_recv() {
            if !matches!(ev, BotEvent::Written { .. }) {
                return false;
            }
        }
        self.stdout.is_some() && (self.is_remote() || self.exit_status().is_none())
    }

    /// The bot's command line, as given.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The bot's pid, which is also its process group id; 0 for a remote connection.
    pub fn pid(&self) -> u32 {
        match &self.peer {
            Peer::Process(p) => p.pgid as u32,
            Peer::Remote(_) => 0,
        }
    }

    /// Sends `lines` (one or more complete lines, each ending in `\n`) to the bot's stdin in one
    /// write, so the bot wakes once for a batch. Never blocks: what the pipe cannot take now is
    /// kept and written while the referee waits for this bot ([`Bot::recv_until`]). With
    /// `request_id`, a [`BotEvent::Written`] follows once the last byte is written: the bot's
    /// clock starts there. After `stop`, or once the bot closed its stdin, the lines are
    /// dropped: the write that found stdin closed gave a [`BotEvent::InputClosed`].
    pub fn send(&mut self, lines: &[u8], request_id: Option<u64>) {
        debug_assert!(lines.ends_with(b"\n"), "send takes whole lines");
        if self.stdin.is_none() {
            return;
        }
        self.queued_total += lines.len() as u64;
        if let Some(id) = request_id {
            self.requests.push_back((id, self.queued_total));
        }
        if self.out_pos < self.out.len() {
            // Earlier output is still waiting: these lines go after it.
            self.out.extend_from_slice(lines);
            self.write_some();
            return;
        }
        // The usual case: straight from the caller's buffer, keeping only what the pipe did
        // not take (a request is written without being copied here first).
        if let Some(n) = self.write_bytes(lines) {
            self.out.extend_from_slice(&lines[n..]);
            self.report_written();
        }
    }

    /// The next event, waiting at most `d` for one. `None` if none came in time, or if a signal
    /// interrupted the wait (so the caller can look at its stop flag).
    pub fn recv_timeout(&mut self, d: Duration) -> Option<BotEvent> {
        let deadline = Instant::now() + d;
        loop {
            if let Some(ev) = self.events.pop_front() {
                return Some(ev);
            }
            let (mut fds, n) = self.poll_fds();
            if n == 0 {
                // Nothing can happen on this bot any more: wait out the time like a silent bot.
                thread::sleep(deadline.saturating_duration_since(Instant::now()));
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match os::poll(&mut fds[..n], Some(left)) {
                Ok(0) | Err(_) => return None,
                Ok(_) => self.progress(&fds[..n]),
            }
        }
    }

    /// The next event, waiting for one until `deadline` (the caller's limit for a reply).
    /// `None` when the wait was cut short: the deadline passed, or `watchdog` saw the stop flag,
    /// or a stray signal; the caller looks at its clock and flag and calls again.
    ///
    /// This is the wait for every reply, so it is a single blocking `read` of stdout, which
    /// `watchdog` interrupts at the deadline. Only while part of a request is still queued for
    /// a bot that is slow to read its input does it wait in `poll` instead (for both pipes).
    pub fn recv_until(&mut self, deadline: Instant, watchdog: &Watchdog<'_>) -> Option<BotEvent> {
        if let Some(ev) = self.events.pop_front() {
            return Some(ev);
        }
        if self.output_queued() || self.stdout.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            return self.recv_timeout(left.min(POLL_SLICE));
        }
        watchdog.arm(deadline);
        self.read_some();
        watchdog.disarm();
        self.events.pop_front()
    }

    /// The next event if one is waiting, without blocking.
    pub fn try_recv(&mut self) -> Option<BotEvent> {
        if self.events.is_empty() {
            let (mut fds, n) = self.poll_fds();
            if n > 0 && matches!(os::poll(&mut fds[..n], Some(Duration::ZERO)), Ok(r) if r > 0) {
                self.progress(&fds[..n]);
            }
        }
        self.events.pop_front()
    }

    /// The bot's exit status if it has exited (does not wait). Only the direct child: helpers
    /// it started are dealt with by [`Bot::stop`].
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        match &mut self.peer {
            Peer::Process(p) => p.child.try_wait().ok().flatten(),
            Peer::Remote(_) => None,
        }
    }

    /// Ends the bot and everything it started, and reaps them all. Returns within about
    /// `grace` + 1 s whatever the bot does. Safe to call more than once. See [`stop_all`].
    pub fn stop(&mut self, grace: Duration) {
        stop_all(&mut [self], grace);
    }

    /// Stops the bot's processes where they stand, between its games (see
    /// `tournament::run::pool`): a kept-up bot takes no CPU from the games being played. It hears
    /// nothing while frozen; [`Bot::thaw`] before it is asked again. False where the machine
    /// gives no freezer.
    pub fn freeze(&mut self) -> bool {
        match &self.peer {
            Peer::Process(p) => p.confinement.freeze(),
            Peer::Remote(_) => false,
        }
    }

    /// Lets a frozen bot run again.
    pub fn thaw(&mut self) {
        if let Peer::Process(p) = &self.peer {
            p.confinement.thaw();
        }
    }

    /// Closes the bot's stdin (dropping whatever was still queued), as at the end of its input:
    /// a well-behaved bot then exits by itself.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.discard_output_queue();
    }

    /// Closes stdin and drops whatever was still queued for it: the first step of stopping.
    /// False if the bot was already stopped.
    fn begin_stop(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.stopped = true;
        self.stdin = None;
        self.discard_output_queue();
        if let Peer::Remote(r) = &mut self.peer {
            r.hang_up();
        }
        true
    }

    /// Waits (bounded) for the stderr pump to see the pipe close and complete the log.
    fn finish_stop(&mut self, deadline: Instant) {
        if let Peer::Process(p) = &self.peer {
            wait_for_stderr_log(&p.stderr_done, deadline);
        }
    }

    /// What to wait for in `poll`: stdout while it is read, stdin while output is queued.
    /// Returns the descriptors and how many of the two are used (no allocation per wait).
    fn poll_fds(&self) -> ([libc::pollfd; 2], usize) {
        let mut fds = [pollfd(-1, 0); 2];
        let mut n = 0;
        if let Some(stdout) = &self.stdout {
            fds[n] = pollfd(stdout.as_raw_fd(), libc::POLLIN);
            n += 1;
        }
        if let Some(stdin) = self.stdin.as_ref().filter(|_| self.output_queued()) {
            fds[n] = pollfd(stdin.as_raw_fd(), libc::POLLOUT);
            n += 1;
        }
        (fds, n)
    }

    /// Moves what `poll` found ready (`fds` as filled in by [`Bot::poll_fds`] and `poll`):
    /// queued output into stdin, one read of stdout. Neither can block: stdin is non-blocking,
    /// and stdout is only read when `poll` says a read will return at once.
    fn progress(&mut self, fds: &[libc::pollfd]) {
        let ready = |fd: Option<i32>, events: libc::c_short| {
            fds.iter().any(|p| {
                Some(p.fd) == fd && p.revents & (events | libc::POLLERR | libc::POLLHUP) != 0
            })
        };
        if self.output_queued() && ready(self.stdin.as_ref().map(|f| f.as_raw_fd()), libc::POLLOUT)
        {
            self.write_some();
        }
        if ready(self.stdout.as_ref().map(|f| f.as_raw_fd()), libc::POLLIN) {
            self.read_some();
        }
    }

    /// Output not yet taken by stdin: queued here, or TLS records not yet sent.
    fn output_queued(&self) -> bool {
        self.out_pos < self.out.len()
            || matches!(&self.peer, Peer::Remote(r) if r.tls.as_ref().is_some_and(|t| t.has_backlog()))
    }

    fn discard_output_queue(&mut self) {
        self.out = Vec::new();
        self.out_pos = 0;
        self.requests.clear();
    }

    /// One read of stdout (at most [`READ_CHUNK`] bytes), cut into events. It blocks until the
    /// bot writes something unless `poll` said it would not; a signal (the watchdog's) ends it
    /// with no event.
    fn read_some(&mut self) {
        READ_BUF.with_borrow_mut(|buf| self.read_into(buf));
    }

    fn read_into(&mut self, buf: &mut [u8]) {
        if tls_end::tls_of(&mut self.peer).is_some() {
            return self.read_tls(buf);
        }
        let Some(stdout) = self.stdout.as_mut() else {
            return;
        };
        let n = match stdout.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
            // Any other read error means the pipe is unusable: the same as a close.
            Err(_) => 0,
        };
        let at = Instant::now();
        if n == 0 {
            self.splitter.finish(at, &mut self.events);
            self.stdout = None;
        } else if !self.splitter.feed(&buf[..n], at, &mut self.events) {
            // An over-long line: stop reading; the bot is faulted and stopped by the referee.
            self.stdout = None;
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.stop(Duration::from_millis(500));
    }
}

/// Waits until the stderr pump has seen a bot's pipe close and completed its log, or until
/// `deadline`. `()` is never sent: the pump drops the sender when it is done.
fn wait_for_stderr_log(done: &Receiver<()>, deadline: Instant) {
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        if done.recv_timeout(left).is_err() {
            break;
        }
    }
}

/// Creates the stderr log's directory (a missing log directory is not a reason to refuse to
/// play), so the log itself can be created when the bot first writes to stderr.
fn prepare_log(path: &Path) -> io::Result<()> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => fs::create_dir_all(dir),
        None => Ok(()),
    }
}
