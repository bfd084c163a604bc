//! The wire: a bot's reply read by hand and by serde, requests written by hand and by serde,
//! and the remote transport's control lines.

use super::game_bytes::{self, Bytes, Step};
use crate::protocol::{MessageWriter, ReadReply, ToBot, TurnClock};
use crate::rules::Seat;

/// A bot's reply line: the hand-written fast path (`plain_reply`) must accept only lines that
/// serde's reader accepts with the same id and move, and `read_move` must never panic.
pub(super) fn reply(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let slow = crate::protocol::read_move_slow(line);
    if let Some((id, mv)) = crate::protocol::plain_reply::read(line) {
        match &slow {
            ReadReply::Move { id: sid, mv: smv } => {
                assert_eq!(
                    (id, mv),
                    (*sid, smv.as_ref()),
                    "the two readers differ on {line:?}"
                )
            }
            other => panic!("the fast path read {line:?} as ({id}, {mv:?}), serde as {other:?}"),
        }
    }
    // The whole reader (fast path first) gives serde's answer on every line.
    assert_eq!(crate::protocol::read_move(line), slow, "{line:?}");
}

/// Every request (for every seat's view), move and trick message of a game steered by the
/// input: the hand-written JSON must be serde_json's, byte for byte.
pub(super) fn hot_json(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (mut game, mut deals, _) = game_bytes::start(&mut b);
    let mut writer = MessageWriter::default();
    let mut out = Vec::new();
    let mut compare = |msg: &ToBot<'_>| {
        out.clear();
        writer.write(&mut out, msg);
        let expect = serde_json::to_vec(msg).expect("protocol messages serialize");
        assert!(
            out == expect,
            "hand-written {} != serde {}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expect)
        );
    };
    let mut id = 0u64;
    let mut last_decision = None;
    game_bytes::play(&mut game, &mut deals, &mut b, |g, step| {
        if let Step::Move {
            seat, mv, applied, ..
        } = step
        {
            let hand_number = g.hand().number;
            compare(&ToBot::Move {
                hand_number,
                seat: *seat,
                decision: last_decision.expect("a move follows a decision"),
                mv: *mv,
            });
            if let Some((trick, winner)) = applied.trick {
                compare(&ToBot::Trick {
                    hand_number,
                    number: g.hand().tricks.len() as u8,
                    leader: trick.leader,
                    cards: trick.plays().map(|(_, c)| c).collect(),
                    winner,
                });
            }
        }
        last_decision = g.decision().map(|d| d.kind);
        requests(g, &mut id, &mut compare);
    });
}

/// A remote transport's line: the server reads `auth` with serde, the relay finds a line's
/// `type` by hand (`remote::line_type`); neither may panic, and where serde reads a control
/// message that the referee writes, the hand-written reader finds its type.
pub(super) fn control(data: &[u8]) {
    // Any bytes at all: only that it returns.
    crate::remote::line_type(data);
    if let Ok(msg) = serde_json::from_slice::<crate::remote::Control>(data) {
        // What the referee itself writes for that message: `type` first, no spaces.
        let line = msg.line();
        let written = crate::remote::line_type(&line).map(str::to_owned);
        let back: crate::remote::Control =
            serde_json::from_slice(&line).expect("a control line reads back");
        assert_eq!(back, msg, "a control message changed in a round trip");
        let kind = serde_json::to_value(&msg).expect("control messages serialize")["type"]
            .as_str()
            .map(str::to_owned);
        assert_eq!(
            written,
            kind,
            "line_type misreads {:?}",
            String::from_utf8_lossy(&line)
        );
    }
}

/// The request of the decision `g` waits for, as each seat's view would carry it.
fn requests(g: &crate::rules::Game, id: &mut u64, compare: &mut impl FnMut(&ToBot<'_>)) {
    let (Some(d), false) = (g.decision(), g.needs_deal()) else {
        return;
    };
    let legal = g.legal_moves();
    for seat in Seat::ALL {
        *id += 1;
        compare(&ToBot::Request {
            id: *id,
            decision: d.kind,
            legal: legal.as_slice(),
            view: &g.view(seat),
            time: TurnClock {
                limit_ms: 30_000 + *id,
                bank_ms: id.is_multiple_of(3).then_some(*id * 7),
            },
        });
    }
}
