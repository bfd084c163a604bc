//! A league as asked for ([`LeagueSettings`]: what `league start`'s flags give, kept in the
//! database and read back by every `league run`) made into one that can play
//! ([`LeagueSpec`]). Its rules, sandbox and `--jobs` are checked by the tournament's own checks
//! (`tournament::run::spec`), so a league refuses what a tournament refuses, with the same
//! messages. [`LeagueSpec::create`] makes a league's directory, [`LeagueSpec::open`] readies
//! one to play (its lock held), [`Opened::mend`] adds the rows a killed run left out of the
//! database, and [`Opened::run_config`] is what the tournament runner plays it with.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};

use super::db::{Db, DB_FILE};
use super::source::{league_standings, ratings_of, LeagueSource};
use crate::bot::sandbox::SandboxOptions;
use crate::bot::{check_can_start, split_command, Sandbox};
use crate::deal_key;
use crate::rules::{DealSecret, Rules};
use crate::standings::tally::Tally;
use crate::tournament::directory::seal::Key;
use crate::tournament::directory::{RowCheck, TournamentDir, TOURNAMENT_FILE};
use crate::tournament::run::progress::ProgressMode;
use crate::tournament::run::runner::{Entrant, RunConfig};
use crate::tournament::run::spec::{
    is_entrant_name, jobs_and_cpus, load_rules, new_sandbox, SeatLimits, DEAL_KEY_FILE,
};
use crate::tournament::schedule::Partners;

/// The file `league run` holds locked while it writes the league.
pub const LOCK_FILE: &str = "league.lock";

/// Why a league command failed: bad input (`Usage`, exit 2) or the program (`Failed`,
/// exit 1). The message is said as users see it.
#[derive(Debug)]
pub enum LeagueError {
    Usage(String),
    Failed(String),
}

fn usage(e: impl ToString) -> LeagueError {
    LeagueError::Usage(e.to_string())
}

fn failed(e: impl ToString) -> LeagueError {
    LeagueError::Failed(e.to_string())
}

/// The settings of every game of a league, as asked for. Field names follow the flags of
/// `tarneeb league start` (the same as `tarneeb tournament`'s).
#[derive(Clone, Debug)]
pub struct LeagueSettings {
    /// A preset name, a rules file, or complete rules inline as JSON.
    pub rules: String,
    pub seed: u64,
    pub partners: Partners,
    pub limits: SeatLimits,
    pub sandbox: SandboxOptions,
}

/// A league's settings checked: nothing has been printed or created yet.
pub struct LeagueSpec {
    pub settings: LeagueSettings,
    pub rules: Rules,
    pub sandbox: Sandbox,
}

/// Whether `dir` can take a new league: it holds neither a league nor a tournament.
pub fn check_new(dir: &Path) -> Result<(), String> {
    if dir.join(DB_FILE).exists() {
        return Err(format!(
            "{} holds a league already: add entrants with `tarneeb league add {} NAME=CMD` and run it with `tarneeb league run {}`",
            dir.display(),
            dir.display(),
            dir.display()
        ));
    }
    if dir.join(TOURNAMENT_FILE).exists() {
        return Err(format!(
            "{} holds a tournament: start the league in another directory",
            dir.display()
        ));
    }
    Ok(())
}

/// `NAME=CMD` (`league add` and `league update`) into a name and a command that can start, or
/// `NAME=remote`; a league plays no browser entrant.
pub fn parse_entrant(text: &str) -> Result<(String, Vec<String>), String> {
    let (name, cmd) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': write NAME=CMD, like rnd='python3 random_bot.py'"))?;
    let name = name.trim();
    if !is_entrant_name(name) {
        return Err(format!(
            "'{text}': the name '{name}' may only hold letters, digits, '_', '.' and '-'"
        ));
    }
    let command = split_command(cmd).map_err(|e| format!("{name}: {e}"))?;
    if command.len() == 1 && command[0] == Entrant::WEB {
        return Err(format!(
            "{name}: a league plays programs, local or remote (NAME=remote); a person in a browser plays a `tarneeb tournament` or `tarneeb play`"
        ));
    }
    if command.len() == 1 && command[0] == Entrant::REMOTE {
        return Ok((name.to_string(), command));
    }
    check_can_start(&command).map_err(|e| format!("{name}: {e}"))?;
    Ok((name.to_string(), command))
}

/// The settings flags `league start` was given, as the database keeps them for every run.
pub fn stored_flags(db: &Db) -> Result<Vec<String>, LeagueError> {
    let text = db.meta("settings").map_err(failed)?.ok_or_else(|| {
        failed(format!(
            "{}: the league's settings are missing",
            db.path().display()
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| {
        failed(format!(
            "{}: the league's settings: {e}",
            db.path().display()
        ))
    })
}

/// One `league run` at a time writes a league: an exclusive lock, held while the file is open.
pub fn lock(dir: &Path) -> Result<File, LeagueError> {
    use std::os::fd::AsRawFd;
    let path = dir.join(LOCK_FILE);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| failed(format!("cannot open {}: {e}", path.display())))?;
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(usage(format!(
            "another `tarneeb league run` is running on {}: one writer at a time (stop it first, or read the league with `tarneeb league table`)",
            dir.display()
        )));
    }
    Ok(f)
}

/// What `league run` asks of a run, as asked for. Field names follow its flags.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// `--jobs`; `None`: the CPUs this process may use.
    pub jobs: Option<usize>,
    /// `--games`: stop once the league holds this many games.
    pub games: Option<u64>,
    pub max_share: f64,
    pub progress: ProgressMode,
    pub fresh_bots: bool,
    /// `--serve`: records flushed move by move for a live page.
    pub watched: bool,
    pub remote_connections: usize,
    pub remote_duplicate: bool,
    /// Why the server for remote entrants cannot listen as asked, as the front end that owns
    /// the listener found it; `None` when it can.
    pub listener_refused: Option<String>,
}

impl RunSettings {
    /// Checks the run's flags (in the order their errors were always said): the games at once
    /// and the CPUs they are pinned to.
    pub fn check(&self) -> Result<(usize, Option<Vec<usize>>), String> {
        if !(0.5..=1.0).contains(&self.max_share) {
            return Err(format!(
                "--max-share {}: give a share from 0.5 to 1",
                self.max_share
            ));
        }
        let jobs = jobs_and_cpus(self.jobs, true)?;
        if let Some(why) = &self.listener_refused {
            return Err(why.clone());
        }
        if self.remote_connections < 2 {
            return Err(
                "--remote-connections must be at least 2: a remote entrant partners itself, so a game takes two of its connections".into(),
            );
        }
        Ok(jobs)
    }
}

/// A league readied to play: its lock held, its directory, seal key and deal key read.
pub struct Opened {
    pub spec: LeagueSpec,
    pub dir: TournamentDir,
    pub key: Key,
    db: Db,
    deal_secret: DealSecret,
    _lock: File,
}

impl LeagueSpec {
    /// Checks the rules and the sandbox as a tournament checks them, with its messages (a
    /// usage error: exit 2); prints and creates nothing.
    pub fn new(settings: LeagueSettings) -> Result<LeagueSpec, String> {
        let rules = load_rules(&settings.rules)?;
        // Checked now, so that `run` never meets a sandbox it cannot have.
        let sandbox = new_sandbox(&settings.sandbox)?;
        Ok(LeagueSpec {
            settings,
            rules,
            sandbox,
        })
    }

    /// What `tournament.json` says of the league; `flags` are its settings as given.
    fn config(&self, flags: &[String]) -> Value {
        let s = &self.settings;
        json!({
            "format": "league",
            "seed": s.seed,
            "partners": s.partners.name(),
            "rules": self.rules,
            "time": s.limits.time,
            "sandbox": self.sandbox.label(),
            "limits": self.sandbox.limits().describe(),
            "league_settings": flags,
        })
    }

    /// Makes the league in `dir` (see [`check_new`]): the directory with its seal key, deal
    /// key and database, which keeps `flags`, the settings as given, for every run.
    pub fn create(&self, dir: &Path, flags: &[String]) -> Result<(), LeagueError> {
        let (mut tdir, _) =
            TournamentDir::claim(dir, None, &self.config(flags), || Ok(())).map_err(usage)?;
        tdir.ensure_key().map_err(failed)?;
        deal_key::write_new(&dir.join(DEAL_KEY_FILE), &deal_key::fresh()).map_err(failed)?;
        let db = Db::open(dir, true).map_err(failed)?;
        db.set_meta("settings", &serde_json::to_string(flags).expect("JSON"))
            .map_err(failed)
    }

    /// Readies the league in `dir` (its database `db`, `lock` held) to play: the league
    /// directory hidden from the bots, its seal key and deal key read.
    pub fn open(mut self, dir: &Path, db: Db, lock: File) -> Result<Opened, LeagueError> {
        self.sandbox.mask(dir);
        let mut tdir = TournamentDir::open(dir).map_err(usage)?;
        let key = tdir.ensure_key().map_err(failed)?;
        let deal_secret = deal_key::read(&dir.join(DEAL_KEY_FILE)).map_err(usage)?;
        Ok(Opened {
            spec: self,
            dir: tdir,
            key,
            db,
            deal_secret,
            _lock: lock,
        })
    }
}

impl Opened {
    /// Adds the rows results.jsonl holds and the database lacks (a league killed between the
    /// two writes) and recomputes the table; returns how many.
    pub fn mend(&mut self) -> Result<u64, LeagueError> {
        mend(&self.dir, &mut self.db, &self.key)
    }

    /// What every run of the league plays with (each roster's run sets its entrants).
    pub fn run_config(
        &self,
        dir: &Path,
        run: &RunSettings,
        jobs: usize,
        cpus: Option<Vec<usize>>,
    ) -> RunConfig {
        RunConfig {
            dir: dir.to_path_buf(),
            entrants: Vec::new(),
            rules: self.spec.rules.clone(),
            limits: self.spec.settings.limits.clone(),
            jobs,
            cpus,
            deals: Vec::new(),
            sprt: None,
            total: run.games.unwrap_or(0),
            progress: run.progress,
            sandbox: Arc::new(self.spec.sandbox.clone()),
            fresh_bots: run.fresh_bots,
            compress: false,
            trace: None,
            analyze: false,
            only_shard: None,
            deal_secret: Some(self.deal_secret.clone()),
            watched: run.watched,
            lobby: None,
            lobby_keys: Vec::new(),
        }
    }

    /// The games of the league's first run (the database handed on), with the league's
    /// partners; `--remote-duplicate` is kept in the database for the table to say.
    pub fn source(self, run: &RunSettings) -> Result<(LeagueSource, TournamentDir), LeagueError> {
        let s = &self.spec.settings;
        let mut source = LeagueSource::new(self.db, self.key, s.seed, run.games, run.max_share)
            .map_err(failed)?;
        source.set_partners(s.partners);
        if run.remote_duplicate {
            source
                .db()
                .set_meta("remote_duplicate", "true")
                .map_err(failed)?;
        }
        Ok((source, self.dir))
    }
}

/// Rows of results.jsonl the database lacks (a league killed between the two writes) go in
/// now; the table is then recomputed. Returns how many were added.
fn mend(dir: &TournamentDir, db: &mut Db, key: &Key) -> Result<u64, LeagueError> {
    let ids: HashMap<String, i64> = db
        .versions()
        .map_err(failed)?
        .into_iter()
        .map(|v| (v.label, v.id))
        .collect();
    let mut missing = Vec::new();
    dir.stream_rows(RowCheck::Sealed, false, |row| {
        if !db.has_game(row.game).map_err(|e| e.to_string())? {
            missing.push(row);
        }
        Ok(())
    })
    .map_err(failed)?;
    for row in &missing {
        let seats = row.seats.clone().map(|l| ids.get(&l).copied());
        let Some(seats) = seats.iter().copied().collect::<Option<Vec<i64>>>() else {
            return Err(failed(format!(
                "results.jsonl: game {} names a version the database does not know ({:?})",
                row.game, row.seats
            )));
        };
        let seats: [i64; 4] = seats.try_into().expect("four seats");
        db.finish_game(key, row, seats, &[], "null")
            .map_err(failed)?;
    }
    if !missing.is_empty() {
        restore_table(db, &ids)?;
    }
    Ok(missing.len() as u64)
}

/// The stored table and ratings recomputed from every game row.
fn restore_table(db: &mut Db, ids: &HashMap<String, i64>) -> Result<(), LeagueError> {
    let mut tally = Tally::new();
    db.rows(|r, _| {
        tally.push(r);
        Ok(())
    })
    .map_err(failed)?;
    let s = league_standings(&tally);
    let ratings = ratings_of(&s, ids);
    db.set_standings(&ratings, &serde_json::to_string(&s).expect("JSON"))
        .map_err(failed)
}
