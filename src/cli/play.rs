//! `tarneeb play`: one game between four bot programs, its record and a report.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::args::{parse_seat, BotLimits, SandboxArgs};
use super::UsageError;
use tarneeb_referee::bot::detail_lines;
use tarneeb_referee::protocol::{printable, GameEndMsg, HandEndMsg};
use tarneeb_referee::record::reader::read_record;
use tarneeb_referee::referee::spec::{
    GameSettings, GameSpec, OwnSeats, PrepareError, WebSeatCommand,
};
use tarneeb_referee::referee::{trace_path, Fresh, Outcome};
use tarneeb_referee::rules::{Seat, StartScores};
use tarneeb_referee::{outln, signals};

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

impl PlayArgs {
    /// The game these flags ask for, as the library's settings hold it (no check yet).
    fn settings(&self) -> GameSettings {
        GameSettings {
            rules: self.rules.clone(),
            seed: self.seed,
            deal_key: self.deal_key.clone(),
            public_deals: self.public_deals,
            bots: self.bots.clone(),
            record: self.record.clone(),
            deals: self.deals.clone(),
            first_dealer: self.first_dealer,
            deals_from: self.deals_from.clone(),
            scores: self.scores,
            time: self.limits.time(),
            move_timeout_given: self.limits.move_timeout.is_some(),
            on_fault: self.limits.on_fault,
            events: self.limits.events,
            freeze_off_turn: self.limits.freeze_off_turn,
            max_line: self.limits.max_line,
            stderr_cap: self.limits.stderr_cap,
            sandbox: self.sandbox.options(),
            trace: self.trace.clone(),
            leak_trace: self.leak_trace.clone(),
            listener_refused: self.net.check().err(),
            web_end_wait: tarneeb_referee::serve::seat::END_WAIT,
        }
    }
}

/// The terminal seat's command: this program's hidden `human-seat`.
fn human_seat() -> Result<Vec<String>, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the tarneeb program itself: {e}"))?;
    Ok(vec![exe.display().to_string(), "human-seat".into()])
}

/// A browser seat's command and token; its address is printed now.
fn web_seat(seat: usize, ip: IpAddr) -> Result<WebSeatCommand, String> {
    super::web_seat::command(seat, ip).map_err(|e| format!("{e:#}"))
}

pub fn run(a: PlayArgs) -> Result<()> {
    let spec = GameSpec::new(a.settings()).map_err(UsageError)?;
    let remote = spec.remote.clone();
    let (seed, human) = (spec.seed, spec.has_human());
    let web = |seat| web_seat(seat, a.web_listen);
    let own = OwnSeats {
        human: &human_seat,
        web: &web,
    };
    let game = spec.prepare(&own).map_err(|e| match e {
        PrepareError::Usage(m) => anyhow::Error::from(UsageError(m)),
        PrepareError::Failed(m) => anyhow::anyhow!(m),
    })?;
    let stop = signals::install();
    // Orphaned helpers of bots are reparented to us, so stopping a bot can reap them.
    let _ = tarneeb_referee::bot::become_subreaper();
    if !a.json {
        // A closed stdout (`| head -0`, a reader gone) is no reason not to play: the game and
        // its record are what was asked for (issue 43).
        let _ = outln!("seed {seed}");
    }
    // The human seat prints on the same terminal from a process of its own: a line from here
    // would run ahead of the hand's last trick there (issue 41, point 8).
    let per_hand = a.verbose && !a.json && !human;
    let mut report = |h: &HandEndMsg| {
        if per_hand {
            print_hand(h);
        }
    };
    let outcome = match super::play_remote::start(&remote, &a.net, a.limits.max_line, stop)? {
        None => game.play(&mut Fresh, stop, &mut report),
        Some(seats) => seats.play(game, stop, &mut report),
    }?;
    print_outcome(&a, seed, &outcome)
}

/// `--verbose`: a hand's end, its dealer and the scores, on one line.
fn print_hand(h: &HandEndMsg) {
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
