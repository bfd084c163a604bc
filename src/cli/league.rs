//! `tarneeb league`: start a league, add, update and retire entrants, run it, read its table
//! and histories, check its database. Exit codes: 0 done, 1 the program failed or a check
//! found an edited row, 2 bad usage or input, 130 interrupted.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use super::args::{BotLimits, SandboxArgs};
use tarneeb_referee::bot::{allowed_cpus, become_subreaper, check_can_start, split_command};
use tarneeb_referee::league::db::{Db, HistoryPoint, RatingNow, Version, DB_FILE};
use tarneeb_referee::league::plot;
use tarneeb_referee::league::source::{Ended, LeagueSource};
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::table::{from_totals, Standings};
use tarneeb_referee::standings::tally::Tally;
use tarneeb_referee::tournament::directory::{RowCheck, TournamentDir};
use tarneeb_referee::tournament::progress::ProgressMode;
use tarneeb_referee::tournament::runner::{self, Entrant, RunConfig};
use tarneeb_referee::tournament::seal;
use tarneeb_referee::{deal_key, out, outln, rules_file, signals};

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
    /// Add an entrant (its first version), also while the league runs.
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
    /// NAME=CMD: a name ([A-Za-z0-9_.-]) and the bot's command line.
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
}

#[derive(Args, Debug)]
struct ReadArgs {
    dir: PathBuf,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct HistoryArgs {
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

struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

fn failed(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

pub fn run(args: LeagueArgs) -> u8 {
    let done = match args.command {
        LeagueCommand::Start(a) => start(a),
        LeagueCommand::Add(a) => add(a, false),
        LeagueCommand::Update(a) => add(a, true),
        LeagueCommand::Retire(a) => retire(a),
        LeagueCommand::Run(a) => run_league(a),
        LeagueCommand::Table(a) => table(a),
        LeagueCommand::History(a) => history(a),
        LeagueCommand::Check(a) => check(a),
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
    if command.len() == 1 && (command[0] == Entrant::REMOTE || command[0] == Entrant::WEB) {
        return Err(usage(format!(
            "{name}: a league plays local programs only so far (remote and web entrants are for `tarneeb tournament`)"
        )));
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
    Ok(0)
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
        let s = from_totals(tally.totals());
        let ratings = ratings_of(&s, &ids);
        db.set_standings(&ratings, &serde_json::to_string(&s).expect("JSON"))
            .map_err(|e| failed(e.to_string()))?;
    }
    Ok(missing.len() as u64)
}

fn ratings_of(s: &Standings, ids: &std::collections::HashMap<String, i64>) -> Vec<RatingNow> {
    s.entrants
        .iter()
        .filter_map(|e| {
            Some(RatingNow {
                version: *ids.get(&e.name)?,
                games: e.games as i64,
                place: e.place as i64,
                elo: e.elo,
                low: e.elo_low,
                high: e.elo_high,
            })
        })
        .collect()
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
    };
    let ran = play(&a, db, &mut tdir, &key, settings.seed, cfg, stop);
    if let Some(page) = page {
        page.finish();
    }
    ran
}

/// The runs of a league: one per roster, until `--games` or an interrupt.
/// `base` is every run's configuration but its entrants (each run's roster).
fn play(
    a: &RunArgs,
    mut db: Db,
    tdir: &mut TournamentDir,
    key: &seal::Key,
    seed: u64,
    base: RunConfig,
    stop: &'static std::sync::atomic::AtomicBool,
) -> Result<u8, Failure> {
    let mut waiting_said = false;
    loop {
        let mut source =
            LeagueSource::new(db, key.clone(), seed, a.games, a.max_share).map_err(failed)?;
        let cfg = RunConfig {
            entrants: source
                .roster()
                .iter()
                .map(|v| Entrant {
                    name: v.label.clone(),
                    command: v.command.clone(),
                })
                .collect(),
            dir: base.dir.clone(),
            rules: base.rules.clone(),
            time: base.time,
            on_fault: base.on_fault,
            events: base.events,
            freeze_off_turn: base.freeze_off_turn,
            max_line: base.max_line,
            stderr_cap: base.stderr_cap,
            jobs: base.jobs,
            cpus: base.cpus.clone(),
            deals: Vec::new(),
            sprt: None,
            total: base.total,
            progress: base.progress,
            sandbox: base.sandbox.clone(),
            fresh_bots: base.fresh_bots,
            compress: false,
            trace: None,
            analyze: false,
            only_shard: None,
            deal_secret: base.deal_secret.clone(),
            watched: base.watched,
            lobby: None,
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
        db = source.into_db();
        match ended {
            Some(Ended::Limit) => break,
            Some(Ended::Failed(e)) => return Err(failed(e)),
            Some(Ended::Roster) | None => waiting_said = false,
            Some(Ended::TooFew) => {
                if !waiting_said {
                    eprintln!(
                        "waiting: the league has fewer than two active entrants; add one with `tarneeb league add {} NAME=CMD`",
                        a.dir.display()
                    );
                    waiting_said = true;
                }
                let stamp = db.roster_stamp().map_err(|e| failed(e.to_string()))?;
                while db.roster_stamp().map_err(|e| failed(e.to_string()))? == stamp {
                    if stop.load(Ordering::SeqCst) {
                        eprintln!("tarneeb league: interrupted while waiting for entrants");
                        return Ok(130);
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
        }
    }
    print_table(&db, false)?;
    Ok(0)
}

fn load_standings(db: &Db) -> Result<Option<Standings>, Failure> {
    let text = db.meta("standings").map_err(|e| failed(e.to_string()))?;
    match text.as_deref() {
        None | Some("null") => Ok(None),
        Some(t) => serde_json::from_str(t)
            .map(Some)
            .map_err(|e| failed(format!("{}: the stored table: {e}", db.path().display()))),
    }
}

fn print_table(db: &Db, json: bool) -> Result<(), Failure> {
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
        table_text(standings.as_ref(), &versions)
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
            if v.retired { "retired" } else { "active" }.to_string(),
            v.games.to_string(),
            v.elo.map_or("-".to_string(), report::signed),
            previous,
        ]);
    }
    text.push_str(&report::aligned(&rows, &[0, 1, 4]));
    text
}

fn table(a: ReadArgs) -> Result<u8, Failure> {
    let db = Db::open(&a.dir, false).map_err(|e| usage(e.to_string()))?;
    print_table(&db, a.json)?;
    Ok(0)
}

fn history(a: HistoryArgs) -> Result<u8, Failure> {
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

fn check(a: ReadArgs) -> Result<u8, Failure> {
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
    let stale = stale_table(&db, (tally.rows() > 0).then(|| from_totals(tally.totals())))?;
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
