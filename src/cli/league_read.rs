//! The reading commands of `tarneeb league` (table, history, check) and what every league
//! command shares: its failures and their exit codes. Reads only: nothing here writes the
//! database.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use tarneeb_referee::league::db::{Db, HistoryPoint, Version};
use tarneeb_referee::league::plot;
use tarneeb_referee::league::source::league_standings;
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::table::Standings;
use tarneeb_referee::standings::tally::Tally;
use tarneeb_referee::tournament::directory::seal;
use tarneeb_referee::tournament::directory::{RowCheck, TournamentDir};
use tarneeb_referee::{out, outln};

#[derive(Args, Debug)]
pub(super) struct ReadArgs {
    dir: PathBuf,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub(super) struct HistoryArgs {
    dir: PathBuf,
    /// The entrant (all its versions) or one version (NAME@N).
    name: String,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the history as an SVG plot to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub(super) struct Failure {
    pub(super) code: u8,
    pub(super) message: String,
}
pub(super) fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

pub(super) fn failed(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

pub(super) fn load_standings(db: &Db) -> Result<Option<Standings>, Failure> {
    let text = db.meta("standings").map_err(|e| failed(e.to_string()))?;
    match text.as_deref() {
        None | Some("null") => Ok(None),
        Some(t) => serde_json::from_str(t)
            .map(Some)
            .map_err(|e| failed(format!("{}: the stored table: {e}", db.path().display()))),
    }
}

pub(super) fn print_table(db: &Db, json: bool) -> Result<(), Failure> {
    let standings = load_standings(db)?;
    let versions = db.versions().map_err(|e| failed(e.to_string()))?;
    let text = if json {
        serde_json::to_string_pretty(&json!({
            "standings": standings,
            "versions": versions.iter().map(version_json).collect::<Vec<_>>(),
        }))
        .expect("JSON")
            + "\n"
    } else {
        let mut text = table_text(standings.as_ref(), &versions);
        let mut remote: Vec<String> = versions
            .iter()
            .filter(|v| v.is_remote())
            .map(|v| v.entrant.clone())
            .collect();
        remote.sort();
        remote.dedup();
        if !remote.is_empty() {
            let duplicate = db
                .meta("remote_duplicate")
                .map_err(|e| failed(e.to_string()))?
                .is_some();
            text.push('\n');
            text.push_str(&super::remote_args::remote_note(&remote, duplicate));
        }
        text
    };
    out!("{text}").map_err(|e| failed(e.to_string()))
}

fn version_json(v: &Version) -> serde_json::Value {
    json!({
        "label": v.label, "entrant": v.entrant, "number": v.number, "command": v.command,
        "previous": v.previous, "retired": v.retired, "games": v.games, "place": v.place,
        "elo": v.elo, "low": v.low, "high": v.high,
    })
}

fn table_text(standings: Option<&Standings>, versions: &[Version]) -> String {
    let mut text = String::new();
    match standings {
        None => text.push_str("no games yet\n"),
        Some(s) => text.push_str(&report::render(s)),
    }
    text.push_str("\nversions:\n");
    let mut rows = vec![vec![
        "version".to_string(),
        "state".to_string(),
        "games".to_string(),
        "elo".to_string(),
        "replaces".to_string(),
    ]];
    for v in versions {
        let previous = v
            .previous
            .and_then(|p| versions.iter().find(|o| o.id == p))
            .map_or(String::new(), |o| o.label.clone());
        rows.push(vec![
            v.label.clone(),
            match (v.retired, v.is_remote()) {
                (true, _) => "retired",
                (false, true) => "active, remote",
                (false, false) => "active",
            }
            .to_string(),
            v.games.to_string(),
            v.elo.map_or("-".to_string(), report::signed),
            previous,
        ]);
    }
    text.push_str(&report::aligned(&rows, &[0, 1, 4]));
    text
}

pub(super) fn table(a: ReadArgs) -> Result<u8, Failure> {
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    print_table(&db, a.json)?;
    Ok(0)
}

pub(super) fn history(a: HistoryArgs) -> Result<u8, Failure> {
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let versions = match a.name.split_once('@') {
        Some(_) => db
            .version_by_label(&a.name)
            .map_err(|e| failed(e.to_string()))?
            .into_iter()
            .collect(),
        None => db.versions_of(&a.name).map_err(|e| failed(e.to_string()))?,
    };
    if versions.is_empty() {
        return Err(usage(format!(
            "the league in {} has no entrant or version '{}' (see `tarneeb league table {}`)",
            a.dir.display(),
            a.name,
            a.dir.display()
        )));
    }
    let mut series: Vec<(String, Vec<HistoryPoint>)> = Vec::new();
    for v in &versions {
        series.push((
            v.label.clone(),
            db.history(v.id).map_err(|e| failed(e.to_string()))?,
        ));
    }
    if let Some(path) = &a.svg {
        std::fs::write(path, plot::svg(&series))
            .map_err(|e| usage(format!("--svg {}: {e}", path.display())))?;
    }
    let text = if a.json {
        serde_json::to_string_pretty(&json!(series
            .iter()
            .map(|(label, h)| json!({
                "version": label,
                "history": h.iter().map(|p| json!({"game": p.game, "games": p.games, "elo": p.elo, "low": p.low, "high": p.high})).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>()))
        .expect("JSON")
            + "\n"
    } else {
        let mut t = String::new();
        for (v, (label, h)) in versions.iter().zip(&series) {
            t.push_str(&format!(
                "{label} ({}, {} games){}\n",
                if v.retired { "retired" } else { "active" },
                v.games,
                v.previous.map_or(String::new(), |_| format!(
                    ", replaces {}@{}",
                    v.entrant,
                    v.number - 1
                ))
            ));
            let mut rows = vec![vec![
                "game".to_string(),
                "games".to_string(),
                "elo".to_string(),
                "95%".to_string(),
            ]];
            for p in h {
                rows.push(vec![
                    p.game.to_string(),
                    p.games.to_string(),
                    report::signed(p.elo),
                    format!("[{}, {}]", report::signed(p.low), report::signed(p.high)),
                ]);
            }
            t.push_str(&report::aligned(&rows, &[]));
        }
        t
    };
    out!("{text}").map_err(|e| failed(e.to_string()))?;
    Ok(0)
}

pub(super) fn check(a: ReadArgs) -> Result<u8, Failure> {
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let dir = TournamentDir::open(&a.dir).map_err(usage)?;
    let key = match seal::read_key(&a.dir) {
        Ok(Some(k)) => k,
        _ => {
            return Err(failed(format!(
                "{}: the seal key is missing: the league's rows cannot be checked",
                a.dir.display()
            )))
        }
    };
    let report = db.check(&key).map_err(|e| failed(e.to_string()))?;
    // Every row of results.jsonl (sealed) is in the database, the same.
    let mut db_rows = std::collections::HashMap::new();
    db.rows(|r, _| {
        db_rows.insert(r.game, r);
        Ok(())
    })
    .map_err(|e| failed(e.to_string()))?;
    let mut differ = Vec::new();
    let mut journal = 0u64;
    dir.stream_rows(RowCheck::Sealed, false, |row| {
        journal += 1;
        if db_rows.remove(&row.game).is_none_or(|d| d != row) {
            differ.push(row.game);
        }
        Ok(())
    })
    .map_err(failed)?;
    let extra: Vec<u64> = db_rows.into_keys().collect();
    // The stored table and ratings are what the rows give.
    let mut tally = Tally::new();
    db.rows(|r, _| {
        tally.push(r);
        Ok(())
    })
    .map_err(|e| failed(e.to_string()))?;
    let stale = stale_table(&db, (tally.rows() > 0).then(|| league_standings(&tally)))?;
    let mut bad: Vec<u64> = report.edited.clone();
    bad.extend(&differ);
    bad.extend(&extra);
    bad.sort_unstable();
    bad.dedup();
    if a.json {
        let text = serde_json::to_string_pretty(&json!({
            "rows": report.rows, "results_rows": journal, "edited": report.edited,
            "differ_from_results": differ, "not_in_results": extra, "stale_table": stale,
            "ok": bad.is_empty() && stale.is_empty(),
        }))
        .expect("JSON");
        outln!("{text}").map_err(|e| failed(e.to_string()))?;
    }
    for what in &stale {
        eprintln!(
            "tarneeb league: {}: {what} is not what the game rows give (edited, or a run stopped between the two writes: `tarneeb league run` recomputes it)",
            db.path().display()
        );
    }
    if bad.is_empty() && stale.is_empty() {
        if !a.json {
            outln!(
                "{}: {} game rows, each sealed and equal to its results.jsonl row",
                db.path().display(),
                report.rows
            )
            .map_err(|e| failed(e.to_string()))?;
        }
        Ok(0)
    } else {
        eprintln!(
            "tarneeb league: {}: {} game rows changed behind the referee's back (games {}): their hash or their results.jsonl row disagrees; the records in games/ and results.jsonl are what was played",
            db.path().display(),
            bad.len(),
            bad.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        );
        Ok(1)
    }
}

/// What of the stored table and versions' ratings differs from `fresh`, the standings the
/// rows give (ratings compared to 1e-6 Elo: the stored ones are the same computation).
fn stale_table(db: &Db, fresh: Option<Standings>) -> Result<Vec<String>, Failure> {
    let mut stale = Vec::new();
    let stored = load_standings(db)?;
    let close = |a: f64, b: f64| a == b || (a - b).abs() < 1e-6;
    let same = match (&stored, &fresh) {
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
    };
    if !same {
        stale.push("the stored table".to_string());
    }
    for v in db.versions().map_err(|e| failed(e.to_string()))? {
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
