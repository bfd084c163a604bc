//! Plays a tournament's games on worker threads, `jobs` at a time, each game through
//! [`referee::play_game`] with its own four bot processes. A worker thread may be pinned to one
//! CPU, so the game's referee and its bots (which inherit the thread's affinity) share it.
//!
//! Every finished game becomes one row appended to `results.jsonl` at once; games that
//! `results.jsonl` already holds (a resumed tournament) are taken from there, not played.
//!
//! Memory does not grow with the schedule: games are made as they are taken (see
//! [`Schedule`]), and rows are counted into running totals ([`Tally`]: what the progress line
//! and the final standings need) and not kept; earlier runs' rows are read as a stream.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::bot::{pin_to_cpu, Bot, BotSpec, Watchdog};
use crate::protocol::{HandEndMsg, TimeLimits};
use crate::record::RecordedDeals;
use crate::referee::{
    play_game_watched, play_game_with, EventDelivery, FaultPolicy, GameConfig, HandHook, Outcome,
    Processes, RefereeError,
};
use crate::rules::{Rules, Seat};
use crate::standings::row::GameRow;
use crate::standings::sprt::SprtConfig;
use crate::standings::tally::Tally;
use crate::standings::verdict::SprtTracker;
use crate::tournament::directory::integrity::GameSet;
use crate::tournament::directory::results::{record_path, record_summary, ResultsFile};
use crate::tournament::directory::{RowCheck, TournamentDir};
use crate::tournament::run::game::{
    also_forfeited, analysed, referee_us_per_move, DealChoice, HandLog,
};
use crate::tournament::run::pool::{BotPool, GameProcesses};
use crate::tournament::run::progress::{Progress, Snapshot};
use crate::tournament::run::remote_seats::WithRemote;
use crate::tournament::schedule::{GameScore, GameSpec, MatchOutcome, Schedule, Unit};

/// The limits every bot of the tournament plays under (also `spec::SeatLimits`: defined here
/// because `spec` is built on the run, not the run on `spec`).
#[derive(Clone, Debug)]
pub struct SeatLimits {
    pub time: TimeLimits,
    pub on_fault: FaultPolicy,
    pub events: EventDelivery,
    pub freeze_off_turn: bool,
    pub max_line: usize,
    pub stderr_cap: u64,
}

/// A bot program taking part.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub name: String,
    /// `["remote"]` for a remote entrant (see [`Entrant::is_remote`]).
    pub command: Vec<String>,
}

impl Entrant {
    /// The command that declares a remote entrant (`--bot NAME=remote`): its seats are played
    /// by connections (`tarneeb connect`), not by processes of this machine.
    pub const REMOTE: &'static str = "remote";

    pub fn is_remote(&self) -> bool {
        self.command.len() == 1 && self.command[0] == Self::REMOTE
    }

    /// The command that declares a person's entrant (`--bot NAME=web`): its seats are played
    /// in a browser, each at an address printed when the tournament starts.
    pub const WEB: &'static str = "web";

    pub fn is_web(&self) -> bool {
        self.command.len() == 1 && self.command[0] == Self::WEB
    }

    /// Its seats are played by connections from the lobby (remote and web entrants), not by
    /// processes started for the game.
    pub fn in_lobby(&self) -> bool {
        self.is_remote() || self.is_web()
    }
}

/// Everything the games need beyond the schedule.
#[derive(Clone)]
pub struct RunConfig {
    pub dir: PathBuf,
    pub entrants: Vec<Entrant>,
    pub rules: Rules,
    /// The time, fault policy, event delivery, `--freeze-off-turn` (see
    /// [`GameConfig::freeze_off_turn`]) and line and stderr caps every bot plays under.
    pub limits: SeatLimits,
    /// Games at once.
    pub jobs: usize,
    /// One CPU per worker thread, when set (as many CPUs as `jobs`).
    pub cpus: Option<Vec<usize>>,
    /// Deal set `i` plays `deals[i % len]` when not empty (`--deals-from`).
    pub deals: Vec<RecordedDeals>,
    /// Stop scheduling once this test on the first entrant's pair scores decides.
    pub sprt: Option<SprtConfig>,
    /// Total games of this run (after sharding), for the progress line.
    pub total: u64,
    /// `--progress`: how the progress is shown.
    pub progress: crate::tournament::run::progress::ProgressMode,
    /// The sandbox every bot runs in (the tournament directory is masked in it).
    pub sandbox: std::sync::Arc<crate::bot::Sandbox>,
    /// A fresh process for every bot in every game, also for bots that declare `multi_game`.
    pub fresh_bots: bool,
    /// Records written zstd-compressed (`games/NNNNNN.jsonl.zst`).
    pub compress: bool,
    /// `--trace DIR`: each game's lines to and from its seats, one file per seat.
    pub trace: Option<PathBuf>,
    /// `--analyze`: each game's double-dummy tricks lost per seat go into its row.
    pub analyze: bool,
    /// A shard of a Swiss (see [`crate::tournament::schedule::swiss_shards`]) plays only its own games; another
    /// shard's game not in the prior rows is skipped and reported in [`RunSummary::missing`].
    pub only_shard: Option<crate::tournament::schedule::shard::Shard>,
    /// With each game's seed, fixes its deals; `None` only for `--public-deals`.
    pub deal_secret: Option<crate::rules::DealSecret>,
    /// `--serve`: records are flushed move by move for the live page.
    pub watched: bool,
    /// Where remote entrants' connections wait, when there are remote entrants.
    pub lobby: Option<std::sync::Arc<crate::remote::lobby::Lobby>>,
    /// Each entrant's key in the lobby, when it is not the entrant's index: a league keeps
    /// one lobby across its rosters, whose indices change. Empty: the index.
    pub lobby_keys: Vec<usize>,
}

/// How a run ended.
pub struct RunSummary {
    /// Every row of the tournament directory, earlier runs' and this one's, counted.
    pub tally: Tally,
    pub interrupted: bool,
    /// The test, its verdict fixed at the first crossing.
    pub sprt: Option<SprtTracker>,
    pub champion: Option<Unit>,
    /// A knockout's or king of the hill's finished matches.
    pub bracket: Vec<MatchOutcome>,
    /// Bot processes started, and games given to a process kept from an earlier game.
    pub processes: ProcessCount,
    /// Games of other shards the schedule reached but nobody has played (`only_shard`).
    pub missing: Vec<u64>,
}

/// How the games' bot processes were had (see [`crate::tournament::run::pool`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessCount {
    pub started: u64,
    pub kept: u64,
}

/// A failure that ends the run (running games still finish and are kept).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("game {game}: {source}")]
    Referee { game: u64, source: RefereeError },
    #[error("{0}")]
    Results(String),
}

/// Where a run's games come from: a tournament's [`Schedule`], or a league's matchmaking
/// (`crate::league`), which picks each game from the results so far and the entrants of the
/// moment. The runner plays what it is given and reports every finished game back.
pub trait GameSource: Send {
    /// The next game to play; `None` when none can start now ([`GameSource::is_done`] says
    /// whether one may come once running games end).
    fn next_game(&mut self) -> Option<GameSpec>;
    /// A game finished and its row was appended to `results.jsonl`. An error ends the run.
    fn finished(&mut self, spec: &GameSpec, row: &GameRow) -> Result<(), String>;
    /// No game will come any more.
    fn is_done(&self) -> bool;
    /// A knockout's winner.
    fn champion(&self) -> Option<Unit> {
        None
    }
    /// A knockout's or king of the hill's finished matches.
    fn bracket(&self) -> Vec<MatchOutcome> {
        Vec::new()
    }
}

impl GameSource for Schedule {
    fn next_game(&mut self) -> Option<GameSpec> {
        Schedule::next_game(self)
    }

    fn finished(&mut self, spec: &GameSpec, row: &GameRow) -> Result<(), String> {
        Schedule::finished(
            self,
            spec.game,
            GameScore {
                winner: row.winner,
                team_scores: row.team_scores,
            },
        );
        Ok(())
    }

    fn is_done(&self) -> bool {
        Schedule::is_done(self)
    }

    fn champion(&self) -> Option<Unit> {
        Schedule::champion(self)
    }

    fn bracket(&self) -> Vec<MatchOutcome> {
        Schedule::bracket(self)
    }
}

/// The runner holds the source by `&mut`, so a league reads why it ended after the run.
impl<S: GameSource + ?Sized> GameSource for &mut S {
    fn next_game(&mut self) -> Option<GameSpec> {
        (**self).next_game()
    }

    fn finished(&mut self, spec: &GameSpec, row: &GameRow) -> Result<(), String> {
        (**self).finished(spec, row)
    }

    fn is_done(&self) -> bool {
        (**self).is_done()
    }
}

/// What earlier runs left in `results.jsonl`, read by [`load_prior`].
pub struct Prior {
    /// Every row, counted.
    tally: Tally,
    /// The test fed the rows in file order.
    sprt: Option<SprtTracker>,
    /// Static schedules: the games finished (each row was checked against the schedule).
    done: GameSet,
    /// Results-dependent schedules (bounded by the entrants): the rows, to feed the schedule
    /// in its order.
    rows: HashMap<u64, GameRow>,
    /// The hash of the rows read, to go on sealing (see [`crate::tournament::directory::seal`]); `None` without a
    /// sandbox.
    seal: Option<crate::tournament::directory::seal::SealState>,
}

impl Prior {
    /// Rows read.
    pub fn rows(&self) -> u64 {
        self.tally.rows()
    }

    /// Rows of other shards of a Swiss (see [`crate::tournament::schedule::swiss_shards`]): they feed the
    /// schedule's pairings but are neither counted nor written here.
    pub fn add_peer_rows(&mut self, rows: impl IntoIterator<Item = GameRow>) {
        for row in rows {
            self.rows.entry(row.game).or_insert(row);
        }
    }
}

/// Reads the rows earlier runs left in `cfg.dir`, as a stream (each checked against its record
/// and, for a static schedule, against the schedule's game of that number).
pub fn load_prior(
    cfg: &RunConfig,
    dir: &mut TournamentDir,
    schedule: &Schedule,
) -> Result<Prior, String> {
    load_rows(cfg, dir, Some(schedule))
}

/// The rows earlier runs left in `cfg.dir`, counted only (a league's games are chosen anew,
/// never replayed from a schedule): no row is kept in memory.
pub fn load_counted(cfg: &RunConfig, dir: &mut TournamentDir) -> Result<Prior, String> {
    load_rows(cfg, dir, None)
}

fn load_rows(
    cfg: &RunConfig,
    dir: &mut TournamentDir,
    schedule: Option<&Schedule>,
) -> Result<Prior, String> {
    // Earlier runs' rows in file order (the order their games ended), so a resumed test
    // reaches the verdict the interrupted run had, or would have had.
    let mut prior = Prior {
        tally: Tally::new(),
        sprt: cfg.sprt.map(|c| SprtTracker::new(c, &cfg.entrants[0].name)),
        done: GameSet::default(),
        rows: HashMap::new(),
        seal: None,
    };
    // Bots outside a sandbox could read the key: such a run seals nothing.
    let sandboxed = cfg.sandbox.label().starts_with("bwrap");
    if sandboxed {
        dir.ensure_key()?;
    } else {
        eprintln!(
            "note: no sandbox: results.jsonl is not sealed, so `tarneeb standings` checks each of its rows against its record"
        );
    }
    let read = dir.stream_rows(RowCheck::Sealed, false, |row| {
        if let Some(t) = prior.sprt.as_mut() {
            t.push(&row);
        }
        let Some(schedule) = schedule else {
            prior.tally.push(row);
            return Ok(());
        };
        match schedule.static_game(row.game) {
            Some(spec) => {
                check_prior(cfg, &spec, &row)?;
                prior.done.insert(row.game);
            }
            // Beyond a static schedule (no such game: counted, never played) or a schedule
            // that depends on results (checked when the schedule reaches it).
            None if schedule.is_static() => {}
            None => {
                prior.rows.insert(row.game, row.clone());
            }
        }
        prior.tally.push(row);
        Ok(())
    })?;
    prior.seal = read.seal.filter(|_| sandboxed);
    Ok(prior)
}

/// A row of an earlier run must be the game the schedule has under its number.
fn check_prior(cfg: &RunConfig, spec: &GameSpec, row: &GameRow) -> Result<(), String> {
    let names = seat_names(cfg, spec);
    if row.seed != spec.seed || row.seats != names {
        return Err(format!(
            "{}: the row of game {} (seed {}, seats {:?}) does not match the schedule (seed {}, seats {:?})",
            cfg.dir.join(crate::tournament::directory::RESULTS_FILE).display(),
            spec.game, row.seed, row.seats, spec.seed, names
        ));
    }
    Ok(())
}

struct Shared<S> {
    schedule: S,
    /// Rows of earlier runs not yet matched with a results-dependent schedule, by game.
    prior: HashMap<u64, GameRow>,
    /// Games of a static schedule earlier runs finished.
    done: GameSet,
    /// Every row so far, counted.
    tally: Tally,
    results: ResultsFile,
    running: usize,
    /// No new game is started (an error, or SPRT decided).
    halted: bool,
    error: Option<RunError>,
    /// The test on the first entrant, fed rows in the order they are appended.
    sprt: Option<SprtTracker>,
    live_workers: usize,
    processes: ProcessCount,
    missing: Vec<u64>,
}

enum Take {
    Play(GameSpec),
    Wait,
    Stop,
}

impl<S: GameSource> Shared<S> {
    fn take(&mut self, cfg: &RunConfig) -> Take {
        loop {
            if self.halted {
                return Take::Stop;
            }
            match self.schedule.next_game() {
                Some(spec) if self.done.contains(spec.game) => {}
                Some(spec) => match self.prior.remove(&spec.game) {
                    Some(row) => {
                        if let Err(e) = check_prior(cfg, &spec, &row) {
                            self.error = Some(RunError::Results(e));
                            self.halted = true;
                            return Take::Stop;
                        }
                        // Counted when it was read: the schedule only needs its result.
                        if let Err(e) = self.schedule.finished(&spec, &row) {
                            self.error = Some(RunError::Results(e));
                            self.halted = true;
                            return Take::Stop;
                        }
                    }
                    None if cfg.only_shard.is_some_and(|s| !s.owns(spec.game)) => {
                        self.missing.push(spec.game)
                    }
                    None => return Take::Play(spec),
                },
                None if self.schedule.is_done() || self.running == 0 => return Take::Stop,
                None => return Take::Wait,
            }
        }
    }

    fn accept(&mut self, spec: &GameSpec, row: GameRow) {
        if let Err(e) = self.schedule.finished(spec, &row) {
            self.error.get_or_insert(RunError::Results(e));
            self.halted = true;
        }
        self.tally.push(row);
    }
}

fn seat_names(cfg: &RunConfig, spec: &GameSpec) -> [String; 4] {
    spec.seats.map(|e| cfg.entrants[e].name.clone())
}

/// Plays the schedule's games (those `prior` does not hold) until it is done, SPRT decides,
/// an error occurs or `stop` is set.
pub fn run<S: GameSource>(
    cfg: &RunConfig,
    schedule: S,
    prior: Prior,
    stop: &AtomicBool,
) -> Result<RunSummary, RunError> {
    let resumed = prior.rows();
    let mut results = ResultsFile::open(&cfg.dir).map_err(RunError::Results)?;
    match prior.seal {
        Some(state) => results.seal_from(state),
        // No seal (no sandbox): the same syncs (docs/reliability.md, "Power loss").
        None => results.sync_unsealed(),
    }
    let tracker = prior.sprt;
    let halted = tracker.as_ref().is_some_and(|t| t.decided().is_some());
    let shared = Mutex::new(Shared {
        schedule,
        prior: prior.rows,
        done: prior.done,
        tally: prior.tally,
        results,
        running: 0,
        halted,
        error: None,
        sprt: tracker,
        live_workers: cfg.jobs,
        processes: ProcessCount::default(),
        missing: Vec::new(),
    });
    let changed = Condvar::new();
    let mut progress = Progress::with_mode(resumed, cfg.progress);
    std::thread::scope(|scope| {
        for w in 0..cfg.jobs {
            let (shared, changed) = (&shared, &changed);
            let cpu = cfg.cpus.as_ref().and_then(|c| c.get(w).copied());
            let spawned = std::thread::Builder::new()
                .name(format!("game-worker-{w}"))
                .spawn_scoped(scope, move || worker(cfg, cpu, shared, changed, stop));
            if let Err(e) = spawned {
                // Out of memory or threads (issue 43): said, never a panic; the workers that
                // started finish their games.
                let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                s.live_workers -= 1;
                s.halted = true;
                s.error.get_or_insert(RunError::Results(format!(
                    "cannot start a game worker thread: {e}; the referee is out of memory or threads: raise its limits (ulimit -v, ulimit -u) or run fewer games at once (--jobs)"
                )));
            }
        }
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        while s.live_workers > 0 {
            let sprt = s.sprt.as_ref().map(SprtTracker::verdict);
            let leader = progress.leader(&s.tally).map(|(n, r)| (n.to_string(), r));
            progress.show(&Snapshot {
                done: s.tally.rows(),
                total: cfg.total,
                running: s.running,
                leader: leader.as_ref().map(|(n, r)| (n.as_str(), *r)),
                sprt,
            });
            s = changed
                .wait_timeout(s, Duration::from_millis(500))
                .unwrap_or_else(|e| e.into_inner())
                .0;
            s.results.tick();
        }
        let sprt = s.sprt.as_ref().map(SprtTracker::verdict);
        let leader = progress.leader(&s.tally).map(|(n, r)| (n.to_string(), r));
        progress.show(&Snapshot {
            done: s.tally.rows(),
            total: cfg.total,
            running: 0,
            leader: leader.as_ref().map(|(n, r)| (n.as_str(), *r)),
            sprt,
        });
    });
    progress.finish();
    let mut s = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = s.error.take() {
        return Err(e);
    }
    // Rows of games the schedule never reached (SPRT stopped early) were counted when read.
    Ok(RunSummary {
        tally: s.tally,
        interrupted: stop.load(Ordering::SeqCst),
        sprt: s.sprt,
        champion: s.schedule.champion(),
        bracket: s.schedule.bracket(),
        processes: s.processes,
        missing: s.missing,
    })
}

fn worker<S: GameSource>(
    cfg: &RunConfig,
    cpu: Option<usize>,
    shared: &Mutex<Shared<S>>,
    changed: &Condvar,
    stop: &AtomicBool,
) {
    if let Some(cpu) = cpu {
        // Bots started from this thread inherit its affinity.
        if let Err(e) = pin_to_cpu(0, cpu) {
            eprintln!("note: cannot pin a game worker to CPU {cpu}: {e}");
        }
    }
    let mut pool = BotPool::new(pool_cap(cfg), Bot::spawn, GRACE);
    // One watchdog for all of this worker's games (a thread per game cost tens of us of CPU).
    // If it cannot start, each game tries its own and reports the failure.
    let dog_state = crate::bot::watchdog::Shared::for_this_thread();
    std::thread::scope(|scope| {
        let dog = Watchdog::start(scope, &dog_state, stop).ok();
        play_games(cfg, shared, changed, stop, &mut pool, dog.as_ref());
    });
    pool.shutdown();
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    s.live_workers -= 1;
    s.processes.started += pool.started;
    s.processes.kept += pool.reused;
    drop(s);
    changed.notify_all();
}

/// A worker's loop: takes games from the schedule and plays them until none is left.
fn play_games<S: GameSource>(
    cfg: &RunConfig,
    shared: &Mutex<Shared<S>>,
    changed: &Condvar,
    stop: &AtomicBool,
    pool: &mut BotPool,
    dog: Option<&Watchdog<'_>>,
) {
    loop {
        let spec = {
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if stop.load(Ordering::SeqCst) {
                    break None;
                }
                match s.take(cfg) {
                    Take::Play(spec) => {
                        s.running += 1;
                        break Some(spec);
                    }
                    Take::Stop => break None,
                    Take::Wait => {
                        s = changed
                            .wait_timeout(s, Duration::from_millis(200))
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                }
            }
        };
        changed.notify_all();
        let Some(spec) = spec else { break };
        let result = play_one(cfg, &spec, stop, pool, dog);
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        s.running -= 1;
        match result {
            Ok(row) => match s.results.append(&row) {
                Ok(()) => {
                    // Fed in append order; a game ending after the crossing leaves it fixed.
                    if s.sprt.as_mut().is_some_and(|t| t.push(&row)) {
                        s.halted = true;
                    }
                    s.accept(&spec, row)
                }
                Err(e) => {
                    s.error.get_or_insert(RunError::Results(e));
                    s.halted = true;
                }
            },
            Err(RefereeError::Interrupted { .. }) => {}
            Err(source) => {
                s.error.get_or_insert(RunError::Referee {
                    game: spec.game,
                    source,
                });
                s.halted = true;
            }
        }
        drop(s);
        changed.notify_all();
    }
}

/// How long a bot gets to exit after its last game before it is killed.
const GRACE: Duration = Duration::from_millis(1000);

/// Idle processes a worker keeps: four per entrant (a duplicate pair of games between two
/// entrants that each hold two seats needs four processes of each), at most 64.
fn pool_cap(cfg: &RunConfig) -> usize {
    if cfg.fresh_bots {
        0
    } else {
        (4 * cfg.entrants.len()).clamp(4, 64)
    }
}

/// Plays one game and makes its row.
fn play_one(
    cfg: &RunConfig,
    spec: &GameSpec,
    stop: &AtomicBool,
    pool: &mut BotPool,
    dog: Option<&Watchdog<'_>>,
) -> Result<GameRow, RefereeError> {
    let rel = record_path(spec.game, cfg.compress);
    let record = cfg.dir.join(&rel);
    let DealChoice {
        keys,
        deals,
        first_dealer,
        fingerprint,
    } = DealChoice::of(&cfg.deals, spec);
    let game = game_config(cfg, spec, &record, deals, first_dealer);
    let start = Instant::now();
    let mut hands = HandLog::default();
    let mut on_hand = |h: &HandEndMsg| hands.push(h);
    let processes = pool.game(spec.seats, keys);
    let outcome = seat_and_play(cfg, spec, &game, stop, dog, &mut on_hand, processes)?;
    let end = Instant::now();
    let r = &outcome.result;
    let (from_hand, window) = hands.timed_window(start, end);
    let summary = record_summary(&record, from_hand);
    Ok(GameRow {
        game: spec.game,
        pair: spec.pair,
        seed: spec.seed,
        seats: seat_names(cfg, spec),
        winner: r.winner.map(|t| t.index() as u8),
        reason: r.reason.clone(),
        team_scores: r.team_scores.0,
        hands: r.hands,
        forfeit_seat: r.forfeit.as_ref().map(|f| f.seat.index() as u8),
        record: rel,
        referee_us_per_move: referee_us_per_move(window, summary.as_ref()),
        deals: fingerprint,
        forfeit_kind: r.forfeit.as_ref().map(|f| f.kind.to_string()),
        timeouts: summary.as_ref().map_or([0; 4], |s| s.timeouts),
        also_forfeited: also_forfeited(r, summary.as_ref()),
        hand_deltas: hands.deltas,
        hand_dealers: hands.dealers,
        accuracy: cfg.analyze.then(|| analysed(&record)).flatten(),
    })
}

/// The referee's configuration for one game of the tournament: every game shares the run's
/// rules, limits and policies, and only its seats, seed, deals and record path are its own.
fn game_config(
    cfg: &RunConfig,
    spec: &GameSpec,
    record: &Path,
    deals: Vec<crate::rules::Deal>,
    first_dealer: Option<Seat>,
) -> GameConfig {
    let bots: [BotSpec; 4] = std::array::from_fn(|i| {
        BotSpec::beside_record(
            cfg.entrants[spec.seats[i]].command.clone(),
            record,
            i,
            cfg.limits.stderr_cap,
            cfg.limits.max_line,
            cfg.sandbox.clone(),
        )
    });
    GameConfig {
        rules: cfg.rules.clone(),
        seed: spec.seed,
        first_dealer,
        deals,
        bots,
        time: cfg.limits.time,
        on_fault: cfg.limits.on_fault,
        events: cfg.limits.events,
        record: record.to_path_buf(),
        trace: cfg.trace.clone(),
        leak_trace: None,
        start_scores: None,
        grace: GRACE,
        deal_secret: cfg.deal_secret.clone(),
        watched: cfg.watched,
        freeze_off_turn: cfg.limits.freeze_off_turn,
    }
}

/// Seats the game and plays it. A game with a seat of a lobby entrant (remote or web) waits
/// until each such seat has a connection and takes them all at once, so a game never holds
/// some connections while it waits for others that another game holds; a stop while waiting
/// ends the game as interrupted.
fn seat_and_play(
    cfg: &RunConfig,
    spec: &GameSpec,
    game: &GameConfig,
    stop: &AtomicBool,
    dog: Option<&Watchdog<'_>>,
    on_hand: HandHook<'_>,
    mut processes: GameProcesses<'_>,
) -> Result<Outcome, RefereeError> {
    let lobby_key = |e: usize| cfg.lobby_keys.get(e).copied().unwrap_or(e);
    let remote_seats: [Option<usize>; 4] = std::array::from_fn(|i| {
        Some(spec.seats[i])
            .filter(|&e| cfg.entrants[e].in_lobby())
            .map(lobby_key)
    });
    match (&cfg.lobby, remote_seats.iter().any(Option::is_some)) {
        (Some(lobby), true) => {
            let Some(remote) = lobby.reserve(remote_seats, stop) else {
                return Err(RefereeError::Interrupted {
                    record: game.record.display().to_string(),
                });
            };
            let mut seats = WithRemote {
                local: processes,
                remote,
                entrants: spec.seats.map(lobby_key),
                lobby,
            };
            play_watched_if(game, stop, dog, on_hand, &mut seats)
        }
        _ => play_watched_if(game, stop, dog, on_hand, &mut processes),
    }
}

/// Plays under the worker's shared watchdog when it started (a watchdog thread per game cost
/// tens of microseconds of CPU), else under one of the game's own, whose failure to start is
/// then the game's error.
fn play_watched_if(
    game: &GameConfig,
    stop: &AtomicBool,
    dog: Option<&Watchdog<'_>>,
    on_hand: HandHook<'_>,
    processes: &mut dyn Processes,
) -> Result<Outcome, RefereeError> {
    match dog {
        Some(dog) => play_game_watched(game, stop, dog, on_hand, processes),
        None => play_game_with(game, stop, on_hand, processes),
    }
}
