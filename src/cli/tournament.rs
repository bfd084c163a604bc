//! `tarneeb tournament`: arguments, the tournament directory, output and exit codes (0 done,
//! 1 the program failed, 2 bad usage or input, 130 interrupted).

use std::path::PathBuf;

use serde_json::{json, Value};

use super::args::BotLimits;
use tarneeb_referee::bot::{allowed_cpus, become_subreaper, check_can_start, split_command};
use tarneeb_referee::referee::RefereeError;
use tarneeb_referee::rules::DealSecret;
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::sprt::parse_sprt;
use tarneeb_referee::standings::table::from_totals;
use tarneeb_referee::tournament::bracket;
use tarneeb_referee::tournament::deal_sets::load_deals;
use tarneeb_referee::tournament::directory::TournamentDir;
use tarneeb_referee::tournament::directory::TOURNAMENT_FILE;
use tarneeb_referee::tournament::progress::ProgressMode;
use tarneeb_referee::tournament::results::STANDINGS_FILE;
use tarneeb_referee::tournament::runner::{self, Entrant, RunConfig, RunError};
use tarneeb_referee::tournament::schedule::{Format, Partners, Plan, Schedule};
use tarneeb_referee::tournament::shard::{SHARD_UNIT, TWINS_APART_UNIT};
use tarneeb_referee::tournament::swiss_shards::{self, Shard};
use tarneeb_referee::{deal_key, out, rules_file, signals};

#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// An entrant: a unique name ([A-Za-z0-9_.-]) and its command line, like
    /// `--bot rnd='python3 sample-bots/python/random_bot.py'`. Give two or more.
    /// `--bot alice=remote` declares a remote entrant, played from its owner's machine
    /// through `tarneeb connect` (see --listen); `--bot me=web` an entrant played by people
    /// in a browser, at addresses printed when it starts (see --web-listen; needs
    /// --no-duplicate).
    #[arg(long = "bot", value_name = "NAME=CMD", required = true)]
    bots: Vec<String>,
    /// A TOML file describing the tournament (entrants as [[bot]] tables with name and
    /// command, and any flag by its name: format = "gauntlet", games = 4, ...), or a
    /// tournament.json written by an earlier tournament. Flags given with it override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Directory for the records (DIR/games/), results.jsonl, tournament.json and
    /// standings.txt. Running the same command on it again resumes the tournament.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// round-robin (every pair of partnerships meets), gauntlet (the first entrant against
    /// each other one), knockout (single elimination), king-of-the-hill (the winner stays,
    /// the next challenger replaces the loser) or swiss (--rounds R rounds, each pairing
    /// partnerships of similar score that have not met).
    #[arg(long, default_value = "round-robin", value_parser = Format::parse)]
    format: Format,
    /// Rounds of a Swiss tournament (--format swiss).
    #[arg(long, value_name = "R", default_value_t = 0)]
    rounds: u64,
    /// own: each entrant partners a copy of itself; rotate: every entrant partners every other
    /// one (round-robin and gauntlet, four entrants or more).
    #[arg(long, default_value = "own", value_parser = Partners::parse)]
    partners: Partners,
    /// Deal sets per match. Each is played twice with the sides swapped (a duplicate pair), so
    /// a match plays twice this many games (`--games 12`: 24); with --no-duplicate, once.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Play each deal set once (sides alternating) instead of twice with the sides swapped.
    #[arg(long)]
    no_duplicate: bool,
    /// Progress on stderr: `auto` (a line rewritten in place on a terminal, else a plain
    /// line every 30 s), `every=30s`, `every=10` (games) or `off`. A plain line: games done
    /// of the total, games per minute, time left, leader.
    #[arg(long, default_value = "auto", value_parser = ProgressMode::parse)]
    progress: ProgressMode,
    /// Tournament seed: every deal set's seed derives from it and the deal set's index; with
    /// the deal key it fixes the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The deal key (`tarneeb keygen FILE`): with the seed, it fixes every deal, so shards
    /// and reruns that share it share the deals. Give the same file to every shard (a sharded
    /// run needs one) and keep it where no bot can read it (this run hides it from its bots;
    /// other programs on the machine are another matter). Default: a fresh secret kept in
    /// DIR/.deal-key (mode 0600, hidden from the bots like the rest of DIR), read on resume.
    #[arg(long, value_name = "FILE", conflicts_with = "public_deals")]
    deal_key: Option<PathBuf>,
    /// Deals from the seed alone: anyone who knows or guesses the seed (the default is 1)
    /// knows every hand. For research runs with trusted bots only; said in tournament.json.
    #[arg(long)]
    public_deals: bool,
    /// Set by --config: the file it named, hidden from the bots (it may hold the seed or name
    /// an earlier tournament's directory).
    #[arg(long, hide = true, value_name = "FILE")]
    config_file: Option<PathBuf>,
    /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file.
    #[arg(long, default_value = "classic")]
    rules: String,
    /// Play the deals of earlier games: a record, or a directory of records (deal set i uses
    /// record i modulo their number, its deals and first dealer).
    #[arg(long, value_name = "DIR|RECORD")]
    deals_from: Option<PathBuf>,
    /// Games at once. Default: the number of CPUs.
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Do not pin each game (referee and bots) to its own CPU.
    #[arg(long)]
    no_pin: bool,
    /// Start every bot afresh for every game. By default a bot that declares `multi_game` in
    /// its hello stays up between the games of a worker and gets `new_game` (protocol.md);
    /// use this for comparisons, or for a bot that misbehaves when kept.
    #[arg(long)]
    fresh_bots: bool,
    /// Write each game record zstd-compressed, as games/NNNNNN.jsonl.zst (about a tenth of the
    /// size); `tarneeb replay`, `--deals-from` and resume read them as they read plain ones.
    #[arg(long)]
    compress: bool,
    /// Sequential probability ratio test on the first entrant (gauntlet of two entrants):
    /// elo0=..,elo1=..,alpha=..,beta=.. ; no new game starts once it decides. Add
    /// score=boards to test who wins the boards of each duplicate pair instead of the games
    /// (scale=points, the default, or scale=imps). model=logistic (the default: logistic Elo,
    /// fishtest's normal approximation) or model=normalized (the exact normalized-Elo test of
    /// fastchess and OpenBench; elo0 and elo1 are then normalized Elo).
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Play only part K of N of the schedule (the deal sets numbered K-1 modulo N, both games
    /// of each duplicate pair), to spread one round-robin, gauntlet or Swiss over N machines;
    /// merge with `tarneeb standings DIR...`.
    /// A Swiss shard needs --round, and --peers from round 2 on.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// With --shard K/N (N even; round-robin or gauntlet, duplicate): the two games of every
    /// duplicate pair in different shards, shards 1 to N/2 playing every pair's first game and
    /// N/2+1 to N its second. Run the two halves on machines that share no kernel, and no
    /// machine plays both games of a pair (docs/competitions.md, "The duplicate twin").
    #[arg(long, requires = "shard")]
    twins_apart: bool,
    /// Swiss: play the rounds up to R only (the same command with a larger R goes on). With
    /// --shard, all shards play round R before any plays round R+1.
    #[arg(long, value_name = "R")]
    round: Option<u64>,
    /// Swiss with --shard: the other shards' --out directories, whose results of the earlier
    /// rounds the pairing needs (read, never written, hidden from the bots like --out; this
    /// shard's own directory is skipped).
    #[arg(long, value_name = "DIR", num_args = 1..)]
    peers: Vec<PathBuf>,
    #[command(flatten)]
    limits: BotLimits,
    #[command(flatten)]
    remote: super::remote_args::RemoteArgs,
    #[command(flatten)]
    sandbox: super::args::SandboxArgs,
    /// Write every line sent to and received from each seat, with its time, to
    /// DIR/GAME.seatN.trace (one file per seat per game; GAME as in DIR/games/).
    #[arg(long, value_name = "DIR")]
    trace: Option<PathBuf>,
    /// After each game, analyse its card play double-dummy (DDS): the tricks each seat's cards
    /// gave away against best play, kept in the game's results row. The standings then show
    /// per entrant the tricks lost per hand per seat with a 95% interval (Student's t over
    /// per-game values), a measure of card play that the luck of the cards does not move.
    /// Costs about a third of a second of CPU per game of ten hands.
    #[arg(long)]
    analyze: bool,
    /// Serve a live page of the run while it plays (as `tarneeb serve DIR` does): progress,
    /// standings, the SPRT, the games in progress as the table sees them, finished games'
    /// replays. ADDR:PORT, e.g. 127.0.0.1:8080 (port 0: any free one; the address is printed).
    /// The server stops when the run ends; `tarneeb serve DIR` shows the page again.
    #[arg(long, value_name = "ADDR:PORT")]
    serve: Option<std::net::SocketAddr>,
}

/// The name of a tournament directory's own deal secret (when no --deal-key was given).
const DEAL_KEY_FILE: &str = ".deal-key";

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

/// The run's deal secret, its public id put in `config` (so a resume or a shard with another
/// key is refused as another command); the errors say how to resume what was started.
fn deal_secret(
    a: &TournamentArgs,
    started: Option<&TournamentDir>,
    config: &mut Value,
) -> Result<DealSecretOrigin, Failure> {
    let started_key = started.map(|d| {
        let v = d.config();
        v.get("deal_key_id")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    if a.public_deals {
        config["public_deals"] = json!(true);
        if let Some(Some(id)) = started_key {
            return Err(usage(format!(
                "{} was started with secret deals (deal key {id}): drop --public-deals to resume it",
                a.out.display()
            )));
        }
        return Ok(DealSecretOrigin::Public);
    }
    if matches!(started_key, Some(None)) {
        return Err(usage(format!(
            "{} was started with public deals (with --public-deals, or by a tarneeb without deal keys): add --public-deals to resume it",
            a.out.display()
        )));
    }
    let own = a.out.join(DEAL_KEY_FILE);
    let origin = if let Some(file) = &a.deal_key {
        DealSecretOrigin::Existing(deal_key::read(file).map_err(|e| usage(e.to_string()))?)
    } else if own.exists() {
        DealSecretOrigin::Existing(deal_key::read(&own).map_err(|e| usage(e.to_string()))?)
    } else if let Some(Some(id)) = started_key {
        return Err(usage(format!(
            "{} plays the deals of the deal key {id}, which it does not hold: give the same --deal-key FILE to resume it",
            a.out.display()
        )));
    } else if a.shard.is_some() {
        return Err(usage(
            "a sharded tournament needs one deal key for all its shards, or their deals would differ: make one with `tarneeb keygen FILE` and give every shard --deal-key FILE (or --public-deals for trusted bots)",
        ));
    } else {
        DealSecretOrigin::New(deal_key::fresh())
    };
    config["deal_key_id"] = json!(origin.secret().expect("not public").id());
    Ok(origin)
}

/// The shard and last round of a sharded Swiss, after checking `--round` and `--peers`.
fn swiss_shard(a: &TournamentArgs) -> Result<Option<(Shard, u64)>, Failure> {
    if let Some(r) = a.round {
        if a.format != Format::Swiss {
            return Err(usage("--round is for --format swiss"));
        }
        if r == 0 || r > a.rounds {
            return Err(usage(format!(
                "--round {r}: give a round from 1 to --rounds ({})",
                a.rounds
            )));
        }
    }
    let sharded = a.format == Format::Swiss && a.shard.is_some();
    if sharded && a.twins_apart {
        return Err(usage(
            "--twins-apart works with round-robin and gauntlet shards, not a Swiss (its pairing reads the other shards' results each round); shard a Swiss without it",
        ));
    }
    if !a.peers.is_empty() && !sharded {
        return Err(usage(
            "--peers is for a Swiss played in shards (--format swiss --shard K/N --round R)",
        ));
    }
    match (sharded, a.shard, a.round) {
        (true, Some((k, n)), Some(r)) => Ok(Some((Shard::new(k, n, !a.no_duplicate), r))),
        (true, _, _) => Err(usage(
            "--shard with --format swiss needs --round R: every shard plays round 1 (--round 1), then, given the others' directories with --peers, round 2 (--round 2), and so on",
        )),
        _ => Ok(None),
    }
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
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

/// An error of the command, with its exit code.
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

/// Runs `tarneeb tournament`; returns the exit code.
pub fn run(args: TournamentArgs) -> u8 {
    match run_tournament(args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("tarneeb: {}", f.message);
            f.code
        }
    }
}

/// An entrant's name: letters, digits, '_', '.' and '-' (it names files and pages).
pub fn is_entrant_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

/// `NAME=CMD` into an entrant.
fn parse_entrant(text: &str) -> Result<Entrant, String> {
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

fn run_tournament(a: TournamentArgs) -> Result<u8, Failure> {
    // Complete rules inline (a tournament.json fed back with --config) or a preset or file.
    let rules = if a.rules.trim_start().starts_with('{') {
        rules_file::from_json_text(&a.rules, "--rules")
    } else {
        rules_file::load(&a.rules)
    }
    .map_err(|e| usage(e.to_string()))?;
    let entrants: Vec<Entrant> = a
        .bots
        .iter()
        .map(|b| parse_entrant(b))
        .collect::<Result<_, _>>()
        .map_err(usage)?;
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.name == e.name) {
            return Err(usage(format!(
                "two entrants are named '{}': names must be unique",
                e.name
            )));
        }
    }
    let plan = Plan {
        entrants: entrants.len(),
        format: a.format,
        partners: a.partners,
        games: a.games,
        duplicate: !a.no_duplicate,
        seed: a.seed,
        rounds: a.rounds,
    };
    let swiss_shard = swiss_shard(&a)?;
    // A Swiss played up to --round R is the whole one cut after round R.
    let mut schedule = Schedule::new(Plan {
        rounds: a.round.unwrap_or(a.rounds),
        ..plan.clone()
    })
    .map_err(usage)?;
    let total = match (swiss_shard, a.shard) {
        (Some((shard, round)), _) => swiss_shards::games_through(&plan, shard, round),
        (None, Some((k, n))) => schedule.shard_as(k, n, a.twins_apart).map_err(usage)?,
        (None, None) => schedule.total_games(),
    };
    let sprt = match &a.sprt {
        None => None,
        Some(text) => {
            if a.format != Format::Gauntlet || entrants.len() != 2 || a.partners != Partners::Own {
                return Err(usage(
                    "--sprt needs --format gauntlet with exactly two entrants (it tests the first against the second)",
                ));
            }
            if a.shard.is_some() {
                return Err(usage(
                    "--sprt cannot be combined with --shard: the test needs every result",
                ));
            }
            let cfg = parse_sprt(text).map_err(usage)?;
            if cfg.boards.is_some() && a.no_duplicate {
                return Err(usage(
                    "--sprt score=boards compares the two games of a duplicate pair hand by hand: drop --no-duplicate",
                ));
            }
            Some(cfg)
        }
    };
    // Checked before the first game, after the command itself: a mistyped path stopped a
    // tournament partway.
    a.remote.check(&entrants, !a.no_duplicate).map_err(usage)?;
    for e in entrants.iter().filter(|e| !e.in_lobby()) {
        check_can_start(&e.command).map_err(|err| usage(format!("--bot {}: {err}", e.name)))?;
    }
    let deals = match &a.deals_from {
        Some(p) => load_deals(p).map_err(usage)?,
        None => Vec::new(),
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(usage("--jobs must be at least 1"));
    }
    let cpus = allowed_cpus();
    let cpus = (!a.no_pin && jobs <= cpus.len()).then(|| cpus[..jobs].to_vec());
    let time = a.limits.time();
    let mut sandbox = a.sandbox.sandbox().map_err(|e| usage(e.to_string()))?;
    sandbox.mask(&a.out);
    // Other shards' directories hold records and seal keys: nothing a bot should read.
    for p in &a.peers {
        sandbox.mask(p);
    }
    for p in [&a.deals_from, &a.deal_key].into_iter().flatten() {
        sandbox.mask(p);
    }
    if let Some(file) = &a.config_file {
        sandbox.mask(file);
        // An earlier tournament's tournament.json fed back: its directory holds records and
        // keys.
        if file.file_name().is_some_and(|n| n == TOURNAMENT_FILE) {
            if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                sandbox.mask(dir);
            }
        }
    }
    // Traces are written while games run: their directory must exist to be masked.
    if let Some(dir) = &a.trace {
        std::fs::create_dir_all(dir)
            .map_err(|e| usage(format!("--trace {}: cannot create it: {e}", dir.display())))?;
        sandbox.mask(dir);
    }
    let config = json!({
        "entrants": entrants.iter().map(|e| json!({"name": e.name, "command": e.command})).collect::<Vec<_>>(),
        "format": a.format.name(),
        "partners": a.partners.name(),
        "games": a.games,
        "duplicate": !a.no_duplicate,
        "seed": a.seed,
        "rules": rules,
        "deals_from": a.deals_from.as_ref().map(|p| p.display().to_string()),
        "time": time,
        "on_fault": a.limits.on_fault.to_string(),
        "events": a.limits.events.to_string(),
        "max_line": a.limits.max_line,
        "stderr_cap": a.limits.stderr_cap,
        "shard": a.shard.map(|(k, n)| format!("{k}/{n}")),
        "sprt": a.sprt,
        "sandbox": sandbox.label(),
        "limits": sandbox.limits().describe(),
        // The same settings again as the flags that give them, so tournament.json can be fed
        // back with --config.
        "sandbox_user": a.sandbox.sandbox_user.to_string(),
        "sandbox_ro": a.sandbox.sandbox_ro.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "sandbox_env": a.sandbox.sandbox_env,
        "memory_limit": a.sandbox.memory_limit,
        "process_limit": a.sandbox.process_limit,
        "file_size_limit": a.sandbox.file_size_limit,
        "open_files_limit": a.sandbox.open_files_limit,
        "disk_limit": a.sandbox.disk_limit,
        "cpu_limit": a.sandbox.cpu_limit.map(|ms| format!("{ms}ms")),
    });
    let mut config = config;
    if a.shard.is_some() {
        // Written only where it applies, so that unsharded directories resume as before; a
        // shard directory of a version that split duplicate pairs lacks it and is refused.
        config["shard_unit"] = json!(SHARD_UNIT);
    }
    if a.twins_apart {
        config["shard_unit"] = json!(TWINS_APART_UNIT);
        config["twins_apart"] = json!(true);
    }
    if a.rounds > 0 {
        config["rounds"] = json!(a.rounds);
    }
    if a.analyze {
        config["analyze"] = json!(true);
    }
    if entrants.iter().any(Entrant::is_web) {
        config["web"] = json!(entrants
            .iter()
            .filter(|e| e.is_web())
            .map(|e| e.name.clone())
            .collect::<Vec<_>>());
    }
    if entrants.iter().any(Entrant::is_remote) {
        config["remote"] = json!(entrants
            .iter()
            .filter(|e| e.is_remote())
            .map(|e| e.name.clone())
            .collect::<Vec<_>>());
        if a.remote.duplicate_allowed() && !a.no_duplicate {
            config["remote_duplicate"] = json!(true);
        }
    }
    let existing = TournamentDir::find(&a.out).map_err(usage)?;
    let deals_secret = deal_secret(&a, existing.as_ref(), &mut config)?;
    let (mut dir, resumed) = TournamentDir::claim(&a.out, existing, &config).map_err(usage)?;
    if let DealSecretOrigin::New(secret) = &deals_secret {
        deal_key::write_new(&a.out.join(DEAL_KEY_FILE), secret)
            .map_err(|e| usage(e.to_string()))?;
    }
    let cfg = RunConfig {
        dir: a.out.clone(),
        entrants,
        rules,
        time,
        on_fault: a.limits.on_fault,
        events: a.limits.events,
        freeze_off_turn: a.limits.freeze_off_turn,
        max_line: a.limits.max_line,
        stderr_cap: a.limits.stderr_cap,
        jobs,
        cpus,
        deals,
        sprt,
        total,
        progress: a.progress,
        sandbox: std::sync::Arc::new(sandbox),
        fresh_bots: a.fresh_bots,
        compress: a.compress,
        trace: a.trace.clone(),
        analyze: a.analyze,
        only_shard: swiss_shard.map(|(s, _)| s),
        deal_secret: deals_secret.secret(),
        watched: a.serve.is_some(),
        lobby: None,
        lobby_keys: Vec::new(),
    };
    // Read as a stream: a resumed tournament of millions of games holds no rows.
    let mut prior = runner::load_prior(&cfg, &mut dir, &schedule).map_err(usage)?;
    if let Some((shard, round)) = swiss_shard {
        // The other shards' rows only feed the pairings: this directory's results and
        // standings stay its own games (`standings DIR...` merges the shards).
        let rows = swiss_shards::gather(&dir, &a.peers).map_err(usage)?;
        swiss_shards::check_ready(&plan, &rows, shard, round, &a.out).map_err(usage)?;
        prior.add_peer_rows(rows);
    }
    if resumed {
        eprintln!(
            "resuming {}: {} finished games kept",
            a.out.display(),
            prior.rows()
        );
    }
    // `--games 12` plays 24 games under duplicate deals: said before the first game.
    eprintln!(
        "{total} games to play: {} deal {} per match, each {}",
        a.games,
        if a.games == 1 { "set" } else { "sets" },
        if a.no_duplicate {
            "played once (--no-duplicate)"
        } else {
            "played twice with the sides swapped (duplicate pairs)"
        }
    );
    let stop = signals::install();
    let _ = become_subreaper();
    let page = match a.serve {
        Some(addr) => Some(super::serve::start(&a.out, addr, Some(total)).map_err(usage)?),
        None => None,
    };
    let remote = a
        .remote
        .start(&cfg.entrants, &a.out, cfg.max_line)
        .and_then(|setup| {
            super::web_entrants::start(&cfg.entrants, a.remote.web_listen(), cfg.max_line, setup)
        })
        .map_err(usage)?;
    if let Some(r) = &remote {
        r.lobby.set_absent_timeout(a.remote.absent_timeout());
    }
    let cfg = RunConfig {
        lobby: remote.as_ref().map(|r| std::sync::Arc::clone(&r.lobby)),
        ..cfg
    };
    let ran = runner::run(&cfg, schedule, prior, stop);
    if let Some(remote) = remote {
        remote.finish();
    }
    if let Some(page) = page {
        page.finish();
    }
    let summary = match ran {
        Ok(s) => s,
        Err(e) => {
            let code = match &e {
                RunError::Referee {
                    source: RefereeError::Spawn { .. } | RefereeError::SandboxSetup { .. },
                    ..
                } => 2,
                _ => 1,
            };
            let message = format!("{e}{}", disk_full_hint(&e, &a.out));
            return Err(Failure { code, message });
        }
    };
    if summary.interrupted {
        eprintln!(
            "tarneeb: interrupted: {} finished games are kept in {}; run the same command to resume",
            summary.tally.rows(),
            a.out.display()
        );
        return Ok(130);
    }
    if let Some((shard, round)) = swiss_shard {
        swiss_shards::waiting(&plan, shard, round, &summary.missing, &a.out)
            .map_err(|e| usage(format!("{e} (this run's games are kept)")))?;
    }
    let p = summary.processes;
    eprintln!(
        "bot processes: {} started, {} seats of games played by a process kept up from an earlier one",
        p.started, p.kept
    );
    let mut table_standings = from_totals(summary.tally.totals());
    let names: Vec<String> = cfg.entrants.iter().map(|e| e.name.clone()).collect();
    bracket::apply(
        &mut table_standings,
        &names,
        &plan,
        &summary.bracket,
        summary.champion,
    );
    // As `tarneeb standings DIR` says it (the same schedule size: the whole run's, also for a
    // shard), so the two reports agree; a run the SPRT stopped is complete by its rule.
    let scheduled = match &summary.sprt {
        Some(t) if t.decided().is_some() => None,
        _ => tarneeb_referee::tournament::merge::expected_games(dir.config()),
    };
    tarneeb_referee::standings::headline::apply(&mut table_standings, scheduled);
    let sandboxes = [cfg.sandbox.label()];
    let mut table =
        report::render_with(&table_standings, false) + &report::sandbox_line(&sandboxes);
    if let Some(note) = remote_note(
        &cfg.entrants,
        a.remote.duplicate_allowed() && !a.no_duplicate,
    ) {
        table.push_str(&note);
    }
    let json_path = a.out.join("standings.json");
    let json = report::full(&table_standings, summary.sprt.as_ref(), &sandboxes, true);
    std::fs::write(&json_path, json).map_err(|e| cannot_write(&json_path, &e, &a.out))?;
    // A closed stdout (`| head`) is no reason to stop: the standings file is written below.
    let _ = out!("{table}");
    let mut extra = String::new();
    if let Some(u) = summary.champion {
        let name = &cfg.entrants[u[0]].name;
        extra.push_str(&format!("champion: {name}\n"));
    }
    if let Some(t) = &summary.sprt {
        extra.push_str(&t.describe());
        extra.push('\n');
    }
    let _ = out!("{extra}");
    let path = a.out.join(STANDINGS_FILE);
    std::fs::write(&path, format!("{table}{extra}"))
        .map_err(|e| cannot_write(&path, &e, &a.out))?;
    Ok(0)
}

/// The end of a run that stopped on a write: on a full disk, what to do about it (issue 43).
fn disk_full_hint(e: &(dyn std::error::Error + 'static), out: &std::path::Path) -> String {
    if tarneeb_referee::is_disk_full(e) {
        format!(
            "\nthe disk is full: finished games are kept in {}; free space and run the same command again to resume",
            out.display()
        )
    } else {
        format!("; finished games are kept in {}", out.display())
    }
}

fn cannot_write(path: &std::path::Path, e: &std::io::Error, out: &std::path::Path) -> Failure {
    Failure {
        code: 1,
        message: format!(
            "cannot write {}: {e}{}",
            path.display(),
            disk_full_hint(e, out)
        ),
    }
}

/// The standings' line on remote entrants, when there are any.
fn remote_note(entrants: &[Entrant], duplicate: bool) -> Option<String> {
    let names: Vec<String> = entrants
        .iter()
        .filter(|e| e.is_remote())
        .map(|e| e.name.clone())
        .collect();
    (!names.is_empty()).then(|| super::remote_args::remote_note(&names, duplicate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_and_shards_parse() {
        let e = parse_entrant("rnd=python3 bot.py --x 1").unwrap();
        assert_eq!(e.name, "rnd");
        assert_eq!(e.command, vec!["python3", "bot.py", "--x", "1"]);
        assert!(parse_entrant("no command").is_err());
        assert!(parse_entrant("bad name=x").is_err());
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
    }
}
