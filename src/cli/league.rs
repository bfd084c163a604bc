//! `tarneeb league`: start a league, add, update and retire entrants, run it, read its table
//! and histories, check its database. Exit codes: 0 done, 1 the program failed or a check
//! found an edited row, 2 bad usage or input, 130 interrupted.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use super::args::{parse_duration_ms, BotLimits, SandboxArgs};
use super::league_read::{self, failed, usage, Failure, HistoryArgs, ReadArgs};
use super::remote_args::{ListenArgs, RemoteSetup};
use tarneeb_referee::bot::{allowed_cpus, become_subreaper, check_can_start, split_command};
use tarneeb_referee::league::db::{Db, Version, DB_FILE};
use tarneeb_referee::league::source::{league_standings, ratings_of, Ended, LeagueSource};
use tarneeb_referee::remote::tokens::{Tokens, TOKENS_FILE};
use tarneeb_referee::standings::tally::Tally;
use tarneeb_referee::tournament::directory::seal;
use tarneeb_referee::tournament::directory::{RowCheck, TournamentDir};
use tarneeb_referee::tournament::run::progress::ProgressMode;
use tarneeb_referee::tournament::run::runner::{self, Entrant, RunConfig};
use tarneeb_referee::tournament::schedule::Partners;
use tarneeb_referee::{deal_key, rules_file, signals};

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

const DEAL_KEY_FILE: &str = ".deal-key";
const LOCK_FILE: &str = "league.lock";

fn start(a: StartArgs) -> Result<u8, Failure> {
    if a.dir.join(DB_FILE).exists() {
        return Err(usage(format!(
            "{} holds a league already: add entrants with `tarneeb league add {} NAME=CMD` and run it with `tarneeb league run {}`",
            a.dir.display(),
            a.dir.display(),
            a.dir.display()
        )));
    }
    if a.dir
        .join(tarneeb_referee::tournament::directory::TOURNAMENT_FILE)
        .exists()
    {
        return Err(usage(format!(
            "{} holds a tournament: start the league in another directory",
            a.dir.display()
        )));
    }
    let rules = rules_file::load(&a.settings.rules).map_err(|e| usage(e.to_string()))?;
    // Checked now, so that `run` never meets a sandbox it cannot have.
    let sandbox = a
        .settings
        .sandbox
        .sandbox()
        .map_err(|e| usage(e.to_string()))?;
    let argv: Vec<String> = std::env::args().collect();
    let stored = settings_argv(&argv);
    let config = json!({
        "format": "league",
        "seed": a.settings.seed,
        "partners": a.settings.partners.name(),
        "rules": rules,
        "time": a.settings.limits.time(),
        "sandbox": sandbox.label(),
        "limits": sandbox.limits().describe(),
        "league_settings": stored,
    });
    let (mut dir, _) = TournamentDir::claim(&a.dir, None, &config).map_err(usage)?;
    dir.ensure_key().map_err(failed)?;
    deal_key::write_new(&a.dir.join(DEAL_KEY_FILE), &deal_key::fresh())
        .map_err(|e| failed(e.to_string()))?;
    let db = Db::open(&a.dir, true).map_err(|e| failed(e.to_string()))?;
    db.set_meta("settings", &serde_json::to_string(&stored).expect("JSON"))
        .map_err(|e| failed(e.to_string()))?;
    eprintln!(
        "league started in {} ({}, {}); add entrants with `tarneeb league add {} NAME=CMD`, then `tarneeb league run {}`",
        a.dir.display(),
        a.settings.rules,
        sandbox.label(),
        a.dir.display(),
        a.dir.display()
    );
    Ok(0)
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

fn stored_settings(db: &Db) -> Result<Settings, Failure> {
    let text = db
        .meta("settings")
        .map_err(|e| failed(e.to_string()))?
        .ok_or_else(|| {
            failed(format!(
                "{}: the league's settings are missing",
                db.path().display()
            ))
        })?;
    let argv: Vec<String> = serde_json::from_str(&text).map_err(|e| {
        failed(format!(
            "{}: the league's settings: {e}",
            db.path().display()
        ))
    })?;
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

fn parse_entrant(text: &str) -> Result<(String, Vec<String>), Failure> {
    let (name, cmd) = text.split_once('=').ok_or_else(|| {
        usage(format!(
            "'{text}': write NAME=CMD, like rnd='python3 random_bot.py'"
        ))
    })?;
    let name = name.trim();
    if !super::tournament::is_entrant_name(name) {
        return Err(usage(format!(
            "'{text}': the name '{name}' may only hold letters, digits, '_', '.' and '-'"
        )));
    }
    let command = split_command(cmd).map_err(|e| usage(format!("{name}: {e}")))?;
    if command.len() == 1 && command[0] == Entrant::WEB {
        return Err(usage(format!(
            "{name}: a league plays programs, local or remote (NAME=remote); a person in a browser plays a `tarneeb tournament` or `tarneeb play`"
        )));
    }
    if command.len() == 1 && command[0] == Entrant::REMOTE {
        return Ok((name.to_string(), command));
    }
    check_can_start(&command).map_err(|e| usage(format!("{name}: {e}")))?;
    Ok((name.to_string(), command))
}

fn add(a: EntrantArgs, update: bool) -> Result<u8, Failure> {
    let (name, command) = parse_entrant(&a.entrant)?;
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

/// One `league run` at a time writes a league: an exclusive lock held while it runs.
fn lock(dir: &Path) -> Result<std::fs::File, Failure> {
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

/// Rows of results.jsonl the database lacks (a league killed between the two writes) go in
/// now; the table is then recomputed.
fn mend(dir: &mut TournamentDir, db: &mut Db, key: &seal::Key) -> Result<u64, Failure> {
    let ids: std::collections::HashMap<String, i64> = db
        .versions()
        .map_err(|e| failed(e.to_string()))?
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
            .map_err(|e| failed(e.to_string()))?;
    }
    if !missing.is_empty() {
        let mut tally = Tally::new();
        db.rows(|r, _| {
            tally.push(r);
            Ok(())
        })
        .map_err(|e| failed(e.to_string()))?;
        let s = league_standings(&tally);
        let ratings = ratings_of(&s, &ids);
        db.set_standings(&ratings, &serde_json::to_string(&s).expect("JSON"))
            .map_err(|e| failed(e.to_string()))?;
    }
    Ok(missing.len() as u64)
}

fn run_league(a: RunArgs) -> Result<u8, Failure> {
    if !(0.5..=1.0).contains(&a.max_share) {
        return Err(usage(format!(
            "--max-share {}: give a share from 0.5 to 1",
            a.max_share
        )));
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(usage("--jobs must be at least 1"));
    }
    a.net.check().map_err(usage)?;
    if a.remote_connections < 2 {
        return Err(usage(
            "--remote-connections must be at least 2: a remote entrant partners itself, so a game takes two of its connections",
        ));
    }
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    let _lock = lock(&a.dir)?;
    let settings = stored_settings(&db)?;
    let rules = rules_file::load(&settings.rules).map_err(|e| usage(e.to_string()))?;
    let mut sandbox = settings
        .sandbox
        .sandbox()
        .map_err(|e| usage(e.to_string()))?;
    sandbox.mask(&a.dir);
    let sandbox = std::sync::Arc::new(sandbox);
    let mut tdir = TournamentDir::open(&a.dir).map_err(usage)?;
    let key = tdir.ensure_key().map_err(failed)?;
    if !tdir.sandboxed() {
        eprintln!("note: no sandbox: a bot could read the seal key, so neither results.jsonl nor league.db is sealed against it");
    }
    let mut db = db;
    let mended = mend(&mut tdir, &mut db, &key)?;
    if mended > 0 {
        eprintln!("{mended} finished games were in results.jsonl but not yet in {DB_FILE}: added");
    }
    let stop = signals::install();
    let _ = become_subreaper();
    let cpus = allowed_cpus();
    let cpus = (jobs <= cpus.len()).then(|| cpus[..jobs].to_vec());
    let page = match a.serve {
        Some(addr) => Some(super::serve::start(&a.dir, addr, None).map_err(usage)?),
        None => None,
    };
    let secret = deal_key::read(&a.dir.join(DEAL_KEY_FILE)).map_err(|e| usage(e.to_string()))?;
    let cfg = RunConfig {
        dir: a.dir.clone(),
        entrants: Vec::new(),
        rules,
        time: settings.limits.time(),
        on_fault: settings.limits.on_fault,
        events: settings.limits.events,
        freeze_off_turn: settings.limits.freeze_off_turn,
        max_line: settings.limits.max_line,
        stderr_cap: settings.limits.stderr_cap,
        jobs,
        cpus,
        deals: Vec::new(),
        sprt: None,
        total: a.games.unwrap_or(0),
        progress: a.progress,
        sandbox,
        fresh_bots: a.fresh_bots,
        compress: false,
        trace: None,
        analyze: false,
        only_shard: None,
        deal_secret: Some(secret),
        watched: a.serve.is_some(),
        lobby: None,
        lobby_keys: Vec::new(),
    };
    let mut remote = Remote::default();
    let ran = play(
        &a,
        db,
        &mut tdir,
        &key,
        (settings.seed, settings.partners),
        cfg,
        &mut remote,
        stop,
    );
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
        let lobby = std::sync::Arc::clone(&self.setup.as_ref()?.lobby);
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
    stop: &std::sync::atomic::AtomicBool,
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
#[allow(clippy::too_many_arguments)]
fn play(
    a: &RunArgs,
    db: Db,
    tdir: &mut TournamentDir,
    key: &seal::Key,
    (seed, partners): (u64, Partners),
    base: RunConfig,
    remote: &mut Remote,
    stop: &'static std::sync::atomic::AtomicBool,
) -> Result<u8, Failure> {
    let mut waiting_said = false;
    let mut source =
        LeagueSource::new(db, key.clone(), seed, a.games, a.max_share).map_err(failed)?;
    source.set_partners(partners);
    if a.remote_duplicate {
        source
            .db()
            .set_meta("remote_duplicate", "true")
            .map_err(|e| failed(e.to_string()))?;
    }
    loop {
        let keys = remote.prepare(a, source.roster(), base.max_line)?;
        if let Some(available) = remote.availability() {
            source.set_remote(available, a.remote_duplicate);
        }
        let cfg = RunConfig {
            entrants: source
                .roster()
                .iter()
                .map(|v| Entrant {
                    name: v.label.clone(),
                    command: v.command.clone(),
                })
                .collect(),
            lobby: remote
                .setup
                .as_ref()
                .map(|r| std::sync::Arc::clone(&r.lobby)),
            lobby_keys: keys.unwrap_or_default(),
            ..base.clone()
        };
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
        let ended = source.ended.clone();
        let db = source.db();
        match ended {
            Some(Ended::Limit) => break,
            Some(Ended::Failed(e)) => return Err(failed(e)),
            None if source.waiting_for_remote() => match wait_for_remote(&source, remote, stop)? {
                Waited::Interrupted => return Ok(130),
                Waited::SameRoster => {
                    // The same roster: go on without reading the league again.
                    source.ended = None;
                    continue;
                }
                Waited::NewRoster => {}
            },
            Some(Ended::Roster) | None => waiting_said = false,
            Some(Ended::TooFew) => {
                if !waiting_said {
                    eprintln!(
                        "waiting: the league has fewer than two active entrants; add one with `tarneeb league add {} NAME=CMD`",
                        a.dir.display()
                    );
                    waiting_said = true;
                }
                // The roster this run had: a change since (even before this wait) ends it.
                let stamp = source.stamp();
                while db.roster_stamp().map_err(|e| failed(e.to_string()))? == stamp {
                    if stop.load(Ordering::SeqCst) {
                        eprintln!("tarneeb league: interrupted while waiting for entrants");
                        return Ok(130);
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
        }
        source = source.next_run().map_err(failed)?;
    }
    league_read::print_table(source.db(), false)?;
    Ok(0)
}
