//! Replays a record against the rules in its header and checks everything in it: every deal is a
//! valid deal and due when it comes, every move is legal, every `hand_end` and the `result` are
//! what the rules give, every fault's action is what the header's fault policy says, and nothing
//! follows the result. Moves are applied with their recorded milliseconds, so 400's ten-second
//! strikes are recomputed from the record.
//!
//! The first line that disagrees is reported as a [`ReplayError`] naming that line. A record
//! that passes becomes a [`VerifiedGame`]: the header plus, per hand, the cards, the auction,
//! the contract, the tricks, the faults and the scores.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::format::{BotInfo, Header, RecordLine, RECORD_FORMAT};
use super::reader::{parse_record, read_record, NumberedLine, ReadError};
use crate::cli_args::parse_fault_policy;
use crate::protocol::{FaultAction, FaultKind, ForfeitInfo, GameEndMsg, HandEndMsg, TimeLimits};
use crate::referee::FaultPolicy;
use crate::rules::{
    BySeat, Card, CardSet, Deal, DecisionKind, EndReason, Game, IllegalReason, Level, Move, Rules,
    RulesKind, Seat, Strain, Suit,
};

/// A record that does not replay: the line and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ReplayError {
    /// 1-based line number in the record file.
    pub line: usize,
    pub problem: String,
}

fn err<T>(line: usize, problem: impl Into<String>) -> Result<T, ReplayError> {
    Err(ReplayError {
        line,
        problem: problem.into(),
    })
}

/// A game whose record replayed without a disagreement.
#[derive(Clone, Debug, Serialize)]
pub struct VerifiedGame {
    pub format: u32,
    pub referee: String,
    pub rules: Rules,
    pub seed: u64,
    pub first_dealer: Seat,
    pub bots: Vec<BotInfo>,
    pub time: TimeLimits,
    pub on_fault: String,
    /// Faults before the first deal (the handshake).
    pub faults: Vec<FaultEntry>,
    pub hands: Vec<VerifiedHand>,
    /// True when the record ends with its result; false for an `aborted` record.
    pub finished: bool,
    pub result: Option<GameEndMsg>,
    /// The reason of an `aborted` record.
    pub aborted: Option<String>,
}

/// One hand, from its deal to its `hand_end` (`end` is `null` for a hand cut short by an
/// abort or a forfeit).
#[derive(Clone, Debug, Serialize)]
pub struct VerifiedHand {
    pub number: u32,
    pub dealer: Seat,
    /// The four hands as dealt, seat 0 first.
    pub hands: BySeat<CardSet>,
    /// Throw-in decisions (`throw-in` or `keep`), in order.
    pub throw_in: Vec<SeatMove>,
    /// Calls in the order made (in 400 and Forty-One: each player's bid).
    pub auction: Vec<SeatMove>,
    /// Contract games: the contract, once the auction was won.
    pub contract: Option<ContractInfo>,
    /// 400 / Forty-One: each seat's bid.
    pub bids: Option<BySeat<Option<Level>>>,
    /// The trump suit (`NT` for No Trump), once known.
    pub trump: Option<Strain>,
    pub tricks: Vec<TrickInfo>,
    /// Every move of the hand, as recorded.
    pub moves: Vec<MoveEntry>,
    pub faults: Vec<FaultEntry>,
    /// The hand's result as recorded and checked: deltas and totals.
    pub end: Option<HandEndMsg>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatMove {
    pub seat: Seat,
    #[serde(rename = "move")]
    pub mv: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContractInfo {
    pub declarer: Seat,
    /// The bid's text, like `8` or `9H`.
    pub bid: String,
    /// 1, 2 (doubled) or 4 (redoubled).
    pub multiplier: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickInfo {
    /// 1 to 13.
    pub number: u8,
    pub leader: Seat,
    /// In the order played, the leader's first.
    pub cards: Vec<Card>,
    pub winner: Seat,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    pub seat: Seat,
    pub decision: DecisionKind,
    #[serde(rename = "move")]
    pub mv: String,
    pub ms: u64,
    pub substituted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FaultEntry {
    pub hand_number: u32,
    pub seat: Seat,
    pub kind: FaultKind,
    pub detail: String,
    pub action: FaultAction,
}

/// Reads and replays the record at `path`.
pub fn replay_file(path: &Path) -> Result<VerifiedGame, ReadError> {
    let lines = read_record(path)?;
    Ok(replay(&lines)?)
}

/// Parses and replays a record's text.
pub fn replay_text(text: &str) -> Result<VerifiedGame, ReplayError> {
    replay(&parse_record(text)?)
}

/// The deals of a record in order, with its first dealer and rules (for playing the same cards
/// with other bots). Only the header and the deal lines are looked at.
#[derive(Clone, Debug)]
pub struct RecordedDeals {
    pub first_dealer: Seat,
    pub rules: Rules,
    pub seed: u64,
    pub deals: Vec<Deal>,
}

pub fn recorded_deals(lines: &[NumberedLine]) -> Result<RecordedDeals, ReplayError> {
    let header = header_of(lines)?;
    let mut deals = Vec::new();
    for l in lines {
        if let RecordLine::Deal { hands, .. } = &l.record {
            let deal =
                Deal::new(*hands).or_else(|e| err(l.line, format!("not a valid deal: {e}")))?;
            deals.push(deal);
        }
    }
    if deals.is_empty() {
        let last = lines.last().map_or(1, |l| l.line);
        return err(last, "the record holds no deal");
    }
    Ok(RecordedDeals {
        first_dealer: header.first_dealer,
        rules: header.rules.clone(),
        seed: header.seed,
        deals,
    })
}

fn header_of(lines: &[NumberedLine]) -> Result<&Header, ReplayError> {
    let Some(first) = lines.first() else {
        return err(1, "the record is empty: its first line must be the header");
    };
    match &first.record {
        RecordLine::Header(h) => Ok(h),
        other => err(
            first.line,
            format!(
                "the first line must be the header, this is a '{}' line",
                kind_of(other)
            ),
        ),
    }
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
pub fn replay(lines: &[NumberedLine]) -> Result<VerifiedGame, ReplayError> {
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
    let policy = parse_fault_policy(&header.on_fault)
        .or_else(|e| err(hline, format!("the header's on_fault: {e}")))?;
    let mut r = Replayer {
        game: Game::new(header.rules.clone(), header.first_dealer),
        policy,
        faults_by_team: [0; 2],
        forfeit: None,
        expect: Expect::Any,
        out: VerifiedGame {
            format: header.format,
            referee: header.referee.clone(),
            rules: header.rules.clone(),
            seed: header.seed,
            first_dealer: header.first_dealer,
            bots: header.bots.clone(),
            time: header.time,
            on_fault: header.on_fault.clone(),
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
                    kind_of(&l.record)
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
    fn line(&mut self, l: &NumberedLine) -> Result<(), ReplayError> {
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
                            kind_of(&l.record)
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
    ) -> Result<(), ReplayError> {
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
    ) -> Result<(), ReplayError> {
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
    ) -> Result<(), ReplayError> {
        let handshake = self.game.hands_dealt() == 0;
        match self.game.decision() {
            None if handshake => {
                if kind != FaultKind::Handshake {
                    return err(
                        at,
                        format!("a {kind} fault before the first deal: only handshake faults happen then"),
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
                if kind == FaultKind::Handshake {
                    return err(at, "a handshake fault after the first deal");
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

    fn result(&mut self, at: usize, rec: &GameEndMsg) -> Result<(), ReplayError> {
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
fn compare<T: Serialize>(what: &str, at: usize, rec: &T, exp: &T) -> Result<(), ReplayError> {
    let rec = serde_json::to_value(rec).expect("record messages serialize");
    let exp = serde_json::to_value(exp).expect("record messages serialize");
    const ORDER: [&str; 15] = [
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
    for k in keys {
        let (r, e) = (rec.get(k.as_str()), exp.get(k.as_str()));
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

/// "team 1 wins by target after 9 hands", "a draw (hand-cap) after 200 hands".
pub fn result_text(r: &GameEndMsg) -> String {
    match r.winner {
        Some(t) => format!("team {t} wins by {} after {} hands", r.reason, r.hands),
        None => format!("a draw ({}) after {} hands", r.reason, r.hands),
    }
}

fn kind_of(l: &RecordLine) -> &'static str {
    match l {
        RecordLine::Header(_) => "header",
        RecordLine::Deal { .. } => "deal",
        RecordLine::Move { .. } => "move",
        RecordLine::Fault { .. } => "fault",
        RecordLine::HandEnd(_) => "hand_end",
        RecordLine::Result(_) => "result",
        RecordLine::Aborted { .. } => "aborted",
    }
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
        other => format!("a '{}' line", kind_of(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::DealSource;

    /// A complete classic record made in process: random legal moves, written as the referee
    /// writes them.
    fn sample_record(rules: Rules, seed: u64) -> Vec<String> {
        sample_record_ms(rules, seed, 3)
    }

    /// The same with every move taking `ms` milliseconds.
    fn sample_record_ms(rules: Rules, seed: u64, ms: u64) -> Vec<String> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
        let mut deals = DealSource::from_seed(seed);
        let first = deals.first_dealer();
        let header = Header {
            format: RECORD_FORMAT,
            referee: "tarneeb-referee test".to_string(),
            rules: rules.clone(),
            seed,
            first_dealer: first,
            bots: Vec::new(),
            time: TimeLimits {
                handshake_ms: 1000,
                move_ms: 1000,
                bank_ms: None,
                increment_ms: 0,
            },
            on_fault: "forfeit".to_string(),
        };
        let mut out = vec![RecordLine::Header(Box::new(header))];
        let mut game = Game::new(rules, first);
        let mut r = Replayer {
            game: game.clone(),
            policy: FaultPolicy::Forfeit,
            faults_by_team: [0; 2],
            forfeit: None,
            expect: Expect::Any,
            out: VerifiedGame {
                format: 1,
                referee: String::new(),
                rules: Rules::classic(),
                seed,
                first_dealer: first,
                bots: Vec::new(),
                time: TimeLimits {
                    handshake_ms: 0,
                    move_ms: 0,
                    bank_ms: None,
                    increment_ms: 0,
                },
                on_fault: String::new(),
                faults: Vec::new(),
                hands: Vec::new(),
                finished: false,
                result: None,
                aborted: None,
            },
        };
        loop {
            if game.needs_deal() {
                let d = deals.next_deal();
                game.deal(d);
                out.push(RecordLine::Deal {
                    hand_number: game.hand().number,
                    dealer: game.hand().dealer,
                    hands: d.hands(),
                });
                continue;
            }
            let Some(dec) = game.decision() else { break };
            let legal = game.legal_moves();
            let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
            let applied = game.apply_timed(dec.seat, mv, ms).unwrap();
            out.push(RecordLine::Move {
                hand_number: game.hand().number,
                seat: dec.seat,
                decision: dec.kind,
                mv: mv.to_string(),
                ms,
                substituted: false,
            });
            if let Some(h) = applied.hand {
                r.game = game.clone();
                out.push(RecordLine::HandEnd(crate::protocol::hand_end_msg(
                    &r.game, &h,
                )));
            }
        }
        r.game = game.clone();
        let g = game.result().unwrap();
        out.push(RecordLine::Result(crate::protocol::game_end_msg(
            &r.game, g.winner, g.reason,
        )));
        out.iter()
            .map(|l| serde_json::to_string(l).unwrap())
            .collect()
    }

    fn text(lines: &[String]) -> String {
        lines.join("\n") + "\n"
    }

    fn find(lines: &[String], pred: impl Fn(&RecordLine) -> bool) -> usize {
        lines
            .iter()
            .position(|l| pred(&serde_json::from_str(l).unwrap()))
            .unwrap()
    }

    #[test]
    fn a_complete_record_verifies() {
        for rules in [Rules::classic(), Rules::four_hundred()] {
            let lines = sample_record(rules, 5);
            let g = replay_text(&text(&lines)).unwrap();
            assert!(g.finished);
            assert!(!g.hands.is_empty());
            let moves: usize = g.hands.iter().map(|h| h.moves.len()).sum();
            let recorded = lines
                .iter()
                .filter(|l| l.contains("\"type\":\"move\""))
                .count();
            assert_eq!(moves, recorded);
        }
    }

    #[test]
    fn truncation_is_named_after_the_last_line() {
        let lines = sample_record(Rules::classic(), 6);
        let cut = &lines[..lines.len() - 1];
        let e = replay_text(&text(cut)).unwrap_err();
        assert_eq!(e.line, lines.len());
        assert!(e.problem.contains("truncated"), "{e}");
    }

    #[test]
    fn a_line_after_the_result_is_an_error() {
        let mut lines = sample_record(Rules::classic(), 7);
        lines.push(r#"{"type":"aborted","reason":"late"}"#.to_string());
        let e = replay_text(&text(&lines)).unwrap_err();
        assert_eq!(e.line, lines.len());
        assert!(e.problem.contains("after the game's result"), "{e}");
    }

    #[test]
    fn a_card_not_held_is_named() {
        let mut lines = sample_record(Rules::classic(), 8);
        let i = find(&lines, |l| {
            matches!(
                l,
                RecordLine::Move {
                    decision: DecisionKind::Play,
                    ..
                }
            )
        });
        let RecordLine::Move { seat, .. } = serde_json::from_str(&lines[i]).unwrap() else {
            unreachable!()
        };
        // A card of the next seat's hand in the last deal before the move.
        let d = lines[..i]
            .iter()
            .rposition(|l| l.contains("\"type\":\"deal\""))
            .unwrap();
        let RecordLine::Deal { hands, .. } = serde_json::from_str(&lines[d]).unwrap() else {
            unreachable!()
        };
        let other = hands[seat.next()].lowest().unwrap();
        let v: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
        let mut v = v;
        v["move"] = Value::String(other.to_string());
        lines[i] = v.to_string();
        let e = replay_text(&text(&lines)).unwrap_err();
        assert_eq!(e.line, i + 1);
        assert_eq!(
            e.problem,
            format!("seat {seat} played {other} but does not hold it")
        );
    }

    #[test]
    fn a_changed_score_is_named_with_both_values() {
        let mut lines = sample_record(Rules::classic(), 9);
        let i = find(&lines, |l| matches!(l, RecordLine::HandEnd(_)));
        let mut v: Value = serde_json::from_str(&lines[i]).unwrap();
        let real = v["team_scores"][0].as_i64().unwrap();
        v["team_scores"][0] = Value::from(real + 2);
        lines[i] = v.to_string();
        let e = replay_text(&text(&lines)).unwrap_err();
        assert_eq!(e.line, i + 1);
        assert!(
            e.problem
                .starts_with(&format!("hand_end says team_scores [{}, ", real + 2)),
            "{e}"
        );
        assert!(
            e.problem.contains(&format!("the rules give [{real}, ")),
            "{e}"
        );
    }

    #[test]
    fn a_forfeit_result_needs_a_forfeit_fault() {
        let mut lines = sample_record(Rules::classic(), 10);
        let n = lines.len();
        let mut v: Value = serde_json::from_str(&lines[n - 1]).unwrap();
        v["reason"] = Value::from("forfeit");
        lines[n - 1] = v.to_string();
        let e = replay_text(&text(&lines)).unwrap_err();
        assert_eq!(e.line, n);
        assert!(e.problem.contains("no fault with action forfeit"), "{e}");
    }

    #[test]
    fn faults_and_aborts_verify() {
        // A decision fault under substitute, then the referee's move, then an abort.
        let lines = sample_record(Rules::classic(), 11);
        let mut v: Value = serde_json::from_str(&lines[0]).unwrap();
        v["on_fault"] = Value::from("substitute:1");
        let header = v.to_string();
        let deal = &lines[1];
        let RecordLine::Deal { dealer, .. } = serde_json::from_str(deal).unwrap() else {
            unreachable!("the second line is a deal")
        };
        let seat = dealer.next();
        let first_move: Value = serde_json::from_str(&lines[2]).unwrap();
        let mut sub = first_move.clone();
        sub["substituted"] = Value::from(true);
        let fault = |action: &str| {
            format!(
                r#"{{"type":"fault","hand_number":1,"seat":{seat},"kind":"timeout","detail":"slow","action":"{action}"}}"#
            )
        };
        let ok = [
            header.clone(),
            deal.clone(),
            fault("substitute"),
            sub.to_string(),
            r#"{"type":"aborted","reason":"interrupted by a signal"}"#.to_string(),
        ];
        let g = replay_text(&text(&ok)).unwrap();
        assert!(!g.finished);
        assert_eq!(g.hands[0].faults.len(), 1);
        // Without the substituted mark the move is not the referee's.
        let mut bad = ok.clone();
        bad[3] = first_move.to_string();
        let e = replay_text(&text(&bad)).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        // The wrong action for the policy.
        let mut bad = ok.clone();
        bad[2] = fault("forfeit");
        let e = replay_text(&text(&bad)).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.problem.contains("is a substitute"), "{e}");
        // A forfeit fault must be followed by the forfeit result.
        let mut v: Value = serde_json::from_str(&ok[0]).unwrap();
        v["on_fault"] = Value::from("forfeit");
        let mut forfeit = vec![v.to_string(), deal.clone(), fault("forfeit")];
        forfeit.push(format!(
            r#"{{"type":"result","winner":{},"reason":"forfeit","hands":1,"team_scores":[0,0],"forfeit":{{"seat":{seat},"kind":"timeout","detail":"slow"}}}}"#,
            seat.team().other()
        ));
        replay_text(&text(&forfeit)).unwrap();
        forfeit[3] = forfeit[3].replace("\"hands\":1", "\"hands\":2");
        let e = replay_text(&text(&forfeit)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4: result says hands 2, the rules give 1"
        );
    }

    #[test]
    fn a_changed_target_shows_at_the_result() {
        let lines = sample_record(Rules::classic(), 12);
        let mut v: Value = serde_json::from_str(&lines[0]).unwrap();
        v["rules"]["target"] = Value::from(10_000);
        let mut tampered = lines.clone();
        tampered[0] = v.to_string();
        let e = replay_text(&text(&tampered)).unwrap_err();
        let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(last["reason"], "target");
        assert_eq!(e.line, lines.len(), "{e}");
        assert!(e.problem.contains("the game is not over"), "{e}");
        // Invalid rules are named at the header.
        v["rules"]["target"] = Value::from(0);
        tampered[0] = v.to_string();
        let e = replay_text(&text(&tampered)).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.problem.contains("option 'target'"), "{e}");
    }

    #[test]
    fn recorded_deals_come_in_order() {
        let lines = sample_record(Rules::classic(), 13);
        let typed = parse_record(&text(&lines)).unwrap();
        let d = recorded_deals(&typed).unwrap();
        let mut src = DealSource::from_seed(13);
        assert_eq!(d.first_dealer, src.first_dealer());
        for deal in &d.deals {
            assert_eq!(*deal, src.next_deal());
        }
    }

    #[test]
    fn slow_play_strikes_are_recomputed_from_the_recorded_ms() {
        let rules = Rules::four_hundred();
        let limit = rules
            .individual
            .as_ref()
            .unwrap()
            .slow_play
            .unwrap()
            .limit_ms;
        let lines = sample_record_ms(rules, 14, limit + 1);
        let g = replay_text(&text(&lines)).unwrap();
        let played = g
            .hands
            .iter()
            .filter_map(|h| h.end.as_ref())
            .find(|e| e.end == "played")
            .expect("a played hand");
        assert!(played.reneged.unwrap().0.iter().all(|&r| r), "{played:?}");
        // The same moves recorded as quick: the rules give no renege, so the first played
        // hand's hand_end disagrees.
        let quick: Vec<String> = lines
            .iter()
            .map(|l| l.replace(&format!("\"ms\":{}", limit + 1), "\"ms\":0"))
            .collect();
        let e = replay_text(&text(&quick)).unwrap_err();
        let i = find(
            &lines,
            |l| matches!(l, RecordLine::HandEnd(h) if h.end == "played"),
        );
        assert_eq!(e.line, i + 1, "{e}");
        assert!(e.problem.starts_with("hand_end says "), "{e}");
    }
}
