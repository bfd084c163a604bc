//! The files of a tournament directory: `tournament.json` (the normalized command, to resume
//! or refuse), `results.jsonl` (one [`GameRow`] per finished game, appended and flushed when
//! the game ends, never rewritten) and `games/NNNNNN.jsonl` (the records).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::seal::{self, SealState, Sealer, Unsealed};
use crate::protocol::FaultKind;
use crate::record::RecordLine;
use crate::standings::row::GameRow;

pub const TOURNAMENT_FILE: &str = "tournament.json";

/// The keys of `tournament.json` that hold the sandbox's limits and extra paths and variables,
/// by the names of the flags that give them (so `--config` reads them back). Shards of one
/// tournament may differ in them.
pub const SANDBOX_SETTINGS: &[&str] = &[
    "sandbox_ro",
    "sandbox_env",
    "memory_limit",
    "process_limit",
    "file_size_limit",
    "open_files_limit",
    "disk_limit",
    "cpu_limit",
];
pub const RESULTS_FILE: &str = "results.jsonl";
pub const STANDINGS_FILE: &str = "standings.txt";

/// The record of game `game`, relative to the tournament directory.
pub fn record_path(game: u64, compress: bool) -> String {
    let zst = if compress { ".zst" } else { "" };
    format!("games/{game:06}.jsonl{zst}")
}

/// Writes `tournament.json` in a new directory, or checks that an existing one holds the
/// same command. The error names every field that changed.
pub fn claim_dir(dir: &Path, config: &Value) -> Result<bool, String> {
    let path = dir.join(TOURNAMENT_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let mut old: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not a tournament file: {e}", path.display()))?;
            // Directories from before deal keys played public deals: that is what they say.
            if let Some(o) = old.as_object_mut() {
                if !o.contains_key("deal_key_id") && !o.contains_key("public_deals") {
                    o.insert("public_deals".into(), Value::Bool(true));
                }
            }
            let changed = differences(&old, config);
            if changed.is_empty() {
                Ok(true)
            } else if old.get("shard").is_some_and(|s| !s.is_null())
                && old.get("shard_unit").is_none()
            {
                Err(format!(
                    "{} is a shard made by an older tarneeb, whose shards split the two games of a duplicate pair (a bot could read its own deal in another shard's directory); shards now own whole deal sets, so this one cannot be resumed: finish it with the tarneeb that started it, or start the sharded tournament again in new --out directories",
                    dir.display()
                ))
            } else {
                Err(format!(
                    "{} holds a tournament started with another command ({}); run the same command to resume it, or use another --out directory",
                    dir.display(),
                    changed.join("; ")
                ))
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir.join("games"))
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let text = serde_json::to_string_pretty(config).expect("JSON value") + "\n";
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(false)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// `field: was X, now Y` for every top-level field that differs.
pub fn differences(old: &Value, new: &Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let (o, n) = (
        old.as_object().unwrap_or(&empty),
        new.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&Value>| match v {
        None => "(none)".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 120 {
                format!("{}...", s.chars().take(117).collect::<String>())
            } else {
                s
            }
        }
    };
    keys.into_iter()
        .filter(|k| o.get(*k) != n.get(*k))
        .map(|k| format!("{k}: was {}, now {}", show(o.get(k)), show(n.get(k))))
        .collect()
}

/// Reads the rows of `results.jsonl` (none when it does not exist) and checks them against
/// their records (see `integrity`). A last line without its newline (the tournament was killed
/// while writing it) is not a row: a note names it, and a resumed run plays its game again.
pub fn read_rows(dir: &Path) -> Result<Vec<GameRow>, String> {
    let mut rows = Vec::new();
    stream_rows(dir, |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

/// Whether rows are checked against their records as they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowCheck {
    /// Rows under a valid seal (see `seal`) as written, every other row as [`RowCheck::Records`]
    /// (with a note saying how many and why). The default.
    Sealed,
    /// Each row's seed and result against its record (see `integrity`): a forged or edited row
    /// is refused. Opens every record, which is most of the time on big directories.
    Records,
    /// Rows taken as written (`standings --trust-rows`, for directories one produced oneself).
    Trusted,
}

/// [`read_rows`] one row at a time, in file order, never holding the file: each row is checked
/// (see `integrity`) and handed to `each`; returns how many rows there were.
pub fn stream_rows(
    dir: &Path,
    each: impl FnMut(GameRow) -> Result<(), String>,
) -> Result<u64, String> {
    stream_rows_with(dir, RowCheck::Sealed, each)
}

/// [`stream_rows`] with the check chosen.
///
/// Reading, parsing and checking run on a thread of their own, a few hundred rows ahead of
/// `each`: on two cores that about halves `standings` on a million rows.
pub fn stream_rows_with(
    dir: &Path,
    check: RowCheck,
    each: impl FnMut(GameRow) -> Result<(), String>,
) -> Result<u64, String> {
    Ok(stream_rows_sealed(dir, check, false, each)?.rows)
}

/// What [`stream_rows_sealed`] read.
pub struct Streamed {
    pub rows: u64,
    /// The keyed hash of every whole line read, to seal them (see `seal`): there when the
    /// directory has a key and ran in a sandbox.
    pub seal: Option<SealState>,
}

/// [`stream_rows_with`], also hashing the rows for a new seal (rows taken as written are
/// hashed only when `hash_trusted`: a cost `standings --trust-rows` does not pay).
pub fn stream_rows_sealed(
    dir: &Path,
    check: RowCheck,
    hash_trusted: bool,
    mut each: impl FnMut(GameRow) -> Result<(), String>,
) -> Result<Streamed, String> {
    let path = dir.join(RESULTS_FILE);
    let mut file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Streamed {
                rows: 0,
                seal: seal::key_state(dir, sandboxed(dir)),
            })
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let opening = match check {
        RowCheck::Sealed => seal::open(dir, sandboxed(dir), &mut file),
        RowCheck::Records => seal::unverified(dir, sandboxed(dir), true),
        RowCheck::Trusted => seal::unverified(dir, sandboxed(dir), hash_trusted),
    };
    let why = opening.why.clone();
    if matches!(why, Unsealed::Mismatch | Unsealed::Unreadable(_)) && check == RowCheck::Sealed {
        // Said before the rows are read: a forged row found below then comes with its cause.
        eprintln!(
            "note: {}: {why}; its rows are checked against their records (the slow way)",
            path.display()
        );
    }
    let (n, end) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<GameRow>, String>>(4);
        let (dir, path) = (dir, path.as_path());
        let reader = scope.spawn(move || {
            let sent = parse_rows(file, dir, path, check, opening, |batch| {
                tx.send(Ok(batch)).is_ok()
            });
            match sent {
                Ok(end) => Some(end),
                Err(e) => {
                    let _ = tx.send(Err(e));
                    None
                }
            }
        });
        let mut n = 0u64;
        // Returning early drops the receiver, which stops the reading thread at its next batch.
        for batch in rx {
            for row in batch? {
                n += 1;
                each(row)?;
            }
        }
        Ok::<_, String>((n, reader.join().ok().flatten()))
    })?;
    let Some(end) = end else {
        return Ok(Streamed {
            rows: n,
            seal: None,
        });
    };
    if check == RowCheck::Sealed && end.checked > 0 {
        eprintln!(
            "note: {}: {} of {n} rows checked against their records (the slow way): {why}",
            path.display(),
            end.checked,
        );
    }
    Ok(Streamed {
        rows: n,
        seal: end.state,
    })
}

/// Whether `dir`'s `tournament.json` names a sandbox: only then is a seal there trusted (see
/// `seal`), since bots without one could have read the key.
pub fn sandboxed(dir: &Path) -> bool {
    read_config(dir).is_ok_and(|v| {
        v["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("bwrap"))
    })
}

/// `dir`'s `tournament.json`, parsed: the one reader of it after the run wrote it (standings,
/// resume, Swiss peers, the SPRT verdict). The error names the directory and the file.
pub fn read_config(dir: &Path) -> Result<Value, String> {
    let t = dir.join(TOURNAMENT_FILE);
    let text = std::fs::read_to_string(&t).map_err(|e| {
        format!(
            "{} is not a tournament directory: {}: {e}",
            dir.display(),
            t.display()
        )
    })?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", t.display()))
}

/// How [`parse_rows`] ended: rows checked against records, and the hash over every whole line.
struct ParseEnd {
    checked: u64,
    state: Option<SealState>,
}

/// The reading side of [`stream_rows_with`]: rows in batches to `send` (false when nobody
/// listens any more).
fn parse_rows(
    file: File,
    dir: &Path,
    path: &Path,
    check: RowCheck,
    opening: seal::Opening,
    mut send: impl FnMut(Vec<GameRow>) -> bool,
) -> Result<ParseEnd, String> {
    const BATCH: usize = 256;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut checker = super::integrity::RowChecker::new(dir, path);
    let (mut line, mut buf) = (0usize, String::new());
    let mut batch = Vec::with_capacity(BATCH);
    let (trusted, mut state) = (opening.trusted_bytes, opening.state);
    let (mut offset, mut rows, mut checked) = (0u64, 0u64, 0u64);
    loop {
        buf.clear();
        let read = reader
            .read_line(&mut buf)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        line += 1;
        let start = offset;
        offset += read as u64;
        if !buf.ends_with('\n') {
            eprintln!(
                "tarneeb: {}:{line}: an incomplete last line (a run stopped while writing it) is not counted; resuming plays its game again",
                path.display(),
            );
            break;
        }
        // The bytes the seal's hash has not taken yet (a seal ends at a line's end).
        if let Some(st) = state.as_mut().filter(|st| offset > st.bytes) {
            let from = st.bytes.saturating_sub(start) as usize;
            st.hasher.update(&buf.as_bytes()[from..]);
            st.bytes = offset;
        }
        if buf.trim().is_empty() {
            continue;
        }
        rows += 1;
        let row: GameRow = serde_json::from_str(&buf).map_err(|e| {
            format!(
                "{}:{line}: not a result row (a torn or edited line): {e}; remove that line and run the same tournament command again to replay its game",
                path.display(),
            )
        })?;
        match check {
            RowCheck::Sealed if offset <= trusted => {
                checker.unique(line, &row, |game| first_line_of(path, game))?
            }
            RowCheck::Sealed | RowCheck::Records => {
                checked += 1;
                checker.check(line, &row, |game| first_line_of(path, game))?
            }
            RowCheck::Trusted => {}
        }
        batch.push(row);
        if batch.len() == BATCH && !send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH))) {
            return Ok(ParseEnd {
                checked,
                state: None,
            });
        }
    }
    if !batch.is_empty() {
        send(batch);
    }
    if let Some(st) = state.as_mut() {
        st.rows = rows;
    }
    Ok(ParseEnd { checked, state })
}

/// The line of `results.jsonl` holding the first row of `game` (for an error message).
fn first_line_of(path: &Path, game: u64) -> Option<usize> {
    let reader = BufReader::new(File::open(path).ok()?);
    reader.lines().enumerate().find_map(|(i, l)| {
        let r: GameRow = serde_json::from_str(&l.ok()?).ok()?;
        (r.game == game).then_some(i + 1)
    })
}

/// Appends rows to `results.jsonl`, one `write` per row, and keeps its seal (see `seal`).
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
            s.add(line.as_bytes());
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

/// [`merged_stream`], also giving each directory's hash state to seal its rows with (see
/// [`stream_rows_sealed`]).
pub fn merged_stream_sealed(
    dirs: &[PathBuf],
    check: RowCheck,
    hash_trusted: bool,
    mut each: impl FnMut(GameRow),
) -> Result<(Vec<String>, Vec<Option<SealState>>), String> {
    let mut configs = Vec::new();
    let mut sandboxes: Vec<String> = Vec::new();
    for d in dirs {
        let (v, label) = shard_neutral(read_config(d)?);
        if !sandboxes.contains(&label) {
            sandboxes.push(label);
        }
        configs.push(v);
    }
    let same = configs.windows(2).all(|w| w[0] == w[1]);
    let mut counted = super::integrity::GameSet::default();
    let mut seals = Vec::new();
    for d in dirs {
        let read = stream_rows_sealed(d, check, hash_trusted, |r| {
            if !same || counted.insert(r.game) {
                each(r);
            }
            Ok(())
        })?;
        seals.push(read.seal);
    }
    Ok((sandboxes, seals))
}

/// A `tournament.json` without what shards of one tournament may differ in (`shard`, the
/// sandbox and its limits), and the sandbox's label: two shards of one tournament give the
/// same value.
pub fn shard_neutral(mut v: Value) -> (Value, String) {
    let mut label = "none (made before sandboxes existed)".to_string();
    if let Some(o) = v.as_object_mut() {
        o.remove("shard");
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

/// The SPRT of the tournament in `dir`, before any row (`None` without `--sprt`): fed the
/// rows in file order, it reaches the verdict the run printed.
pub fn sprt_tracker(
    dir: &std::path::Path,
) -> Result<Option<crate::standings::verdict::SprtTracker>, String> {
    let config = read_config(dir)?;
    let path = dir.join(TOURNAMENT_FILE);
    let Some(spec) = config.get("sprt").and_then(|v| v.as_str()) else {
        return Ok(None);
    };
    let cfg =
        crate::standings::sprt::parse_sprt(spec).map_err(|e| format!("{}: {e}", path.display()))?;
    let entrant = config
        .pointer("/entrants/0/name")
        .and_then(|v| v.as_str())
        .ok_or_else(|| format!("{}: no entrants", path.display()))?;
    Ok(Some(crate::standings::verdict::SprtTracker::new(
        cfg, entrant,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_name_the_changed_fields() {
        let a = json!({"seed": 1, "games": 2, "format": "round-robin"});
        let b = json!({"seed": 2, "games": 2, "format": "gauntlet"});
        let d = differences(&a, &b);
        assert_eq!(
            d,
            vec![
                "format: was \"round-robin\", now \"gauntlet\"".to_string(),
                "seed: was 1, now 2".to_string()
            ]
        );
        assert!(differences(&a, &a).is_empty());
    }
}
