//! The lines of a game record, version 1.

use serde::{Deserialize, Serialize};

use crate::protocol::{FaultAction, FaultKind, GameEndMsg, HandEndMsg, TimeLimits};
use crate::rules::{BySeat, CardSet, DecisionKind, Move, Rules, Seat, StartScores};

pub const RECORD_FORMAT: u32 = 1;

/// One line of a record. The first line is the header, the last the result (or `aborted`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RecordLine {
    Header(Box<Header>),
    Deal {
        hand_number: u32,
        dealer: Seat,
        hands: BySeat<CardSet>,
    },
    Move {
        hand_number: u32,
        seat: Seat,
        decision: DecisionKind,
        #[serde(rename = "move")]
        mv: String,
        /// Milliseconds from the request being written to the reply arriving.
        ms: u64,
        /// The referee chose this move for a faulty seat (`--on-fault substitute`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        substituted: bool,
    },
    Fault {
        hand_number: u32,
        seat: Seat,
        kind: FaultKind,
        detail: String,
        action: FaultAction,
    },
    HandEnd(HandEndMsg),
    Result(GameEndMsg),
    /// The referee was stopped (Ctrl-C, SIGTERM) before the game ended.
    Aborted {
        reason: String,
    },
}

impl RecordLine {
    /// The line's `type`, as a complaint about it names it.
    pub fn kind(&self) -> &'static str {
        match self {
            RecordLine::Header(_) => "header",
            RecordLine::Deal { .. } => "deal",
            RecordLine::Move { .. } => "move",
            RecordLine::Fault { .. } => "fault",
            RecordLine::HandEnd(_) => "hand_end",
            RecordLine::Result(_) => "result",
            RecordLine::Aborted { .. } => "aborted",
        }
    }
}

/// A move as the referee writes it to the record: [`RecordLine::Move`] with the move itself
/// rather than its text (see `RecordWriter::write_move`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLine {
    pub hand_number: u32,
    pub seat: Seat,
    pub decision: DecisionKind,
    pub mv: Move,
    /// Milliseconds from the request being written to the reply arriving.
    pub ms: u64,
    /// The referee chose this move for a faulty seat.
    pub substituted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: u32,
    /// `tarneeb-referee X.Y.Z`.
    pub referee: String,
    pub rules: Rules,
    pub seed: u64,
    pub first_dealer: Seat,
    pub bots: Vec<BotInfo>,
    pub time: TimeLimits,
    /// `forfeit` or `substitute:N`.
    pub on_fault: String,
    /// The sandbox the bots ran in: `bwrap wide`, `bwrap strict` or `none` (absent in records
    /// made before sandboxes existed), so an unsandboxed result can be told apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// The scores the game started from (`play --scores`); absent when it started from zero
    /// (and in records written before the field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_scores: Option<StartScores>,
    /// The public id of the secret the deals were drawn with ([`crate::rules::DealSecret::id`]);
    /// absent when the seed alone made them (`--public-deals`, and records written before
    /// secrets existed). The deals themselves are in the record either way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_secret: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotInfo {
    pub seat: Seat,
    pub command: Vec<String>,
    /// From the bot's `hello`; `null` when the handshake failed.
    pub name: Option<String>,
    pub version: Option<String>,
    /// A remote entrant's seat (`tournament --bot NAME=remote`): where it played from.
    /// Absent for a local process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<RemoteSeat>,
}

/// How a remote seat was connected. Not where from: records are published (replay pages, the
/// site), and an entrant's IP address is the organiser's to know, in the server's log
/// (issue 39). Records of earlier versions that name a `peer` still read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteSeat {
    /// The entrant whose token the connection used.
    pub entrant: String,
    /// Added to each of the seat's time limits for the network (`--latency-allowance`).
    pub latency_allowance_ms: u64,
}

#[cfg(test)]
mod remote_seat_tests {
    use super::RemoteSeat;

    #[test]
    fn a_remote_seat_is_written_without_its_address_and_old_ones_still_read() {
        let seat = RemoteSeat {
            entrant: "alice".into(),
            latency_allowance_ms: 50,
        };
        let text = serde_json::to_string(&seat).unwrap();
        assert_eq!(text, r#"{"entrant":"alice","latency_allowance_ms":50}"#);
        let old: RemoteSeat = serde_json::from_str(
            r#"{"entrant":"alice","peer":"127.0.0.1:43764","latency_allowance_ms":50}"#,
        )
        .unwrap();
        assert_eq!(old, seat);
    }
}
