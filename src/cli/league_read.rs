//! The reading commands of `tarneeb league` (table, history, check: what they find is
//! `league::audit`'s, their printing is here) and what every league command shares: its
//! failures and their exit codes. Reads only: nothing here writes the database.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use tarneeb_referee::league::audit;
use tarneeb_referee::league::db::{Db, HistoryPoint, Version};
use tarneeb_referee::league::plot;
use tarneeb_referee::league::spec::LeagueError;
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::table::Standings;
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

impl From<LeagueError> for Failure {
    fn from(e: LeagueError) -> Failure {
        match e {
            LeagueError::Usage(m) => usage(m),
            LeagueError::Failed(m) => failed(m),
        }
    }
}

pub(super) fn print_table(db: &Db, json: bool) -> Result<(), Failure> {
    let standings = audit::stored_standings(db)?;
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
    let found = audit::histories(&db, &a.dir, &a.name)?;
    if let Some(path) = &a.svg {
        let series: Vec<(String, Vec<HistoryPoint>)> = found
            .iter()
            .map(|(v, h)| (v.label.clone(), h.clone()))
            .collect();
        std::fs::write(path, plot::svg(&series))
            .map_err(|e| usage(format!("--svg {}: {e}", path.display())))?;
    }
    let text = if a.json {
        history_json(&found)
    } else {
        history_text(&found)
    };
    out!("{text}").map_err(|e| failed(e.to_string()))?;
    Ok(0)
}

fn history_json(found: &[(Version, Vec<HistoryPoint>)]) -> String {
    serde_json::to_string_pretty(&json!(found
        .iter()
        .map(|(v, h)| json!({
            "version": v.label,
            "history": h.iter().map(|p| json!({"game": p.game, "games": p.games, "elo": p.elo, "low": p.low, "high": p.high})).collect::<Vec<_>>(),
        }))
        .collect::<Vec<_>>()))
    .expect("JSON")
        + "\n"
}

/// Each version's line, then its rating after each of its games.
fn history_text(found: &[(Version, Vec<HistoryPoint>)]) -> String {
    let mut t = String::new();
    for (v, h) in found {
        t.push_str(&format!(
            "{} ({}, {} games){}\n",
            v.label,
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
}

pub(super) fn check(a: ReadArgs) -> Result<u8, Failure> {
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let found = audit::audit(&db, &a.dir)?;
    if a.json {
        let text = serde_json::to_string_pretty(&json!({
            "rows": found.rows, "results_rows": found.results_rows, "edited": found.edited,
            "differ_from_results": found.differ_from_results,
            "not_in_results": found.not_in_results, "stale_table": found.stale_table,
            "ok": found.ok(),
        }))
        .expect("JSON");
        outln!("{text}").map_err(|e| failed(e.to_string()))?;
    }
    for what in &found.stale_table {
        eprintln!(
            "tarneeb league: {}: {what} is not what the game rows give (edited, or a run stopped between the two writes: `tarneeb league run` recomputes it)",
            db.path().display()
        );
    }
    if found.ok() {
        if !a.json {
            outln!(
                "{}: {} game rows, each sealed and equal to its results.jsonl row",
                db.path().display(),
                found.rows
            )
            .map_err(|e| failed(e.to_string()))?;
        }
        return Ok(0);
    }
    let bad = found.bad();
    eprintln!(
        "tarneeb league: {}: {} game rows changed behind the referee's back (games {}): their hash or their results.jsonl row disagrees; the records in games/ and results.jsonl are what was played",
        db.path().display(),
        bad.len(),
        bad.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    );
    Ok(1)
}
