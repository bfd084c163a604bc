//! The files of a tournament directory: `tournament.json` (the normalized command, to resume
//! or refuse), `results.jsonl` (one [`GameRow`] per finished game, appended and flushed when
//! the game ends, never rewritten) and `games/NNNNNN.jsonl` (the records).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::protocol::FaultKind;
use crate::record::RecordLine;
use crate::standings::row::GameRow;
use crate::tournament::directory::merge::{self, fingerprint, Conflicts, MergeReport, MergedDir};
use crate::tournament::directory::seal::{SealState, Sealer};
use crate::tournament::directory::{RowCheck, TournamentDir, RESULTS_FILE};

/// The keys of `tournament.json` that hold the sandbox's limits and extra paths and variables,
/// by the names of the flags that give them (so `--config` reads them back). Shards of one
/// tournament may differ in them.
pub const SANDBOX_SETTINGS: &[&str] = &[
    "sandbox_user",
    "sandbox_ro",
    "sandbox_env",
    "memory_limit",
    "process_limit",
    "file_size_limit",
    "open_files_limit",
    "disk_limit",
    "cpu_limit",
];
pub const STANDINGS_FILE: &str = "standings.txt";

/// The record of game `game`, relative to the tournament directory.
pub fn record_path(game: u64, compress: bool) -> String {
    let zst = if compress { ".zst" } else { "" };
    format!("games/{game:06}.jsonl{zst}")
}

/// Appends rows to `results.jsonl`, one `write` per row, and keeps its seal (see `seal`), or,
/// without one, its checkpoints' syncs.
pub struct ResultsFile {
    file: File,
    path: PathBuf,
    seal: Option<Sealer>,
}

impl ResultsFile {
    /// Opens for appending; a torn last line (no newline) is cut off first.
    pub fn open(dir: &Path) -> Result<ResultsFile, String> {
        let path = dir.join(RESULTS_FILE);
        let io = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        // Only the end is read (the file may hold millions of rows): back to its last newline.
        let len = file.metadata().map_err(io)?.len();
        let (mut end, mut keep) = (len, 0);
        let mut chunk = vec![0u8; 1 << 16];
        while end > 0 {
            let start = end.saturating_sub(chunk.len() as u64);
            let part = &mut chunk[..(end - start) as usize];
            file.seek(SeekFrom::Start(start)).map_err(io)?;
            file.read_exact(part).map_err(io)?;
            if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
                keep = start + i as u64 + 1;
                break;
            }
            end = start;
        }
        if keep < len {
            file.set_len(keep).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(ResultsFile {
            file,
            path,
            seal: None,
        })
    }

    /// Seals what is appended from now on, going on from `state`, the hash of the rows
    /// already there (read, and checked, just before); not when the file changed since.
    pub fn seal_from(&mut self, state: SealState) {
        let len = self.file.stream_position().unwrap_or(u64::MAX);
        let dir = self.path.parent().unwrap_or(Path::new("."));
        self.seal = Sealer::resume(dir, state, len);
        if self.seal.is_none() {
            eprintln!(
                "note: {}: changed while the tournament started; this run does not seal it (its rows stay checked against their records)",
                self.path.display()
            );
            self.sync_unsealed();
        }
    }

    /// Syncs what is appended from now on at the checkpoints a seal would have, without a
    /// seal (a run without a sandbox): see [`Sealer::unsealed`].
    pub fn sync_unsealed(&mut self) {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        self.seal = Some(Sealer::unsealed(dir));
    }

    /// A checkpoint for rows a second old or more that no later row has triggered (the
    /// runner calls this while it waits).
    pub fn tick(&mut self) {
        if let Some(s) = self.seal.as_mut() {
            s.tick();
        }
    }

    pub fn append(&mut self, row: &GameRow) -> Result<(), String> {
        let mut line = serde_json::to_string(row).expect("a row is JSON");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        if let Some(s) = self.seal.as_mut() {
            let dir = self.path.parent().unwrap_or(Path::new("."));
            s.add(line.as_bytes(), Some(dir.join(&row.record)));
        }
        Ok(())
    }
}

/// What the runner reads back from a finished game's record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordSummary {
    /// Moves of hand `from_hand` on, and the milliseconds spent waiting for their replies
    /// (substituted moves are the referee's own and wait for nobody).
    pub moves: u64,
    pub ms: u64,
    /// Timeout faults per seat, whatever the referee did about them.
    pub timeouts: [u32; 4],
    /// Seats that failed the handshake or were absent (no connection in time).
    pub handshake: [bool; 4],
}

/// Reads a record's move and fault lines; `None` when it cannot be read.
pub fn record_summary(path: &Path, from_hand: u32) -> Option<RecordSummary> {
    let text = crate::record::compressed::read_text(path).ok()?;
    let mut out = RecordSummary::default();
    for line in text.lines() {
        // Cheap pre-filter: only move and fault lines are parsed.
        let is_move = line.contains("\"type\":\"move\"");
        if !is_move && !line.contains("\"type\":\"fault\"") {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(RecordLine::Move {
                hand_number,
                ms: m,
                substituted,
                ..
            }) if hand_number >= from_hand => {
                out.moves += 1;
                if !substituted {
                    out.ms += m;
                }
            }
            Ok(RecordLine::Fault {
                seat,
                kind: FaultKind::Timeout,
                ..
            }) => out.timeouts[seat.index()] += 1,
            Ok(RecordLine::Fault {
                seat,
                kind: FaultKind::Handshake | FaultKind::Absent,
                ..
            }) => out.handshake[seat.index()] = true,
            _ => {}
        }
    }
    Some(out)
}

/// The rows of several tournament directories, and the sandboxes their games ran in. When all
/// are parts of one tournament (the same `tournament.json` but for `--shard` and the sandbox),
/// a game present in several parts counts once.
pub fn merged_rows(dirs: &[PathBuf]) -> Result<(Vec<GameRow>, Vec<String>), String> {
    let mut rows = Vec::new();
    let sandboxes = merged_stream(dirs, RowCheck::Records, |r| rows.push(r))?;
    Ok((rows, sandboxes))
}

/// [`merged_rows`] streamed: every row counted (a game of one tournament once, the first
/// directory's row) is handed to `each`, directory by directory in file order; returns the
/// sandboxes.
pub fn merged_stream(
    dirs: &[PathBuf],
    check: RowCheck,
    each: impl FnMut(GameRow),
) -> Result<Vec<String>, String> {
    Ok(merged_stream_sealed(dirs, check, false, each)?.0)
}

/// The sandboxes, each directory's seal state and what was merged.
pub type MergedStream = (Vec<String>, Vec<Option<SealState>>, MergeReport);

/// [`merged_stream`], also giving each directory's hash state to seal its rows with (see
/// [`TournamentDir::stream_rows`]) and what was merged (see [`crate::tournament::directory::merge`]). Two directories
/// of one command that hold one game with different results are refused.
pub fn merged_stream_sealed(
    dirs: &[PathBuf],
    check: RowCheck,
    hash_trusted: bool,
    mut each: impl FnMut(GameRow),
) -> Result<MergedStream, String> {
    let opened = dirs
        .iter()
        .map(|d| TournamentDir::open(d))
        .collect::<Result<Vec<_>, _>>()?;
    let mut configs = Vec::new();
    let mut sandboxes: Vec<String> = Vec::new();
    for d in &opened {
        let (v, label) = shard_neutral(d.config().clone());
        if !sandboxes.contains(&label) {
            sandboxes.push(label);
        }
        configs.push((v, d.config().clone()));
    }
    let same = configs.windows(2).all(|w| w[0].0 == w[1].0);
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let mut conflicts = Conflicts::default();
    let mut seals = Vec::new();
    let mut merged = Vec::new();
    for (i, d) in opened.iter().enumerate() {
        let mut counted = 0;
        let read = d.stream_rows(check, hash_trusted, |r| {
            if !same || conflicts.check(i, &names, &r)? {
                counted += 1;
                each(r);
            }
            Ok(())
        })?;
        merged.push(MergedDir {
            dir: names[i].clone(),
            command: fingerprint(&configs[i].0),
            shard: configs[i].1["shard"].as_str().map(String::from),
            rows: read.rows,
            counted,
        });
        seals.push(read.seal);
    }
    Ok((sandboxes, seals, merge::report(merged, &configs)))
}

/// A `tournament.json` without what shards of one tournament may differ in (`shard`, the
/// sandbox and its limits), and the sandbox's label: two shards of one tournament give the
/// same value, and so do a whole run and any of its shards (`shard_unit` only says how a
/// sharded run split the schedule; the games are numbered as in the whole run), so that a
/// game both hold counts once (issue 40 point 4).
pub fn shard_neutral(mut v: Value) -> (Value, String) {
    let mut label = "none (made before sandboxes existed)".to_string();
    if let Some(o) = v.as_object_mut() {
        o.remove("shard");
        o.remove("shard_unit");
        // Shards of one tournament may run under other limits on other machines.
        o.remove("limits");
        for k in SANDBOX_SETTINGS {
            o.remove(*k);
        }
        if let Some(Value::String(s)) = o.remove("sandbox") {
            label = s;
        }
    }
    (v, label)
}
