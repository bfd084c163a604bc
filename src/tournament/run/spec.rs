//! A tournament as asked for ([`TournamentSettings`]: what `tarneeb tournament`'s flags, a
//! `--config` file or the league give) made into one that can run ([`TournamentSpec`]): every
//! check a tournament can fail (rules, entrants and their names, the schedule, the SPRT against
//! the format, remote entrants, bot commands, deals, deal keys, the directory's earlier command)
//! is made by [`TournamentSpec::new`], before anything is printed or created. Then
//! [`TournamentSpec::open`] claims the directory and [`Opened::run`] plays the games.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::bot::sandbox::SandboxOptions;
use crate::bot::{allowed_cpus, check_can_start, split_command, Sandbox};
use crate::remote::lobby::Lobby;
use crate::rules::{DealSecret, Rules};
use crate::standings::sprt::{parse_sprt, SprtConfig};
use crate::tournament::directory::{self, RunLock, TournamentDir, TOURNAMENT_FILE};
use crate::tournament::run::progress::ProgressMode;
use crate::tournament::run::runner::{self, Entrant, Prior, RunConfig, RunError, RunSummary};
use crate::tournament::schedule::deal_sets::load_deals;
use crate::tournament::schedule::shard::{SHARD_UNIT, TWINS_APART_UNIT};
use crate::tournament::schedule::swiss_shards::{self, Shard};
use crate::tournament::schedule::{Format, Partners, Plan, Schedule};
use crate::{deal_key, rules_file};

/// The name of a tournament directory's own deal secret (when no deal key file was given).
pub const DEAL_KEY_FILE: &str = ".deal-key";

/// What remote and web entrants are allowed.
#[derive(Clone, Debug)]
pub struct RemotePolicy {
    /// `--remote-duplicate`: duplicate deals with remote entrants allowed anyway.
    pub duplicate_allowed: bool,
    /// `--remote-connections`.
    pub connections: usize,
    /// Why the server for remote seats cannot listen as asked (its address, its TLS files),
    /// as the front end that owns the listener found it; `None` when it can.
    pub listener_refused: Option<String>,
}

/// A tournament as asked for, before any check. Field names follow the flags of
/// `tarneeb tournament` (its `--help` says what each does).
#[derive(Clone, Debug)]
pub struct TournamentSettings {
    /// `--bot NAME=CMD`, as given.
    pub bots: Vec<String>,
    pub out: PathBuf,
    pub format: Format,
    pub rounds: u64,
    pub partners: Partners,
    pub games: u64,
    /// Not `--no-duplicate`.
    pub duplicate: bool,
    pub progress: ProgressMode,
    pub seed: u64,
    pub deal_key: Option<PathBuf>,
    pub public_deals: bool,
    /// The `--config` file, hidden from the bots.
    pub config_file: Option<PathBuf>,
    /// A preset name, a rules file, or complete rules inline as JSON.
    pub rules: String,
    pub deals_from: Option<PathBuf>,
    /// `--jobs`; `None`: the number of CPUs.
    pub jobs: Option<usize>,
    /// Not `--no-pin`.
    pub pin: bool,
    pub fresh_bots: bool,
    pub compress: bool,
    pub sprt: Option<String>,
    pub shard: Option<(u64, u64)>,
    pub twins_apart: bool,
    pub round: Option<u64>,
    pub peers: Vec<PathBuf>,
    pub limits: SeatLimits,
    pub sandbox: SandboxOptions,
    pub remote: RemotePolicy,
    pub trace: Option<PathBuf>,
    pub analyze: bool,
    /// `--serve`: records flushed move by move for a live page.
    pub watched: bool,
}

/// Where a run's deal secret comes from.
enum DealSecretOrigin {
    /// `--public-deals`: none.
    Public,
    /// `--deal-key FILE`, or the directory's own key on resume.
    Existing(DealSecret),
    /// A fresh one, written to DIR/.deal-key once the directory is claimed.
    New(DealSecret),
}

impl DealSecretOrigin {
    fn secret(&self) -> Option<DealSecret> {
        match self {
            DealSecretOrigin::Public => None,
            DealSecretOrigin::Existing(s) | DealSecretOrigin::New(s) => Some(s.clone()),
        }
    }
}

/// A tournament checked and ready to open: nothing has been printed or created yet.
pub struct TournamentSpec {
    pub settings: TournamentSettings,
    pub entrants: Vec<Entrant>,
    pub rules: Rules,
    /// The whole schedule's plan (a Swiss to its last round).
    pub plan: Plan,
    /// A sharded Swiss: this shard and the last round it plays.
    pub swiss_shard: Option<(Shard, u64)>,
    /// The games this run plays (after sharding).
    pub total: u64,
    /// What `tournament.json` says (a resume must say the same).
    pub config: Value,
    schedule: Schedule,
    sprt: Option<SprtConfig>,
    deals: Vec<crate::record::RecordedDeals>,
    jobs: usize,
    cpus: Option<Vec<usize>>,
    sandbox: Sandbox,
    existing: Option<TournamentDir>,
    deal_secret: DealSecretOrigin,
}

pub use crate::referee::spec::is_entrant_name;
pub use crate::tournament::run::runner::SeatLimits;

/// `NAME=CMD` into an entrant.
pub fn parse_entrant(text: &str) -> Result<Entrant, String> {
    let (name, cmd) = text.split_once('=').ok_or_else(|| {
        format!("--bot '{text}': write NAME=CMD, like --bot rnd='python3 random_bot.py'")
    })?;
    let name = name.trim();
    if !is_entrant_name(name) {
        return Err(format!(
            "--bot '{text}': the name '{name}' may only hold letters, digits, '_', '.' and '-'"
        ));
    }
    let command = split_command(cmd).map_err(|e| format!("--bot {name}: {e}"))?;
    Ok(Entrant {
        name: name.to_string(),
        command,
    })
}

/// `K/N` (`--shard`).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{text}' is not a shard: write K/N with 1 <= K <= N, like 1/4");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// `--rules`: complete rules inline (a tournament.json fed back with --config) or a preset or
/// file. The league's settings are checked with it too.
pub fn load_rules(text: &str) -> Result<Rules, String> {
    if text.trim_start().starts_with('{') {
        rules_file::from_json_text(text, "--rules")
    } else {
        rules_file::load(text)
    }
    .map_err(|e| e.to_string())
}

/// The entrants of `--bot`, their names unique.
fn entrants(bots: &[String]) -> Result<Vec<Entrant>, String> {
    let entrants: Vec<Entrant> = bots
        .iter()
        .map(|b| parse_entrant(b))
        .collect::<Result<_, _>>()?;
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "two entrants are named '{}': names must be unique",
                e.name
            ));
        }
    }
    Ok(entrants)
}

/// The shard and last round of a sharded Swiss, after checking `--round` and `--peers`.
fn swiss_shard(s: &TournamentSettings) -> Result<Option<(Shard, u64)>, String> {
    if let Some(r) = s.round {
        if s.format != Format::Swiss {
            return Err("--round is for --format swiss".into());
        }
        if r == 0 || r > s.rounds {
            return Err(format!(
                "--round {r}: give a round from 1 to --rounds ({})",
                s.rounds
            ));
        }
    }
    let sharded = s.format == Format::Swiss && s.shard.is_some();
    if sharded && s.twins_apart {
        return Err(
            "--twins-apart works with round-robin and gauntlet shards, not a Swiss (its pairing reads the other shards' results each round); shard a Swiss without it".into(),
        );
    }
    if !s.peers.is_empty() && !sharded {
        return Err(
            "--peers is for a Swiss played in shards (--format swiss --shard K/N --round R)".into(),
        );
    }
    match (sharded, s.shard, s.round) {
        (true, Some((k, n)), Some(r)) => Ok(Some((Shard::new(k, n, s.duplicate), r))),
        (true, _, _) => Err(
            "--shard with --format swiss needs --round R: every shard plays round 1 (--round 1), then, given the others' directories with --peers, round 2 (--round 2), and so on".into(),
        ),
        _ => Ok(None),
    }
}

/// The SPRT of `--sprt`, checked against the format.
fn sprt(s: &TournamentSettings, entrants: usize) -> Result<Option<SprtConfig>, String> {
    let Some(text) = &s.sprt else {
        return Ok(None);
    };
    if s.format != Format::Gauntlet || entrants != 2 || s.partners != Partners::Own {
        return Err(
            "--sprt needs --format gauntlet with exactly two entrants (it tests the first against the second)".into(),
        );
    }
    if s.shard.is_some() {
        return Err("--sprt cannot be combined with --shard: the test needs every result".into());
    }
    let cfg = parse_sprt(text)?;
    if cfg.boards.is_some() && !s.duplicate {
        return Err(
            "--sprt score=boards compares the two games of a duplicate pair hand by hand: drop --no-duplicate".into(),
        );
    }
    Ok(Some(cfg))
}

/// Remote and web entrants against the deals and the listener: checked before anything is
/// written.
fn check_remote(entrants: &[Entrant], duplicate: bool, p: &RemotePolicy) -> Result<(), String> {
    let web: Vec<&str> = entrants
        .iter()
        .filter(|e| e.is_web())
        .map(|e| e.name.as_str())
        .collect();
    if !web.is_empty() && duplicate {
        return Err(format!(
            "{} {} played in a browser: a person remembers the cards of one game of a duplicate pair when playing its twin; add --no-duplicate",
            web.join(", "),
            if web.len() == 1 { "is" } else { "are" }
        ));
    }
    let remote: Vec<&str> = entrants
        .iter()
        .filter(|e| e.is_remote())
        .map(|e| e.name.as_str())
        .collect();
    if remote.is_empty() {
        return Ok(());
    }
    if duplicate && !p.duplicate_allowed {
        return Err(format!(
            "{} {} remote: duplicate deals let an entrant's connections, which all belong to one owner, learn a deal in one game of a pair before playing its twin; add --no-duplicate, or --remote-duplicate to allow it anyway (the standings then say so)",
            remote.join(", "),
            if remote.len() == 1 { "is" } else { "are" }
        ));
    }
    if let Some(why) = &p.listener_refused {
        return Err(why.clone());
    }
    if p.connections < 2 {
        return Err(
            "--remote-connections must be at least 2: an entrant partnered with itself holds two seats of a game, each played by a connection of its own"
                .into(),
        );
    }
    Ok(())
}

/// Games at once (`--jobs`; `None`: the number of CPUs), and the CPUs they are pinned to
/// (`pin`: not `--no-pin`). The league's runs are checked with it too.
pub fn jobs_and_cpus(
    jobs: Option<usize>,
    pin: bool,
) -> Result<(usize, Option<Vec<usize>>), String> {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err("--jobs must be at least 1".into());
    }
    let cpus = allowed_cpus();
    let cpus = (pin && jobs <= cpus.len()).then(|| cpus[..jobs].to_vec());
    Ok((jobs, cpus))
}

/// The sandbox the sandbox flags ask for, nothing masked yet; what cannot be had is said as
/// the flags' error. The league's settings are checked with it too.
pub fn new_sandbox(options: &SandboxOptions) -> Result<Sandbox, String> {
    Sandbox::new(options).map_err(|e| e.to_string())
}

/// The sandbox, every file a bot must not read masked in it (the trace directory is masked
/// when it is made, in [`TournamentSpec::open`]).
fn sandbox(s: &TournamentSettings) -> Result<Sandbox, String> {
    let mut sandbox = new_sandbox(&s.sandbox)?;
    sandbox.mask(&s.out);
    // Other shards' directories hold records and seal keys: nothing a bot should read.
    for p in &s.peers {
        sandbox.mask(p);
    }
    for p in [&s.deals_from, &s.deal_key].into_iter().flatten() {
        sandbox.mask(p);
    }
    if let Some(file) = &s.config_file {
        sandbox.mask(file);
        // An earlier tournament's tournament.json fed back: its directory holds records and
        // keys.
        if file.file_name().is_some_and(|n| n == TOURNAMENT_FILE) {
            if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                sandbox.mask(dir);
            }
        }
    }
    Ok(sandbox)
}

/// What `tournament.json` says of this tournament.
fn config(s: &TournamentSettings, entrants: &[Entrant], rules: &Rules, sandbox: &Sandbox) -> Value {
    let o = &s.sandbox;
    let mut config = json!({
        "entrants": entrants.iter().map(|e| json!({"name": e.name, "command": e.command})).collect::<Vec<_>>(),
        "format": s.format.name(),
        "partners": s.partners.name(),
        "games": s.games,
        "duplicate": s.duplicate,
        "seed": s.seed,
        "rules": rules,
        "deals_from": s.deals_from.as_ref().map(|p| p.display().to_string()),
        "time": s.limits.time,
        "on_fault": s.limits.on_fault.to_string(),
        "events": s.limits.events.to_string(),
        "max_line": s.limits.max_line,
        "stderr_cap": s.limits.stderr_cap,
        "shard": s.shard.map(|(k, n)| format!("{k}/{n}")),
        "sprt": s.sprt,
        "sandbox": sandbox.label(),
        "limits": sandbox.limits().describe(),
        // The same settings again as the flags that give them, so tournament.json can be fed
        // back with --config.
        "sandbox_user": o.user.to_string(),
        "sandbox_ro": o.ro.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "sandbox_env": o.env,
        "memory_limit": o.limits.memory_limit,
        "process_limit": o.limits.process_limit,
        "file_size_limit": o.limits.file_size_limit,
        "open_files_limit": o.limits.open_files_limit,
        "disk_limit": o.limits.disk_limit,
        "cpu_limit": o.limits.cpu_limit.map(|ms| format!("{ms}ms")),
    });
    if s.shard.is_some() {
        // Written only where it applies, so that unsharded directories resume as before; a
        // shard directory of a version that split duplicate pairs lacks it and is refused.
        config["shard_unit"] = json!(SHARD_UNIT);
    }
    if s.twins_apart {
        config["shard_unit"] = json!(TWINS_APART_UNIT);
        config["twins_apart"] = json!(true);
    }
    if s.rounds > 0 {
        config["rounds"] = json!(s.rounds);
    }
    if s.analyze {
        config["analyze"] = json!(true);
    }
    let named = |keep: fn(&Entrant) -> bool| {
        json!(entrants
            .iter()
            .filter(|e| keep(e))
            .map(|e| e.name.clone())
            .collect::<Vec<_>>())
    };
    if entrants.iter().any(Entrant::is_web) {
        config["web"] = named(Entrant::is_web);
    }
    if entrants.iter().any(Entrant::is_remote) {
        config["remote"] = named(Entrant::is_remote);
        if s.remote.duplicate_allowed && s.duplicate {
            config["remote_duplicate"] = json!(true);
        }
    }
    config
}

/// The run's deal secret, its public id put in `config` (so a resume or a shard with another
/// key is refused as another command); the errors say how to resume what was started.
fn deal_secret(
    s: &TournamentSettings,
    started: Option<&TournamentDir>,
    config: &mut Value,
) -> Result<DealSecretOrigin, String> {
    let started_key = started.map(|d| {
        let v = d.config();
        v.get("deal_key_id")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    if s.public_deals {
        config["public_deals"] = json!(true);
        if let Some(Some(id)) = started_key {
            return Err(format!(
                "{} was started with secret deals (deal key {id}): drop --public-deals to resume it",
                s.out.display()
            ));
        }
        return Ok(DealSecretOrigin::Public);
    }
    if matches!(started_key, Some(None)) {
        return Err(format!(
            "{} was started with public deals (with --public-deals, or by a tarneeb without deal keys): add --public-deals to resume it",
            s.out.display()
        ));
    }
    let own = s.out.join(DEAL_KEY_FILE);
    let origin = if let Some(file) = &s.deal_key {
        DealSecretOrigin::Existing(deal_key::read(file).map_err(|e| e.to_string())?)
    } else if own.exists() {
        DealSecretOrigin::Existing(deal_key::read(&own).map_err(|e| e.to_string())?)
    } else if let Some(Some(id)) = started_key {
        return Err(format!(
            "{} plays the deals of the deal key {id}, which it does not hold: give the same --deal-key FILE to resume it",
            s.out.display()
        ));
    } else if s.shard.is_some() {
        return Err(
            "a sharded tournament needs one deal key for all its shards, or their deals would differ: make one with `tarneeb keygen FILE` and give every shard --deal-key FILE (or --public-deals for trusted bots)".into(),
        );
    } else {
        DealSecretOrigin::New(deal_key::fresh())
    };
    config["deal_key_id"] = json!(origin.secret().expect("not public").id());
    Ok(origin)
}

impl TournamentSpec {
    /// Checks everything `s` can get wrong, in the order the errors were always reported, and
    /// prints and creates nothing. The error is a usage error (exit 2), said as users see it.
    pub fn new(s: TournamentSettings) -> Result<TournamentSpec, String> {
        let rules = load_rules(&s.rules)?;
        let entrants = entrants(&s.bots)?;
        let plan = Plan {
            entrants: entrants.len(),
            format: s.format,
            partners: s.partners,
            games: s.games,
            duplicate: s.duplicate,
            seed: s.seed,
            rounds: s.rounds,
        };
        let swiss_shard = swiss_shard(&s)?;
        // A Swiss played up to --round R is the whole one cut after round R.
        let mut schedule = Schedule::new(Plan {
            rounds: s.round.unwrap_or(s.rounds),
            ..plan.clone()
        })?;
        let total = match (swiss_shard, s.shard) {
            (Some((shard, round)), _) => swiss_shards::games_through(&plan, shard, round),
            (None, Some((k, n))) => schedule.shard_as(k, n, s.twins_apart)?,
            (None, None) => schedule.total_games(),
        };
        let sprt = sprt(&s, entrants.len())?;
        // Checked before the first game, after the command itself: a mistyped path stopped a
        // tournament partway.
        check_remote(&entrants, s.duplicate, &s.remote)?;
        for e in entrants.iter().filter(|e| !e.in_lobby()) {
            check_can_start(&e.command).map_err(|err| format!("--bot {}: {err}", e.name))?;
        }
        let deals = match &s.deals_from {
            Some(p) => load_deals(p)?,
            None => Vec::new(),
        };
        let (jobs, cpus) = jobs_and_cpus(s.jobs, s.pin)?;
        let sandbox = sandbox(&s)?;
        let mut config = config(&s, &entrants, &rules, &sandbox);
        let existing = TournamentDir::find(&s.out)?;
        let deal_secret = deal_secret(&s, existing.as_ref(), &mut config)?;
        if let Some(found) = &existing {
            // The earlier command, compared now: claiming it later changes nothing on disk.
            TournamentDir::check_same_command(&s.out, found, &config)?;
        }
        Ok(TournamentSpec {
            settings: s,
            entrants,
            rules,
            plan,
            swiss_shard,
            total,
            config,
            schedule,
            sprt,
            deals,
            jobs,
            cpus,
            sandbox,
            existing,
            deal_secret,
        })
    }

    /// Claims the directory (resumed or new, with its deal key), makes the trace directory and
    /// reads the games played so far (and a Swiss shard's peers' rows). Says nothing.
    pub fn open(self) -> Result<Opened, String> {
        let s = self.settings;
        let lock = directory::lock_for_run(&s.out)?;
        // Looked at again under the lock: a run that ended between `new` and now may have
        // made the directory this spec took for new (its deal key would be written over).
        let existing = match self.existing {
            Some(found) => Some(found),
            None if TournamentDir::find(&s.out)?.is_some() => {
                return Err(format!(
                    "{} was started by another run while this one was checked; run the same command again to resume it",
                    s.out.display()
                ))
            }
            None => None,
        };
        // A new key is on the disk before the tournament.json that names it.
        let new_key = match &self.deal_secret {
            DealSecretOrigin::New(secret) => Some(secret),
            _ => None,
        };
        let mut key_written = false;
        let (mut dir, resumed) = TournamentDir::claim(&s.out, existing, &self.config, || {
            key_written = true;
            new_key.map_or(Ok(()), |secret| {
                deal_key::write_new(&s.out.join(DEAL_KEY_FILE), secret).map_err(|e| e.to_string())
            })
        })?;
        if let Some(secret) = new_key.filter(|_| !key_written) {
            deal_key::write_new(&s.out.join(DEAL_KEY_FILE), secret).map_err(|e| e.to_string())?;
        }
        let mut sandbox = self.sandbox;
        // Traces are written while games run: their directory must exist to be masked.
        if let Some(trace) = &s.trace {
            std::fs::create_dir_all(trace)
                .map_err(|e| format!("--trace {}: cannot create it: {e}", trace.display()))?;
            sandbox.mask(trace);
        }
        let cfg = RunConfig {
            dir: s.out.clone(),
            entrants: self.entrants,
            rules: self.rules,
            limits: s.limits.clone(),
            jobs: self.jobs,
            cpus: self.cpus,
            deals: self.deals,
            sprt: self.sprt,
            total: self.total,
            progress: s.progress,
            sandbox: Arc::new(sandbox),
            fresh_bots: s.fresh_bots,
            compress: s.compress,
            trace: s.trace.clone(),
            analyze: s.analyze,
            only_shard: self.swiss_shard.map(|(shard, _)| shard),
            deal_secret: self.deal_secret.secret(),
            watched: s.watched,
            lobby: None,
            lobby_keys: Vec::new(),
        };
        // Read as a stream: a resumed tournament of millions of games holds no rows.
        let mut prior = runner::load_prior(&cfg, &mut dir, &self.schedule)?;
        if let Some((shard, round)) = self.swiss_shard {
            // The other shards' rows only feed the pairings: this directory's results and
            // standings stay its own games (`standings DIR...` merges the shards).
            let rows = swiss_shards::gather(&dir, &s.peers)?;
            swiss_shards::check_ready(&self.plan, &rows, shard, round, &s.out)?;
            prior.add_peer_rows(rows);
        }
        Ok(Opened {
            cfg,
            dir,
            lock,
            resumed,
            prior,
            schedule: self.schedule,
            plan: self.plan,
            swiss_shard: self.swiss_shard,
            settings: s,
        })
    }
}

/// A claimed tournament directory, ready to play.
pub struct Opened {
    pub cfg: RunConfig,
    pub dir: TournamentDir,
    /// Held until the [`Ran`] made from this is dropped, after the standings are written.
    pub lock: RunLock,
    /// The directory held an earlier run of the same command.
    pub resumed: bool,
    pub plan: Plan,
    pub swiss_shard: Option<(Shard, u64)>,
    pub settings: TournamentSettings,
    prior: Prior,
    schedule: Schedule,
}

/// Why a run stopped before its end.
pub enum RunFailure {
    /// The games could not go on (the finished ones are kept).
    Run(RunError),
    /// A Swiss shard waits for its peers (a usage error: exit 2).
    Waiting(String),
}

/// A tournament after its run: what it was, and how the run ended.
pub struct Ran {
    pub cfg: RunConfig,
    pub dir: TournamentDir,
    pub lock: RunLock,
    pub plan: Plan,
    pub settings: TournamentSettings,
    pub result: Result<RunSummary, RunFailure>,
}

impl Opened {
    /// Finished games kept from earlier runs.
    pub fn prior_rows(&self) -> u64 {
        self.prior.rows()
    }

    /// Plays the games (remote seats through `lobby`) until the schedule is done, the SPRT
    /// decides or `stop` is set; a Swiss shard then checks that its round is complete.
    pub fn run(self, lobby: Option<Arc<Lobby>>, stop: &AtomicBool) -> Ran {
        let cfg = RunConfig { lobby, ..self.cfg };
        let (plan, out) = (self.plan, &self.settings.out);
        let result = runner::run(&cfg, self.schedule, self.prior, stop)
            .map_err(RunFailure::Run)
            .and_then(|summary| match self.swiss_shard {
                Some((shard, round)) if !summary.interrupted => {
                    swiss_shards::waiting(&plan, shard, round, &summary.missing, out).map_err(
                        |e| RunFailure::Waiting(format!("{e} (this run's games are kept)")),
                    )?;
                    Ok(summary)
                }
                _ => Ok(summary),
            });
        Ran {
            cfg,
            dir: self.dir,
            lock: self.lock,
            plan,
            settings: self.settings,
            result,
        }
    }
}
