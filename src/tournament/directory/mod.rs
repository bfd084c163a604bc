//! A tournament directory, opened once: its `tournament.json` (read and parsed one time),
//! whether its games ran in a sandbox, its seal key, and its rows as a stream. The runner
//! (resuming), `tarneeb standings`, Swiss peers and shards all read a directory through this
//! type, so the directory's files are looked at once per start, not once per question.
//! Writing stays in [`crate::tournament::directory::results`] (claiming the directory, appending rows).

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::standings::row::GameRow;
use crate::standings::sprt::parse_sprt;
use crate::standings::verdict::SprtTracker;
use seal::{Key, KeyRead, SealState, Unsealed};

pub const TOURNAMENT_FILE: &str = "tournament.json";
pub const RESULTS_FILE: &str = "results.jsonl";

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

/// What [`TournamentDir::stream_rows`] read.
pub struct Streamed {
    pub rows: u64,
    /// The keyed hash of every whole line read, to seal them (see `seal`): there when the
    /// directory has a key and ran in a sandbox.
    pub seal: Option<SealState>,
}

/// A tournament directory whose `tournament.json` has been read.
pub struct TournamentDir {
    path: PathBuf,
    config: Value,
    sandboxed: bool,
    key: KeyRead,
}

impl TournamentDir {
    /// Reads `dir`'s `tournament.json` and seal key. The error names the directory and the
    /// file, and says when `dir` is not a tournament directory at all.
    pub fn open(dir: &Path) -> Result<TournamentDir, String> {
        let t = dir.join(TOURNAMENT_FILE);
        Self::find(dir)?.ok_or_else(|| {
            format!(
                "{} is not a tournament directory: {} does not exist",
                dir.display(),
                t.display()
            )
        })
    }

    /// [`TournamentDir::open`], or `None` when `dir` holds no `tournament.json` (a tournament
    /// not started yet).
    pub fn find(dir: &Path) -> Result<Option<TournamentDir>, String> {
        let t = dir.join(TOURNAMENT_FILE);
        let text = match std::fs::read_to_string(&t) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(format!(
                    "{} is not a tournament directory: {}: {e}",
                    dir.display(),
                    t.display()
                ))
            }
        };
        let config: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a tournament file: {e}", t.display()))?;
        Ok(Some(Self::with_config(dir, config)))
    }

    fn with_config(dir: &Path, config: Value) -> TournamentDir {
        // Only a sandboxed run's seal is trusted (see `seal`): bots without one could have
        // read the key.
        let sandboxed = config["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("bwrap"));
        TournamentDir {
            path: dir.to_path_buf(),
            config,
            sandboxed,
            key: seal::read_key(dir),
        }
    }

    /// The directory of the tournament `config` describes: `existing` (what [`find`] gave for
    /// `dir`) when it holds the same command, else a new one with `tournament.json` written.
    /// Also says whether it was resumed. The error names every field that changed.
    ///
    /// [`find`]: TournamentDir::find
    ///
    /// A new directory gets `first` (the files `tournament.json` will need, such as its deal
    /// key) before `tournament.json`, so that a power loss never leaves it without them.
    pub fn claim(
        dir: &Path,
        existing: Option<TournamentDir>,
        config: &Value,
        first: impl FnOnce() -> Result<(), String>,
    ) -> Result<(TournamentDir, bool), String> {
        let Some(found) = existing else {
            let path = dir.join(TOURNAMENT_FILE);
            create_closed(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            first()?;
            let text = serde_json::to_string_pretty(config).expect("JSON value") + "\n";
            // Whole or not at all after a power loss: cut short, it would stop every resume.
            seal::write_whole(&path, text.as_bytes(), 0o666, true)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            return Ok((Self::with_config(dir, config.clone()), false));
        };
        Self::check_same_command(dir, &found, config)?;
        Ok((found, true))
    }

    /// Whether `found` (what [`find`] gave for `dir`) holds the command `config` describes;
    /// the error names every field that changed. Reads only.
    ///
    /// [`find`]: TournamentDir::find
    pub fn check_same_command(
        dir: &Path,
        found: &TournamentDir,
        config: &Value,
    ) -> Result<(), String> {
        let mut old = found.config.clone();
        // Directories from before deal keys played public deals: that is what they say.
        if let Some(o) = old.as_object_mut() {
            if !o.contains_key("deal_key_id") && !o.contains_key("public_deals") {
                o.insert("public_deals".into(), Value::Bool(true));
            }
        }
        let changed = differences(&old, config);
        if changed.is_empty() {
            Ok(())
        } else if old.get("shard").is_some_and(|s| !s.is_null()) && old.get("shard_unit").is_none()
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

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `tournament.json`, parsed.
    pub fn config(&self) -> &Value {
        &self.config
    }

    /// Whether `tournament.json` names a sandbox: only then is a seal here trusted.
    pub fn sandboxed(&self) -> bool {
        self.sandboxed
    }

    /// The seal key, made when missing (mode 0600).
    pub fn ensure_key(&mut self) -> Result<Key, String> {
        if let Ok(Some(k)) = &self.key {
            return Ok(k.clone());
        }
        let key = seal::ensure_key(&self.path)?;
        self.key = Ok(Some(key.clone()));
        Ok(key)
    }

    /// How many games the whole run has, from its config: None for a shard, a Swiss round
    /// over many machines, or a config this version cannot read (a spectator's page then
    /// shows games done without a total).
    pub fn planned_games(&self) -> Option<u64> {
        let c = &self.config;
        if !c["shard"].is_null() || !c["round"].is_null() {
            return None;
        }
        let plan = crate::tournament::schedule::Plan {
            entrants: c["entrants"].as_array()?.len(),
            format: crate::tournament::schedule::Format::parse(c["format"].as_str()?).ok()?,
            partners: crate::tournament::schedule::Partners::parse(c["partners"].as_str()?).ok()?,
            games: c["games"].as_u64()?,
            duplicate: c["duplicate"].as_bool()?,
            seed: c["seed"].as_u64()?,
            rounds: c["rounds"].as_u64().unwrap_or(0),
        };
        crate::tournament::schedule::Schedule::new(plan)
            .ok()
            .map(|s| s.total_games())
    }

    /// The SPRT of the tournament, before any row (`None` without `--sprt`): fed the rows in
    /// file order, it reaches the verdict the run printed.
    pub fn sprt_tracker(&self) -> Result<Option<SprtTracker>, String> {
        let path = self.path.join(TOURNAMENT_FILE);
        let Some(spec) = self.config.get("sprt").and_then(|v| v.as_str()) else {
            return Ok(None);
        };
        let cfg = parse_sprt(spec).map_err(|e| format!("{}: {e}", path.display()))?;
        let entrant = self
            .config
            .pointer("/entrants/0/name")
            .and_then(|v| v.as_str())
            .ok_or_else(|| format!("{}: no entrants", path.display()))?;
        Ok(Some(SprtTracker::new(cfg, entrant)))
    }

    /// Every row of `results.jsonl` (none when it does not exist), checked against their
    /// records where no seal vouches for them (see `integrity`). A last line without its
    /// newline (the tournament was killed while writing it) is not a row: a note names it,
    /// and a resumed run plays its game again.
    pub fn read_rows(&self) -> Result<Vec<GameRow>, String> {
        let mut rows = Vec::new();
        self.stream_rows(RowCheck::Sealed, false, |r| {
            rows.push(r);
            Ok(())
        })?;
        Ok(rows)
    }

    /// The rows one at a time, in file order, never holding the file: each row is checked as
    /// `check` says and handed to `each`. Also hashes the rows for a new seal (rows taken as
    /// written are hashed only when `hash_trusted`: a cost `standings --trust-rows` does not
    /// pay).
    ///
    /// Reading, parsing and checking run on a thread of their own, a few hundred rows ahead of
    /// `each`: on two cores that about halves `standings` on a million rows.
    pub fn stream_rows(
        &self,
        check: RowCheck,
        hash_trusted: bool,
        mut each: impl FnMut(GameRow) -> Result<(), String>,
    ) -> Result<Streamed, String> {
        let dir = self.path.as_path();
        let path = dir.join(RESULTS_FILE);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Streamed {
                    rows: 0,
                    seal: seal::key_state(&self.key, self.sandboxed),
                })
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let opening = match check {
            RowCheck::Sealed => seal::open(dir, &self.key, self.sandboxed, &mut file),
            RowCheck::Records => seal::unverified(&self.key, self.sandboxed, true),
            RowCheck::Trusted => seal::unverified(&self.key, self.sandboxed, hash_trusted),
        };
        let why = opening.why.clone();
        if matches!(why, Unsealed::Mismatch | Unsealed::Unreadable(_)) && check == RowCheck::Sealed
        {
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
    let mut checker = crate::tournament::directory::integrity::RowChecker::new(dir, path);
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

/// Held while a run writes a tournament directory: two runs of one command at once (two
/// terminals, a restart while the first still runs) would both play the missing games and
/// interleave their rows, tearing lines and doubling games. An exclusive `flock` on the
/// directory itself (no file added to it), released when the run's process ends, however
/// it ends.
#[derive(Debug)]
pub struct RunLock {
    _dir: Option<File>,
    /// Why the directory could not be locked (a file system without locks): said to the
    /// user, who then keeps to one run by hand.
    pub unlocked: Option<String>,
}

/// Creates `dir` (open to its owner only, with its `games/`) when it is missing and locks it
/// for this run; refused while another run holds it.
pub fn lock_for_run(dir: &Path) -> Result<RunLock, String> {
    use std::os::fd::AsRawFd;
    if !dir.exists() {
        create_closed(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let f = File::open(dir).map_err(|e| format!("cannot open {}: {e}", dir.display()))?;
    // SAFETY: flock on a descriptor we own; std opens it close-on-exec, so no bot inherits it.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(RunLock {
            _dir: Some(f),
            unlocked: None,
        });
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::WouldBlock {
        return Err(format!(
            "{} is in use by another tournament run on this machine (the same command started twice?): one run at a time writes a directory; wait for that run to end or stop it, then run the same command again to resume",
            dir.display()
        ));
    }
    Ok(RunLock {
        _dir: None,
        unlocked: Some(format!(
            "cannot lock {} ({e}): its file system has no locks, so make sure no other run uses it while this one runs",
            dir.display()
        )),
    })
}

/// Creates `dir` (and missing parents) and its `games/` open to their owner only: a
/// tournament directory holds every deal, and a bot of a later run under the same
/// `--deal-key` that runs as a user of its own (or any other user of the machine) must not
/// read them (issue 38). A directory that was already there (`--out .`) keeps its mode; its
/// `games/` is closed all the same.
fn create_closed(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let existed = dir.is_dir();
    let closed = |d: &Path| -> std::io::Result<()> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(d)?;
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700))
    };
    if !existed {
        closed(dir)?;
    }
    closed(&dir.join("games"))
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

pub mod config;
pub mod integrity;
pub mod merge;
pub mod results;
pub mod seal;
pub mod standings;
