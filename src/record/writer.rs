//! Writes a record line by line. Lines are buffered and flushed at least at the end of every
//! hand (and on faults and at the end), so a crash of the referee leaves a readable prefix.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::format::RecordLine;
use crate::rules::{DecisionKind, Move, Seat};

pub struct RecordWriter {
    out: BufWriter<File>,
    path: PathBuf,
    /// A line is serialized here first: many small writes into `BufWriter` cost more than
    /// one copy.
    line: Vec<u8>,
}

impl RecordWriter {
    /// Creates (or truncates) the record at `path`, creating its directory.
    pub fn create(path: &Path) -> std::io::Result<RecordWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = File::create(path)?;
        Ok(RecordWriter {
            out: BufWriter::new(file),
            path: path.to_path_buf(),
            line: Vec::new(),
        })
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
    /// [`RecordWriter::write`], without building the line and its move text first (this is
    /// the record line of every move).
    pub fn write_move(
        &mut self,
        hand_number: u32,
        seat: Seat,
        decision: DecisionKind,
        mv: Move,
        ms: u64,
        substituted: bool,
    ) -> std::io::Result<()> {
        self.line.clear();
        crate::protocol::record_move_line(
            &mut self.line,
            hand_number,
            seat,
            decision,
            mv,
            ms,
            substituted,
        );
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    /// Hands the buffered lines to the OS: enough for a referee crash to leave them readable
    /// (no fsync: a record is not worth a disk sync per hand).
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
