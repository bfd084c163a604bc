//! The `tarneeb` command: parse arguments, run, map errors to an exit code
//! (0 done, 1 the program itself failed, 2 bad usage or input).

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use std::path::PathBuf;
use std::time::Duration;

use tarneeb_referee::bot::{split_command, BotSpec};
use tarneeb_referee::cli_args::{parse_seat, read_deals, BotLimits};
use tarneeb_referee::players::PlayerKind;
use tarneeb_referee::protocol::HandEndMsg;
use tarneeb_referee::referee::{play_game, GameConfig, RefereeError};
use tarneeb_referee::rules::{Rules, Seat};
use tarneeb_referee::{outln, rules_file, signals, simulate};

#[derive(Parser)]
#[command(name = "tarneeb", version, about = "A referee for Tarneeb, Egyptian Tarneeb, 400 and Forty-One", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the complete rules of a preset (or a rules file) as JSON.
    ///
    /// Presets: classic, egyptian, 400, 41. A rules file is JSON like
    /// {"preset": "classic", "target": 41, "contract": {"no-trump": true}}: the preset plus the
    /// options it changes. docs/rules.md lists every option.
    Rules {
        /// A preset name or a path to a JSON rules file.
        rules: String,
    },
    /// Play one game between four bot programs and write its record.
    ///
    /// Each --bot is a command line; the bot speaks the JSON-lines protocol of protocol.md on
    /// its stdin/stdout (stderr goes to a log beside the record). Exit code 0 when the game
    /// reached a result (a forfeit is a result), 2 for bad usage or input, 1 when the referee
    /// itself failed, 130 when interrupted.
    Play(PlayArgs),
    /// Check a game record against the rules in its header and print a transcript.
    ///
    /// Every deal, move, score and the result are replayed with the record's rules; the first
    /// line that disagrees (an edited or truncated record, or one made under other rules) is
    /// reported with its number and exit code 1. Exit code 2 for an unreadable path.
    Replay(ReplayArgs),
    /// Play a tournament between bot programs: many games, several at once, resumable.
    ///
    /// Each --bot is NAME=CMD. Results go to --out DIR (records in DIR/games/, one line per
    /// game in DIR/results.jsonl, the standings in DIR/standings.txt); the same command on the
    /// same DIR resumes. Exit code 0 when done, 2 for bad usage, 130 when interrupted.
    Tournament(tarneeb_referee::tournament_cmd::TournamentArgs),
    /// Print the standings of tournament directories (several are merged, like shards).
    Standings(tarneeb_referee::tournament_cmd::StandingsArgs),
    /// Play whole games in process with built-in players and report speed and outcomes.
    Simulate {
        /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file.
        #[arg(long, default_value = "classic")]
        rules: String,
        /// How many games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Seed of the first game; game i uses seed + i, which fixes its first dealer and deals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Built-in players: one kind for all seats, or four separated by commas (seat order).
        #[arg(long, default_value = "random", value_delimiter = ',', num_args = 1..=4)]
        players: Vec<PlayerKind>,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file. Default:
    /// classic, or with --deals-from the rules of that record.
    #[arg(long)]
    rules: Option<String>,
    /// Game seed: fixes the first dealer and every deal. Default: drawn from the clock (and
    /// printed, and kept in the record).
    #[arg(long)]
    seed: Option<u64>,
    /// A bot's command line, split like a shell would; give four, in seat order 0, 1, 2, 3.
    /// Partners are seats 0 & 2 and 1 & 3.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    bots: Vec<String>,
    /// Where to write the game record (JSON lines). Default: games/seed-SEED.jsonl.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Play these deals first (JSON lines with "hands": four lists of 13 cards; a game record
    /// works), then deals from the seed.
    #[arg(long, value_name = "PATH")]
    deals: Option<PathBuf>,
    /// The first dealer (0-3) instead of the one drawn from the seed.
    #[arg(long, value_parser = parse_seat)]
    first_dealer: Option<Seat>,
    /// Play the deals of this game record first, in order, with its first dealer (to see what
    /// other bots do with the same cards); then deals from the seed.
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["deals", "first_dealer"])]
    deals_from: Option<PathBuf>,
    #[command(flatten)]
    limits: BotLimits,
    /// Print the result as one JSON object instead of the hand-by-hand report.
    #[arg(long)]
    json: bool,
    /// Test aid: write every message with its seat and the cards hidden from that seat.
    #[arg(long, hide = true)]
    trace: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// The game record (JSON lines) to check and show.
    record: PathBuf,
    /// Show only hand N (1, 2, ...).
    #[arg(long, value_name = "N")]
    hand: Option<u32>,
    /// Print the verified game (or with --hand, the hand) as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write the verified game as one self-contained HTML page that steps through it move by
    /// move (buttons, arrow keys; the URL fragment #step=N opens it after N steps).
    #[arg(long, value_name = "OUT.html", conflicts_with_all = ["hand", "json"])]
    html: Option<PathBuf>,
}

/// An error caused by the user's input: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct UsageError(String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read our output stopped reading (`| head`): not an error.
        Err(e) if tarneeb_referee::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tarneeb: {e:#}");
            match e.downcast_ref::<RefereeError>() {
                Some(RefereeError::Interrupted { .. }) => ExitCode::from(130),
                Some(RefereeError::Spawn { .. }) => ExitCode::from(2),
                _ if e.downcast_ref::<UsageError>().is_some()
                    || e.downcast_ref::<rules_file::RulesInputError>().is_some() =>
                {
                    ExitCode::from(2)
                }
                _ => ExitCode::from(1),
            }
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Rules { rules } => {
            let r = rules_file::load(&rules)?;
            outln!("{}", serde_json::to_string_pretty(&r)?)?;
        }
        Command::Play(args) => play(args)?,
        Command::Tournament(a) => {
            std::process::exit(tarneeb_referee::tournament_cmd::tournament(a).into())
        }
        Command::Standings(a) => {
            std::process::exit(tarneeb_referee::tournament_cmd::standings_cmd(a).into())
        }
        Command::Replay(a) => {
            tarneeb_referee::replay_cmd::run(&a.record, a.hand, a.json, a.html.as_deref()).map_err(
                |e| -> anyhow::Error {
                    if e.is_usage() {
                        UsageError(e.to_string()).into()
                    } else {
                        e.into()
                    }
                },
            )?
        }
        Command::Simulate {
            rules,
            games,
            seed,
            players,
            json,
        } => {
            let r: Rules = rules_file::load(&rules)?;
            let players: [PlayerKind; 4] = match players.as_slice() {
                [one] => [*one; 4],
                [a, b, c, d] => [*a, *b, *c, *d],
                other => return Err(UsageError(format!("--players takes one kind or four (one per seat), got {}: like --players random or --players greedy,random,greedy,random", other.len())).into()),
            };
            let s = simulate::run(&r, games, seed, players);
            if json {
                outln!("{}", serde_json::to_string(&s)?)?;
            } else {
                outln!(
                    "games: {} in {:.3} s ({:.0} games/s, {:.0} decisions/s)",
                    s.games,
                    s.seconds,
                    s.games_per_second,
                    s.decisions_per_second
                )?;
                outln!(
                    "hands per game: {:.1} ({} of {} hands played out)",
                    s.hands_per_game,
                    s.played_hands,
                    s.hands
                )?;
                outln!(
                    "contracts made: {:.1}% ({} of {})",
                    100.0 * s.made_rate,
                    s.contracts_made,
                    s.contracts
                )?;
                outln!(
                    "wins: team 0 (seats 0+2) {:.1}%, team 1 (seats 1+3) {:.1}%, draws {}",
                    100.0 * s.win_rate[0],
                    100.0 * s.win_rate[1],
                    s.draws
                )?;
                outln!(
                    "ended by the hand cap: {}, by an instant win: {}",
                    s.ended_by_cap,
                    s.ended_instantly
                )?;
            }
        }
    }
    Ok(())
}

fn play(a: PlayArgs) -> Result<()> {
    let mut rules = rules_file::load(a.rules.as_deref().unwrap_or("classic"))?;
    if a.bots.len() != 4 {
        return Err(UsageError(format!(
            "give exactly four --bot commands (seats 0, 1, 2, 3), got {}",
            a.bots.len()
        ))
        .into());
    }
    let seed = a.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_nanos() as u64 ^ u64::from(std::process::id())
    });
    let record = a
        .record
        .unwrap_or_else(|| PathBuf::from(format!("games/seed-{seed}.jsonl")));
    let (deals, first_dealer) = match (&a.deals, &a.deals_from) {
        (Some(p), _) => (read_deals(p).map_err(UsageError)?, a.first_dealer),
        (None, Some(p)) => {
            let given = a.rules.is_some().then_some(&rules);
            let d =
                tarneeb_referee::replay_cmd::deals_from(p, &record, given).map_err(UsageError)?;
            if a.rules.is_none() {
                rules = d.rules.clone();
            }
            (d.deals, Some(d.first_dealer))
        }
        (None, None) => (Vec::new(), a.first_dealer),
    };
    let mut specs = Vec::new();
    for (i, cmd) in a.bots.iter().enumerate() {
        let command =
            split_command(cmd).map_err(|e| UsageError(format!("--bot for seat {i}: {e}")))?;
        let stem = record
            .file_stem()
            .map_or("game".into(), |s| s.to_string_lossy().into_owned());
        let stderr_log = record.with_file_name(format!("{stem}.seat{i}.stderr.log"));
        specs.push(BotSpec {
            command,
            cwd: None,
            env: Vec::new(),
            stderr_log,
            stderr_cap: a.limits.stderr_cap,
            max_line: a.limits.max_line,
        });
    }
    let bots: [BotSpec; 4] = specs
        .try_into()
        .map_err(|_| anyhow::anyhow!("four bot specs"))?;
    let cfg = GameConfig {
        rules,
        seed,
        first_dealer,
        deals,
        bots,
        time: a.limits.time(),
        on_fault: a.limits.on_fault,
        events: a.limits.events,
        record: record.clone(),
        trace: a.trace,
        grace: Duration::from_millis(1000),
    };
    if let Some(dir) = record.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let stop = signals::install();
    // Orphaned helpers of bots are reparented to us, so stopping a bot can reap them.
    let _ = tarneeb_referee::bot::become_subreaper();
    let json = a.json;
    if !json {
        outln!("seed {seed}, record {}", record.display())?;
    }
    let mut report = |h: &HandEndMsg| {
        if !json {
            let scores = match &h.seat_scores {
                Some(s) => format!("players {} {} {} {}", s.0[0], s.0[1], s.0[2], s.0[3]),
                None => format!("teams {} : {}", h.team_scores.0[0], h.team_scores.0[1]),
            };
            // A closed stdout must not stop the game: its bots still have to be stopped.
            let _ = outln!(
                "hand {:>3} (dealer {}): {:<16} {scores}",
                h.hand_number,
                h.dealer,
                h.end
            );
        }
    };
    let outcome = play_game(&cfg, stop, &mut report)?;
    if json {
        let v = serde_json::json!({"seed": seed, "record": outcome.record, "bots": outcome.bots, "result": outcome.result});
        outln!("{v}")?;
    } else {
        let r = &outcome.result;
        let names: Vec<String> = outcome
            .bots
            .iter()
            .map(|b| b.name.clone().unwrap_or_else(|| "(no name)".into()))
            .collect();
        match r.winner {
            Some(t) => {
                let [a, b] = t.seats();
                outln!(
                    "winner: team {t} (seat {a} {}, seat {b} {}) by {} after {} hands",
                    names[a.index()],
                    names[b.index()],
                    r.reason,
                    r.hands
                )?;
            }
            None => outln!("draw ({}) after {} hands", r.reason, r.hands)?,
        }
        if let Some(f) = &r.forfeit {
            outln!(
                "forfeit: seat {} ({}): {}: {}",
                f.seat,
                names[f.seat.index()],
                f.kind,
                f.detail
            )?;
        }
        outln!(
            "final scores: teams {} : {}",
            r.team_scores.0[0],
            r.team_scores.0[1]
        )?;
    }
    Ok(())
}
