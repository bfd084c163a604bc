//! Deal sets taken from earlier games (`tournament --deals-from`): a record, or a directory of
//! records (a tournament directory's `games/`).

use std::path::{Path, PathBuf};

use crate::record::reader::read_record;
use crate::record::{recorded_deals, RecordedDeals};
use crate::tournament::directory;

/// Record files a `--deals-from` path stands for: the file, or the `.jsonl` files of the
/// directory (of its `games/` when it is a tournament directory), by name.
fn deal_records(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let dir = if path.join("games").is_dir() && path.join(directory::TOURNAMENT_FILE).is_file() {
        path.join("games")
    } else {
        path.to_path_buf()
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("--deals-from {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_record_name(p) && p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!(
            "--deals-from {}: the directory holds no record (*.jsonl)",
            dir.display()
        ));
    }
    Ok(files)
}

/// A record's file name: `*.jsonl`, or `*.jsonl.zst` (compressed).
fn is_record_name(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".jsonl") || name.ends_with(".jsonl.zst")
}

/// The deals of every record `path` stands for, in order (see [`deal_records`]).
pub fn load_deals(path: &Path) -> Result<Vec<RecordedDeals>, String> {
    deal_records(path)?
        .iter()
        .map(|p| {
            let lines = read_record(p).map_err(|e| format!("--deals-from {}: {e}", p.display()))?;
            recorded_deals(&lines).map_err(|e| format!("--deals-from {}: {e}", p.display()))
        })
        .collect()
}
