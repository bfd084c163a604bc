//! Writes a record line by line. Lines are buffered and flushed at least at the end of every
//! hand (and on faults and at the end), so a crash of the referee leaves a readable prefix.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::format::{MoveLine, RecordLine};

pub struct RecordWriter {
    /// The file, through zstd for a `.zst` path (see [`super::compressed`]).
    out: Box<dyn Write + Send>,
    path: PathBuf,
    /// A line is serialized here first: many small writes into `BufWriter` cost more than
    /// one copy.
    line: Vec<u8>,
}

/// Creates (or truncates) `path`, readable by its owner only when it is new: a record holds
/// every hand, and a bot of a later run that runs as a user of its own (or any other user of
/// the machine) must not find its own deal in it (issue 38: the same `--deal-key` deals the
/// same hands again).
pub(crate) fn create_private(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

impl RecordWriter {
    /// Creates (or truncates) the record at `path`, creating its directory; a path ending in
    /// `.zst` gets a zstd-compressed record.
    pub fn create(path: &Path) -> std::io::Result<RecordWriter> {
        // The directory is made only when it is missing: a tournament writes every record
        // into one directory, and `create_dir_all` first would cost two system calls a game.
        let file = match create_private(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    Some(dir) => std::fs::create_dir_all(dir)?,
                    None => return Err(e),
                }
                create_private(path)?
            }
            other => other?,
        };
        Ok(RecordWriter {
            out: super::compressed::sink(file, super::compressed::wants_compression(path))?,
            path: path.to_path_buf(),
            line: Vec::new(),
        })
    }

    /// A writer into `out` rather than a file (the fuzzers' round trip writes to memory);
    /// `path` only names it.
    pub fn from_writer(out: Box<dyn Write + Send>, path: &Path) -> RecordWriter {
        RecordWriter {
            out,
            path: path.to_path_buf(),
            line: Vec::new(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn write(&mut self, line: &RecordLine) -> std::io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, line)?;
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    /// Writes a `move` line: the same bytes as [`RecordLine::Move`] through
    /// [`RecordWriter::write`], written by hand without building the line and its move text
    /// first (this is the record line of every move).
    pub fn write_move(&mut self, m: &MoveLine) -> std::io::Result<()> {
        let line = &mut self.line;
        line.clear();
        crate::protocol::write_move_event(line, m.hand_number, m.seat, m.decision, m.mv);
        line.pop(); // its closing brace: the record adds two fields
        line.extend_from_slice(b",\"ms\":");
        line.extend_from_slice(itoa::Buffer::new().format(m.ms).as_bytes());
        if m.substituted {
            line.extend_from_slice(b",\"substituted\":true");
        }
        line.extend_from_slice(b"}\n");
        self.out.write_all(line)
    }

    /// Hands the buffered lines to the OS: enough for a referee crash to leave them readable
    /// (no fsync: a record is not worth a disk sync per hand).
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DecisionKind, Move, Seat};

    #[test]
    fn create_makes_a_missing_directory_and_truncates_an_existing_record() {
        let dir = std::env::temp_dir().join(format!("tarneeb-writer-dir-{}", std::process::id()));
        let path = dir.join("games/deeper/000001.jsonl");
        let mut w = RecordWriter::create(&path).unwrap();
        w.write(&RecordLine::Aborted {
            reason: "first".into(),
        })
        .unwrap();
        w.flush().unwrap();
        drop(w);
        // Again in the directory now there: the old record is replaced, not appended to.
        let mut w = RecordWriter::create(&path).unwrap();
        w.flush().unwrap();
        drop(w);
        let written = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(written, "");
    }

    #[test]
    fn move_lines_are_what_serde_writes() {
        let dir = std::env::temp_dir().join(format!("tarneeb-writer-{}", std::process::id()));
        let path = dir.join("moves.jsonl");
        let mut w = RecordWriter::create(&path).unwrap();
        let moves = [
            (DecisionKind::Play, "AS"),
            (DecisionKind::Play, "TH"),
            (DecisionKind::Play, "2C"),
            (DecisionKind::Call, "pass"),
            (DecisionKind::Call, "13"),
            (DecisionKind::Call, "7NT"),
            (DecisionKind::Call, "double"),
            (DecisionKind::Trump, "H"),
            (DecisionKind::ThrowIn, "keep"),
            (DecisionKind::ThrowIn, "throw-in"),
        ]
        .map(|(kind, text)| (kind, Move::parse(kind, text).unwrap()));
        let mut expect = String::new();
        for (decision, mv) in moves {
            for (hand_number, ms, substituted) in [
                (1, 0, false),
                (9, 9, true),
                (10, 10, false),
                (200, u64::MAX, true),
            ] {
                for seat in Seat::ALL {
                    let m = MoveLine {
                        hand_number,
                        seat,
                        decision,
                        mv,
                        ms,
                        substituted,
                    };
                    w.write_move(&m).unwrap();
                    expect += &serde_json::to_string(&RecordLine::Move {
                        hand_number,
                        seat,
                        decision,
                        mv: mv.to_string(),
                        ms,
                        substituted,
                    })
                    .unwrap();
                    expect.push('\n');
                }
            }
        }
        w.flush().unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(written, expect);
    }
}
