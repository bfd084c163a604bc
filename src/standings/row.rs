//! One line of `results.jsonl`: a finished game as the standings, the SPRT and board scoring
//! read it.

use serde::{Deserialize, Serialize};

/// One line of results.jsonl.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// Index in the deterministic schedule.
    pub game: u64,
    /// Duplicate pair id: the two games of a pair share it (same deals, partnerships' seats
    /// swapped); None without duplicate.
    pub pair: Option<u64>,
    pub seed: u64,
    /// Entrant name per seat (team 0 = seats 0 & 2, team 1 = seats 1 & 3).
    pub seats: [String; 4],
    /// 0, 1, or None for a draw.
    pub winner: Option<u8>,
    /// target | instant | hand-cap | forfeit
    pub reason: String,
    pub team_scores: [i32; 2],
    pub hands: u32,
    pub forfeit_seat: Option<u8>,
    /// Path of the game record, relative to the tournament dir.
    pub record: String,
    pub referee_us_per_move: Option<f64>,
    /// Fingerprint of the recorded deals the game was played on (`--deals-from`), so that
    /// games on other deals with the same seed and deal set are never taken for twins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<String>,
    /// What the forfeiting seat did (`timeout`, `exited`, `illegal-move`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit_kind: Option<String>,
    /// Timeout faults per seat (forfeited or substituted).
    #[serde(default, skip_serializing_if = "no_timeouts")]
    pub timeouts: [u32; 4],
    /// Each hand's change of the team scores, in order (for board scoring).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand_deltas: Vec<[i32; 2]>,
    /// Each hand's dealer (seat index), in order (hand k of the two games of a pair holds the
    /// same cards, but its dealer can differ after an all-pass redeal at one table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand_dealers: Vec<u8>,
    /// `--analyze`: the tricks each seat gave away double-dummy, over the hands played out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<RowAccuracy>,
    /// A game both partnerships forfeited (a draw: both failed the handshake): the seat of
    /// the other partnership than `forfeit_seat`'s that failed too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also_forfeited: Option<u8>,
}

impl GameRow {
    /// The seats charged with the game's forfeit: `forfeit_seat`, and for a game both
    /// partnerships forfeited (no winner) a seat of the other one too: `also_forfeited`, or
    /// for rows written before it was kept the other partnership's first seat after
    /// `forfeit_seat` (the right one when a partnership is one entrant).
    pub fn forfeiting_seats(&self) -> Vec<u8> {
        let Some(seat) = self.forfeit_seat.filter(|&s| s < 4) else {
            return Vec::new();
        };
        match self.winner {
            Some(_) => vec![seat],
            None => {
                let other = self
                    .also_forfeited
                    .filter(|&s| s < 4 && s % 2 != seat % 2)
                    .unwrap_or((seat + 1) % 4);
                vec![seat, other]
            }
        }
    }
}

/// What a results row keeps of one game's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowAccuracy {
    /// Hands played out (13 tricks), each analysed card by card.
    pub hands: u32,
    /// Tricks each seat's cards gave away double-dummy, summed over those hands.
    pub tricks_lost: [u32; 4],
}

fn no_timeouts(t: &[u32; 4]) -> bool {
    t.iter().all(|&n| n == 0)
}

#[cfg(test)]
impl GameRow {
    /// A finished game of `seats` won by `winner` (None: a draw), everything else empty: the
    /// start of a row in tests (`GameRow { hand_deltas, ..GameRow::sample(..) }`).
    pub(crate) fn sample(
        game: u64,
        pair: Option<u64>,
        seed: u64,
        seats: [&str; 4],
        winner: Option<u8>,
    ) -> GameRow {
        GameRow {
            game,
            pair,
            seed,
            seats: seats.map(String::from),
            winner,
            reason: "target".into(),
            team_scores: [0, 0],
            hands: 1,
            forfeit_seat: None,
            record: String::new(),
            referee_us_per_move: None,
            deals: None,
            forfeit_kind: None,
            timeouts: [0; 4],
            hand_deltas: Vec::new(),
            hand_dealers: Vec::new(),
            accuracy: None,
            also_forfeited: None,
        }
    }
}
