//! Deal secret files (`tarneeb keygen`, `--deal-key FILE`, a tournament's `.deal-key`): 64 hex
//! digits and a newline, readable by the organiser alone.
//!
//! The secret comes from the operating system's random source, never from the clock: a bot
//! that can guess when the referee started must learn nothing from it.

use std::io::Write;
use std::path::{Path, PathBuf};

use rand::RngCore;

use crate::rules::DealSecret;

/// Why a deal secret file could not be used; every message names the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum DealKeyError {
    #[error("cannot read the deal key {path}: {source} (make one with `tarneeb keygen FILE`)")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the deal key {path} is not 64 hex digits (make one with `tarneeb keygen FILE`)")]
    Malformed { path: PathBuf },
    #[error("cannot write the deal key {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} already exists: a deal key is never overwritten (its deals could not be made again); choose another name")]
    Exists { path: PathBuf },
}

/// A new secret from the operating system's random source.
pub fn fresh() -> DealSecret {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    DealSecret::from_bytes(bytes)
}

/// Reads a deal key file.
pub fn read(path: &Path) -> Result<DealSecret, DealKeyError> {
    let text = std::fs::read_to_string(path).map_err(|source| DealKeyError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(text.trim()).ok_or_else(|| DealKeyError::Malformed {
        path: path.to_path_buf(),
    })
}

fn parse(hex: &str) -> Option<DealSecret> {
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(DealSecret::from_bytes(bytes))
}

/// Writes `secret` to a new file, mode 0600 from its creation (never readable by others, not
/// even for a moment); an existing file is left alone and is an error.
///
/// Whole or absent after a power loss (docs/reliability.md, "Power loss"): written to
/// `.NAME.tmp` beside it and synced, then linked to its name (which fails if the name is
/// taken), and the directory synced. Written in place, the name could reach the disk before
/// the bytes, and an empty key would stop the tournament that holds it.
pub fn write_new(path: &Path, secret: &DealSecret) -> Result<(), DealKeyError> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |source| DealKeyError::Write {
        path: path.to_path_buf(),
        source,
    };
    let exists = || DealKeyError::Exists {
        path: path.to_path_buf(),
    };
    if path.symlink_metadata().is_ok() {
        return Err(exists());
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    // A file left there (a run cut short) is removed, never reused: its mode could be wider.
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(failed)?;
    let hex: String = secret.bytes().iter().map(|b| format!("{b:02x}")).collect();
    writeln!(f, "{hex}")
        .and_then(|()| f.sync_all())
        .map_err(failed)?;
    drop(f);
    let linked = match std::fs::hard_link(&tmp, path) {
        // A file system without hard links: the name was free just above.
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => std::fs::rename(&tmp, path),
        other => other,
    };
    let _ = std::fs::remove_file(&tmp);
    linked.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => exists(),
        _ => failed(e),
    })?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    std::fs::File::open(dir.unwrap_or(Path::new(".")))
        .and_then(|d| d.sync_all())
        .map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_key_reads_back_and_is_private_and_never_overwritten() {
        use std::os::unix::fs::PermissionsExt;
        // The pid alone can name a directory another run left (pids are reused on a busy
        // machine), so the clock's nanoseconds make it this run's own.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("tarneeb-deal-key-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let path = dir.join("k");
        let _ = std::fs::remove_file(&path);
        let a = fresh();
        write_new(&path, &a).unwrap();
        assert_eq!(read(&path).unwrap(), a);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(matches!(
            write_new(&path, &fresh()),
            Err(DealKeyError::Exists { .. })
        ));
        assert_eq!(read(&path).unwrap(), a, "the first key is kept");
        assert_ne!(fresh(), a);
        std::fs::write(&path, "abc\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("64 hex digits") && e.contains("keygen"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
