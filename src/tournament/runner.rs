//! Plays a tournament's games on worker threads, `jobs` at a time, each game through
//! [`referee::play_game`] with its own four bot processes. A worker thread may be pinned to one
//! CPU, so the game's referee and its bots (which inherit the thread's affinity) share it.
//!
//! Every finished game becomes one row appended to `results.jsonl` at once; games that
//! `results.jsonl` already holds (a resumed tournament) are taken from there, not played.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::progress::{Progress, Snapshot};
use super::results::{record_moves, record_path, ResultsFile};
use super::schedule::{GameScore, GameSpec, Schedule, Unit};
use super::sprt::{sprt, SprtConfig, SprtDecision, SprtState};
use super::standings::GameRow;
use crate::bot::{pin_to_cpu, BotSpec};
use crate::protocol::{HandEndMsg, TimeLimits};
use crate::record::RecordedDeals;
use crate::referee::{play_game, EventDelivery, FaultPolicy, GameConfig, RefereeError};
use crate::rules::Rules;

/// A bot program taking part.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub name: String,
    pub command: Vec<String>,
}

/// Everything the games need beyond the schedule.
pub struct RunConfig {
    pub dir: PathBuf,
    pub entrants: Vec<Entrant>,
    pub rules: Rules,
    pub time: TimeLimits,
    pub on_fault: FaultPolicy,
    pub events: EventDelivery,
    pub max_line: usize,
    pub stderr_cap: u64,
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
    /// `--trace DIR`: each game's lines to and from its seats, one file per seat.
    pub trace: Option<PathBuf>,
}

/// How a run ended.
pub struct RunSummary {
    /// Every row of the tournament directory: earlier runs' and this one's.
    pub rows: Vec<GameRow>,
    pub interrupted: bool,
    pub sprt: Option<SprtState>,
    pub champion: Option<Unit>,
}

/// A failure that ends the run (running games still finish and are kept).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("game {game}: {source}")]
    Referee { game: u64, source: RefereeError },
    #[error("{0}")]
    Results(String),
}

struct Shared {
    schedule: Schedule,
    /// Rows of earlier runs not yet matched with the schedule, by game.
    prior: HashMap<u64, GameRow>,
    rows: Vec<GameRow>,
    results: ResultsFile,
    running: usize,
    /// No new game is started (an error, or SPRT decided).
    halted: bool,
    error: Option<RunError>,
    wins: Vec<u64>,
    /// The first entrant's scores (1, 1/2, 0) per pair (or per game without duplicate).
    sprt_scores: BTreeMap<u64, Vec<f64>>,
    sprt_state: Option<SprtState>,
    live_workers: usize,
}

enum Take {
    Play(GameSpec),
    Wait,
    Stop,
}

impl Shared {
    fn take(&mut self, cfg: &RunConfig) -> Take {
        loop {
            if self.halted {
                return Take::Stop;
            }
            match self.schedule.next_game() {
                Some(spec) => match self.prior.remove(&spec.game) {
                    Some(row) => {
                        let names = seat_names(cfg, &spec);
                        if row.seed != spec.seed || row.seats != names {
                            self.error = Some(RunError::Results(format!(
                                "{}: the row of game {} (seed {}, seats {:?}) does not match the schedule (seed {}, seats {:?})",
                                cfg.dir.join(super::results::RESULTS_FILE).display(),
                                spec.game, row.seed, row.seats, spec.seed, names
                            )));
                            self.halted = true;
                            return Take::Stop;
                        }
                        self.accept(cfg, &spec, row);
                    }
                    None => return Take::Play(spec),
                },
                None if self.schedule.is_done() || self.running == 0 => return Take::Stop,
                None => return Take::Wait,
            }
        }
    }

    fn accept(&mut self, cfg: &RunConfig, spec: &GameSpec, row: GameRow) {
        self.schedule.finished(
            spec.game,
            GameScore {
                winner: row.winner,
                team_scores: row.team_scores,
            },
        );
        if let Some(w) = row.winner {
            let team = usize::from(w);
            let mut winners = vec![spec.seats[team], spec.seats[team + 2]];
            winners.dedup();
            for e in winners {
                self.wins[e] += 1;
            }
        }
        if let Some(sprt_cfg) = &cfg.sprt {
            let first_team = if spec.seats[0] == 0 { 0 } else { 1 };
            let score = match row.winner {
                Some(w) if usize::from(w) == first_team => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let key = spec.pair.unwrap_or(spec.game);
            self.sprt_scores.entry(key).or_default().push(score);
            let need = if spec.pair.is_some() { 2 } else { 1 };
            if self.sprt_scores[&key].len() == need {
                let pairs: Vec<f64> = self
                    .sprt_scores
                    .values()
                    .filter(|v| v.len() == need)
                    .map(|v| v.iter().sum::<f64>() / v.len() as f64)
                    .collect();
                let state = sprt(sprt_cfg, &pairs);
                if !matches!(state.decision, SprtDecision::Continue) {
                    self.halted = true;
                }
                self.sprt_state = Some(state);
            }
        }
        self.rows.push(row);
    }

    fn leader<'a>(&self, cfg: &'a RunConfig) -> Option<(&'a str, u64)> {
        let (i, &w) = self
            .wins
            .iter()
            .enumerate()
            .max_by_key(|(i, w)| (**w, std::cmp::Reverse(*i)))?;
        (w > 0).then(|| (cfg.entrants[i].name.as_str(), w))
    }
}

fn seat_names(cfg: &RunConfig, spec: &GameSpec) -> [String; 4] {
    spec.seats.map(|e| cfg.entrants[e].name.clone())
}

/// Plays the schedule's games (those `prior` does not hold) until it is done, SPRT decides,
/// an error occurs or `stop` is set.
pub fn run(
    cfg: &RunConfig,
    schedule: Schedule,
    prior: Vec<GameRow>,
    stop: &AtomicBool,
) -> Result<RunSummary, RunError> {
    let results = ResultsFile::open(&cfg.dir).map_err(RunError::Results)?;
    let resumed = prior.len() as u64;
    let shared = Mutex::new(Shared {
        schedule,
        prior: prior.into_iter().map(|r| (r.game, r)).collect(),
        rows: Vec::new(),
        results,
        running: 0,
        halted: false,
        error: None,
        wins: vec![0; cfg.entrants.len()],
        sprt_scores: BTreeMap::new(),
        sprt_state: None,
        live_workers: cfg.jobs,
    });
    let changed = Condvar::new();
    let mut progress = Progress::new(resumed);
    std::thread::scope(|scope| {
        for w in 0..cfg.jobs {
            let (shared, changed) = (&shared, &changed);
            let cpu = cfg.cpus.as_ref().and_then(|c| c.get(w).copied());
            std::thread::Builder::new()
                .name(format!("game-worker-{w}"))
                .spawn_scoped(scope, move || worker(cfg, cpu, shared, changed, stop))
                .expect("spawn a worker thread");
        }
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        while s.live_workers > 0 {
            progress.show(&Snapshot {
                done: s.rows.len() as u64,
                total: cfg.total,
                running: s.running,
                leader: s.leader(cfg),
            });
            s = changed
                .wait_timeout(s, Duration::from_millis(500))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        progress.show(&Snapshot {
            done: s.rows.len() as u64,
            total: cfg.total,
            running: 0,
            leader: s.leader(cfg),
        });
    });
    progress.finish();
    let mut s = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = s.error.take() {
        return Err(e);
    }
    // Rows of games the schedule never reached (SPRT stopped early) are still results.
    let mut rows = s.rows;
    rows.extend(s.prior.into_values());
    rows.sort_by_key(|r| r.game);
    Ok(RunSummary {
        rows,
        interrupted: stop.load(Ordering::SeqCst),
        sprt: s.sprt_state,
        champion: s.schedule.champion(),
    })
}

fn worker(
    cfg: &RunConfig,
    cpu: Option<usize>,
    shared: &Mutex<Shared>,
    changed: &Condvar,
    stop: &AtomicBool,
) {
    if let Some(cpu) = cpu {
        // Bots started from this thread inherit its affinity.
        if let Err(e) = pin_to_cpu(0, cpu) {
            eprintln!("note: cannot pin a game worker to CPU {cpu}: {e}");
        }
    }
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
        let result = play_one(cfg, &spec, stop);
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        s.running -= 1;
        match result {
            Ok(row) => match s.results.append(&row) {
                Ok(()) => s.accept(cfg, &spec, row),
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
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    s.live_workers -= 1;
    drop(s);
    changed.notify_all();
}

/// Plays one game and makes its row.
fn play_one(cfg: &RunConfig, spec: &GameSpec, stop: &AtomicBool) -> Result<GameRow, RefereeError> {
    let rel = record_path(spec.game);
    let record = cfg.dir.join(&rel);
    let stem = format!("{:06}", spec.game);
    let bots: [BotSpec; 4] = std::array::from_fn(|i| BotSpec {
        command: cfg.entrants[spec.seats[i]].command.clone(),
        cwd: None,
        env: Vec::new(),
        stderr_log: record.with_file_name(format!("{stem}.seat{i}.stderr.log")),
        stderr_cap: cfg.stderr_cap,
        max_line: cfg.max_line,
    });
    let (deals, first_dealer) = match cfg.deals.len() {
        0 => (Vec::new(), None),
        n => {
            let d = &cfg.deals[(spec.deal_set % n as u64) as usize];
            (d.deals.clone(), Some(d.first_dealer))
        }
    };
    let game = GameConfig {
        rules: cfg.rules.clone(),
        seed: spec.seed,
        first_dealer,
        deals,
        bots,
        time: cfg.time,
        on_fault: cfg.on_fault,
        events: cfg.events,
        record: record.clone(),
        trace: cfg.trace.clone(),
        leak_trace: None,
        start_scores: None,
        grace: Duration::from_millis(1000),
    };
    let start = Instant::now();
    let mut hand_ends: Vec<Instant> = Vec::new();
    let mut on_hand = |_: &HandEndMsg| hand_ends.push(Instant::now());
    let outcome = play_game(&game, stop, &mut on_hand)?;
    let end = Instant::now();
    let r = &outcome.result;
    // Referee time per move: the wall time of the hands after the first (so bot start-up and
    // handshakes are left out) minus the bots' recorded reply times. Reply times are whole
    // milliseconds rounded down, so this is an upper bound.
    let (from_hand, window) = match hand_ends.as_slice() {
        [first, .., last] => (2, *last - *first),
        _ => (1, end - start),
    };
    let referee_us_per_move = record_moves(&record, from_hand).and_then(|(moves, ms)| {
        (moves > 0).then(|| {
            let own = window.as_secs_f64() * 1e6 - ms as f64 * 1000.0;
            (own.max(0.0) / moves as f64 * 10.0).round() / 10.0
        })
    });
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
        referee_us_per_move,
    })
}
