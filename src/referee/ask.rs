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

/// A request sent and not yet answered: what the wait for its reply and the judging of it
/// need, kept on the stack (a move allocates nothing for it).
#[derive(Clone, Copy)]
struct Outstanding {
    id: u64,
    /// The seat's limit for this move, as the request told it.
    limit_ms: u64,
    /// The network's allowance of a remote seat (zero for a process).
    allowance: Duration,
    /// `limit_ms` plus `allowance`: how long the referee waits.
    limit: Duration,
    /// When the request was queued, and when its last byte was written (`BotEvent::Written`).
    sent_at: Instant,
    written_at: Option<Instant>,
    /// The last reply that named an earlier request: a timeout names it as the likely cause
    /// (a bot answering the request before this one, or with an id it kept from it).
    stale: Option<u64>,
}

impl Outstanding {
    /// The bot's clock starts once the request is written, or at the send until that is known.
    fn start(&self) -> Instant {
        self.written_at.unwrap_or(self.sent_at)
    }

    /// The fault of no reply within the limit, naming a stale reply as the likely cause.
    fn timed_out(&self) -> Answer {
        let (id, limit_ms) = (self.id, self.limit_ms);
        let cause = self.stale.map_or(String::new(), |s| {
            format!(
                "; it answered request {s} instead, which was over (a reply must echo the id of the request it answers)"
            )
        });
        Answer::Fault(
            FaultKind::Timeout,
            format!("no reply to request {id} within {limit_ms} ms{cause}"),
        )
    }
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

    /// The request for `d`, then the wait for its reply. A dead seat is played by the referee
    /// and is not asked; a seat that wrote while not asked is faulted before it is asked again.
    fn ask_thawed(&mut self, d: Decision) -> Result<Answer, RefereeError> {
        self.asked_at = None;
        if !self.seats[d.seat.index()].alive {
            return Ok(Answer::Referee(self.random_move()));
        }
        if let Some(fault) = self.check_unsolicited(d.seat) {
            return Ok(fault);
        }
        let legal = self.game.legal_moves();
        let req = self.send_request(d, &legal);
        self.await_reply(d, &legal, req)
    }

    /// Sends `d`'s request with the seat's time for it: the move limit, capped by what is left
    /// of the seat's bank, so that a bot is never told it has more time than the referee will
    /// wait. The view's lists are reused from the last request, so a request allocates nothing.
    fn send_request(&mut self, d: Decision, legal: &MoveList) -> Outstanding {
        let i = d.seat.index();
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
        Outstanding {
            id,
            limit_ms,
            allowance,
            limit: Duration::from_millis(limit_ms) + allowance,
            sent_at,
            written_at: None,
            stale: None,
        }
    }

    /// Waits for the reply to `req` until its deadline, which runs from when the request was
    /// written out in full, not when it was queued: a bot is not charged for a pipe the
    /// referee had yet to fill. The wait ends early on a stop signal (the watchdog wakes it).
    fn await_reply(
        &mut self,
        d: Decision,
        legal: &MoveList,
        mut req: Outstanding,
    ) -> Result<Answer, RefereeError> {
        let i = d.seat.index();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.abort("interrupted by a signal")?;
            }
            let deadline = req.start() + req.limit;
            if Instant::now() >= deadline {
                self.charge_bank(i, req.limit_ms);
                return Ok(req.timed_out());
            }
            let Some(event) = self.seats[i].bot.recv_until(deadline, self.watchdog) else {
                continue;
            };
            match event {
                BotEvent::Written { id: w, at } if w == req.id => {
                    req.written_at = Some(at);
                    self.asked_at = Some(at);
                }
                BotEvent::Written { .. } => {}
                BotEvent::Line { text, at } => {
                    self.trace_in(d.seat, at, &text);
                    if let Some(answer) = self.judge_reply(d, legal, &mut req, &text, at) {
                        return Ok(answer);
                    }
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
                        format!(
                            "output closed while request {} was outstanding ({status})",
                            req.id
                        ),
                    ));
                }
                BotEvent::InputClosed { error, .. } => {
                    let doing = format!("request {}", req.id);
                    let detail =
                        self.input_closed(d.seat, &doing, &error)
                            .unwrap_or_else(|status| {
                                format!(
                                    "output closed while request {} was outstanding ({status})",
                                    req.id
                                )
                            });
                    return Ok(Answer::Fault(FaultKind::Exited, detail));
                }
            }
        }
    }

    /// What a reply line received at `at` comes to; `None` to keep waiting. A late reply to an
    /// earlier request is discarded (a bot that timed out may still answer it), up to
    /// [`super::STALE_LINE_CAP`]; a reply on time is charged to the bank, less a remote seat's
    /// allowance, and then judged against the legal moves.
    fn judge_reply(
        &mut self,
        d: Decision,
        legal: &MoveList,
        req: &mut Outstanding,
        text: &str,
        at: Instant,
    ) -> Option<Answer> {
        let id = req.id;
        let (reply_id, reply_mv) = match read_move(text) {
            ReadReply::Move { id, mv } => (id, mv),
            ReadReply::NotJson(e) => return Some(Answer::Fault(FaultKind::NotJson, e)),
            ReadReply::Invalid(e) => return Some(Answer::Fault(FaultKind::BadReply, e)),
        };
        if reply_id < id {
            // A late reply to an earlier request: discarded, up to the cap.
            if let Some(flood) = self.stale_line(d.seat) {
                return Some(flood);
            }
            req.stale = Some(reply_id);
            return None;
        }
        if reply_id != id {
            return Some(Answer::Fault(
                FaultKind::BadReply,
                format!("reply names request {reply_id} but request {id} is outstanding"),
            ));
        }
        let i = d.seat.index();
        let took = at.saturating_duration_since(req.start());
        if took > req.limit {
            // The watchdog ends the wait a few ms after the deadline; a reply in that moment is
            // still late, as its measured time says.
            self.charge_bank(i, req.limit_ms);
            return Some(Answer::Fault(
                FaultKind::Timeout,
                format!(
                    "the reply to request {id} took {} ms, over the limit of {} ms",
                    took.as_millis(),
                    req.limit_ms
                ),
            ));
        }
        let ms = took.saturating_sub(req.allowance).as_millis() as u64;
        self.charge_bank(i, ms);
        let why = |mv: Move| self.game.why_illegal(d.seat, mv).to_string();
        Some(match legal_reply(d.kind, legal, &reply_mv, &why) {
            Ok(mv) => Answer::Move(mv, ms),
            Err(detail) => Answer::Fault(FaultKind::IllegalMove, detail),
        })
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
                // With `--events immediate` a seat is written to while others are asked.
                BotEvent::InputClosed { error, .. } => {
                    let detail = self
                        .input_closed(seat, "the table's events", &error)
                        .unwrap_or_else(|status| {
                            format!("output closed between requests ({status})")
                        });
                    return Some(Answer::Fault(FaultKind::Exited, detail));
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
