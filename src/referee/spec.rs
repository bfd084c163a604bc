//! One game as asked for ([`GameSettings`]: what `tarneeb play`'s flags give) made into one that
//! can be played ([`GameSpec`]): every check a game can fail (the rules, the four seats, bot
//! commands, a terminal for a human seat, remote seats' names and listener, the deal key, the
//! deals, the start scores, the record's name) is made by [`GameSpec::new`] before anything is
//! created. Then [`GameSpec::prepare`] masks the sandbox and makes the seats' programs, and
//! [`Prepared::play`] plays the game.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use rand::RngCore;

use crate::bot::sandbox::SandboxOptions;
use crate::bot::{check_can_start, split_command, stderr_log_path, BotSpec, Sandbox};
use crate::protocol::{HandEndMsg, TimeLimits};
use crate::record::reader::{read_record, ReadError};
use crate::record::{read_deals, recorded_deals, RecordedDeals};
use crate::referee::{
    play_game_with, EventDelivery, FaultPolicy, GameConfig, Outcome, Processes, RefereeError,
};
use crate::replay::text::rules_text;
use crate::rules::{Deal, DealSecret, Game, Rules, Seat, StartScores};
use crate::{deal_key, rules_file};

/// The limit that stands for "none" when a person plays: 30 days (a real `u64::MAX` would
/// overflow the deadline arithmetic).
pub const NO_LIMIT_MS: u64 = 30 * 24 * 3600 * 1000;

/// A game as asked for, before any check. Field names follow the flags of `tarneeb play` (its
/// `--help` says what each does).
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// A preset or a rules file; `None`: classic, or a `--deals-from` record's rules.
    pub rules: Option<String>,
    /// `None`: drawn from the operating system's random source.
    pub seed: Option<u64>,
    pub deal_key: Option<PathBuf>,
    pub public_deals: bool,
    /// `--bot`, as given: a command line, `human`, `web` or `remote:NAME`.
    pub bots: Vec<String>,
    /// `None`: the first free `games/game-N.jsonl`.
    pub record: Option<PathBuf>,
    pub deals: Option<PathBuf>,
    pub first_dealer: Option<Seat>,
    pub deals_from: Option<PathBuf>,
    pub scores: Option<StartScores>,
    pub time: TimeLimits,
    /// `--move-timeout` was given (else a person's seat has no limit per move).
    pub move_timeout_given: bool,
    pub on_fault: FaultPolicy,
    pub events: EventDelivery,
    pub freeze_off_turn: bool,
    pub max_line: usize,
    pub stderr_cap: u64,
    pub sandbox: SandboxOptions,
    pub trace: Option<PathBuf>,
    pub leak_trace: Option<PathBuf>,
    /// Why the server for remote seats cannot listen as asked, as the front end that owns the
    /// listener found it; `None` when it can.
    pub listener_refused: Option<String>,
    /// How long a web seat waits at the end for its page to fetch the game's end.
    pub web_end_wait: Duration,
}

/// What a `--bot` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A bot program, its command line as given.
    Bot(String),
    /// `human`: a person at this terminal.
    Human,
    /// `web`: a person in a browser.
    Web,
    /// `remote:NAME`: a remote entrant's connection.
    Remote(String),
}

impl SeatKind {
    pub fn of(cmd: &str) -> SeatKind {
        match cmd.trim() {
            "human" => SeatKind::Human,
            "web" => SeatKind::Web,
            c => match c.strip_prefix("remote:") {
                Some(name) => SeatKind::Remote(name.to_string()),
                None => SeatKind::Bot(cmd.to_string()),
            },
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

/// Opens the terminal, or says why a human seat cannot play here.
pub fn open_tty() -> Result<File, String> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|e| format!("--bot human plays from the terminal, but /dev/tty cannot be opened (no terminal: run tarneeb from one, or in tmux/screen): {e}"))
}

/// A game checked and ready to prepare: nothing has been created yet.
pub struct GameSpec {
    pub settings: GameSettings,
    pub rules: Rules,
    pub seed: u64,
    pub record: PathBuf,
    /// Each seat's remote entrant, when it is remote.
    pub remote: [Option<String>; 4],
    /// Seats played in a browser.
    pub webs: usize,
    deal_secret: Option<DealSecret>,
    deals: Vec<Deal>,
    first_dealer: Option<Seat>,
    time: TimeLimits,
}

impl GameSpec {
    /// Checks everything `s` can get wrong, in the order the errors were always reported,
    /// before anything is created: a refused command leaves no file behind. The error is a
    /// usage error (exit 2), said as users see it.
    pub fn new(s: GameSettings) -> Result<GameSpec, String> {
        let rules =
            rules_file::load(s.rules.as_deref().unwrap_or("classic")).map_err(|e| e.to_string())?;
        if s.bots.len() != 4 {
            return Err(format!(
                "give exactly four --bot commands (seats 0, 1, 2, 3), got {}",
                s.bots.len()
            ));
        }
        // Not from the clock: with public deals the seed is the deal, and a bot can guess when
        // the referee started.
        let seed = s.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let deal_secret = match (&s.deal_key, s.public_deals) {
            (_, true) => None,
            (Some(p), false) => Some(deal_key::read(p).map_err(|e| e.to_string())?),
            (None, false) => Some(deal_key::fresh()),
        };
        let record = match &s.record {
            Some(r) => r.clone(),
            None => new_record_name(Path::new("games"))?,
        };
        let (rules, deals, first_dealer) = game_deals(&s, rules, &record)?;
        if let Some(scores) = s.scores {
            Game::new(rules.clone(), Seat::from_index(0))
                .with_scores(scores)
                .map_err(|e| format!("--scores {scores}: {e}"))?;
        }
        let remote = check_seats(&s)?;
        let (time, webs) = seat_time(&s)?;
        Ok(GameSpec {
            settings: s,
            rules,
            seed,
            record,
            remote,
            webs,
            deal_secret,
            deals,
            first_dealer,
            time,
        })
    }

    /// Whether a seat is played from this terminal.
    pub fn has_human(&self) -> bool {
        self.settings
            .bots
            .iter()
            .any(|b| SeatKind::of(b) == SeatKind::Human)
    }
}

/// The rules (a `--deals-from` record's when no --rules), deals and first dealer.
fn game_deals(
    s: &GameSettings,
    mut rules: Rules,
    record: &Path,
) -> Result<(Rules, Vec<Deal>, Option<Seat>), String> {
    Ok(match (&s.deals, &s.deals_from) {
        (Some(p), _) => (rules, read_deals(p)?, s.first_dealer),
        (None, Some(p)) => {
            let given = s.rules.is_some().then_some(&rules);
            let d = deals_from(p, record, given)?;
            if s.rules.is_none() {
                rules = d.rules.clone();
            }
            (rules, d.deals, Some(d.first_dealer))
        }
        (None, None) => (rules, Vec::new(), s.first_dealer),
    })
}

/// Every bot command can start (a usage error, not a forfeit) and the remote seats can be
/// served; each seat's remote entrant.
fn check_seats(s: &GameSettings) -> Result<[Option<String>; 4], String> {
    for (i, cmd) in s.bots.iter().enumerate() {
        if let SeatKind::Bot(cmd) = SeatKind::of(cmd) {
            let command = split_command(&cmd).map_err(|e| format!("--bot for seat {i}: {e}"))?;
            check_can_start(&command).map_err(|e| format!("--bot for seat {i}: {e}"))?;
        }
    }
    let mut remote: [Option<String>; 4] = Default::default();
    for (i, cmd) in s.bots.iter().enumerate().take(4) {
        if let SeatKind::Remote(name) = SeatKind::of(cmd) {
            if !is_entrant_name(&name) {
                return Err(format!(
                    "--bot for seat {i}: '{cmd}': write remote:NAME, NAME of letters, digits, '_', '.' and '-'"
                ));
            }
            remote[i] = Some(name);
        }
    }
    if remote.iter().any(Option::is_some) {
        if let Some(why) = &s.listener_refused {
            return Err(why.clone());
        }
    }
    Ok(remote)
}

/// The time limits (none per move for a person, unless --move-timeout says one) and the
/// number of browser seats; a terminal seat needs a terminal.
fn seat_time(s: &GameSettings) -> Result<(TimeLimits, usize), String> {
    let kinds: Vec<SeatKind> = s.bots.iter().map(|b| SeatKind::of(b)).collect();
    let humans = kinds.iter().filter(|k| **k == SeatKind::Human).count();
    let webs = kinds.iter().filter(|k| **k == SeatKind::Web).count();
    let mut time = s.time;
    if humans > 0 {
        open_tty()?;
    }
    if (humans > 0 || webs > 0) && !s.move_timeout_given {
        time.move_ms = NO_LIMIT_MS;
    }
    Ok((time, webs))
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
fn new_record_name(dir: &Path) -> Result<PathBuf, String> {
    for n in 1..=1_000_000u32 {
        let record = dir.join(format!("game-{n}.jsonl"));
        let taken = record.exists() || (0..4).any(|i| stderr_log_path(&record, i).exists());
        if !taken {
            return Ok(record);
        }
    }
    Err(format!(
        "{} holds a million records: give --record PATH",
        dir.display()
    ))
}

/// Why a game could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// Bad input (the sandbox, the trace directory): exit code 2.
    #[error("{0}")]
    Usage(String),
    /// The program itself failed (its own path, a web seat's port, the record's directory).
    #[error("{0}")]
    Failed(String),
}

/// A browser seat's command line, and the environment variable (name, value) that holds its
/// token.
pub type WebSeatCommand = (Vec<String>, (String, String));

/// The programs of the seats the referee does not run as bots: the front end's own commands.
pub struct OwnSeats<'a> {
    /// The command of a terminal seat (`tarneeb human-seat`).
    pub human: &'a dyn Fn() -> Result<Vec<String>, String>,
    /// The command of a browser seat at `seat`, and the environment variable (name, value)
    /// that holds its token.
    pub web: &'a dyn Fn(usize) -> Result<WebSeatCommand, String>,
}

/// A game ready to play: its sandbox masked, its seats' programs made, the record's directory
/// made.
pub struct Prepared {
    pub cfg: GameConfig,
    /// Files made empty to be masked (removed again when no bot wrote to them).
    made_for_mask: Vec<PathBuf>,
}

impl GameSpec {
    /// Masks the sandbox (creating the record and its logs empty), makes each seat's program
    /// (a web seat's address is printed by `own.web`) and the record's directory.
    pub fn prepare(self, own: &OwnSeats<'_>) -> Result<Prepared, PrepareError> {
        let (sandbox, made_for_mask) = masked_sandbox(&self.settings, &self.record)?;
        let bots = seat_specs(&self, own, Arc::new(sandbox))?;
        let cfg = game_config(self, bots);
        if let Some(dir) = cfg.record.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                PrepareError::Failed(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        Ok(Prepared { cfg, made_for_mask })
    }
}

/// The sandbox with the record, its logs, the deals, the key and the traces masked, and the
/// files made empty to be masked.
fn masked_sandbox(
    s: &GameSettings,
    record: &Path,
) -> Result<(Sandbox, Vec<PathBuf>), PrepareError> {
    let mut sandbox = Sandbox::new(&s.sandbox).map_err(|e| PrepareError::Usage(e.to_string()))?;
    // Masking creates the record and its logs empty before the bots start (a mask needs a
    // file to cover); a game that never starts must not leave those behind.
    let made_for_mask: Vec<PathBuf> = std::iter::once(record.to_path_buf())
        .chain((0..4).map(|i| stderr_log_path(record, i)))
        .filter(|p| !p.exists())
        .collect();
    sandbox.mask_record(record);
    for p in [&s.deals, &s.deals_from, &s.deal_key].into_iter().flatten() {
        sandbox.mask(p);
    }
    // The traces are written while the game runs: their directory must exist to be masked.
    if let Some(dir) = &s.trace {
        std::fs::create_dir_all(dir).map_err(|e| {
            PrepareError::Usage(format!("--trace {}: cannot create it: {e}", dir.display()))
        })?;
        sandbox.mask(dir);
    }
    if let Some(p) = &s.leak_trace {
        sandbox.mask_new_file(p);
    }
    Ok((sandbox, made_for_mask))
}

/// The four seats' programs: a bot in the sandbox, or our own program for a person or a
/// remote entrant, outside it.
fn seat_specs(
    g: &GameSpec,
    own: &OwnSeats<'_>,
    sandbox: Arc<Sandbox>,
) -> Result<[BotSpec; 4], PrepareError> {
    let s = &g.settings;
    let mut specs = Vec::new();
    for (i, cmd) in s.bots.iter().enumerate() {
        let mut env = Vec::new();
        let kind = SeatKind::of(cmd);
        let command = match &kind {
            SeatKind::Human => (own.human)().map_err(PrepareError::Failed)?,
            SeatKind::Web => {
                let (command, token) = (own.web)(i).map_err(PrepareError::Failed)?;
                env.push(token);
                command
            }
            SeatKind::Remote(_) => vec!["remote".to_string()],
            SeatKind::Bot(cmd) => split_command(cmd)
                .map_err(|e| PrepareError::Usage(format!("--bot for seat {i}: {e}")))?,
        };
        // The terminal seat is our own program acting for the person at the keyboard: it
        // needs the terminal, which a sandbox's new session would take away.
        let seat_sandbox = match kind {
            SeatKind::Bot(_) => sandbox.clone(),
            _ => Arc::new(Sandbox::none()),
        };
        let mut spec = BotSpec::beside_record(
            command,
            &g.record,
            i,
            s.stderr_cap,
            s.max_line,
            seat_sandbox,
        );
        spec.env.extend(env);
        specs.push(spec);
    }
    specs
        .try_into()
        .map_err(|_| PrepareError::Failed("four bot specs".into()))
}

/// The referee's view of the game.
fn game_config(g: GameSpec, bots: [BotSpec; 4]) -> GameConfig {
    let s = g.settings;
    GameConfig {
        rules: g.rules,
        seed: g.seed,
        first_dealer: g.first_dealer,
        deals: g.deals,
        bots,
        time: g.time,
        on_fault: s.on_fault,
        events: s.events,
        record: g.record,
        trace: s.trace,
        leak_trace: s.leak_trace,
        // A web seat waits for its page to fetch the game's end before it exits; the first
        // half of the grace (before SIGTERM) must cover that wait.
        grace: if g.webs > 0 {
            2 * s.web_end_wait + Duration::from_millis(1000)
        } else {
            Duration::from_millis(1000)
        },
        start_scores: s.scores,
        deal_secret: g.deal_secret,
        watched: false,
        freeze_off_turn: s.freeze_off_turn,
    }
}

impl Prepared {
    /// Plays the game with bot processes from `processes` (remote seats' connections among
    /// them); a game that could not start its bots leaves none of the files made for the
    /// sandbox's masks, and a quiet bot no stderr log (protocol.md section 1).
    pub fn play(
        self,
        processes: &mut dyn Processes,
        stop: &AtomicBool,
        on_hand: &mut dyn FnMut(&HandEndMsg),
    ) -> Result<Outcome, RefereeError> {
        let outcome = play_game_with(&self.cfg, stop, on_hand, processes).inspect_err(|e| {
            if matches!(e, RefereeError::Spawn { .. }) {
                remove_empty(&self.made_for_mask);
            }
        })?;
        let logs: Vec<PathBuf> = self
            .made_for_mask
            .into_iter()
            .filter(|p| *p != self.cfg.record)
            .collect();
        remove_empty(&logs);
        Ok(outcome)
    }
}

/// Removes the files of `made` that are still empty.
fn remove_empty(made: &[PathBuf]) {
    for p in made {
        if std::fs::metadata(p).is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(p);
        }
    }
}
