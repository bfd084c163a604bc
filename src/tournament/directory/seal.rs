//! Sealed results: the runner keeps a keyed MAC (BLAKE3 keyed mode) over the bytes of
//! `results.jsonl` as it appends rows, and checkpoints it in `results.seal`; readers trust the
//! byte prefix a valid seal covers without opening the records of its rows (see `integrity`
//! for the check the other rows get).
//!
//! Why it can be trusted: the key (`.seal-key`, 32 random bytes, mode 0600) and the seal live
//! in the tournament directory, which the sandbox masks from every bot, so no bot can compute
//! a MAC for a row it forged. Under `--sandbox none` a bot could read the key: the runner then
//! writes no key and no seal, and readers ignore a seal in a directory whose `tournament.json`
//! names no sandbox. Whoever owns the directory can re-seal it (`standings --reseal`): the
//! seal protects against bots and against torn or edited files, not against the owner.
//!
//! Why a checkpoint and not a seal per row: a rename per game would be a file-system
//! round trip per game; rows after the last checkpoint (a run killed hard) are simply checked
//! against their records, as unsealed rows are.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub const KEY_FILE: &str = ".seal-key";
/// The file a seal covers: `directory::RESULTS_FILE`, named here too because the directory
/// module reads seals (a test keeps the two equal).
const COVERED_FILE: &str = "results.jsonl";
pub const SEAL_FILE: &str = "results.seal";

/// A checkpoint is written after this many unsealed rows ...
const EVERY_ROWS: u64 = 1000;
/// ... or at the first row this long after the last one, whichever comes first.
const EVERY: Duration = Duration::from_secs(1);

/// A tournament's secret key.
#[derive(Clone)]
pub struct Key([u8; 32]);

impl Key {
    /// A keyed hasher at the start of `results.jsonl`.
    pub fn hasher(&self) -> blake3::Hasher {
        blake3::Hasher::new_keyed(&self.0)
    }
}

/// The key of `dir`, made when missing (mode 0600).
pub fn ensure_key(dir: &Path) -> Result<Key, String> {
    if let Some(k) = read_key(dir)? {
        return Ok(k);
    }
    let mut bytes = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut bytes);
    let path = dir.join(KEY_FILE);
    // Whole or not at all after a power loss: a key cut short would stop every resume.
    write_whole(&path, hex(&bytes).as_bytes(), 0o600, false)
        .map_err(|e| format!("cannot write the seal key {}: {e}", path.display()))?;
    Ok(Key(bytes))
}

/// Writes `bytes` to `path` so that a power loss leaves the whole file or no file: a
/// temporary file beside it (`NAME.tmp`, made with `mode`) written and synced, then given
/// the name (renamed over it when `replace`, else linked, which fails if the name is taken),
/// then the directory synced, so the name survives too. Written in place, a new file's name
/// can reach the disk before its bytes: it would be found empty or cut short.
pub(crate) fn write_whole(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    replace: bool,
) -> std::io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    let mut f = options.open(&tmp)?;
    f.write_all(bytes)?;
    f.sync_data()?;
    drop(f);
    if replace {
        std::fs::rename(&tmp, path)?;
    } else {
        match std::fs::hard_link(&tmp, path) {
            Ok(()) => std::fs::remove_file(&tmp)?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&tmp)?;
                return Err(e);
            }
            // A file system without hard links: the caller found no file at `path`.
            Err(_) => std::fs::rename(&tmp, path)?,
        }
    }
    sync_dir(
        path.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    )
}

/// A directory's key as read: `Ok(None)` when it has none, `Err` when it cannot be read.
pub type KeyRead = Result<Option<Key>, String>;

/// The key of `dir`; `None` when there is none.
pub fn read_key(dir: &Path) -> KeyRead {
    let path = dir.join(KEY_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read the seal key {}: {e}", path.display())),
    };
    unhex(text.trim())
        .map(|b| Some(Key(b)))
        .ok_or_else(|| format!("{}: not a seal key (64 hex digits)", path.display()))
}

/// `results.seal`: the MAC of the first `bytes` bytes of `results.jsonl`, which hold `rows`
/// rows (for people; readers count the rows themselves).
#[derive(Serialize, Deserialize)]
pub(crate) struct SealFile {
    pub(crate) rows: u64,
    pub(crate) bytes: u64,
    pub(crate) mac: String,
}

/// Why rows were checked against their records instead of being taken under the seal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsealed {
    /// The tournament ran without a sandbox: its bots could have read the key.
    NoSandbox,
    /// No key or no seal (a directory made before seals existed, or they were removed).
    Missing,
    /// The seal's MAC is not that of the file's first bytes.
    Mismatch,
    /// The key or seal cannot be read.
    Unreadable(String),
    /// The seal holds, but these rows were written after its last checkpoint.
    AfterSeal,
}

impl std::fmt::Display for Unsealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsealed::NoSandbox => write!(
                f,
                "the tournament ran without a sandbox, so its rows are not sealed (a bot could have read the key)"
            ),
            Unsealed::Missing => write!(
                f,
                "no seal (a directory made before seals existed, or {SEAL_FILE} or {KEY_FILE} was removed); `tarneeb standings --reseal DIR` checks every row and seals them"
            ),
            Unsealed::Mismatch => write!(
                f,
                "seal does not match: results.jsonl was changed after the runner wrote it"
            ),
            Unsealed::Unreadable(e) => write!(f, "the seal cannot be read: {e}"),
            Unsealed::AfterSeal => write!(
                f,
                "rows written after the last seal (a run stopped before it could seal them)"
            ),
        }
    }
}

/// The keyed hash of `results.jsonl`'s first `bytes` bytes (`rows` rows), to go on from.
pub struct SealState {
    pub key: Key,
    pub hasher: blake3::Hasher,
    pub bytes: u64,
    pub rows: u64,
}

impl SealState {
    /// At the start of an empty file.
    pub fn fresh(key: Key) -> SealState {
        SealState {
            hasher: key.hasher(),
            key,
            bytes: 0,
            rows: 0,
        }
    }
}

/// What a reader found before parsing: how many leading bytes of `results.jsonl` are trusted
/// under a valid seal, the hash state after them (to go on hashing the rest), and why the
/// rest, if any, is checked against records.
pub struct Opening {
    pub trusted_bytes: u64,
    pub trusted_rows: u64,
    pub state: Option<SealState>,
    pub why: Unsealed,
}

/// Checks the seal of `dir` against `file` (its `results.jsonl`, left at its start) with the
/// directory's `key` as it was read when the directory was opened; `sandboxed`: whether its
/// `tournament.json` names a sandbox (only then is a seal there trusted). The sealed prefix is
/// hashed here, before any of its rows is handed out, so a row is only ever trusted after the
/// MAC over it has been compared.
pub fn open(dir: &Path, key: &KeyRead, sandboxed: bool, file: &mut File) -> Opening {
    let unsealed = |state, why| Opening {
        trusted_bytes: 0,
        trusted_rows: 0,
        state,
        why,
    };
    if !sandboxed {
        return unsealed(None, Unsealed::NoSandbox);
    }
    let key = match key {
        Ok(Some(k)) => k.clone(),
        Ok(None) => return unsealed(None, Unsealed::Missing),
        Err(e) => return unsealed(None, Unsealed::Unreadable(e.clone())),
    };
    let fresh = |key: &Key| Some(SealState::fresh(key.clone()));
    let path = dir.join(SEAL_FILE);
    let seal: SealFile = match std::fs::read_to_string(&path) {
        Ok(text) => match serde_json::from_str(&text) {
            Ok(s) => s,
            Err(e) => {
                let why = Unsealed::Unreadable(format!("{}: {e}", path.display()));
                return unsealed(fresh(&key), why);
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return unsealed(fresh(&key), Unsealed::Missing)
        }
        Err(e) => {
            let why = Unsealed::Unreadable(format!("{}: {e}", path.display()));
            return unsealed(fresh(&key), why);
        }
    };
    let mut hasher = key.hasher();
    let hashed = hash_prefix(file, seal.bytes, &mut hasher);
    let _ = file.seek(SeekFrom::Start(0));
    let matches = hashed.is_ok_and(|n| n == seal.bytes)
        && unhex(&seal.mac).is_some_and(|m| hasher.finalize() == blake3::Hash::from_bytes(m));
    if !matches {
        return unsealed(fresh(&key), Unsealed::Mismatch);
    }
    Opening {
        trusted_bytes: seal.bytes,
        trusted_rows: seal.rows,
        state: Some(SealState {
            key,
            hasher,
            bytes: seal.bytes,
            rows: seal.rows,
        }),
        why: Unsealed::AfterSeal,
    }
}

/// A fresh hash state with the directory's key, when it has one and ran in a sandbox.
pub fn key_state(key: &KeyRead, sandboxed: bool) -> Option<SealState> {
    if !sandboxed {
        return None;
    }
    key.as_ref().ok().cloned().flatten().map(SealState::fresh)
}

/// No row trusted under the seal (`standings --check-records` or `--trust-rows`); the rows
/// are hashed from the start when `hash`.
pub fn unverified(key: &KeyRead, sandboxed: bool, hash: bool) -> Opening {
    Opening {
        trusted_bytes: 0,
        trusted_rows: 0,
        state: if hash {
            key_state(key, sandboxed)
        } else {
            None
        },
        why: Unsealed::Missing,
    }
}

/// Feeds up to `bytes` bytes of `file` to `hasher`; returns how many there were.
fn hash_prefix(file: &mut File, bytes: u64, hasher: &mut blake3::Hasher) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 1 << 20];
    let mut left = bytes;
    while left > 0 {
        let want = left.min(buf.len() as u64) as usize;
        let n = file.read(&mut buf[..want])?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        left -= n as u64;
    }
    Ok(bytes - left)
}

/// Keeps the seal of `results.jsonl` as rows are appended: the MAC is updated per row (a
/// BLAKE3 update of a few hundred bytes), the checkpoint written now and then and when the
/// sealer is dropped (the run ended, was interrupted or failed).
///
/// A run without a seal (`--sandbox none`: a bot could read the key) keeps the same
/// checkpoints without the MAC ([`Sealer::unsealed`]): the records and the rows are synced
/// as often, so a power loss keeps as much (docs/reliability.md, "Power loss").
pub struct Sealer {
    dir: PathBuf,
    /// The MAC so far; `None`: the checkpoints only sync.
    state: Option<SealState>,
    /// Rows added (with those the state held at the start).
    rows: u64,
    sealed_rows: u64,
    last: Instant,
    failed: bool,
    /// Whether the tournament directory was synced since this sealer began (unsealed runs:
    /// once is enough for `results.jsonl`'s name).
    dir_synced: bool,
    /// Records of the rows added since the last checkpoint: synced to the disk before the
    /// seal that covers their rows (docs/reliability.md, "Power loss").
    records: Vec<PathBuf>,
}

impl Sealer {
    /// Goes on from `state`, which must cover the whole of `results.jsonl` (`len` bytes);
    /// `None` when it does not.
    pub fn resume(dir: &Path, state: SealState, len: u64) -> Option<Sealer> {
        if state.bytes != len {
            return None;
        }
        let mut s = Sealer {
            dir: dir.to_path_buf(),
            rows: state.rows,
            state: Some(state),
            sealed_rows: u64::MAX,
            last: Instant::now(),
            failed: false,
            dir_synced: false,
            records: Vec::new(),
        };
        s.checkpoint();
        Some(s)
    }

    /// Checkpoints without a seal: the rows appended from now on and their records are
    /// synced as a sealed run's are (every second or 1,000 rows, and at the end), and no
    /// `results.seal` is written.
    pub fn unsealed(dir: &Path) -> Sealer {
        Sealer {
            dir: dir.to_path_buf(),
            state: None,
            rows: 0,
            sealed_rows: 0,
            last: Instant::now(),
            failed: false,
            dir_synced: false,
            records: Vec::new(),
        }
    }

    /// A row's line (with its newline) was appended; `record` is its game's record, synced
    /// with the row at the next checkpoint.
    pub fn add(&mut self, line: &[u8], record: Option<PathBuf>) {
        self.records.extend(record);
        if let Some(state) = self.state.as_mut() {
            state.hasher.update(line);
            state.bytes += line.len() as u64;
            state.rows += 1;
        }
        self.rows += 1;
        if self.rows - self.sealed_rows >= EVERY_ROWS || self.last.elapsed() >= EVERY {
            self.checkpoint();
        }
    }

    /// Checkpoints rows added a second or more after the last checkpoint, with no row since
    /// to trigger it: the runner calls this while it waits for games (at least every half
    /// second), so a row waits at most about a second and a half for its sync.
    pub fn tick(&mut self) {
        if self.rows != self.sealed_rows && self.last.elapsed() >= EVERY {
            self.checkpoint();
        }
    }

    /// Writes `results.seal` for everything added so far (a temporary file renamed over it,
    /// so a reader never sees half a seal). A failure is said once and leaves the rows
    /// checked against their records.
    ///
    /// Before the seal, what it covers reaches the disk: the new rows' records, their
    /// directories, and `results.jsonl`; after it, the seal itself and its directory. So after
    /// a power loss every sealed row is on the disk with its record, and only rows written
    /// after the last checkpoint (at most a second and a half, or 1,000 rows) can be missing.
    /// Unsealed, the same syncs but the seal's, and the directory once.
    pub fn checkpoint(&mut self) {
        let synced = self.sync_covered();
        self.last = Instant::now();
        self.sealed_rows = self.rows;
        let Some(state) = self.state.as_ref() else {
            let synced = synced.and_then(|()| {
                if !self.dir_synced {
                    sync_dir(&self.dir)?;
                    self.dir_synced = true;
                }
                Ok(())
            });
            if let Err(e) = synced {
                if !self.failed {
                    eprintln!(
                        "note: cannot sync {}: {e}; rows finished since the last sync may not survive a power loss",
                        self.dir.join(COVERED_FILE).display()
                    );
                }
                self.failed = true;
            }
            return;
        };
        let seal = SealFile {
            rows: state.rows,
            bytes: state.bytes,
            mac: hex(state.hasher.finalize().as_bytes()),
        };
        let (tmp, path) = (
            self.dir.join(format!("{SEAL_FILE}.tmp")),
            self.dir.join(SEAL_FILE),
        );
        let text = serde_json::to_string(&seal).expect("a seal is JSON") + "\n";
        let written = synced
            .and_then(|()| write_synced(&tmp, text.as_bytes()))
            .and_then(|_| std::fs::rename(&tmp, &path))
            .and_then(|()| sync_dir(&self.dir));
        if let Err(e) = written {
            if !self.failed {
                eprintln!(
                    "note: cannot write {}: {e}; the rows it would cover stay checked against their records",
                    path.display()
                );
            }
            self.failed = true;
        }
    }
}

impl Sealer {
    /// Syncs the records added since the last checkpoint, their directories and the rows.
    fn sync_covered(&mut self) -> std::io::Result<()> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for record in self.records.drain(..) {
            // A record that cannot be opened is not the seal's to vouch for: its row is
            // checked against it when read, as unsealed rows are.
            if let Ok(f) = File::open(&record) {
                f.sync_data()?;
            }
            if let Some(d) = record.parent().filter(|d| !dirs.iter().any(|x| x == d)) {
                dirs.push(d.to_path_buf());
            }
        }
        for d in &dirs {
            sync_dir(d)?;
        }
        match File::open(self.dir.join(COVERED_FILE)) {
            Ok(f) => f.sync_data(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }
}

/// Writes `bytes` to a new file at `path` and syncs it.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = File::create(path)?;
    f.write_all(bytes)?;
    f.sync_data()
}

/// Syncs a directory, so the names made or renamed in it survive a power loss.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

impl Drop for Sealer {
    fn drop(&mut self) {
        if self.sealed_rows != self.rows {
            self.checkpoint();
        }
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 64 hex digits and nothing else (`from_str_radix` alone would also take a sign: `+f`).
pub(crate) fn unhex(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("seal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn seal_lines(d: &Path, lines: &[&str]) {
        let state = SealState::fresh(ensure_key(d).unwrap());
        let mut s = Sealer::resume(d, state, 0).unwrap();
        let mut text = String::new();
        for l in lines {
            s.add(l.as_bytes(), None);
            text.push_str(l);
        }
        std::fs::write(d.join("results.jsonl"), text).unwrap();
    }

    fn opening(d: &Path, sandboxed: bool) -> Opening {
        open(
            d,
            &read_key(d),
            sandboxed,
            &mut File::open(d.join("results.jsonl")).unwrap(),
        )
    }

    #[test]
    fn the_file_synced_is_the_results_file() {
        assert_eq!(COVERED_FILE, crate::tournament::directory::RESULTS_FILE);
    }

    #[test]
    fn a_seal_covers_exactly_the_bytes_written() {
        let d = dir("ok");
        seal_lines(&d, &["{\"a\":1}\n", "{\"a\":2}\n"]);
        let o = opening(&d, true);
        assert_eq!((o.trusted_bytes, o.trusted_rows), (16, 2));
        assert_eq!(o.why, Unsealed::AfterSeal);
        // One byte changed: nothing is trusted.
        std::fs::write(d.join("results.jsonl"), "{\"a\":1}\n{\"a\":3}\n").unwrap();
        let o = opening(&d, true);
        assert_eq!((o.trusted_bytes, o.why), (0, Unsealed::Mismatch));
        // Shortened: nothing is trusted either.
        std::fs::write(d.join("results.jsonl"), "{\"a\":1}\n").unwrap();
        assert_eq!(opening(&d, true).why, Unsealed::Mismatch);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn no_trust_without_a_sandbox_or_a_key() {
        let d = dir("none");
        seal_lines(&d, &["{\"a\":1}\n"]);
        let o = opening(&d, false);
        assert_eq!((o.trusted_bytes, o.why), (0, Unsealed::NoSandbox));
        let d2 = dir("nokey");
        seal_lines(&d2, &["{\"a\":1}\n"]);
        std::fs::remove_file(d2.join(KEY_FILE)).unwrap();
        assert_eq!(opening(&d2, true).why, Unsealed::Missing);
        // Another key (a directory re-made, or a key forged in place) does not verify.
        ensure_key(&d2).unwrap();
        assert_eq!(opening(&d2, true).why, Unsealed::Mismatch);
        for d in [d, d2] {
            let _ = std::fs::remove_dir_all(&d);
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_key_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("mode");
        ensure_key(&d).unwrap();
        let mode = std::fs::metadata(d.join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_dir_all(&d);
    }
}
