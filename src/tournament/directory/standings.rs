//! `standings DIR...` as asked for ([`StandingsSettings`]) made into standings: the checks (a
//! site path that is a file, directories that cannot be resealed) are made by
//! [`StandingsSpec::new`] before anything is written; [`StandingsSpec::run`] gives each
//! directory its seal key when resealing, streams the rows of every directory once (checked
//! as asked, merged like shards) and adds them up into the standings.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::standings::headline;
use crate::standings::row::GameRow;
use crate::standings::table::{from_totals, Standings};
use crate::standings::tally::Tally;
use crate::standings::verdict::SprtTracker;
use crate::tournament::directory::merge::MergeReport;
use crate::tournament::directory::results::{merged_stream_sealed, shard_neutral};
use crate::tournament::directory::seal;
use crate::tournament::directory::{RowCheck, TournamentDir};
use crate::tournament::schedule::bracket;
use crate::tournament::schedule::GameScore;

/// The standings as asked for. Field names follow the flags of `tarneeb standings`.
#[derive(Clone, Debug)]
pub struct StandingsSettings {
    pub dirs: Vec<PathBuf>,
    /// `--trust-rows`, `--check-records`, or the sealed rows.
    pub check: RowCheck,
    pub reseal: bool,
    /// `--html SITE`: every row is kept for the site.
    pub html: Option<PathBuf>,
}

/// Why the standings could not be made: the message (without the program's name) and the exit
/// code (2 bad input, 1 the program failed).
#[derive(Debug)]
pub struct StandingsError {
    pub message: String,
    pub code: u8,
}

fn usage(message: String) -> StandingsError {
    StandingsError { message, code: 2 }
}

/// Standings checked and ready to add up: nothing has been written yet.
pub struct StandingsSpec {
    pub settings: StandingsSettings,
    /// The SPRT verdict of a single directory, replayed in the order its games ended (its
    /// error is said when the rows are read).
    verdict: Result<Option<SprtTracker>, String>,
}

/// The standings of the directories, with what they were made of.
pub struct Tallied {
    pub standings: Standings,
    pub verdict: Option<SprtTracker>,
    /// Each directory's sandbox, as its config says.
    pub sandboxes: Vec<String>,
    pub merge: MergeReport,
    /// Every row, in game order, when a site is asked for (else none).
    pub kept: Vec<GameRow>,
}

impl StandingsSpec {
    /// Checks `s` in the order the errors were always reported; writes nothing.
    pub fn new(s: StandingsSettings) -> Result<StandingsSpec, StandingsError> {
        if let Some(site) = s.html.as_ref().filter(|p| p.exists() && !p.is_dir()) {
            return Err(usage(format!(
                "--html {}: this is a file; give a directory for the site (made if missing)",
                site.display()
            )));
        }
        let verdict = match s.dirs.as_slice() {
            [one] => TournamentDir::open(one).and_then(|d| d.sprt_tracker()),
            _ => Ok(None),
        };
        if s.reseal {
            for path in &s.dirs {
                let d = TournamentDir::open(path).map_err(usage)?;
                if !d.sandboxed() {
                    return Err(usage(format!(
                        "--reseal {}: the tournament ran without a sandbox (its bots could have read the key), so its rows cannot be sealed",
                        path.display()
                    )));
                }
            }
        }
        Ok(StandingsSpec {
            settings: s,
            verdict,
        })
    }

    /// Gives each directory its seal key (`--reseal`), reads every row once and adds them up;
    /// with `--reseal`, seals the rows read (saying so on stderr).
    pub fn run(self) -> Result<Tallied, StandingsError> {
        let s = &self.settings;
        if s.reseal {
            for path in &s.dirs {
                let mut d = TournamentDir::open(path).map_err(usage)?;
                d.ensure_key().map_err(|e| StandingsError {
                    message: format!("--reseal: {e}"),
                    code: 1,
                })?;
            }
        }
        let bracket_config = bracket_config(&s.dirs);
        let mut read = RowsRead::default();
        let (sandboxes, verdict, merge) = self
            .verdict
            .and_then(|verdict| read_rows(s, bracket_config.is_some(), verdict, &mut read))
            .map_err(usage)?;
        let standings = standings_of(
            &read.tally,
            bracket_config.as_ref(),
            &read.scores,
            verdict.as_ref(),
            &merge,
        );
        read.kept.sort_by_key(|r| r.game);
        Ok(Tallied {
            standings,
            verdict,
            sandboxes,
            merge,
            kept: read.kept,
        })
    }
}

/// A knockout's or king of the hill's bracket, replayed from the results of one directory.
/// Several directories: only the shards of one run (one command) have one schedule.
fn bracket_config(dirs: &[PathBuf]) -> Option<Value> {
    let configs: Vec<Value> = dirs
        .iter()
        .filter_map(|d| TournamentDir::open(d).ok().map(|d| d.config().clone()))
        .collect();
    let neutral: Vec<Value> = configs.iter().map(|c| shard_neutral(c.clone()).0).collect();
    let one_command = configs.len() == dirs.len() && neutral.windows(2).all(|w| w[0] == w[1]);
    configs
        .into_iter()
        .next()
        .filter(|c| one_command && bracket::has_bracket(c))
}

/// `--reseal`: each directory's seal written for exactly the rows read.
fn write_seals(dirs: &[PathBuf], seals: Vec<Option<seal::SealState>>) {
    for (d, state) in dirs.iter().zip(seals) {
        let (rows, bytes) = state.as_ref().map_or((0, 0), |s| (s.rows, s.bytes));
        // Dropped at once: the seal is written for exactly the rows read.
        drop(state.and_then(|s| seal::Sealer::resume(d, s, bytes)));
        eprintln!("sealed {rows} rows of {}", d.display());
    }
}

/// The standings of the rows counted, a bracket replayed, the headline said.
fn standings_of(
    tally: &Tally,
    bracket_config: Option<&Value>,
    scores: &HashMap<u64, GameScore>,
    verdict: Option<&SprtTracker>,
    merge: &MergeReport,
) -> Standings {
    let mut standings = from_totals(tally.totals());
    if let Some(config) = bracket_config {
        bracket::apply_replayed(&mut standings, config, scores);
    }
    // A run short of its schedule has a provisional leader, not a winner; a run the
    // SPRT stopped is complete by the test's stopping rule (issue 40).
    let scheduled = match verdict {
        Some(t) if t.decided().is_some() => None,
        _ => merge.expected_games,
    };
    headline::apply(&mut standings, scheduled);
    standings
}

/// What the rows of the directories added up to.
#[derive(Default)]
struct RowsRead {
    tally: Tally,
    /// Each game's score, for a bracket to be replayed.
    scores: HashMap<u64, GameScore>,
    /// Every row, for the site.
    kept: Vec<GameRow>,
}

/// Streams the rows, in one pass, into running totals and the test: memory does not grow
/// with the rows (the site lists every game, so only then are the rows kept). Gives the
/// sandboxes, the test and what was merged.
fn read_rows(
    s: &StandingsSettings,
    bracket: bool,
    mut verdict: Option<SprtTracker>,
    read: &mut RowsRead,
) -> Result<(Vec<String>, Option<SprtTracker>, MergeReport), String> {
    let keep = s.html.is_some();
    let (sandboxes, seals, merge) = merged_stream_sealed(&s.dirs, s.check, s.reseal, |r| {
        if let Some(t) = verdict.as_mut() {
            t.push(&r);
        }
        if bracket {
            let score = GameScore {
                winner: r.winner,
                team_scores: r.team_scores,
            };
            read.scores.insert(r.game, score);
        }
        if keep {
            read.kept.push(r.clone());
        }
        read.tally.push(r);
    })?;
    if s.reseal {
        write_seals(&s.dirs, seals);
    }
    Ok((sandboxes, verdict, merge))
}
