//! Event delivery: what every seat is told of a move, a trick, a hand's end, and when the
//! queued lines are written to the bots (see [`EventDelivery`]).

use std::fs::File;
use std::io::{BufWriter, Write};

use super::{HandHook, RefereeError, Table};
use crate::protocol::ToBot;
use crate::record::RecordLine;
use crate::rules::{Applied, CardSet, Decision, Game, Move, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EventDelivery {
    /// A seat's events wait until the referee next asks that seat something (they go in the
    /// same write as the request) or the game ends. Each move then wakes only the bot that must
    /// answer, not all four: a bot that keeps its own state sees every event, in order, before
    /// it must act on them.
    #[default]
    Batched,
    /// Every event goes to every seat as it happens (for bots that think on others' time).
    Immediate,
}

impl std::fmt::Display for EventDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EventDelivery::Batched => "batched",
            EventDelivery::Immediate => "immediate",
        })
    }
}

/// `batched` or `immediate` (the form [`Display`](std::fmt::Display) writes).
impl std::str::FromStr for EventDelivery {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        [EventDelivery::Batched, EventDelivery::Immediate]
            .into_iter()
            .find(|e| e.to_string() == text)
            .ok_or_else(|| format!("'{text}' is not an event delivery: write batched or immediate"))
    }
}

impl Table<'_, '_> {
    /// Tells every seat what a move changed at the table.
    pub(super) fn tell_applied(
        &mut self,
        d: Decision,
        mv: Move,
        applied: &Applied,
        on_hand: HandHook<'_>,
    ) -> Result<(), RefereeError> {
        let number = self.game.hand().number;
        if mv != Move::Keep {
            let msg = ToBot::Move {
                hand_number: number,
                seat: d.seat,
                decision: d.kind,
                mv,
            };
            self.broadcast(&msg);
        }
        if let Some((trick, winner)) = applied.trick {
            let msg = ToBot::Trick {
                hand_number: number,
                number: self.game.hand().tricks.len() as u8,
                leader: trick.leader,
                cards: trick.plays().map(|(_, c)| c).collect(),
                winner,
            };
            self.broadcast(&msg);
        }
        if self.cfg.watched && applied.hand.is_none() {
            self.flush()?;
        }
        if let Some(hand) = applied.hand {
            let msg = crate::protocol::hand_end_msg(&self.game, &hand);
            self.broadcast(&ToBot::HandEnd(msg.clone()));
            self.write(&RecordLine::HandEnd(msg.clone()))?;
            self.flush()?;
            on_hand(&msg);
        }
        Ok(())
    }

    /// Queues one message for every seat (serialized once: the same bytes go to all four).
    pub(super) fn broadcast(&mut self, msg: &ToBot<'_>) {
        let mut line = std::mem::take(&mut self.scratch);
        line.clear();
        self.writer.write(&mut line, msg);
        for seat in Seat::ALL {
            trace_out(&mut self.leak_trace, &self.game, seat, &line);
            let s = &mut self.seats[seat.index()];
            if s.alive {
                s.outbox.extend_from_slice(&line);
                s.outbox.push(b'\n');
            }
        }
        self.scratch = line;
    }

    /// Queues one message for one seat (dropped for a seat whose bot is gone), serialized
    /// straight into its outbox: a request is written to the bot from there, never copied.
    pub(super) fn send(&mut self, seat: Seat, msg: &ToBot<'_>, request_id: Option<u64>) {
        let s = &mut self.seats[seat.index()];
        let start = s.outbox.len();
        self.writer.write(&mut s.outbox, msg);
        trace_out(&mut self.leak_trace, &self.game, seat, &s.outbox[start..]);
        if s.alive {
            s.outbox.push(b'\n');
            s.outbox_request = request_id.or(s.outbox_request);
        } else {
            s.outbox.truncate(start);
        }
    }

    /// Writes the seat's queued lines to its bot in one write.
    pub(super) fn flush_seat(&mut self, seat: Seat) {
        let s = &mut self.seats[seat.index()];
        if s.alive && !s.outbox.is_empty() {
            s.bot.send(&s.outbox, s.outbox_request.take());
            if let Some(t) = self.tracer.as_mut() {
                t.sent(seat, &s.outbox);
            }
        }
        s.outbox.clear();
    }

    /// Writes every seat's queued lines.
    pub(super) fn flush_all(&mut self) {
        for seat in Seat::ALL {
            self.flush_seat(seat);
        }
    }

    /// A line read from `seat`'s bot at `at`, for the traces.
    pub(super) fn trace_in(&mut self, seat: Seat, at: std::time::Instant, text: &str) {
        if let Some(t) = self.tracer.as_mut() {
            t.received(seat, at, text);
        }
        if let Some(t) = self.leak_trace.as_mut() {
            let entry = serde_json::json!({"dir": "in", "seat": seat, "line": text});
            let _ = writeln!(t, "{entry}");
        }
    }

    /// A line from `seat`'s bot that could not be read as text (too long, not UTF-8).
    pub(super) fn trace_note(&mut self, seat: Seat, at: std::time::Instant, note: &str) {
        if let Some(t) = self.tracer.as_mut() {
            t.received(seat, at, note);
        }
    }
}

/// Traces a message to a seat, with the cards hidden from that seat (test aid).
pub(super) fn trace_out(trace: &mut Option<BufWriter<File>>, game: &Game, seat: Seat, line: &[u8]) {
    if let Some(t) = trace.as_mut() {
        let mut hidden = CardSet::EMPTY;
        if game.hands_dealt() > 0 && !game.needs_deal() {
            for other in Seat::ALL.iter().filter(|&&s| s != seat) {
                hidden = hidden.union(game.hand().held[*other]);
            }
        }
        let line = String::from_utf8_lossy(line);
        let entry = serde_json::json!({"dir": "out", "seat": seat, "hidden": hidden, "line": line});
        let _ = writeln!(t, "{entry}");
    }
}
