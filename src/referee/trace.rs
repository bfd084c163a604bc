//! `--trace DIR`: every line sent to and received from each seat, with its time, one file per
//! seat per game, for a bot author to see the raw exchange.
//!
//! Why a thread: the game loop only keeps the bytes (a copy of the seat's outbox, or the received
//! line) and hands them over in batches of [`BATCH`] entries; formatting and file writes happen
//! on the trace's own thread, so tracing puts no file I/O and no thread wake-up on the per-move
//! path.
//!
//! Each line of `STEM.seatN.trace` is `SECONDS seatN DIRECTION LINE`: SECONDS since the game's
//! bots were started (microseconds), DIRECTION `to-bot` (written to the bot's stdin) or
//! `from-bot` (read from its stdout), and LINE exactly as it went over the pipe, without its
//! newline. A line the referee could not take as text is noted as `(not UTF-8)` or
//! `(line longer than N bytes)`.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::rules::Seat;

enum Entry {
    /// Bytes written to the bot: one or more whole lines, each ending in `\n`.
    ToBot(Seat, Instant, Vec<u8>),
    /// One line read from the bot (without its newline), or a note about one.
    FromBot(Seat, Instant, String),
}

/// Entries handed to the writer thread at once. Why batches: a hand-over per move woke the
/// thread every move, and on a game pinned to one CPU that doubled the referee's time per move.
const BATCH: usize = 256;

/// The open trace of one game.
pub(super) struct Tracer {
    tx: Sender<Vec<Entry>>,
    batch: Vec<Entry>,
    writer: JoinHandle<io::Result<()>>,
}

/// The trace file of `seat` for the game whose record is `record`, in `dir`.
pub fn trace_path(dir: &Path, record: &Path, seat: Seat) -> PathBuf {
    let stem = record
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    dir.join(format!("{stem}.seat{}.trace", seat.index()))
}

impl Tracer {
    /// Creates the four files (and `dir`) and starts the thread that writes them; times count
    /// from `start`.
    pub(super) fn start(dir: &Path, record: &Path, start: Instant) -> io::Result<Tracer> {
        std::fs::create_dir_all(dir)?;
        let mut files = Vec::with_capacity(4);
        for seat in Seat::ALL {
            files.push(BufWriter::new(crate::record::create_private(&trace_path(
                dir, record, seat,
            ))?));
        }
        let (tx, rx) = channel::<Vec<Entry>>();
        let writer = std::thread::Builder::new()
            .name("tarneeb-trace".into())
            .spawn(move || {
                for entry in rx.into_iter().flatten() {
                    match entry {
                        Entry::ToBot(seat, at, bytes) => {
                            let t = at.saturating_duration_since(start).as_secs_f64();
                            let f = &mut files[seat.index()];
                            for line in bytes.split_inclusive(|&b| b == b'\n') {
                                write!(f, "{t:.6} seat{} to-bot ", seat.index())?;
                                f.write_all(line)?;
                                if !line.ends_with(b"\n") {
                                    f.write_all(b"\n")?;
                                }
                            }
                        }
                        Entry::FromBot(seat, at, line) => {
                            let t = at.saturating_duration_since(start).as_secs_f64();
                            let f = &mut files[seat.index()];
                            writeln!(f, "{t:.6} seat{} from-bot {line}", seat.index())?;
                        }
                    }
                }
                for f in &mut files {
                    f.flush()?;
                }
                Ok(())
            })?;
        Ok(Tracer {
            tx,
            batch: Vec::with_capacity(BATCH),
            writer,
        })
    }

    fn push(&mut self, entry: Entry) {
        self.batch.push(entry);
        if self.batch.len() >= BATCH {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            let _ = self.tx.send(full);
        }
    }

    /// Bytes just written to `seat`'s bot.
    pub(super) fn sent(&mut self, seat: Seat, bytes: &[u8]) {
        self.push(Entry::ToBot(seat, Instant::now(), bytes.to_vec()));
    }

    /// A line read from `seat`'s bot at `at`.
    pub(super) fn received(&mut self, seat: Seat, at: Instant, line: &str) {
        self.push(Entry::FromBot(seat, at, line.to_string()));
    }

    /// Waits until every line is in its file.
    pub(super) fn finish(mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.batch);
        let _ = self.tx.send(rest);
        drop(self.tx);
        self.writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the trace thread panicked")))
    }
}
