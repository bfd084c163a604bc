//! Asking a seat for a move: the request, the wait within its time, and what the reply
//! (or its absence, or output nobody asked for) comes to.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{EventDelivery, RefereeError, Table};
use crate::bot::BotEvent;
use crate::protocol::{read_move, FaultKind, ReadReply, ToBot, TurnClock};
use crate::rules::{Decision, DecisionKind, Move, MoveList, Seat, View};

/// How a request to a bot came out.
pub(super) enum Answer {
    /// The bot's move and its time in milliseconds.
    Move(Move, u64),
    /// A move the referee chose for a seat whose bot was stopped after a fault.
    Referee(Move),
    Fault(FaultKind, String),
}

impl Table<'_, '_> {
    /// Asks the seat to move and waits for a valid reply within its time. With
    /// `--freeze-off-turn` the seat's bot runs only meanwhile: thawed before the request,
    /// frozen again once it is answered.
    pub(super) fn ask(&mut self, d: Decision) -> Result<Answer, RefereeError> {
        let i = d.seat.index();
        let freeze = self.cfg.freeze_off_turn && self.seats[i].alive;
        if freeze {
            self.seats[i].bot.thaw();
        }
        let answer = self.ask_thawed(d);
        if freeze && self.seats[i].alive {
            self.seats[i].bot.freeze();
        }
        answer
    }

    fn ask_thawed(&mut self, d: Decision) -> Result<Answer, RefereeError> {
        let i = d.seat.index();
        self.asked_at = None;
        if !self.seats[i].alive {
            return Ok(Answer::Referee(self.random_move()));
        }
        if let Some(fault) = self.check_unsolicited(d.seat) {
            return Ok(fault);
        }
        let legal = self.game.legal_moves();
        let id = self.next_id;
        self.next_id += 1;
        let limit_ms = match self.seats[i].bank_ms {
            Some(bank) => bank.min(self.cfg.time.move_ms),
            None => self.cfg.time.move_ms,
        };
        let mut view = std::mem::replace(&mut self.view, View::empty());
        self.game.view_into(d.seat, &mut view);
        let msg = ToBot::Request {
            id,
            decision: d.kind,
            legal: legal.as_slice(),
            view: &view,
            time: TurnClock {
                limit_ms,
                bank_ms: self.seats[i].bank_ms,
            },
        };
        self.send(d.seat, &msg, Some(id));
        self.view = view;
        match self.cfg.events {
            EventDelivery::Batched => self.flush_seat(d.seat),
            EventDelivery::Immediate => self.flush_all(),
        }
        let sent_at = Instant::now();
        self.asked_at = Some(sent_at);
        // A remote seat's deadline includes the network's allowance; the bot is told the limit.
        let allowance = self.seats[i].bot.latency_allowance();
        let limit = Duration::from_millis(limit_ms) + allowance;
        let mut written_at = None;
        // The last reply that named an earlier request: a timeout names it as the likely cause
        // (a bot answering the request before this one, or with an id it kept from it).
        let mut stale: Option<u64> = None;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.abort("interrupted by a signal")?;
            }
            let start = written_at.unwrap_or(sent_at);
            let now = Instant::now();
            if now >= start + limit {
                self.charge_bank(i, limit_ms);
                let cause = stale.map_or(String::new(), |s| {
                    format!(
                        "; it answered request {s} instead, which was over (a reply must echo the id of the request it answers)"
                    )
                });
                return Ok(Answer::Fault(
                    FaultKind::Timeout,
                    format!("no reply to request {id} within {limit_ms} ms{cause}"),
                ));
            }
            let Some(event) = self.seats[i].bot.recv_until(start + limit, self.watchdog) else {
                continue;
            };
            match event {
                BotEvent::Written { id: w, at } if w == id => {
                    written_at = Some(at);
                    self.asked_at = Some(at);
                }
                BotEvent::Written { .. } => {}
                BotEvent::Line { text, at } => {
                    self.trace_in(d.seat, at, &text);
                    let (reply_id, reply_mv) = match read_move(&text) {
                        ReadReply::Move { id, mv } => (id, mv),
                        ReadReply::NotJson(e) => return Ok(Answer::Fault(FaultKind::NotJson, e)),
                        ReadReply::Invalid(e) => return Ok(Answer::Fault(FaultKind::BadReply, e)),
                    };
                    if reply_id < id {
                        // A late reply to an earlier request: discarded, up to the cap.
                        if let Some(flood) = self.stale_line(d.seat) {
                            return Ok(flood);
                        }
                        stale = Some(reply_id);
                        continue;
                    }
                    if reply_id != id {
                        return Ok(Answer::Fault(
                            FaultKind::BadReply,
                            format!(
                                "reply names request {} but request {id} is outstanding",
                                reply_id
                            ),
                        ));
                    }
                    let took = at.saturating_duration_since(written_at.unwrap_or(sent_at));
                    if took > limit {
                        // The watchdog ends the wait a few ms after the deadline; a reply in
                        // that moment is still late, as its measured time says.
                        self.charge_bank(i, limit_ms);
                        return Ok(Answer::Fault(
                            FaultKind::Timeout,
                            format!(
                                "the reply to request {id} took {} ms, over the limit of {limit_ms} ms",
                                took.as_millis()
                            ),
                        ));
                    }
                    let ms = took.saturating_sub(allowance).as_millis() as u64;
                    self.charge_bank(i, ms);
                    let why = |mv: Move| self.game.why_illegal(d.seat, mv).to_string();
                    return Ok(match legal_reply(d.kind, &legal, &reply_mv, &why) {
                        Ok(mv) => Answer::Move(mv, ms),
                        Err(detail) => Answer::Fault(FaultKind::IllegalMove, detail),
                    });
                }
                BotEvent::TooLong { limit, at } => {
                    self.trace_note(d.seat, at, &format!("(line longer than {limit} bytes)"));
                    return Ok(Answer::Fault(
                        FaultKind::LineTooLong,
                        format!("a line longer than {limit} bytes"),
                    ));
                }
                BotEvent::NotUtf8 { at } => {
                    self.trace_note(d.seat, at, "(not UTF-8)");
                    return Ok(Answer::Fault(
                        FaultKind::NotJson,
                        "a line that is not UTF-8".to_string(),
                    ));
                }
                BotEvent::Eof { .. } => {
                    let status = self.exit_detail(d.seat);
                    return Ok(Answer::Fault(
                        FaultKind::Exited,
                        format!("output closed while request {id} was outstanding ({status})"),
                    ));
                }
            }
        }
    }

    /// Lines a bot wrote while not asked: late replies to earlier requests are discarded, anything
    /// else is a fault.
    pub(super) fn check_unsolicited(&mut self, seat: Seat) -> Option<Answer> {
        while let Some(event) = self.seats[seat.index()].bot.try_recv() {
            match event {
                BotEvent::Written { .. } => {}
                BotEvent::Line { text, at } => {
                    self.trace_in(seat, at, &text);
                    match read_move(&text) {
                        ReadReply::Move { id, .. } if id < self.next_id => {
                            if let Some(flood) = self.stale_line(seat) {
                                return Some(flood);
                            }
                        }
                        _ => {
                            let detail = if text.trim().is_empty() {
                                "an empty line while no request was outstanding (protocol.md \
                                 section 2: nothing but protocol lines on stdout, no blank \
                                 lines; write diagnostics to stderr)"
                                    .to_string()
                            } else {
                                format!(
                                    "output while no request was outstanding: {}",
                                    crate::protocol::excerpt(&text)
                                )
                            };
                            return Some(Answer::Fault(FaultKind::Unsolicited, detail));
                        }
                    }
                }
                BotEvent::TooLong { limit, at } => {
                    self.trace_note(seat, at, &format!("(line longer than {limit} bytes)"));
                    return Some(Answer::Fault(
                        FaultKind::LineTooLong,
                        format!("a line longer than {limit} bytes"),
                    ));
                }
                BotEvent::NotUtf8 { at } => {
                    self.trace_note(seat, at, "(not UTF-8)");
                    return Some(Answer::Fault(
                        FaultKind::Unsolicited,
                        "output that is not UTF-8 while not asked".to_string(),
                    ));
                }
                BotEvent::Eof { .. } => {
                    let status = self.exit_detail(seat);
                    return Some(Answer::Fault(
                        FaultKind::Exited,
                        format!("output closed between requests ({status})"),
                    ));
                }
            }
        }
        None
    }

    /// Counts a discarded reply to an earlier request; past the cap, a `flood` fault.
    fn stale_line(&mut self, seat: Seat) -> Option<Answer> {
        let s = &mut self.seats[seat.index()];
        s.stale += 1;
        (s.stale > super::STALE_LINE_CAP).then(|| {
            Answer::Fault(
                FaultKind::Flood,
                format!(
                    "more than {} replies to requests already answered or timed out in one game",
                    super::STALE_LINE_CAP
                ),
            )
        })
    }

    pub(super) fn charge_bank(&mut self, i: usize, ms: u64) {
        if let Some(bank) = self.seats[i].bank_ms.as_mut() {
            *bank = bank.saturating_sub(ms) + self.cfg.time.increment_ms;
        }
    }
}

/// The legal move a reply names. protocol.md section 3: answer with one of the legal moves
/// "exactly as written there", so `qd`, ` QD` or `08H` are not `QD` or `8H` (the schema's
/// pattern says the same): a bot that passes here passes any referee of the protocol. The
/// detail says how the move should have been written when it was only a matter of spelling.
fn legal_reply(
    kind: DecisionKind,
    legal: &MoveList,
    text: &str,
    why: &dyn Fn(Move) -> String,
) -> Result<Move, String> {
    // Parsing is the inverse of `text()`, so a reply written exactly as listed parses to that
    // move: one parse and one comparison, not a formatting of every legal move.
    match Move::parse(kind, text) {
        Ok(mv) if legal.contains(&mv) && mv.text().as_str() == text => Ok(mv),
        Ok(mv) if legal.contains(&mv) => Err(format!(
            "'{text}' is not written as the request lists it: write \"{}\", exactly as in legal",
            mv.text()
        )),
        Ok(mv) => Err(format!(
            "{mv} is not legal now: {}; legal: {}",
            why(mv),
            legal_text(legal)
        )),
        Err(e) => Err(e.to_string()),
    }
}

fn legal_text(legal: &MoveList) -> String {
    legal
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DealSource, Game, Rules};

    fn no_why(_: Move) -> String {
        String::new()
    }

    /// A move that parses but is not legal now is refused with the rules' reason for it.
    #[test]
    fn an_illegal_move_is_refused_with_its_reason() {
        let mut game = Game::new(Rules::classic(), Seat::from_index(0));
        game.deal(DealSource::from_seed(1).next_deal());
        let d = game.decision().unwrap();
        let ten = Move::parse(d.kind, "10").unwrap();
        game.apply(d.seat, ten).unwrap();
        let d = game.decision().unwrap();
        let legal = game.legal_moves();
        let why = |mv: Move| game.why_illegal(d.seat, mv).to_string();
        let e = legal_reply(d.kind, &legal, "8", &why).unwrap_err();
        assert!(
            e.contains("8 is not legal now: it is not among the legal moves"),
            "{e}"
        );
    }

    /// protocol.md section 3: a reply's move is one of `legal` exactly as written there.
    #[test]
    fn a_reply_names_a_legal_move_exactly_as_listed() {
        let mut game = Game::new(Rules::classic(), Seat::from_index(0));
        game.deal(DealSource::from_seed(1).next_deal());
        let kind = game.decision().expect("the auction starts").kind;
        assert_eq!(kind, DecisionKind::Call);
        let legal = game.legal_moves();
        for mv in legal.iter() {
            assert_eq!(
                legal_reply(kind, &legal, mv.text().as_str(), &no_why),
                Ok(*mv)
            );
        }
        assert!(legal.iter().any(|m| m.text().as_str() == "7"), "{legal:?}");
        for spelt in ["PASS", "Pass", " pass", "pass ", "07", "7 "] {
            let e = legal_reply(kind, &legal, spelt, &no_why).unwrap_err();
            assert!(e.contains("exactly as in legal"), "{spelt:?}: {e}");
        }
        let e = legal_reply(kind, &legal, "13NT", &no_why).unwrap_err();
        assert!(e.contains("not legal now"), "{e}");
        assert!(legal_reply(kind, &legal, "AS", &no_why).is_err());
    }
}
