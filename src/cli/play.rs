//! `tarneeb play`: one game between four bot programs, its record and a report.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use rand::RngCore;

use super::args::{parse_seat, BotLimits, SandboxArgs};
use super::play_remote::{remote_name, remote_seats};
use super::UsageError;
use tarneeb_referee::bot::Sandbox;
use tarneeb_referee::bot::{
    check_can_start, detail_lines, split_command, stderr_log_path, BotSpec,
};
use tarneeb_referee::protocol::{printable, GameEndMsg, HandEndMsg};
use tarneeb_referee::record::reader::{read_record, ReadError};
use tarneeb_referee::record::{read_deals, recorded_deals, RecordedDeals};
use tarneeb_referee::referee::{play_game, trace_path, GameConfig, Outcome};
use tarneeb_referee::replay::text::rules_text;
use tarneeb_referee::rules::{Deal, Game, Rules, Seat, StartScores};
use tarneeb_referee::{deal_key, outln, rules_file, signals};

#[derive(clap::Args)]
pub struct PlayArgs {
    /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file. Default:
    /// classic, or with --deals-from the rules of that record.
    #[arg(long)]
    rules: Option<String>,
    /// Game seed: with the deal key, fixes the first dealer and every deal. Default: drawn
    /// from the operating system's random source (printed, and kept in the record).
    #[arg(long)]
    seed: Option<u64>,
    /// The deal key (from `tarneeb keygen FILE`): with the seed, it fixes the deals, so the
    /// same seed and key play the same deals again. Default: a fresh secret for this game,
    /// never written anywhere, so no bot can compute the deals from the seed (the record keeps
    /// the deals: replay and --deals-from need no key). The file is hidden from the bots.
    #[arg(long, value_name = "FILE", conflicts_with = "public_deals")]
    deal_key: Option<PathBuf>,
    /// Deals from the seed alone, as in the old referee and `tarneeb simulate`: anyone who
    /// knows or guesses the seed knows every hand. For research runs with trusted bots only.
    #[arg(long)]
    public_deals: bool,
    /// A bot's command line, split like a shell would; give four, in seat order 0, 1, 2, 3.
    /// Partners are seats 0 & 2 and 1 & 3. `human` is a seat you play yourself from this
    /// terminal (your hand, the auction, the trick and the scores are shown; type a move).
    /// `web` is a seat you play in a browser: the address to open, with its one-time token,
    /// is printed when the game starts (see --web-listen). `remote:NAME` is a seat played from
    /// another machine through `tarneeb connect` (the token for NAME is printed; see --listen;
    /// seats with the same NAME share it).
    #[arg(long = "bot", value_name = "CMD", required = true)]
    bots: Vec<String>,
    #[command(flatten)]
    net: super::remote_args::ListenArgs,
    /// The address a `--bot web` seat's page listens on (loopback by default; the port is
    /// chosen free). Only the holder of the printed address, with its token, can see the
    /// seat's hand or play it.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    web_listen: std::net::IpAddr,
    /// Where to write the game record (JSON lines). Default: a new file games/game-N.jsonl
    /// (the first N not taken: an earlier record is never overwritten).
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
    /// Start from these scores instead of zero: A:B for the partnerships (classic, egyptian) or
    /// A,B,C,D for the players (400, 41). Negative scores as typed: `--scores -13:20`. Kept in
    /// the record, so replay checks such a game too.
    #[arg(
        long,
        value_name = "SCORES",
        allow_hyphen_values = true,
        value_parser = str::parse::<StartScores>
    )]
    scores: Option<StartScores>,
    #[command(flatten)]
    limits: BotLimits,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Print the result as one JSON object instead of the report.
    #[arg(long)]
    json: bool,
    /// Also print a line per hand as it ends (its dealer, how it ended, the scores). Not with
    /// a `human` seat: it shows each hand's end itself, after the hand's last trick.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Write every line sent to and received from each seat, with its time (seconds since the
    /// bots started) and direction, to DIR/STEM.seatN.trace, STEM being the record's name.
    #[arg(long, value_name = "DIR")]
    trace: Option<PathBuf>,
    /// Test aid: write every message with its seat and the cards hidden from that seat.
    #[arg(long, hide = true, value_name = "FILE")]
    leak_trace: Option<PathBuf>,
}

/// A game as the flags ask for it, every check made: nothing is written yet.
struct GameSpec {
    rules: Rules,
    seed: u64,
    deal_secret: Option<tarneeb_referee::rules::DealSecret>,
    record: PathBuf,
    deals: Vec<Deal>,
    first_dealer: Option<Seat>,
    /// Each seat's remote entrant, when it is remote.
    remote: [Option<String>; 4],
    time: tarneeb_referee::protocol::TimeLimits,
    /// Seats played in a browser.
    webs: usize,
}

impl GameSpec {
    /// Checks everything the flags can get wrong before anything is created: a refused
    /// command leaves no file behind.
    fn new(a: &PlayArgs) -> Result<GameSpec> {
        let rules = rules_file::load(a.rules.as_deref().unwrap_or("classic"))?;
        if a.bots.len() != 4 {
            return Err(UsageError(format!(
                "give exactly four --bot commands (seats 0, 1, 2, 3), got {}",
                a.bots.len()
            ))
            .into());
        }
        // Not from the clock: with public deals the seed is the deal, and a bot can guess when
        // the referee started.
        let seed = a.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let deal_secret = match (&a.deal_key, a.public_deals) {
            (_, true) => None,
            (Some(p), false) => Some(deal_key::read(p).map_err(|e| UsageError(e.to_string()))?),
            (None, false) => Some(deal_key::fresh()),
        };
        let record = match &a.record {
            Some(r) => r.clone(),
            None => new_record_name(Path::new("games"))?,
        };
        let (rules, deals, first_dealer) = game_deals(a, rules, &record)?;
        if let Some(scores) = a.scores {
            Game::new(rules.clone(), Seat::from_index(0))
                .with_scores(scores)
                .map_err(|e| UsageError(format!("--scores {scores}: {e}")))?;
        }
        let remote = check_seats(a)?;
        let (time, webs) = seat_time(a)?;
        Ok(GameSpec {
            rules,
            seed,
            deal_secret,
            record,
            deals,
            first_dealer,
            remote,
            time,
            webs,
        })
    }
}

/// The rules (a `--deals-from` record's when no --rules), deals and first dealer.
fn game_deals(
    a: &PlayArgs,
    mut rules: Rules,
    record: &Path,
) -> Result<(Rules, Vec<Deal>, Option<Seat>)> {
    Ok(match (&a.deals, &a.deals_from) {
        (Some(p), _) => (rules, read_deals(p).map_err(UsageError)?, a.first_dealer),
        (None, Some(p)) => {
            let given = a.rules.is_some().then_some(&rules);
            let d = deals_from(p, record, given).map_err(UsageError)?;
            if a.rules.is_none() {
                rules = d.rules.clone();
            }
            (rules, d.deals, Some(d.first_dealer))
        }
        (None, None) => (rules, Vec::new(), a.first_dealer),
    })
}

/// Every bot command can start (a usage error, not a forfeit) and the remote seats can be
/// served; each seat's remote entrant.
fn check_seats(a: &PlayArgs) -> Result<[Option<String>; 4]> {
    for (i, cmd) in a
        .bots
        .iter()
        .enumerate()
        .filter(|(_, c)| !matches!(c.trim(), "human" | "web") && remote_name(c).is_none())
    {
        let command =
            split_command(cmd).map_err(|e| UsageError(format!("--bot for seat {i}: {e}")))?;
        check_can_start(&command).map_err(|e| UsageError(format!("--bot for seat {i}: {e}")))?;
    }
    let remote = remote_seats(&a.bots).map_err(UsageError)?;
    if remote.iter().any(Option::is_some) {
        a.net.check().map_err(UsageError)?;
    }
    Ok(remote)
}

/// The time limits (none per move for a person, unless --move-timeout says one) and the
/// number of browser seats; a terminal seat needs a terminal.
fn seat_time(a: &PlayArgs) -> Result<(tarneeb_referee::protocol::TimeLimits, usize)> {
    let humans = a.bots.iter().filter(|b| b.trim() == "human").count();
    let webs = a.bots.iter().filter(|b| b.trim() == "web").count();
    let mut time = a.limits.time();
    if humans > 0 {
        super::human::open_tty().map_err(|e| UsageError(format!("{e:#}")))?;
    }
    if (humans > 0 || webs > 0) && a.limits.move_timeout.is_none() {
        time.move_ms = super::args::NO_LIMIT_MS;
    }
    Ok((time, webs))
}

/// The sandbox with the record, its logs, the deals, the key and the traces masked, and the
/// files made empty to be masked (removed again when no bot wrote to them).
fn masked_sandbox(a: &PlayArgs, record: &Path) -> Result<(Sandbox, Vec<PathBuf>)> {
    let mut sandbox = a.sandbox.sandbox().map_err(|e| UsageError(e.to_string()))?;
    // Masking creates the record and its logs empty before the bots start (a mask needs a
    // file to cover); a game that never starts must not leave those behind.
    let made_for_mask: Vec<PathBuf> = std::iter::once(record.to_path_buf())
        .chain((0..4).map(|i| stderr_log_path(record, i)))
        .filter(|p| !p.exists())
        .collect();
    sandbox.mask_record(record);
    for p in [&a.deals, &a.deals_from, &a.deal_key].into_iter().flatten() {
        sandbox.mask(p);
    }
    // The traces are written while the game runs: their directory must exist to be masked.
    if let Some(dir) = &a.trace {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("--trace {}: cannot create it: {e}", dir.display())))?;
        sandbox.mask(dir);
    }
    if let Some(p) = &a.leak_trace {
        sandbox.mask_new_file(p);
    }
    Ok((sandbox, made_for_mask))
}

/// The four seats' programs: a bot in the sandbox, or our own program for a person or a
/// remote entrant, outside it.
fn seat_specs(a: &PlayArgs, g: &GameSpec, sandbox: Arc<Sandbox>) -> Result<[BotSpec; 4]> {
    let mut specs = Vec::new();
    for (i, cmd) in a.bots.iter().enumerate() {
        let mut env = Vec::new();
        let command = if cmd.trim() == "human" {
            let exe = std::env::current_exe()
                .map_err(|e| anyhow::anyhow!("cannot find the tarneeb program itself: {e}"))?;
            vec![exe.display().to_string(), "human-seat".into()]
        } else if cmd.trim() == "web" {
            let (command, token) = super::web_seat::command(i, a.web_listen)?;
            env.push(token);
            command
        } else if g.remote[i].is_some() {
            vec!["remote".to_string()]
        } else {
            split_command(cmd).map_err(|e| UsageError(format!("--bot for seat {i}: {e}")))?
        };
        // The terminal seat is our own program acting for the person at the keyboard: it
        // needs the terminal, which a sandbox's new session would take away.
        let seat_sandbox = if matches!(cmd.trim(), "human" | "web") || g.remote[i].is_some() {
            Arc::new(Sandbox::none())
        } else {
            sandbox.clone()
        };
        let mut spec = BotSpec::beside_record(
            command,
            &g.record,
            i,
            a.limits.stderr_cap,
            a.limits.max_line,
            seat_sandbox,
        );
        spec.env.extend(env);
        specs.push(spec);
    }
    specs
        .try_into()
        .map_err(|_| anyhow::anyhow!("four bot specs"))
}

/// The referee's view of the game.
fn game_config(a: &PlayArgs, g: GameSpec, bots: [BotSpec; 4]) -> GameConfig {
    GameConfig {
        rules: g.rules,
        seed: g.seed,
        first_dealer: g.first_dealer,
        deals: g.deals,
        bots,
        time: g.time,
        on_fault: a.limits.on_fault,
        events: a.limits.events,
        record: g.record,
        trace: a.trace.clone(),
        leak_trace: a.leak_trace.clone(),
        // A web seat waits for its page to fetch the game's end before it exits; the first
        // half of the grace (before SIGTERM) must cover that wait.
        grace: if g.webs > 0 {
            2 * tarneeb_referee::serve::seat::END_WAIT + Duration::from_millis(1000)
        } else {
            Duration::from_millis(1000)
        },
        start_scores: a.scores,
        deal_secret: g.deal_secret,
        watched: false,
        freeze_off_turn: a.limits.freeze_off_turn,
    }
}

pub fn run(a: PlayArgs) -> Result<()> {
    let mut game = GameSpec::new(&a)?;
    let (sandbox, made_for_mask) = masked_sandbox(&a, &game.record)?;
    let bots = seat_specs(&a, &game, Arc::new(sandbox))?;
    let remote = std::mem::take(&mut game.remote);
    let seed = game.seed;
    let cfg = game_config(&a, game, bots);
    if let Some(dir) = cfg.record.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let stop = signals::install();
    // Orphaned helpers of bots are reparented to us, so stopping a bot can reap them.
    let _ = tarneeb_referee::bot::become_subreaper();
    let json = a.json;
    if !json {
        // A closed stdout (`| head -0`, a reader gone) is no reason not to play: the game and
        // its record are what was asked for (issue 43).
        let _ = outln!("seed {seed}");
    }
    // The human seat prints on the same terminal from a process of its own: a line from here
    // would run ahead of the hand's last trick there (issue 41, point 8).
    let per_hand = a.verbose && !json && !a.bots.iter().any(|b| b.trim() == "human");
    let mut report = |h: &HandEndMsg| {
        if per_hand {
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
    let outcome = match super::play_remote::start(&remote, &a.net, a.limits.max_line, stop)? {
        None => play_game(&cfg, stop, &mut report),
        Some(seats) => seats.play(&cfg, stop, &mut report),
    }
    .inspect_err(|e| {
        if matches!(e, tarneeb_referee::referee::RefereeError::Spawn { .. }) {
            remove_empty(&made_for_mask);
        }
    })?;
    // A quiet bot leaves no stderr log (protocol.md section 1): the empty files made to be
    // masked go.
    let logs: Vec<PathBuf> = made_for_mask
        .into_iter()
        .filter(|p| *p != cfg.record)
        .collect();
    remove_empty(&logs);
    print_outcome(&a, seed, &outcome)
}

/// Removes the files of `made` that are still empty.
fn remove_empty(made: &[PathBuf]) {
    for p in made {
        if std::fs::metadata(p).is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The game's end on stdout: a JSON line with --json, else the winner, the forfeit, the
/// faults played on, the scores, the record and the traces.
fn print_outcome(a: &PlayArgs, seed: u64, outcome: &Outcome) -> Result<()> {
    let json = a.json;
    let faults = faults_of(&outcome.record);
    if json {
        let v = serde_json::json!({"seed": seed, "record": outcome.record, "bots": outcome.bots, "result": outcome.result, "faults": faults.list, "substituted": faults.substituted});
        outln!("{v}")?;
    } else {
        let r = &outcome.result;
        let names: Vec<String> = outcome
            .bots
            .iter()
            .map(|b| {
                b.name
                    .as_deref()
                    .map_or("no hello".into(), |n| printable(n).into_owned())
            })
            .collect();
        match r.winner {
            Some(t) => {
                let [a, b] = t.seats();
                outln!(
                    "winner: team {t} (seat {a} {}, seat {b} {}) by {} after {}",
                    names[a.index()],
                    names[b.index()],
                    r.reason,
                    tarneeb_referee::hands(r.hands)
                )?;
            }
            None => outln!(
                "draw ({}) after {}",
                r.reason,
                tarneeb_referee::hands(r.hands)
            )?,
        }
        print_faults(r, &faults, &names)?;
        outln!(
            "final scores: teams {} : {}",
            r.team_scores.0[0],
            r.team_scores.0[1]
        )?;
        outln!("record {}", outcome.record.display())?;
        if let Some(dir) = &a.trace {
            let files: Vec<String> = Seat::ALL
                .iter()
                .map(|&s| trace_path(dir, &outcome.record, s).display().to_string())
                .collect();
            outln!("traces {}", files.join(" "))?;
        }
    }
    Ok(())
}

/// The forfeit, each fault played on and the moves the referee chose, each seat named.
fn print_faults(r: &GameEndMsg, faults: &Faults, names: &[String]) -> Result<()> {
    if let Some(f) = &r.forfeit {
        // The cause on the first line; the stderr tail, the fix and the sandbox's
        // paragraph, when the detail holds them, each on a line of its own.
        let detail = printable(&f.detail);
        let lines = detail_lines(&detail);
        outln!(
            "forfeit: seat {} ({}): {}: {}",
            f.seat,
            names[f.seat.index()],
            f.kind,
            lines[0]
        )?;
        for l in &lines[1..] {
            outln!("  {l}")?;
        }
    }
    // Under --on-fault substitute a game goes on after faults: say each one, and how many
    // moves the referee chose, so a result is never read as clean when it was not.
    for f in faults.list.iter().filter(|f| f["action"] == "substitute") {
        let seat = f["seat"].as_u64().unwrap_or(0) as usize;
        outln!(
            "fault: hand {} seat {} ({}): {} (played on): {}",
            f["hand_number"],
            seat,
            names[seat],
            f["kind"].as_str().unwrap_or("?"),
            printable(f["detail"].as_str().unwrap_or(""))
        )?;
    }
    for (seat, n) in faults
        .substituted
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
    {
        outln!(
            "substituted: seat {seat} ({}): {n} move{} chosen by the referee",
            names[seat],
            if *n == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// `play --deals-from RECORD`: the record's deals in order and its first dealer. The record must
/// read (every line a record line, every deal valid) but is not replayed. Refuses to write the
/// new game's record over `RECORD`, and notes on stderr when the record's rules differ from the
/// new game's.
pub fn deals_from(
    path: &Path,
    new_record: &Path,
    rules: Option<&Rules>,
) -> Result<RecordedDeals, String> {
    let lines = read_record(path).map_err(|e| match e {
        ReadError::Io { .. } => e.to_string(),
        ReadError::Line(l) => format!("--deals-from {}: {l}", path.display()),
    })?;
    let d = recorded_deals(&lines).map_err(|e| format!("--deals-from {}: {e}", path.display()))?;
    let same = match (path.canonicalize(), new_record.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(format!(
            "--record {} is the record the deals come from: give another --record path",
            new_record.display()
        ));
    }
    if let Some(rules) = rules.filter(|r| **r != d.rules) {
        eprintln!(
            "note: {} was played under other rules ({}); this game uses --rules ({})",
            path.display(),
            rules_text(&d.rules),
            rules_text(rules)
        );
    }
    Ok(d)
}

/// The default record: `DIR/game-N.jsonl` for the first N whose record and stderr logs are all
/// free. The name says nothing about the game (a bot can read the names the referee hides
/// from it), and no earlier record is overwritten.
fn new_record_name(dir: &Path) -> Result<PathBuf> {
    for n in 1..=1_000_000u32 {
        let record = dir.join(format!("game-{n}.jsonl"));
        let taken = record.exists() || (0..4).any(|i| stderr_log_path(&record, i).exists());
        if !taken {
            return Ok(record);
        }
    }
    Err(UsageError(format!(
        "{} holds a million records: give --record PATH",
        dir.display()
    ))
    .into())
}

/// A game's faults (as record lines) and the moves the referee chose per seat.
struct Faults {
    list: Vec<serde_json::Value>,
    substituted: [u32; 4],
}

fn faults_of(record: &Path) -> Faults {
    use tarneeb_referee::record::RecordLine;
    let mut f = Faults {
        list: Vec::new(),
        substituted: [0; 4],
    };
    for l in read_record(record).unwrap_or_default() {
        match l.record {
            RecordLine::Move {
                seat,
                substituted: true,
                ..
            } => f.substituted[seat.index()] += 1,
            fault @ RecordLine::Fault { .. } => {
                if let Ok(mut v) = serde_json::to_value(&fault) {
                    if let Some(o) = v.as_object_mut() {
                        o.remove("type");
                    }
                    f.list.push(v);
                }
            }
            _ => {}
        }
    }
    f
}
