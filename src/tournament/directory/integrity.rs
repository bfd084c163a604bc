//! Checking `results.jsonl` before its rows are trusted: every row must be whole and must
//! agree with the game record it names, and no game may have two rows.
//!
//! Why: in a sandbox no bot can reach the tournament directory, but a run without one
//! (`--sandbox none`), a crash mid-write or a hand edit can leave a torn or forged row, and a
//! forged row would otherwise be counted as a real result. A row is checked against the
//! record's header (seed) and its `result` line (winner, reason, scores, hands, forfeiting
//! seat): forging a result then means forging a whole record, which `tarneeb replay` checks
//! move by move.
//!
//! Opening every record is most of the time on a big directory, so rows the runner sealed
//! (see `seal`: a keyed MAC over `results.jsonl`, its key in the tournament directory that the
//! sandbox hides from bots) are taken under the seal without opening their records; rows after
//! the seal, and every row when the seal is missing, does not match or the tournament ran
//! without a sandbox, are checked here. The duplicate-game check applies to every row.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crate::record::RecordLine;
use crate::standings::table::GameRow;

/// Bytes read from the end of a record to find its last line (a `result` line is short).
const TAIL: u64 = 16 * 1024;

/// Checks `rows` (line numbers 1-based, as read from `file`, the `results.jsonl` of tournament
/// directory `dir`). The error names the file, the line and what is wrong, and how to recover.
pub fn check_rows(dir: &Path, file: &Path, rows: &[(usize, GameRow)]) -> Result<(), String> {
    let mut checker = RowChecker::new(dir, file);
    for (line, row) in rows {
        checker.check(*line, row, |game| {
            rows.iter().find(|(_, r)| r.game == game).map(|(l, _)| *l)
        })?;
    }
    Ok(())
}

/// Checks rows one at a time as they are read (a results file is streamed, never held): each
/// against its record, and no game twice. What it keeps is one bit per game number seen.
pub struct RowChecker<'a> {
    dir: &'a Path,
    file: &'a Path,
    seen: GameSet,
}

impl<'a> RowChecker<'a> {
    pub fn new(dir: &'a Path, file: &'a Path) -> RowChecker<'a> {
        RowChecker {
            dir,
            file,
            seen: GameSet::default(),
        }
    }

    /// Checks the row at `line`; `first_line(game)` finds the line of an earlier row of the same
    /// game for the error (only called on that error).
    pub fn check(
        &mut self,
        line: usize,
        row: &GameRow,
        first_line: impl FnOnce(u64) -> Option<usize>,
    ) -> Result<(), String> {
        self.unique(line, row, first_line)?;
        check_row(self.dir, row).map_err(|why| {
            format!(
                "{}:{line}: the row of game {} does not match its record {}: {why}; the results file or the record was edited: remove that line and run the same tournament command again to replay the game",
                self.file.display(),
                row.game,
                row.record
            )
        })
    }

    /// Only the duplicate-game part of [`RowChecker::check`], for rows under a valid seal
    /// (see `seal`), whose records need not be opened.
    pub fn unique(
        &mut self,
        line: usize,
        row: &GameRow,
        first_line: impl FnOnce(u64) -> Option<usize>,
    ) -> Result<(), String> {
        if !self.seen.insert(row.game) {
            let first = first_line(row.game).map_or("?".to_string(), |l| l.to_string());
            return Err(format!(
                "{}:{line}: a second row for game {} (the first is line {first}); the results file was edited: remove the wrong line",
                self.file.display(),
                row.game
            ));
        }
        Ok(())
    }
}

/// A set of game numbers, one bit each, in blocks of 65,536 games allocated as they are used (so
/// a forged row with a huge game number costs one block, not a bitmap up to it).
#[derive(Default)]
pub struct GameSet {
    blocks: HashMap<u64, Box<[u64; 1024]>>,
}

impl GameSet {
    /// Adds `game`; false when it was there already.
    pub fn insert(&mut self, game: u64) -> bool {
        let block = self
            .blocks
            .entry(game >> 16)
            .or_insert_with(|| Box::new([0; 1024]));
        let (word, bit) = (((game >> 6) & 1023) as usize, game & 63);
        let new = block[word] & (1 << bit) == 0;
        block[word] |= 1 << bit;
        new
    }

    pub fn contains(&self, game: u64) -> bool {
        self.blocks
            .get(&(game >> 16))
            .is_some_and(|b| b[((game >> 6) & 1023) as usize] & (1 << (game & 63)) != 0)
    }
}

/// What differs between a row and its record, if anything.
fn check_row(dir: &Path, row: &GameRow) -> Result<(), String> {
    let rel = Path::new(&row.record);
    if rel.is_absolute() || rel.components().any(|c| c.as_os_str() == "..") {
        return Err("the record path leaves the tournament directory".into());
    }
    let path = dir.join(rel);
    let (first, tail) = first_and_tail(&path).map_err(|e| format!("cannot read it: {e}"))?;
    let header = match serde_json::from_str::<RecordLine>(&first) {
        Ok(RecordLine::Header(h)) => h,
        _ => return Err("its first line is not a header".into()),
    };
    if header.seed != row.seed {
        return Err(format!(
            "seed {} in the row, {} in the record",
            row.seed, header.seed
        ));
    }
    let last = tail
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let result = match serde_json::from_str::<RecordLine>(last) {
        Ok(RecordLine::Result(r)) => r,
        _ => return Err("it does not end with a result line".into()),
    };
    let recorded = (
        result.winner.map(|t| t.index() as u8),
        result.reason.as_str(),
        result.team_scores.0,
        result.hands,
        result.forfeit.as_ref().map(|f| f.seat.index() as u8),
    );
    let claimed = (
        row.winner,
        row.reason.as_str(),
        row.team_scores,
        row.hands,
        row.forfeit_seat,
    );
    if recorded != claimed {
        return Err(format!(
            "the row says {}, the record says {}",
            show(claimed),
            show(recorded)
        ));
    }
    Ok(())
}

/// A record's first line and its last `TAIL` bytes: read from the ends of a plain record, from
/// the whole text of a compressed one (`--compress`: a zstd frame cannot be read from its end).
fn first_and_tail(path: &Path) -> std::io::Result<(String, String)> {
    let mut f = File::open(path)?;
    let mut magic = [0u8; 4];
    let n = f.read(&mut magic)?;
    if !crate::record::compressed::is_compressed(&magic[..n]) {
        f.seek(SeekFrom::Start(0))?;
        let mut first = String::new();
        BufReader::new(&mut f).read_line(&mut first)?;
        let len = f.metadata()?.len();
        f.seek(SeekFrom::Start(len.saturating_sub(TAIL)))?;
        let mut tail = String::new();
        f.read_to_string(&mut tail)?;
        return Ok((first, tail));
    }
    let text = crate::record::compressed::read_text(path)?;
    let first = text.lines().next().unwrap_or("").to_string();
    let start = text.len().saturating_sub(TAIL as usize);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    Ok((first, text[start..].to_string()))
}

type Outcome<'a> = (Option<u8>, &'a str, [i32; 2], u32, Option<u8>);

/// A result in words: `team 1 won by target 31 : -12 after 9 hands`.
fn show((winner, reason, scores, hands, forfeit): Outcome<'_>) -> String {
    let winner = winner.map_or("a draw".to_string(), |t| format!("team {t} won"));
    let forfeit = forfeit.map_or(String::new(), |s| format!(", seat {s} forfeited"));
    format!(
        "{winner} by {reason} {} : {} after {}{forfeit}",
        scores[0],
        scores[1],
        crate::hands(hands)
    )
}
