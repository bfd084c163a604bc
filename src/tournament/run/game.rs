//! What one game of a tournament is dealt from and what its row measures beyond the game's
//! end (the hands' score changes, the referee's own time, a double forfeit, the analysis):
//! the facts [`runner`](super::runner) puts in a game's row, apart from the run itself.

use std::time::{Duration, Instant};

use crate::protocol::HandEndMsg;
use crate::record::RecordedDeals;
use crate::rules::Seat;
use crate::tournament::directory::results::RecordSummary;
use crate::tournament::run::pool::DealKey;
use crate::tournament::schedule::GameSpec;

/// The recorded deals a game is dealt from, if the tournament has any. Chosen once so the
/// game's deals, the pool's process keys and the row's fingerprint all name the same set: a
/// process that has seen deal set `i` is only reused for set `i`.
pub(super) struct DealChoice {
    pub(super) keys: Vec<DealKey>,
    pub(super) deals: Vec<crate::rules::Deal>,
    pub(super) first_dealer: Option<Seat>,
    pub(super) fingerprint: Option<String>,
}

impl DealChoice {
    pub(super) fn of(given: &[RecordedDeals], spec: &GameSpec) -> DealChoice {
        let mut keys = vec![DealKey::Seed(spec.seed)];
        if given.is_empty() {
            return DealChoice {
                keys,
                deals: Vec::new(),
                first_dealer: None,
                fingerprint: None,
            };
        }
        let i = (spec.deal_set % given.len() as u64) as usize;
        keys.push(DealKey::Given(i));
        let d = &given[i];
        DealChoice {
            keys,
            deals: d.deals.clone(),
            first_dealer: Some(d.first_dealer),
            fingerprint: Some(deals_fingerprint(d)),
        }
    }
}

/// What the row keeps of each hand as it ends: its time (to measure the referee's own time
/// without the bots' start-up), its score change and its dealer.
#[derive(Default)]
pub(super) struct HandLog {
    ends: Vec<Instant>,
    pub(super) deltas: Vec<[i32; 2]>,
    pub(super) dealers: Vec<u8>,
}

impl HandLog {
    pub(super) fn push(&mut self, h: &HandEndMsg) {
        self.ends.push(Instant::now());
        self.deltas.push(h.team_delta.0);
        self.dealers.push(h.dealer.index() as u8);
    }

    /// The first hand whose moves the referee's time is measured over, and the wall time they
    /// took: the hands after the first when there are two or more (so bot start-up and
    /// handshakes are left out), else the whole game.
    pub(super) fn timed_window(&self, start: Instant, end: Instant) -> (u32, Duration) {
        match self.ends.as_slice() {
            [first, .., last] => (2, *last - *first),
            _ => (1, end - start),
        }
    }
}

/// The referee's own time per move, in microseconds to one decimal: the timed window's wall
/// time minus the bots' recorded reply times, over its moves. Reply times are whole
/// milliseconds rounded down, so this is an upper bound; it is what shows a slow referee in a
/// tournament's rows without a profiler.
pub(super) fn referee_us_per_move(
    window: Duration,
    summary: Option<&RecordSummary>,
) -> Option<f64> {
    summary.and_then(|s| {
        (s.moves > 0).then(|| {
            let own = window.as_secs_f64() * 1e6 - s.ms as f64 * 1000.0;
            (own.max(0.0) / s.moves as f64 * 10.0).round() / 10.0
        })
    })
}

/// A game both partnerships forfeited at the handshake (a draw): a seat of the other
/// partnership than the recorded forfeit's that failed the handshake too.
pub(super) fn also_forfeited(
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
pub(super) fn analysed(
    record: &std::path::Path,
) -> Option<crate::standings::accuracy::RowAccuracy> {
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
