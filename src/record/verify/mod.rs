//! Replays a record against the rules in its header and checks everything in it: every deal is a
//! valid deal and due when it comes, every move is legal, every `hand_end` and the `result` are
//! what the rules give, every fault's action is what the header's fault policy says, and nothing
//! follows the result. Moves are applied with their recorded milliseconds, so 400's ten-second
//! strikes are recomputed from the record.
//!
//! The first line that disagrees is reported as a [`LineError`] naming that line. A record
//! that passes becomes a [`VerifiedGame`]: the header plus, per hand, the cards, the auction,
//! the contract, the tricks, the faults and the scores.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::format::{RecordLine, RECORD_FORMAT};
use super::reader::{
    header_of, line_err as err, parse_record, read_record, LineError, NumberedLine, ReadError,
};
use super::verified::{
    result_text, ContractInfo, FaultEntry, MoveEntry, SeatMove, TrickInfo, UnfinishedTrick,
    VerifiedGame, VerifiedHand,
};
use crate::protocol::{FaultAction, FaultKind, FaultPolicy, ForfeitInfo, GameEndMsg, HandEndMsg};
use crate::rules::{
    BySeat, CardSet, Deal, DecisionKind, EndReason, Game, IllegalReason, Move, RulesKind, Seat,
    Suit,
};

#[cfg(test)]
mod tests;

/// Reads and replays the record at `path`.
pub fn replay_file(path: &Path) -> Result<VerifiedGame, ReadError> {
    let lines = read_record(path)?;
    Ok(replay(&lines)?)
}

/// Parses and replays a record's text.
pub fn replay_text(text: &str) -> Result<VerifiedGame, LineError> {
    replay(&parse_record(text)?)
}

/// What the next line must be, beyond what the game's state says.
enum Expect {
    /// Nothing special.
    Any,
    /// The last move ended a hand: its `hand_end`, as the rules give it.
    HandEnd(Box<HandEndMsg>),
    /// A fault with action `substitute`: the referee's move for this seat.
    Substitute(Seat),
}

struct Replayer {
    game: Game,
    policy: FaultPolicy,
    faults_by_team: [u32; 2],
    /// The result a forfeit fault calls for (the first one wins, as at the referee).
    forfeit: Option<GameEndMsg>,
    expect: Expect,
    out: VerifiedGame,
}

/// Replays typed lines (see the module documentation).
pub fn replay(lines: &[NumberedLine]) -> Result<VerifiedGame, LineError> {
    let header = header_of(lines)?;
    let hline = lines[0].line;
    if header.format != RECORD_FORMAT {
        return err(
            hline,
            format!(
                "record format {}: this referee reads format {RECORD_FORMAT}",
                header.format
            ),
        );
    }
    if let Err(e) = header.rules.validate() {
        return err(
            hline,
            format!(
                "the header's rules are not valid: option '{}': {}",
                e.option, e.problem
            ),
        );
    }
    let policy: FaultPolicy = header
        .on_fault
        .parse()
        .or_else(|e| err(hline, format!("the header's on_fault: {e}")))?;
    let mut game = Game::new(header.rules.clone(), header.first_dealer);
    if let Some(scores) = header.start_scores {
        game = game
            .with_scores(scores)
            .or_else(|e| err(hline, format!("the header's start_scores {scores}: {e}")))?;
    }
    let mut r = Replayer {
        game,
        policy,
        faults_by_team: [0; 2],
        forfeit: None,
        expect: Expect::Any,
        out: VerifiedGame {
            header: header.clone(),
            faults: Vec::new(),
            hands: Vec::new(),
            finished: false,
            result: None,
            aborted: None,
        },
    };
    let mut closed_at: Option<usize> = None;
    for l in &lines[1..] {
        if let Some(at) = closed_at {
            let what = if r.out.finished {
                "result"
            } else {
                "'aborted' line"
            };
            return err(
                l.line,
                format!(
                    "a '{}' line after the game's {what} (line {at}): nothing may follow it",
                    l.record.kind()
                ),
            );
        }
        r.line(l)?;
        if matches!(l.record, RecordLine::Result(_) | RecordLine::Aborted { .. }) {
            closed_at = Some(l.line);
        }
    }
    if closed_at.is_none() {
        let next = lines.last().map_or(1, |l| l.line + 1);
        return err(next, r.truncated_problem());
    }
    Ok(r.out)
}

impl Replayer {
    fn line(&mut self, l: &NumberedLine) -> Result<(), LineError> {
        let at = l.line;
        // What the previous line calls for comes first.
        match std::mem::replace(&mut self.expect, Expect::Any) {
            Expect::Any => {}
            Expect::HandEnd(exp) => {
                let RecordLine::HandEnd(rec) = &l.record else {
                    return err(
                        at,
                        format!(
                            "the last move ended hand {}, so this line must be its hand_end, not a '{}' line",
                            exp.hand_number,
                            l.record.kind()
                        ),
                    );
                };
                compare("hand_end", at, rec, &exp)?;
                if let Some(h) = self.out.hands.last_mut() {
                    h.end = Some(rec.clone());
                }
                return Ok(());
            }
            Expect::Substitute(seat) => {
                let ok = matches!(
                    &l.record,
                    RecordLine::Move { seat: s, substituted: true, .. } if *s == seat
                );
                if !ok {
                    return err(
                        at,
                        format!(
                            "after a fault with action substitute the next line must be the referee's move for seat {seat} (\"substituted\": true), not {}",
                            describe_line(&l.record)
                        ),
                    );
                }
            }
        }
        if self.forfeit.is_some() {
            let handshake_fault =
                matches!(l.record, RecordLine::Fault { .. }) && self.game.hands_dealt() == 0;
            if !handshake_fault && !matches!(l.record, RecordLine::Result(_)) {
                return err(
                    at,
                    format!(
                        "after a fault with action forfeit the next line must be the result, not {}",
                        describe_line(&l.record)
                    ),
                );
            }
        }
        match &l.record {
            RecordLine::Header(_) => err(at, "a second header: the header is the first line only"),
            RecordLine::Deal {
                hand_number,
                dealer,
                hands,
            } => self.deal(at, *hand_number, *dealer, *hands),
            RecordLine::Move {
                hand_number,
                seat,
                decision,
                mv,
                ms,
                substituted,
            } => self.mv(at, *hand_number, *seat, *decision, mv, *ms, *substituted),
            RecordLine::Fault {
                hand_number,
                seat,
                kind,
                detail,
                action,
            } => self.fault(at, *hand_number, *seat, *kind, detail, *action),
            RecordLine::HandEnd(h) => err(
                at,
                format!(
                    "a hand_end for hand {}, but {}",
                    h.hand_number,
                    self.state_text()
                ),
            ),
            RecordLine::Result(res) => self.result(at, res),
            RecordLine::Aborted { reason } => {
                self.out.aborted = Some(reason.clone());
                Ok(())
            }
        }
    }

    fn deal(
        &mut self,
        at: usize,
        number: u32,
        dealer: Seat,
        hands: BySeat<CardSet>,
    ) -> Result<(), LineError> {
        if !self.game.needs_deal() {
            return err(at, format!("a deal, but {}", self.state_text()));
        }
        let due = self.game.hands_dealt() + 1;
        if number != due {
            return err(
                at,
                format!("deal says hand_number {number}, the next hand is {due}"),
            );
        }
        if dealer != self.game.dealer() {
            return err(
                at,
                format!(
                    "deal says dealer {dealer}, the rules give {}",
                    self.game.dealer()
                ),
            );
        }
        let deal = Deal::new(hands).or_else(|e| err(at, format!("not a valid deal: {e}")))?;
        self.game.deal(deal);
        let individual = matches!(self.game.rules().kind(), RulesKind::Individual(_));
        self.out.hands.push(VerifiedHand {
            number,
            dealer,
            hands,
            throw_in: Vec::new(),
            auction: Vec::new(),
            contract: None,
            bids: individual.then_some(BySeat([None; 4])),
            trump: None,
            tricks: Vec::new(),
            unfinished_trick: None,
            moves: Vec::new(),
            faults: Vec::new(),
            end: None,
        });
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn mv(
        &mut self,
        at: usize,
        number: u32,
        seat: Seat,
        kind: DecisionKind,
        text: &str,
        ms: u64,
        substituted: bool,
    ) -> Result<(), LineError> {
        let Some(d) = self.game.decision() else {
            return err(
                at,
                format!("a move by seat {seat} ({text}), but {}", self.state_text()),
            );
        };
        let current = self.game.hand().number;
        if number != current {
            return err(
                at,
                format!("move says hand_number {number}, but hand {current} is under way"),
            );
        }
        if seat != d.seat {
            return err(
                at,
                format!(
                    "seat {seat} moved ({text}) but it is seat {}'s turn to make a {} move",
                    d.seat, d.kind
                ),
            );
        }
        if kind != d.kind {
            return err(
                at,
                format!(
                    "the move is recorded as a {kind} decision, but seat {seat} must make a {} move now",
                    d.kind
                ),
            );
        }
        let mv = Move::parse(kind, text)
            .or_else(|_| err(at, format!("'{text}' is not a {kind} move")))?;
        let applied = match self.game.apply_timed(seat, mv, ms) {
            Ok(a) => a,
            Err(e) => return err(at, illegal_text(seat, mv, &e.reason)),
        };
        let h = self.game.hand();
        let Some(vh) = self.out.hands.last_mut() else {
            unreachable!("a decision exists only after a deal");
        };
        vh.moves.push(MoveEntry {
            seat,
            decision: kind,
            mv: text.to_string(),
            ms,
            substituted,
        });
        match mv {
            Move::ThrowIn | Move::Keep => vh.throw_in.push(SeatMove {
                seat,
                mv: mv.to_string(),
            }),
            Move::Call(_) => vh.auction.push(SeatMove {
                seat,
                mv: mv.to_string(),
            }),
            Move::Trump(_) | Move::Play(_) => {}
        }
        vh.contract = h.contract.map(|c| ContractInfo {
            declarer: c.declarer,
            bid: c.bid.to_string(),
            multiplier: c.multiplier,
        });
        if vh.bids.is_some() {
            vh.bids = Some(h.bids);
        }
        vh.trump = h.trump;
        if let Some((trick, winner)) = applied.trick {
            vh.tricks.push(TrickInfo {
                number: vh.tricks.len() as u8 + 1,
                leader: trick.leader,
                cards: trick.plays().map(|(_, c)| c).collect(),
                winner,
            });
        }
        vh.unfinished_trick = (!h.trick.is_empty()).then(|| UnfinishedTrick {
            number: vh.tricks.len() as u8 + 1,
            leader: h.trick.leader,
            cards: h.trick.plays().map(|(_, c)| c).collect(),
        });
        if let Some(result) = applied.hand {
            self.expect =
                Expect::HandEnd(Box::new(crate::protocol::hand_end_msg(&self.game, &result)));
        }
        Ok(())
    }

    fn fault(
        &mut self,
        at: usize,
        number: u32,
        seat: Seat,
        kind: FaultKind,
        detail: &str,
        action: FaultAction,
    ) -> Result<(), LineError> {
        let handshake = self.game.hands_dealt() == 0;
        match self.game.decision() {
            None if handshake => {
                if !matches!(kind, FaultKind::Handshake | FaultKind::Absent) {
                    return err(
                        at,
                        format!("a {kind} fault before the first deal: only handshake and absent faults happen then"),
                    );
                }
            }
            None => {
                return err(
                    at,
                    format!("a fault of seat {seat}, but {}", self.state_text()),
                )
            }
            Some(d) => {
                if matches!(kind, FaultKind::Handshake | FaultKind::Absent) {
                    return err(at, format!("a {kind} fault after the first deal"));
                }
                if seat != d.seat {
                    return err(
                        at,
                        format!(
                            "a fault of seat {seat}, but seat {} was the one asked to move",
                            d.seat
                        ),
                    );
                }
            }
        }
        let current = self.game.hand().number;
        if number != current {
            return err(
                at,
                format!("fault says hand_number {number}, but it happened in hand {current}"),
            );
        }
        let team = seat.team();
        self.faults_by_team[team.index()] += 1;
        let due = match self.policy {
            // An absent seat forfeits under any policy (no one is there to substitute for).
            _ if kind == FaultKind::Absent => FaultAction::Forfeit,
            FaultPolicy::Forfeit => FaultAction::Forfeit,
            FaultPolicy::Substitute { max_faults }
                if self.faults_by_team[team.index()] > max_faults =>
            {
                FaultAction::Forfeit
            }
            FaultPolicy::Substitute { .. } => FaultAction::Substitute,
        };
        if action != due {
            let n = self.faults_by_team[team.index()];
            return err(
                at,
                format!(
                    "fault says action {}, but under on_fault {} the {} fault of team {team} is a {}",
                    action_text(action),
                    self.policy,
                    ordinal(n),
                    action_text(due)
                ),
            );
        }
        let entry = FaultEntry {
            hand_number: number,
            seat,
            kind,
            detail: detail.to_string(),
            action,
        };
        match self.out.hands.last_mut() {
            Some(h) if !handshake => h.faults.push(entry),
            _ => self.out.faults.push(entry),
        }
        match action {
            FaultAction::Forfeit => {
                if let Some(r) = self.forfeit.as_mut() {
                    // As at the referee: forfeits of both partnerships at the handshake draw.
                    let first = r.forfeit.as_ref().map(|f| f.seat.team());
                    if handshake && first == Some(team.other()) {
                        r.winner = None;
                    }
                } else {
                    let mut r = crate::protocol::game_end_msg(
                        &self.game,
                        Some(team.other()),
                        EndReason::Target,
                    );
                    r.reason = "forfeit".to_string();
                    r.forfeit = Some(ForfeitInfo {
                        seat,
                        kind,
                        detail: detail.to_string(),
                    });
                    self.forfeit = Some(r);
                }
            }
            FaultAction::Substitute => {
                if !handshake {
                    self.expect = Expect::Substitute(seat);
                }
            }
        }
        Ok(())
    }

    fn result(&mut self, at: usize, rec: &GameEndMsg) -> Result<(), LineError> {
        let exp = if let Some(f) = self.forfeit.take() {
            f
        } else if rec.reason == "forfeit" {
            return err(
                at,
                "the result is a forfeit, but no fault with action forfeit is recorded",
            );
        } else if let Some(g) = self.game.result() {
            crate::protocol::game_end_msg(&self.game, g.winner, g.reason)
        } else {
            return err(
                at,
                format!(
                    "the result says {}, but under the header's rules the game is not over: {}",
                    result_text(rec),
                    self.state_text()
                ),
            );
        };
        compare("result", at, rec, &exp)?;
        self.out.result = Some(rec.clone());
        self.out.finished = true;
        Ok(())
    }

    /// Where the game stands, for messages: "hand 4 is under way (seat 2 must make a play move)".
    fn state_text(&self) -> String {
        if let Some(g) = self.game.result() {
            return format!(
                "the game is over: {} (the result line is due)",
                result_text(&crate::protocol::game_end_msg(
                    &self.game, g.winner, g.reason
                ))
            );
        }
        if self.forfeit.is_some() {
            return "a fault forfeited the game (the result line is due)".to_string();
        }
        match self.game.decision() {
            Some(d) => format!(
                "hand {} is under way: seat {} must make a {} move",
                self.game.hand().number,
                d.seat,
                d.kind
            ),
            None if self.game.hands_dealt() == 0 => "no hand has been dealt yet".to_string(),
            None => format!(
                "hand {} is over and hand {} is due to be dealt",
                self.game.hands_dealt(),
                self.game.hands_dealt() + 1
            ),
        }
    }

    fn truncated_problem(&self) -> String {
        format!(
            "the record ends before the game's result (truncated?): {}",
            self.state_text()
        )
    }
}

/// Compares a recorded message with the one the rules give, field by field in the message's own
/// order, naming the first field that differs.
fn compare<T: Serialize>(what: &str, at: usize, rec: &T, exp: &T) -> Result<(), LineError> {
    let rec = serde_json::to_value(rec).expect("record messages serialize");
    let exp = serde_json::to_value(exp).expect("record messages serialize");
    const ORDER: [&str; 16] = [
        "hand_number",
        "dealer",
        "end",
        "thrown_in_by",
        "winner",
        "reason",
        "hands",
        "team_delta",
        "seat_delta",
        "team_scores",
        "seat_scores",
        "slow_play_penalty",
        "reneged",
        "instant_winner",
        "forfeit",
        "type",
    ];
    let mut keys: Vec<&String> = exp
        .as_object()
        .into_iter()
        .chain(rec.as_object())
        .flat_map(|m| m.keys())
        .collect();
    keys.sort_by_key(|k| (ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()), *k));
    keys.dedup();
    // Fields added to a message after records were first written: a record from before has
    // none, and is still right.
    const ADDED_LATER: [&str; 1] = ["slow_play_penalty"];
    for k in keys {
        let (r, e) = (rec.get(k.as_str()), exp.get(k.as_str()));
        if r.is_none() && ADDED_LATER.contains(&k.as_str()) {
            continue;
        }
        if r.unwrap_or(&Value::Null) != e.unwrap_or(&Value::Null) {
            return err(
                at,
                format!("{what} says {k} {}, the rules give {}", show(r), show(e)),
            );
        }
    }
    Ok(())
}

/// A JSON value as a reader would write it: `[31, -8]`, `played`, `none`.
fn show(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "none".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => {
            let parts: Vec<String> = a.iter().map(|x| show(Some(x))).collect();
            format!("[{}]", parts.join(", "))
        }
        Some(Value::Object(m)) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{k}: {}", show(Some(x))))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Some(other) => other.to_string(),
    }
}

fn illegal_text(seat: Seat, mv: Move, reason: &IllegalReason) -> String {
    match (mv, reason) {
        (Move::Play(c), IllegalReason::NotHeld) => {
            format!("seat {seat} played {c} but does not hold it")
        }
        (Move::Play(c), IllegalReason::MustFollow(s)) => {
            format!(
                "seat {seat} played {c} but must follow suit in {}",
                suit_name(*s)
            )
        }
        (Move::Play(c), IllegalReason::MustLeadTrump) => format!(
            "seat {seat} led {c} but the declarer's first lead must be a trump (trump-first-lead)"
        ),
        (_, IllegalReason::NotLegal(legal)) => {
            format!(
                "seat {seat}'s {} {mv} is not legal now; legal: {legal}",
                mv.kind()
            )
        }
        (_, other) => format!("seat {seat}'s {} {mv} is not legal: {other}", mv.kind()),
    }
}

pub fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

fn action_text(a: FaultAction) -> &'static str {
    match a {
        FaultAction::Forfeit => "forfeit",
        FaultAction::Substitute => "substitute",
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn describe_line(l: &RecordLine) -> String {
    match l {
        RecordLine::Move {
            seat,
            mv,
            substituted,
            ..
        } => format!(
            "a move by seat {seat} ({mv}{})",
            if *substituted { ", substituted" } else { "" }
        ),
        other => format!("a '{}' line", other.kind()),
    }
}
