//! Records: any text through the reader and the verifier (records come from other people), and
//! a game written by the record writer and read back by the verifier.

use std::io::Write;
use std::sync::{Arc, Mutex};

use super::game_bytes::{self, Bytes, Step};
use crate::protocol::{FaultPolicy, TimeLimits};
use crate::record::{Header, MoveLine, RecordLine, RecordWriter, RECORD_FORMAT};

/// Any text: `replay_text` parses and verifies it, or names the first line that is wrong.
/// It must not panic, and an error must name a line of the text.
pub(super) fn record_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = crate::record::replay_text(text) {
        // A truncated record is named after its last line.
        assert!(
            e.line >= 1 && e.line <= text.lines().count() + 1,
            "line {} of a {}-line text: {e}",
            e.line,
            text.lines().count()
        );
    }
}

/// A game steered by the input, written line by line as the referee writes it (the record
/// writer's hand-written move lines included), must verify, with the game's own result; cut
/// where the input runs out, it must be named truncated after its last line.
pub(super) fn round_trip(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (mut game, mut deals, seed) = game_bytes::start(&mut b);
    let header = Header {
        format: RECORD_FORMAT,
        referee: "tarneeb-referee fuzz".to_string(),
        rules: game.rules().clone(),
        seed,
        first_dealer: game.first_dealer(),
        bots: Vec::new(),
        time: TimeLimits {
            handshake_ms: 1000,
            move_ms: 1000,
            bank_ms: None,
            increment_ms: 0,
        },
        on_fault: FaultPolicy::Forfeit.to_string(),
        sandbox: None,
        start_scores: None,
        deal_secret: None,
    };
    let buf = SharedBuf::default();
    let mut w = RecordWriter::from_writer(Box::new(buf.clone()), "fuzz.jsonl".as_ref());
    w.write(&RecordLine::Header(Box::new(header)))
        .expect("memory takes every write");
    let mut last_decision = None;
    let ended = game_bytes::play(&mut game, &mut deals, &mut b, |g, step| {
        let line = match step {
            Step::Deal => RecordLine::Deal {
                hand_number: g.hand().number,
                dealer: g.hand().dealer,
                hands: g.hand().dealt,
            },
            Step::Move {
                seat,
                mv,
                ms,
                applied,
            } => {
                w.write_move(&MoveLine {
                    hand_number: g.hand().number,
                    seat: *seat,
                    decision: last_decision.expect("a move follows a decision"),
                    mv: *mv,
                    ms: *ms,
                    substituted: false,
                })
                .expect("memory takes every write");
                last_decision = g.decision().map(|d| d.kind);
                let Some(h) = applied.hand else { return };
                RecordLine::HandEnd(crate::protocol::hand_end_msg(g, &h))
            }
        };
        last_decision = g.decision().map(|d| d.kind);
        w.write(&line).expect("memory takes every write");
    });
    let result = game.result();
    if let Some(r) = &result {
        w.write(&RecordLine::Result(crate::protocol::game_end_msg(
            &game, r.winner, r.reason,
        )))
        .expect("memory takes every write");
    }
    w.flush().expect("memory takes every write");
    drop(w);
    let bytes = buf.0.lock().expect("one thread").clone();
    let text = String::from_utf8(bytes).expect("records are UTF-8");
    match crate::record::replay_text(&text) {
        Ok(v) => {
            assert!(ended, "an unfinished record verified");
            let r = result.expect("an ended game has a result");
            let got = v.result.expect("a verified record has its result");
            assert_eq!(
                got,
                crate::protocol::game_end_msg(&game, r.winner, r.reason)
            );
            assert_eq!(v.hands.len() as u32, game.hands_dealt());
        }
        Err(e) => {
            assert!(
                !ended,
                "a whole game's record failed to verify: {e}\n{text}"
            );
            assert!(e.problem.contains("truncated"), "{e}");
            assert_eq!(e.line, text.lines().count() + 1, "{e}");
        }
    }
}

/// Memory the record writer writes to, readable after it is dropped.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("one thread").extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
