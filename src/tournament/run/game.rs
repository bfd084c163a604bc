//! One game of a tournament: the referee's configuration made from the run's and the game's
//! spec, its seats (processes from the worker's pool, connections from the lobby), and the row
//! its end makes. The worker loop that takes games and files their rows is in
//! [`runner`](super::runner).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::bot::{BotSpec, Watchdog};
use crate::protocol::HandEndMsg;
use crate::record::RecordedDeals;
use crate::referee::{
    play_game_watched, play_game_with, GameConfig, HandHook, Outcome, Processes, RefereeError,
};
use crate::rules::Seat;
use crate::standings::row::GameRow;
use crate::tournament::directory::results::{record_path, record_summary, RecordSummary};
use crate::tournament::run::pool::{BotPool, DealKey, GameProcesses};
use crate::tournament::run::remote_seats::WithRemote;
use crate::tournament::run::runner::{seat_names, RunConfig, GRACE};
use crate::tournament::schedule::GameSpec;

/// Plays one game and makes its row.
pub(super) fn play_one(
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
    } = DealChoice::of(cfg, spec);
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

/// The recorded deals a game is dealt from, if the tournament has any. Chosen once so the
/// game's deals, the pool's process keys and the row's fingerprint all name the same set: a
/// process that has seen deal set `i` is only reused for set `i`.
struct DealChoice {
    keys: Vec<DealKey>,
    deals: Vec<crate::rules::Deal>,
    first_dealer: Option<Seat>,
    fingerprint: Option<String>,
}

impl DealChoice {
    fn of(cfg: &RunConfig, spec: &GameSpec) -> DealChoice {
        let mut keys = vec![DealKey::Seed(spec.seed)];
        if cfg.deals.is_empty() {
            return DealChoice {
                keys,
                deals: Vec::new(),
                first_dealer: None,
                fingerprint: None,
            };
        }
        let i = (spec.deal_set % cfg.deals.len() as u64) as usize;
        keys.push(DealKey::Given(i));
        let d = &cfg.deals[i];
        DealChoice {
            keys,
            deals: d.deals.clone(),
            first_dealer: Some(d.first_dealer),
            fingerprint: Some(deals_fingerprint(d)),
        }
    }
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
            cfg.stderr_cap,
            cfg.max_line,
            cfg.sandbox.clone(),
        )
    });
    GameConfig {
        rules: cfg.rules.clone(),
        seed: spec.seed,
        first_dealer,
        deals,
        bots,
        time: cfg.time,
        on_fault: cfg.on_fault,
        events: cfg.events,
        record: record.to_path_buf(),
        trace: cfg.trace.clone(),
        leak_trace: None,
        start_scores: None,
        grace: GRACE,
        deal_secret: cfg.deal_secret.clone(),
        watched: cfg.watched,
        freeze_off_turn: cfg.freeze_off_turn,
    }
}

/// What the row keeps of each hand as it ends: its time (to measure the referee's own time
/// without the bots' start-up), its score change and its dealer.
#[derive(Default)]
struct HandLog {
    ends: Vec<Instant>,
    deltas: Vec<[i32; 2]>,
    dealers: Vec<u8>,
}

impl HandLog {
    fn push(&mut self, h: &HandEndMsg) {
        self.ends.push(Instant::now());
        self.deltas.push(h.team_delta.0);
        self.dealers.push(h.dealer.index() as u8);
    }

    /// The first hand whose moves the referee's time is measured over, and the wall time they
    /// took: the hands after the first when there are two or more (so bot start-up and
    /// handshakes are left out), else the whole game.
    fn timed_window(&self, start: Instant, end: Instant) -> (u32, Duration) {
        match self.ends.as_slice() {
            [first, .., last] => (2, *last - *first),
            _ => (1, end - start),
        }
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

/// The referee's own time per move, in microseconds to one decimal: the timed window's wall
/// time minus the bots' recorded reply times, over its moves. Reply times are whole
/// milliseconds rounded down, so this is an upper bound; it is what shows a slow referee in a
/// tournament's rows without a profiler.
fn referee_us_per_move(window: Duration, summary: Option<&RecordSummary>) -> Option<f64> {
    summary.and_then(|s| {
        (s.moves > 0).then(|| {
            let own = window.as_secs_f64() * 1e6 - s.ms as f64 * 1000.0;
            (own.max(0.0) / s.moves as f64 * 10.0).round() / 10.0
        })
    })
}

/// A game both partnerships forfeited at the handshake (a draw): a seat of the other
/// partnership than the recorded forfeit's that failed the handshake too.
fn also_forfeited(
    r: &crate::protocol::GameEndMsg,
    summary: Option<&crate::tournament::directory::results::RecordSummary>,
) -> Option<u8> {
    let first = r.forfeit.as_ref()?.seat.index();
    if r.winner.is_some() {
        return None;
    }
    let failed = summary?.handshake;
    (0..4)
        .find(|&s| s % 2 != first % 2 && failed[s])
        .map(|s| s as u8)
}

/// The game's double-dummy accuracy; a failed analysis is said and leaves the row without it.
fn analysed(record: &std::path::Path) -> Option<crate::standings::accuracy::RowAccuracy> {
    accuracy_of_record(record)
        .map_err(|e| eprintln!("tarneeb: {e}; the game's row has no analysis"))
        .ok()
}

/// Analyses the game record at `path` (plain or zstd-compressed).
fn accuracy_of_record(
    path: &std::path::Path,
) -> Result<crate::standings::row::RowAccuracy, String> {
    let game = crate::record::replay_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (seats, game_acc) = crate::analysis::game_accuracy(&game)
        .map_err(|e| format!("{}: double-dummy analysis failed: {e}", path.display()))?;
    let hands = if game_acc.cards == 0 {
        0
    } else {
        game_acc.cards / 52
    };
    Ok(crate::standings::row::RowAccuracy {
        hands,
        tricks_lost: crate::rules::Seat::ALL.map(|s| seats[s].tricks_lost),
    })
}

/// A name for recorded deals that stays the same across runs and builds: FNV-1a over the first
/// dealer and every hand's cards, in hex.
fn deals_fingerprint(d: &RecordedDeals) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(d.first_dealer.index() as u64);
    for deal in &d.deals {
        for seat in Seat::ALL {
            eat(deal.hand(seat).bits());
        }
    }
    format!("{h:016x}")
}
