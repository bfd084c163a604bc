//! `tarneeb league`: start a league, add, update and retire entrants, run it, read its table
//! and histories, check its database. Exit codes: 0 done, 1 the program failed or a check
//! found an edited row, 2 bad usage or input, 130 interrupted.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use super::args::{parse_duration_ms, BotLimits, SandboxArgs};
use super::league_read::{self, failed, usage, Failure, HistoryArgs, ReadArgs};
use super::remote_args::{ListenArgs, RemoteSetup};
use tarneeb_referee::bot::become_subreaper;
use tarneeb_referee::league::db::{Db, Version, DB_FILE};
use tarneeb_referee::league::source::{Ended, LeagueSource};
use tarneeb_referee::league::spec::{self, LeagueSettings, LeagueSpec, Opened, RunSettings};
use tarneeb_referee::remote::tokens::{Tokens, TOKENS_FILE};
use tarneeb_referee::signals;
use tarneeb_referee::tournament::directory::TournamentDir;
use tarneeb_referee::tournament::run::progress::ProgressMode;
use tarneeb_referee::tournament::run::runner::{self, RunConfig};
use tarneeb_referee::tournament::schedule::Partners;

#[derive(Args, Debug)]
pub struct LeagueArgs {
    #[command(subcommand)]
    command: LeagueCommand,
}

#[derive(Subcommand, Debug)]
enum LeagueCommand {
    /// Make a league directory: its database, deal key and seal key, and the settings every
    /// game is played under (rules, time limits, sandbox). Entrants come with `add`.
    Start(StartArgs),
    /// Add an entrant (its first version), also while the league runs. NAME=remote: an
    /// entrant played from its owner's machine through `tarneeb connect`; its token is
    /// printed once and kept in DIR/tokens.json.
    Add(EntrantArgs),
    /// Give an entrant a new version: the old one is retired with its history, the new one
    /// starts unrated and plays first.
    Update(EntrantArgs),
    /// Retire an entrant: it starts no new game (games in flight finish); its history stays.
    Retire(RetireArgs),
    /// Play the league's games until interrupted (Ctrl-C: finished games are kept; run it
    /// again to go on), or until it holds --games games. Entrants added, updated or retired
    /// meanwhile are taken in between two duplicate pairs.
    Run(RunArgs),
    /// The table now: who leads, by how much and how sure, then every version.
    Table(ReadArgs),
    /// An entrant's versions and each one's rating after each of its games.
    History(HistoryArgs),
    /// Check every game row of the database against its keyed hash and against
    /// results.jsonl: a row changed behind the referee's back is named (exit 1).
    Check(ReadArgs),
}

/// The settings of every game, given to `start` and kept in the database: `run` reads them
/// back with the same parser.
#[derive(Args, Debug, Clone)]
struct Settings {
    /// Rules preset (classic, egyptian, 400, 41) or a rules file.
    #[arg(long, default_value = "classic")]
    rules: String,
    /// The league's seed: with its deal key, it fixes the deals of every pair.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// own: each version partners a copy of itself; rotate: the two versions of each pair
    /// partner two others, those they have partnered least (so every version partners every
    /// other over time), while four versions can play; fewer play with own partners.
    #[arg(long, default_value = "own", value_parser = Partners::parse)]
    partners: Partners,
    #[command(flatten)]
    limits: BotLimits,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

#[derive(Parser, Debug)]
#[command(name = "league-settings", no_binary_name = true)]
struct StoredSettings {
    #[command(flatten)]
    settings: Settings,
}

#[derive(Args, Debug)]
struct StartArgs {
    /// The league directory to make (it must not hold a league yet).
    dir: PathBuf,
    #[command(flatten)]
    settings: Settings,
}

#[derive(Args, Debug)]
struct EntrantArgs {
    dir: PathBuf,
    /// NAME=CMD: a name ([A-Za-z0-9_.-]) and the bot's command line, or NAME=remote.
    #[arg(value_name = "NAME=CMD")]
    entrant: String,
}

#[derive(Args, Debug)]
struct RetireArgs {
    dir: PathBuf,
    name: String,
}

#[derive(Args, Debug)]
struct RunArgs {
    dir: PathBuf,
    /// Games at once (default: the CPUs this process may use).
    #[arg(long)]
    jobs: Option<usize>,
    /// Stop once the league holds this many games (rounded up to a whole duplicate pair);
    /// default: run until interrupted.
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// The largest share of the last 200 games one version may play while others wait
    /// (0.5 to 1; with two versions every game has both).
    #[arg(long, default_value_t = 0.6, value_name = "SHARE")]
    max_share: f64,
    /// How progress is shown: auto, every=30s, every=N (games) or off.
    #[arg(long, default_value = "auto", value_parser = ProgressMode::parse)]
    progress: ProgressMode,
    /// A fresh process for every bot in every game.
    #[arg(long)]
    fresh_bots: bool,
    /// Serve the league's live page while it runs (as `tarneeb serve DIR` does): progress,
    /// the table, games in progress as the table sees them, finished games, and every
    /// version's rating over time. Port 0: any free one, printed.
    #[arg(long, value_name = "ADDR:PORT")]
    serve: Option<std::net::SocketAddr>,
    /// Where remote entrants' relays connect (flags as for `tournament`); the server starts
    /// when the roster first has a remote entrant.
    #[command(flatten)]
    net: ListenArgs,
    /// Connections one remote entrant may hold at once (at least 2: an entrant partners
    /// itself, so a game takes two of its connections).
    #[arg(long, value_name = "N", default_value_t = 8)]
    remote_connections: usize,
    /// How long a game waits for a remote entrant's idle connection before its seats
    /// forfeit as `absent`. A remote entrant is only paired while its relay has two idle
    /// connections, so this only bites when a relay goes away mid-pair.
    #[arg(long, value_parser = parse_duration_ms, value_name = "DURATION", default_value = "3m")]
    absent_timeout: u64,
    /// Play a pair with a remote entrant on the same deals twice. Off by default: all of an
    /// entrant's connections belong to one owner, who could learn a deal in one game before
    /// playing its twin, so such a pair is two games on deals of their own. The table says
    /// when it was on.
    #[arg(long)]
    remote_duplicate: bool,
}

pub fn run(args: LeagueArgs) -> u8 {
    let done = match args.command {
        LeagueCommand::Start(a) => start(a),
        LeagueCommand::Add(a) => add(a, false),
        LeagueCommand::Update(a) => add(a, true),
        LeagueCommand::Retire(a) => retire(a),
        LeagueCommand::Run(a) => run_league(a),
        LeagueCommand::Table(a) => league_read::table(a),
        LeagueCommand::History(a) => league_read::history(a),
        LeagueCommand::Check(a) => league_read::check(a),
    };
    match done {
        Ok(code) => code,
        Err(f) => {
            eprintln!("tarneeb league: {}", f.message);
            f.code
        }
    }
}

fn start(a: StartArgs) -> Result<u8, Failure> {
    // Every check first, as a tournament's: nothing is made for a league that cannot play.
    spec::check_new(&a.dir).map_err(usage)?;
    let league = LeagueSpec::new(a.settings.league_settings()).map_err(usage)?;
    let argv: Vec<String> = std::env::args().collect();
    league.create(&a.dir, &settings_argv(&argv))?;
    eprintln!(
        "league started in {} ({}, {}); add entrants with `tarneeb league add {} NAME=CMD`, then `tarneeb league run {}`",
        a.dir.display(),
        a.settings.rules,
        league.sandbox.label(),
        a.dir.display(),
        a.dir.display()
    );
    Ok(0)
}

impl Settings {
    /// The league these flags ask for.
    fn league_settings(&self) -> LeagueSettings {
        LeagueSettings {
            rules: self.rules.clone(),
            seed: self.seed,
            partners: self.partners,
            limits: self.limits.seat_limits(),
            sandbox: self.sandbox.options(),
        }
    }
}

/// The arguments after `league start DIR`: the settings, to be parsed again by `run`.
fn settings_argv(argv: &[String]) -> Vec<String> {
    let at = argv
        .iter()
        .position(|x| x == "start")
        .map_or(argv.len(), |i| i + 1);
    // Skip the directory (the one positional argument).
    let rest = &argv[at.min(argv.len())..];
    let mut out = Vec::new();
    let mut skipped = false;
    let mut i = 0;
    while i < rest.len() {
        let x = &rest[i];
        if !skipped && !x.starts_with('-') {
            skipped = true;
        } else {
            out.push(x.clone());
        }
        i += 1;
        // A flag's separate value is never the directory.
        if x.starts_with("--") && !x.contains('=') && i < rest.len() && takes_value(x) {
            out.push(rest[i].clone());
            i += 1;
        }
    }
    out
}

fn takes_value(flag: &str) -> bool {
    !matches!(flag, "--freeze-off-turn")
}

/// The settings `start` was given, parsed again as `start` parsed them.
fn stored_settings(db: &Db) -> Result<Settings, Failure> {
    let argv = spec::stored_flags(db)?;
    StoredSettings::try_parse_from(&argv)
        .map(|s| s.settings)
        .map_err(|e| {
            failed(format!(
                "{}: the league's settings ({}): {e}",
                db.path().display(),
                argv.join(" ")
            ))
        })
}

fn add(a: EntrantArgs, update: bool) -> Result<u8, Failure> {
    let (name, command) = spec::parse_entrant(&a.entrant).map_err(usage)?;
    let mut db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let v = if update {
        db.update_entrant(&name, &command)
    } else {
        db.add_entrant(&name, &command)
    }
    .map_err(|e| usage(e.to_string()))?;
    eprintln!(
        "{} {}: {} (a running league takes it in after its current pair)",
        if update { "updated" } else { "added" },
        name,
        v.label
    );
    if v.is_remote() {
        say_token(&a.dir, &name)?;
    }
    Ok(0)
}

/// A remote entrant's token: made and printed once, kept in DIR/tokens.json; every version
/// of the entrant connects with it.
fn say_token(dir: &Path, name: &str) -> Result<(), Failure> {
    let path = dir.join(TOKENS_FILE);
    let (tokens, made) = Tokens::load_or_make(&path, &[(0, name.to_string())]).map_err(failed)?;
    if made.is_empty() {
        eprintln!(
            "{name}'s relay keeps its token (in {}); the league plays it while the relay is connected",
            path.display()
        );
    } else {
        let token = tokens.token_of(name).expect("made above");
        eprintln!(
            "token for {name}: {token} (give it to {name}'s owner only; kept in {}); its owner joins with `TARNEEB_TOKEN=TOKEN tarneeb connect ADDR -- CMD` once `tarneeb league run` listens",
            path.display()
        );
    }
    Ok(())
}

fn retire(a: RetireArgs) -> Result<u8, Failure> {
    let mut db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let v = db
        .retire_entrant(&a.name)
        .map_err(|e| usage(e.to_string()))?;
    eprintln!("retired {} (its games and history stay)", v.label);
    Ok(0)
}

impl RunArgs {
    /// The run these flags ask for.
    fn settings(&self) -> RunSettings {
        RunSettings {
            jobs: self.jobs,
            games: self.games,
            max_share: self.max_share,
            progress: self.progress,
            fresh_bots: self.fresh_bots,
            watched: self.serve.is_some(),
            remote_connections: self.remote_connections,
            remote_duplicate: self.remote_duplicate,
            listener_refused: self.net.check().err(),
        }
    }
}

/// The league in `dir` readied to play: its lock taken, the settings `start` kept checked as
/// `start` checked them, the rows a killed run left out of the database added (said).
fn open(dir: &Path) -> Result<Opened, Failure> {
    let db = Db::open(dir, false).map_err(|e| usage(e.to_string()))?;
    let lock = spec::lock(dir)?;
    let settings = stored_settings(&db)?;
    let league = LeagueSpec::new(settings.league_settings()).map_err(usage)?;
    let mut opened = league.open(dir, db, lock)?;
    if !opened.dir.sandboxed() {
        eprintln!("note: no sandbox: a bot could read the seal key, so neither results.jsonl nor league.db is sealed against it");
    }
    let mended = opened.mend()?;
    if mended > 0 {
        eprintln!("{mended} finished games were in results.jsonl but not yet in {DB_FILE}: added");
    }
    Ok(opened)
}

fn run_league(a: RunArgs) -> Result<u8, Failure> {
    let run = a.settings();
    let (jobs, cpus) = run.check().map_err(usage)?;
    let opened = open(&a.dir)?;
    let stop = signals::install();
    let _ = become_subreaper();
    let page = match a.serve {
        Some(addr) => Some(super::serve::start(&a.dir, addr, None).map_err(usage)?),
        None => None,
    };
    let base = opened.run_config(&a.dir, &run, jobs, cpus);
    let mut remote = Remote::default();
    let ran = opened
        .source(&run)
        .map_err(Failure::from)
        .and_then(|(source, mut tdir)| play(&a, source, &mut tdir, base, &mut remote, stop));
    if let Some(setup) = remote.setup {
        setup.finish();
    }
    if let Some(page) = page {
        page.finish();
    }
    ran
}

/// The server of a league's remote entrants, started when a roster first has one and kept
/// across rosters: its lobby keys entrants by a number of their own (`keys`), not by their
/// index in a roster, so a relay connected under one roster plays under the next.
#[derive(Default)]
struct Remote {
    setup: Option<RemoteSetup>,
    /// Entrant name -> lobby key (the index in `names`).
    keys: std::collections::HashMap<String, usize>,
    names: Vec<String>,
    /// Whether the waiting line was printed since the last game.
    waiting_said: bool,
}

impl Remote {
    /// The server and lobby for `roster`'s remote entrants (none: nothing starts), their
    /// tokens accepted from now on, and the run's lobby keys.
    fn prepare(
        &mut self,
        a: &RunArgs,
        roster: &[Version],
        max_line: usize,
    ) -> Result<Option<Vec<usize>>, Failure> {
        let mut remote: Vec<(usize, String)> = Vec::new();
        for v in roster.iter().filter(|v| v.is_remote()) {
            let next = self.names.len();
            let key = *self.keys.entry(v.entrant.clone()).or_insert(next);
            if key == next {
                self.names.push(v.entrant.clone());
            }
            if !remote.iter().any(|(k, _)| *k == key) {
                remote.push((key, v.entrant.clone()));
            }
        }
        if remote.is_empty() && self.setup.is_none() {
            return Ok(None);
        }
        let path = a.dir.join(TOKENS_FILE);
        let (tokens, made) = Tokens::load_or_make(&path, &remote).map_err(failed)?;
        for name in &made {
            let token = tokens.token_of(name).expect("made above");
            eprintln!(
                "token for {name}: {token} (its saved token was missing; give it to {name}'s owner only; kept in {})",
                path.display()
            );
        }
        match &self.setup {
            Some(setup) => {
                setup.lobby.set_names(self.names.clone());
                setup.set_tokens(tokens);
            }
            None => {
                let setup = a
                    .net
                    .serve(self.names.clone(), tokens, a.remote_connections, max_line)
                    .map_err(usage)?;
                setup
                    .lobby
                    .set_absent_timeout(Duration::from_millis(a.absent_timeout));
                self.setup = Some(setup);
            }
        }
        Ok(Some(
            roster
                .iter()
                .map(|v| self.keys.get(&v.entrant).copied().unwrap_or(usize::MAX))
                .collect(),
        ))
    }

    /// Whether a remote version's relay has the two idle connections a game takes.
    fn availability(&self) -> Option<tarneeb_referee::league::source::Availability> {
        let lobby = Arc::clone(&self.setup.as_ref()?.lobby);
        let keys = self.keys.clone();
        Some(Box::new(move |v: &Version| {
            keys.get(&v.entrant).is_some_and(|&k| lobby.idle(k) >= 2)
        }))
    }
}

/// How a wait for remote entrants ended.
enum Waited {
    Interrupted,
    /// A relay connected: the same roster goes on.
    SameRoster,
    NewRoster,
}

/// No two versions can play because remote ones' relays are away: waits until one comes (or
/// the roster changes, or Ctrl-C), having said so once.
fn wait_for_remote(
    source: &LeagueSource,
    remote: &mut Remote,
    stop: &AtomicBool,
) -> Result<Waited, Failure> {
    let db = source.db();
    if !remote.waiting_said {
        let absent: Vec<&str> = source
            .roster()
            .iter()
            .filter(|v| v.is_remote() && !v.retired)
            .map(|v| v.entrant.as_str())
            .collect();
        eprintln!(
            "waiting: no two entrants can play now; remote entrants {} play once their relays connect",
            absent.join(", ")
        );
        remote.waiting_said = true;
    }
    let stamp = source.stamp();
    let same = || -> Result<bool, Failure> {
        Ok(db.roster_stamp().map_err(|e| failed(e.to_string()))? == stamp)
    };
    while !source.can_pair_now() && same()? {
        if stop.load(Ordering::SeqCst) {
            eprintln!("tarneeb league: interrupted while waiting for remote entrants");
            return Ok(Waited::Interrupted);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    remote.waiting_said = false;
    Ok(if same()? {
        Waited::SameRoster
    } else {
        Waited::NewRoster
    })
}

/// The runs of a league: one per roster, until `--games` or an interrupt.
/// `base` is every run's configuration but its entrants (each run's roster).
fn play(
    a: &RunArgs,
    mut source: LeagueSource,
    tdir: &mut TournamentDir,
    base: RunConfig,
    remote: &mut Remote,
    stop: &'static AtomicBool,
) -> Result<u8, Failure> {
    let mut waiting_said = false;
    loop {
        let cfg = roster_config(a, &mut source, &base, remote)?;
        if source.replays() > 0 {
            eprintln!(
                "playing again {} games a stopped run left unfinished",
                source.replays()
            );
        }
        let prior = runner::load_counted(&cfg, tdir).map_err(usage)?;
        let summary = runner::run(&cfg, &mut source, prior, stop).map_err(|e| {
            failed(format!(
                "{e}; finished games are kept in {}",
                a.dir.display()
            ))
        })?;
        if summary.interrupted {
            eprintln!(
                "tarneeb league: interrupted: {} finished games are kept in {}; `tarneeb league run {}` goes on",
                source.games(),
                a.dir.display(),
                a.dir.display()
            );
            return Ok(130);
        }
        match after_run(a, &mut source, remote, &mut waiting_said, stop)? {
            Next::Stop(code) => return Ok(code),
            Next::Done => break,
            // The same roster: go on without reading the league again.
            Next::SameRoster => continue,
            Next::NewRoster => {}
        }
        source = source.next_run().map_err(failed)?;
    }
    league_read::print_table(source.db(), false)?;
    Ok(0)
}

/// The configuration of the run of `source`'s roster: its entrants, and the lobby its remote
/// ones play through (the server started when a roster first has one).
fn roster_config(
    a: &RunArgs,
    source: &mut LeagueSource,
    base: &RunConfig,
    remote: &mut Remote,
) -> Result<RunConfig, Failure> {
    let keys = remote.prepare(a, source.roster(), base.limits.max_line)?;
    if let Some(available) = remote.availability() {
        source.set_remote(available, a.remote_duplicate);
    }
    Ok(RunConfig {
        entrants: source.entrants(),
        lobby: remote.setup.as_ref().map(|r| Arc::clone(&r.lobby)),
        lobby_keys: keys.unwrap_or_default(),
        ..base.clone()
    })
}

/// What follows a run that was not interrupted.
enum Next {
    /// The league holds the games `--games` asked for.
    Done,
    /// Interrupted while waiting: this exit code.
    Stop(u8),
    /// Go on with the same roster.
    SameRoster,
    /// Read the roster again.
    NewRoster,
}

/// Why the run of `source` ended, and what follows: the league done, a failure, or a wait
/// for entrants (remote ones' relays, or a second active entrant).
fn after_run(
    a: &RunArgs,
    source: &mut LeagueSource,
    remote: &mut Remote,
    waiting_said: &mut bool,
    stop: &AtomicBool,
) -> Result<Next, Failure> {
    match source.ended.clone() {
        Some(Ended::Limit) => Ok(Next::Done),
        Some(Ended::Failed(e)) => Err(failed(e)),
        None if source.waiting_for_remote() => Ok(match wait_for_remote(source, remote, stop)? {
            Waited::Interrupted => Next::Stop(130),
            Waited::SameRoster => {
                source.ended = None;
                Next::SameRoster
            }
            Waited::NewRoster => Next::NewRoster,
        }),
        Some(Ended::Roster) | None => {
            *waiting_said = false;
            Ok(Next::NewRoster)
        }
        Some(Ended::TooFew) => wait_for_entrants(a, source, waiting_said, stop),
    }
}

/// Fewer than two active entrants: waits until the roster changes (or Ctrl-C), having said
/// so once.
fn wait_for_entrants(
    a: &RunArgs,
    source: &LeagueSource,
    waiting_said: &mut bool,
    stop: &AtomicBool,
) -> Result<Next, Failure> {
    if !*waiting_said {
        eprintln!(
            "waiting: the league has fewer than two active entrants; add one with `tarneeb league add {} NAME=CMD`",
            a.dir.display()
        );
        *waiting_said = true;
    }
    // The roster this run had: a change since (even before this wait) ends it.
    let stamp = source.stamp();
    while source
        .db()
        .roster_stamp()
        .map_err(|e| failed(e.to_string()))?
        == stamp
    {
        if stop.load(Ordering::SeqCst) {
            eprintln!("tarneeb league: interrupted while waiting for entrants");
            return Ok(Next::Stop(130));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    Ok(Next::NewRoster)
}
