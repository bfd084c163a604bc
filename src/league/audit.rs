//! What the reading commands of a league find (`league check`, `league history`, the stored
//! table): read only, nothing here writes the database. The commands print it.

use std::collections::HashMap;
use std::path::Path;

use super::db::{Db, HistoryPoint, Version};
use super::source::league_standings;
use super::spec::LeagueError;
use crate::standings::table::Standings;
use crate::standings::tally::Tally;
use crate::tournament::directory::seal;
use crate::tournament::directory::{RowCheck, TournamentDir};

fn failed(e: impl ToString) -> LeagueError {
    LeagueError::Failed(e.to_string())
}

/// The table the league stored after its last game (`None` before the first).
pub fn stored_standings(db: &Db) -> Result<Option<Standings>, LeagueError> {
    let text = db.meta("standings").map_err(failed)?;
    match text.as_deref() {
        None | Some("null") => Ok(None),
        Some(t) => serde_json::from_str(t)
            .map(Some)
            .map_err(|e| failed(format!("{}: the stored table: {e}", db.path().display()))),
    }
}

/// Every version of an entrant (`NAME`), or one version (`NAME@N`), each with its rating
/// after each of its games. None is a usage error that says where to look.
pub fn histories(
    db: &Db,
    dir: &Path,
    name: &str,
) -> Result<Vec<(Version, Vec<HistoryPoint>)>, LeagueError> {
    let versions = match name.split_once('@') {
        Some(_) => db
            .version_by_label(name)
            .map_err(failed)?
            .into_iter()
            .collect(),
        None => db.versions_of(name).map_err(failed)?,
    };
    if versions.is_empty() {
        return Err(LeagueError::Usage(format!(
            "the league in {} has no entrant or version '{}' (see `tarneeb league table {}`)",
            dir.display(),
            name,
            dir.display()
        )));
    }
    versions
        .into_iter()
        .map(|v| {
            let h = db.history(v.id).map_err(failed)?;
            Ok((v, h))
        })
        .collect()
}

/// What `league check` found: every game row against its keyed hash and its results.jsonl
/// row, and the stored table and ratings against what the rows give.
#[derive(Debug)]
pub struct Audit {
    /// Game rows in the database.
    pub rows: u64,
    /// Rows in results.jsonl.
    pub results_rows: u64,
    /// Games whose row does not match its keyed hash or its columns.
    pub edited: Vec<u64>,
    /// Games whose results.jsonl row is not the database's (or is missing from it).
    pub differ_from_results: Vec<u64>,
    /// Games of the database results.jsonl lacks.
    pub not_in_results: Vec<u64>,
    /// What of the stored table and ratings is not what the rows give.
    pub stale_table: Vec<String>,
}

impl Audit {
    /// Every game found changed, in order, once.
    pub fn bad(&self) -> Vec<u64> {
        let mut bad: Vec<u64> = self.edited.clone();
        bad.extend(&self.differ_from_results);
        bad.extend(&self.not_in_results);
        bad.sort_unstable();
        bad.dedup();
        bad
    }

    /// Nothing changed behind the referee's back.
    pub fn ok(&self) -> bool {
        self.bad().is_empty() && self.stale_table.is_empty()
    }
}

/// Checks the league in `dir` (its database `db`): see [`Audit`].
pub fn audit(db: &Db, dir: &Path) -> Result<Audit, LeagueError> {
    let tdir = TournamentDir::open(dir).map_err(LeagueError::Usage)?;
    let key = match seal::read_key(dir) {
        Ok(Some(k)) => k,
        _ => {
            return Err(failed(format!(
                "{}: the seal key is missing: the league's rows cannot be checked",
                dir.display()
            )))
        }
    };
    let report = db.check(&key).map_err(failed)?;
    let (results_rows, differ, extra) = against_results(db, &tdir)?;
    // The stored table and ratings are what the rows give.
    let mut tally = Tally::new();
    db.rows(|r, _| {
        tally.push(r);
        Ok(())
    })
    .map_err(failed)?;
    let stale = stale_table(db, (tally.rows() > 0).then(|| league_standings(&tally)))?;
    Ok(Audit {
        rows: report.rows,
        results_rows,
        edited: report.edited,
        differ_from_results: differ,
        not_in_results: extra,
        stale_table: stale,
    })
}

/// Every row of results.jsonl (sealed) against the database's: the rows read, the games whose
/// row differs or the database lacks, and the games results.jsonl lacks.
fn against_results(
    db: &Db,
    tdir: &TournamentDir,
) -> Result<(u64, Vec<u64>, Vec<u64>), LeagueError> {
    let mut db_rows = HashMap::new();
    db.rows(|r, _| {
        db_rows.insert(r.game, r);
        Ok(())
    })
    .map_err(failed)?;
    let mut differ = Vec::new();
    let mut journal = 0u64;
    tdir.stream_rows(RowCheck::Sealed, false, |row| {
        journal += 1;
        if db_rows.remove(&row.game).is_none_or(|d| d != row) {
            differ.push(row.game);
        }
        Ok(())
    })
    .map_err(failed)?;
    let extra: Vec<u64> = db_rows.into_keys().collect();
    Ok((journal, differ, extra))
}

/// What of the stored table and versions' ratings differs from `fresh`, the standings the
/// rows give (ratings compared to 1e-6 Elo: the stored ones are the same computation).
fn stale_table(db: &Db, fresh: Option<Standings>) -> Result<Vec<String>, LeagueError> {
    let mut stale = Vec::new();
    if !same_table(stored_standings(db)?.as_ref(), fresh.as_ref()) {
        stale.push("the stored table".to_string());
    }
    for v in db.versions().map_err(failed)? {
        let f = fresh
            .as_ref()
            .and_then(|f| f.entrants.iter().find(|e| e.name == v.label));
        let ok = match f {
            None => v.games == 0,
            Some(e) => {
                v.games == e.games as i64
                    && v.elo.is_some_and(|x| close(x, e.elo))
                    && v.place == Some(e.place as i64)
            }
        };
        if !ok {
            stale.push(format!("the rating of {}", v.label));
        }
    }
    Ok(stale)
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() < 1e-6
}

/// The stored table is the fresh one: the same games, and each entrant's name, games, wins
/// and Elo.
fn same_table(stored: Option<&Standings>, fresh: Option<&Standings>) -> bool {
    match (stored, fresh) {
        (None, None) => true,
        (Some(s), Some(f)) => {
            s.games == f.games
                && s.entrants.len() == f.entrants.len()
                && s.entrants.iter().zip(&f.entrants).all(|(x, y)| {
                    x.name == y.name
                        && x.games == y.games
                        && x.wins == y.wins
                        && close(x.elo, y.elo)
                })
        }
        _ => false,
    }
}
