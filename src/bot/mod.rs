//! Bot processes: starting them, talking to them line by line, and stopping them for good.
//!
//! Bots are untrusted programs in any language, so this layer is built so that nothing a bot
//! does can hang the referee, grow its memory without bound, or fill the disk:
//! - every pipe has its own thread (stdin writer, stdout reader, stderr drain), so a bot that
//!   stops reading, floods output, or never ends a line only ever blocks that bot's own thread;
//! - stdout lines are capped at [`BotSpec::max_line`] bytes and the event queue is bounded, so
//!   memory per bot is bounded; stderr goes to a file capped at [`BotSpec::stderr_cap`];
//! - each bot runs in its own process group, so [`Bot::stop`] reaches every helper it forked,
//!   and with [`become_subreaper`] the referee can also reap those helpers once orphaned.
//!
//! Everything the referee needs to know arrives as [`BotEvent`]s on one channel per bot, so it
//! waits with a single `recv_timeout` and a single deadline.
//!
//! Writes to a bot that has exited fail with EPIPE rather than killing the referee because
//! Rust programs start with SIGPIPE ignored.

mod os;
mod pumps;
#[cfg(test)]
mod tests;

use std::fmt;
use std::fs::{self, File};
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub use os::{become_subreaper, pin_to_cpu};
use pumps::Outgoing;

/// How many events may wait unread per bot. Bounding the queue bounds memory (at most this
/// many lines of `max_line` bytes) even while the referee attends to other bots and one of them
/// floods its stdout; a full queue just makes that bot block on its own writes. The protocol
/// has a bot write one line per request, so a well-behaved bot never comes close.
const EVENT_QUEUE: usize = 1024;

/// After SIGKILL, how long `stop` waits for the process tree to be reaped and the pipe
/// threads to finish before giving up on them, so `stop` ends within about grace + 1 s.
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
    /// File that receives the bot's stderr (created or truncated; parent directories created).
    pub stderr_log: PathBuf,
    /// Most bytes of stderr kept in `stderr_log`; the rest is read and discarded.
    pub stderr_cap: u64,
    /// Longest stdout line accepted, in bytes, without its newline (a trailing `\r` counts).
    pub max_line: usize,
}

/// Something that happened on a bot's pipes. `at` is taken when the referee's thread saw it,
/// so reply time is measured from `Written` to `Line` and excludes the referee's own delays.
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
    #[error("cannot create the stderr log {} for bot '{command}': {source}; check that the directory is writable", path.display())]
    StderrLog {
        command: String,
        path: PathBuf,
        source: io::Error,
    },
    #[error("cannot start a pipe thread for bot '{command}': {source}; the system is short of threads or memory, run fewer games at once")]
    Thread { command: String, source: io::Error },
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

/// A running bot process and its three pipe threads. Dropping it stops the whole process tree.
pub struct Bot {
    child: Child,
    /// Equal to the child's pid: it leads its own group.
    pgid: i32,
    command: String,
    /// `None` once stopping: closing it lets the writer finish and close the bot's stdin.
    outgoing: Option<Sender<Outgoing>>,
    /// Tells the writer to drop whatever is still queued instead of writing it.
    closing: Arc<AtomicBool>,
    events: Receiver<BotEvent>,
    /// Keeps `events` connected after the pipe threads end, so `recv_timeout` always waits its
    /// full duration instead of returning at once in a caller's polling loop.
    _events_open: SyncSender<BotEvent>,
    /// Disconnects once every pipe thread has ended (each holds a sender until it returns).
    threads_done: Receiver<()>,
    threads: Vec<JoinHandle<()>>,
    stopped: bool,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("pid", &self.pgid)
            .field("command", &self.command)
            .field("stopped", &self.stopped)
            .finish_non_exhaustive()
    }
}

impl Bot {
    /// Starts the bot in a new process group with all three pipes captured, and starts the
    /// threads that serve them.
    pub fn spawn(spec: &BotSpec) -> Result<Bot, BotError> {
        let command = spec.command.join(" ");
        let Some((program, args)) = spec.command.split_first() else {
            return Err(BotError::EmptyCommand { input: command });
        };
        let log = open_log(&spec.stderr_log).map_err(|source| BotError::StderrLog {
            command: command.clone(),
            path: spec.stderr_log.clone(),
            source,
        })?;

        let mut cmd = Command::new(program_path(program, spec.cwd.as_deref()));
        cmd.args(args)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so one kill(-pgid) reaches every helper the bot starts, and a
            // Ctrl-C at the terminal is not delivered straight to the bots: the referee decides.
            .process_group(0);
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|source| BotError::Spawn {
            command: command.clone(),
            source,
        })?;
        let pid = child.id();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (events_tx, events_rx) = mpsc::sync_channel(EVENT_QUEUE);
        let (outgoing_tx, outgoing_rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let closing = Arc::new(AtomicBool::new(false));
        let order = Arc::new(Mutex::new(()));

        // From here on, an early return drops `bot`, which stops the child.
        let mut bot = Bot {
            child,
            pgid: pid as i32,
            command,
            outgoing: Some(outgoing_tx),
            closing: closing.clone(),
            events: events_rx,
            _events_open: events_tx.clone(),
            threads_done: done_rx,
            threads: Vec::with_capacity(3),
            stopped: false,
        };

        let (done, events, order_r) = (done_tx.clone(), events_tx.clone(), order.clone());
        let max_line = spec.max_line;
        bot.start_thread(format!("bot{pid}-out"), move || {
            let _done = done;
            pumps::pump_lines(stdout, max_line, |ev| {
                let _guard = pumps::lock(&order_r);
                events.send(ev).is_ok()
            });
        })?;
        let done = done_tx.clone();
        bot.start_thread(format!("bot{pid}-in"), move || {
            let _done = done;
            pumps::pump_stdin(stdin, outgoing_rx, &closing, &order, &events_tx);
        })?;
        let cap = spec.stderr_cap;
        bot.start_thread(format!("bot{pid}-err"), move || {
            let _done = done_tx;
            pumps::pump_stderr(stderr, log, cap);
        })?;
        Ok(bot)
    }

    fn start_thread(
        &mut self,
        name: String,
        f: impl FnOnce() + Send + 'static,
    ) -> Result<(), BotError> {
        let handle = thread::Builder::new()
            .name(name)
            .spawn(f)
            .map_err(|source| BotError::Thread {
                command: self.command.clone(),
                source,
            })?;
        self.threads.push(handle);
        Ok(())
    }

    /// The bot's pid, which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.pgid as u32
    }

    /// Queues `lines` (one or more complete lines joined by `\n`, without the final newline,
    /// which is added) for the bot's stdin and returns at once, so a bot that does not read
    /// cannot stall the referee. Several lines go out in one write, so the bot wakes once for
    /// a batch. With `request_id`, a [`BotEvent::Written`] follows once the batch is flushed. After `stop`, or once the bot is
    /// gone, the line is silently dropped: the reader's `Eof` is how that is learned.
    pub fn send(&self, line: String, request_id: Option<u64>) {
        debug_assert!(
            !line.ends_with('\n'),
            "the final newline is added by the writer"
        );
        if let Some(queue) = &self.outgoing {
            let _ = queue.send(Outgoing {
                line,
                request: request_id,
            });
        }
    }

    /// The next event, or `None` if none came within `d`.
    pub fn recv_timeout(&self, d: Duration) -> Option<BotEvent> {
        self.events.recv_timeout(d).ok()
    }

    /// The next event if one is waiting.
    pub fn try_recv(&self) -> Option<BotEvent> {
        self.events.try_recv().ok()
    }

    /// The bot's exit status if it has exited (does not wait). Only the direct child: helpers
    /// it started are dealt with by [`Bot::stop`].
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Ends the bot and everything it started, and reaps them all. Returns within about
    /// `grace` + 1 s whatever the bot does. Safe to call more than once.
    ///
    /// Order: stdin is closed (a bot reading its input sees EOF); SIGTERM goes to the whole
    /// group and the bot gets `grace` to exit; then SIGKILL to the group catches the bot if it
    /// ignored SIGTERM and any helper still alive. Then the bot and, thanks to
    /// [`become_subreaper`], its orphaned helpers are reaped, and the pipe threads are given
    /// the rest of the second to see their pipes close (a helper that left the group with
    /// `setsid` can keep a pipe open; its thread is then left to end on its own).
    pub fn stop(&mut self, grace: Duration) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.closing.store(true, Ordering::Release);
        self.outgoing = None;

        os::signal_group(self.pgid, libc::SIGTERM);
        os::wait_child_until(&mut self.child, Instant::now() + grace);
        os::signal_group(self.pgid, libc::SIGKILL);
        let deadline = Instant::now() + AFTER_KILL;
        os::wait_child_until(&mut self.child, deadline);
        os::reap_group(self.pgid, deadline);

        // Ok(()) is never sent: this only waits for every pipe thread to drop its sender.
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            if self.threads_done.recv_timeout(left).is_err() {
                break;
            }
        }
        for handle in self.threads.drain(..) {
            if handle.is_finished() {
                let _ = handle.join();
            }
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.stop(Duration::from_millis(500));
    }
}

/// Opens the stderr log, creating its directory: a missing log directory is not a reason to
/// refuse to play.
fn open_log(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    File::create(path)
}

/// std leaves it unspecified whether a relative program path is resolved before or after
/// `current_dir`; resolving it against `cwd` here makes `./bot` with a working directory mean
/// the same on every platform. Bare names (`python3`) are still looked up on PATH.
fn program_path(program: &str, cwd: Option<&Path>) -> PathBuf {
    let path = Path::new(program);
    match cwd {
        Some(dir) if path.is_relative() && program.contains('/') => {
            let joined = dir.join(path);
            std::path::absolute(&joined).unwrap_or(joined)
        }
        _ => path.to_path_buf(),
    }
}
