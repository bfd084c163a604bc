//! One game as a state machine: deals, throw-ins, auction, trump, play, scoring, game end.
//!
//! The driver (simulator, referee, replay) asks [`Game::decision`] who must do what, gets the
//! legal moves from [`Game::legal_moves`], and feeds back the chosen move with
//! [`Game::apply`]. When [`Game::needs_deal`] is true it supplies the next [`Deal`] (seeded,
//! given, or read from a record), so the state machine itself never draws random numbers.

mod start;
pub use start::{StartScores, START_SCORE_LIMIT};

use super::auction::{
    individual_is_legal, individual_legal, individual_sum, trump_choices, trump_is_legal,
    AuctionState, ContractAuction, SeatFlags,
};
use super::bid::{Bid, Call, DecisionKind, Level, Move, MoveList, Strain};
use super::card::{Card, Suit};
use super::card_set::CardSet;
use super::deal::Deal;
use super::options::{ContractRules, IndividualRules, Redeal, Rules, RulesKind, TrumpChoice};
use super::score::{
    contract_score, contract_winner, individual_score, individual_winner, leader_at_cap,
};
use super::seat::{BySeat, ByTeam, Seat, Team};
use super::trick::Trick;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the next deal.
    Deal,
    ThrowIn,
    Auction,
    Trump,
    Play,
    Over,
}

/// Who must decide what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub seat: Seat,
    pub kind: DecisionKind,
}

/// The contract of a partnership game once the auction is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub declarer: Seat,
    pub bid: Bid,
    /// 1, 2 (doubled) or 4 (redoubled).
    pub multiplier: u8,
}

/// Why a throw-in house rule let a player throw the hand in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrowInReason {
    WeakHand,
    LongSuit,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandEnd {
    /// All 13 tricks were played and scored.
    Played,
    /// Nobody bid; `same_dealer` says who deals next.
    AllPassed { same_dealer: bool },
    /// A player threw the hand in.
    ThrownIn { seat: Seat, reason: ThrowInReason },
    /// 400 / Forty-One: the bids did not reach the required total.
    BidSumTooLow { sum: u32, needed: u32 },
}

/// The result of one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandResult {
    pub number: u32,
    pub dealer: Seat,
    pub end: HandEnd,
    /// Score changes per team (contract games) or per seat (individual games, in `seat_delta`).
    pub team_delta: ByTeam<i32>,
    pub seat_delta: BySeat<i32>,
    /// Seats that reneged under the ten-second rule.
    pub reneged: BySeat<bool>,
    /// A hand that decided the game by itself (kaboot instant win, bid of 13 in 400).
    pub instant_winner: Option<Team>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A partnership reached the target under the game's rules.
    Target,
    /// One hand decided the game (kaboot instant win, a bid of 13 in 400).
    Instant,
    /// `max-hands` deals were played.
    HandCap,
}

/// The end of a game. `winner: None` is a draw (possible only at the hand cap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Team>,
    pub reason: EndReason,
    pub hands: u32,
}

/// What applying a move caused, for drivers that tell the other players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The trick this move completed, and its winner.
    pub trick: Option<(Trick, Seat)>,
    /// The contract, when this move ended the auction (or named the trump).
    pub contract_made: bool,
    pub hand: Option<HandResult>,
    pub game: Option<GameResult>,
}

/// A move that may not be made now, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seat {seat} may not {attempted}: {reason}")]
pub struct IllegalMove {
    pub seat: Seat,
    pub attempted: String,
    pub reason: IllegalReason,
}

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error("the game is over")]
    GameOver,
    #[error("the next hand has not been dealt")]
    NeedsDeal,
    #[error("it is seat {0}'s turn")]
    NotYourTurn(Seat),
    #[error("the decision now is a {0} move")]
    WrongDecision(DecisionKind),
    #[error("that card is not in the hand")]
    NotHeld,
    #[error("a card of the suit led ({0}) must be played")]
    MustFollow(Suit),
    #[error("the declarer's first lead must be a trump (trump-first-lead)")]
    MustLeadTrump,
    #[error("it is not among the legal moves: {0}")]
    NotLegal(String),
}

/// The current hand.
#[derive(Clone, Debug)]
pub struct Hand {
    pub number: u32,
    pub dealer: Seat,
    pub dealt: BySeat<CardSet>,
    pub held: BySeat<CardSet>,
    pub flags: BySeat<SeatFlags>,
    /// Seats still to be asked whether they throw in (bit per seat), asked from dealer + 1.
    throw_in_pending: u8,
    pub auction: ContractAuction,
    /// 400 / Forty-One bids in the order made.
    pub bids: BySeat<Option<Level>>,
    pub contract: Option<Contract>,
    /// `None` until known; `Some(Strain::NoTrump)` for No Trump.
    pub trump: Option<Strain>,
    pub trick: Trick,
    pub tricks: Vec<(Trick, Seat)>,
    pub tricks_won: BySeat<u8>,
    pub strikes: BySeat<u8>,
    pub played: CardSet,
    to_act: Seat,
}

/// One game from the first deal to its result.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    first_dealer: Seat,
    phase: Phase,
    hands_dealt: u32,
    next_dealer: Seat,
    team_scores: ByTeam<i32>,
    seat_scores: BySeat<i32>,
    hand: Hand,
    result: Option<GameResult>,
}

impl Game {
    /// A new game waiting for its first deal. The rules must have passed [`Rules::validate`].
    pub fn new(rules: Rules, first_dealer: Seat) -> Game {
        debug_assert!(rules.validate().is_ok(), "Game::new needs validated rules");
        Game {
            rules,
            first_dealer,
            phase: Phase::Deal,
            hands_dealt: 0,
            next_dealer: first_dealer,
            team_scores: ByTeam([0; 2]),
            seat_scores: BySeat([0; 4]),
            hand: Hand {
                number: 0,
                dealer: first_dealer,
                dealt: BySeat([CardSet::EMPTY; 4]),
                held: BySeat([CardSet::EMPTY; 4]),
                flags: BySeat::default(),
                throw_in_pending: 0,
                auction: ContractAuction::new(first_dealer),
                bids: BySeat([None; 4]),
                contract: None,
                trump: None,
                trick: Trick::new(first_dealer),
                tricks: Vec::with_capacity(13),
                tricks_won: BySeat([0; 4]),
                strikes: BySeat([0; 4]),
                played: CardSet::EMPTY,
                to_act: first_dealer,
            },
            result: None,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn first_dealer(&self) -> Seat {
        self.first_dealer
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn hand(&self) -> &Hand {
        &self.hand
    }
    pub fn hands_dealt(&self) -> u32 {
        self.hands_dealt
    }
    /// Who deals the next hand (or dealt the current one while a hand is under way).
    pub fn dealer(&self) -> Seat {
        if self.phase == Phase::Deal {
            self.next_dealer
        } else {
            self.hand.dealer
        }
    }
    pub fn team_scores(&self) -> ByTeam<i32> {
        self.team_scores
    }
    pub fn seat_scores(&self) -> BySeat<i32> {
        self.seat_scores
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    pub fn needs_deal(&self) -> bool {
        self.phase == Phase::Deal
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Per-partnership totals: team scores, or the sum of the partners' scores in 400 / 41.
    pub fn team_totals(&self) -> ByTeam<i32> {
        match self.rules.kind() {
            RulesKind::Contract(_) => self.team_scores,
            RulesKind::Individual(_) => {
                ByTeam(Team::ALL.map(|t| t.seats().iter().map(|&s| self.seat_scores[s]).sum()))
            }
        }
    }

    /// The decision the game waits for; `None` while waiting for a deal or when over.
    pub fn decision(&self) -> Option<Decision> {
        let kind = match self.phase {
            Phase::Deal | Phase::Over => return None,
            Phase::ThrowIn => DecisionKind::ThrowIn,
            Phase::Auction => DecisionKind::Call,
            Phase::Trump => DecisionKind::Trump,
            Phase::Play => DecisionKind::Play,
        };
        Some(Decision {
            seat: self.hand.to_act,
            kind,
        })
    }

    /// Starts the next hand with `deal`. Panics if no deal is due (a driver bug, not a player's).
    pub fn deal(&mut self, deal: Deal) {
        assert!(self.needs_deal(), "Game::deal called while no deal is due");
        self.hands_dealt += 1;
        let dealer = self.next_dealer;
        let h = &mut self.hand;
        h.number = self.hands_dealt;
        h.dealer = dealer;
        h.dealt = deal.hands();
        h.held = deal.hands();
        // The flags feed only the throw-in, Dakak and Out-of-Call options: skip them otherwise.
        let flagged = self.rules.contract.as_ref().is_some_and(|c| {
            c.throw_in_weak_hand || c.throw_in_long_suit || c.dakak || c.out_of_call
        });
        h.flags = if flagged {
            BySeat(Seat::ALL.map(|s| SeatFlags::of(deal.hand(s))))
        } else {
            BySeat::default()
        };
        h.auction.reset(dealer);
        h.bids = BySeat([None; 4]);
        h.contract = None;
        h.trump = None;
        h.tricks.clear();
        h.tricks_won = BySeat([0; 4]);
        h.strikes = BySeat([0; 4]);
        h.played = CardSet::EMPTY;
        h.throw_in_pending = 0;
        if let RulesKind::Contract(c) = self.rules.kind() {
            for s in Seat::ALL {
                let f = h.flags[s];
                if (c.throw_in_weak_hand && f.weak) || (c.throw_in_long_suit && f.long_suit) {
                    h.throw_in_pending |= 1 << s.index();
                }
            }
        }
        h.to_act = dealer.next();
        self.phase = Phase::Auction;
        if h.throw_in_pending != 0 {
            self.phase = Phase::ThrowIn;
            self.advance_throw_in();
        }
    }

    /// Moves `to_act` to the next seat (from dealer + 1) still to be asked about a throw-in,
    /// or opens the auction when none is left.
    fn advance_throw_in(&mut self) {
        let h = &mut self.hand;
        for i in 1..=4 {
            let s = h.dealer.plus(i);
            if h.throw_in_pending & (1 << s.index()) != 0 {
                h.to_act = s;
                return;
            }
        }
        h.to_act = h.dealer.next();
        self.phase = Phase::Auction;
    }

    /// The legal moves now (empty while waiting for a deal or when over).
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        let h = &self.hand;
        match self.phase {
            Phase::Deal | Phase::Over => {}
            Phase::ThrowIn => {
                out.push(Move::ThrowIn);
                out.push(Move::Keep);
            }
            Phase::Auction => match self.rules.kind() {
                RulesKind::Contract(c) => h.auction.legal(c, &h.flags, &mut out),
                RulesKind::Individual(i) => {
                    individual_legal(i, self.seat_scores[h.to_act], &mut out)
                }
            },
            Phase::Trump => {
                if let RulesKind::Contract(c) = self.rules.kind() {
                    trump_choices(c, &mut out)
                }
            }
            Phase::Play => {
                for c in self.legal_cards() {
                    out.push(Move::Play(c));
                }
            }
        }
        out
    }

    /// The cards the player to act may play (empty outside the play phase).
    pub fn legal_cards(&self) -> CardSet {
        if self.phase != Phase::Play {
            return CardSet::EMPTY;
        }
        let h = &self.hand;
        let held = h.held[h.to_act];
        match h.trick.led() {
            Some(led) => {
                let follow = held.of_suit(led);
                if follow.is_empty() {
                    held
                } else {
                    follow
                }
            }
            None => {
                if let Some(t) = self.must_lead_trump() {
                    let trumps = held.of_suit(t);
                    if !trumps.is_empty() {
                        return trumps;
                    }
                }
                held
            }
        }
    }

    /// The trump the declarer must lead now under `trump-first-lead`, if that rule applies.
    fn must_lead_trump(&self) -> Option<Suit> {
        let h = &self.hand;
        let c = self.rules.contract.as_ref()?;
        let contract = h.contract?;
        if c.trump_first_lead && h.tricks.is_empty() && h.to_act == contract.declarer {
            h.trump.and_then(Strain::trump)
        } else {
            None
        }
    }

    /// Applies `mv` for `seat`, taking no time (see [`Game::apply_timed`]).
    pub fn apply(&mut self, seat: Seat, mv: Move) -> Result<Applied, IllegalMove> {
        self.apply_timed(seat, mv, 0)
    }

    /// Applies `mv` for `seat`; `millis` is how long the player took, which only the
    /// ten-second rule looks at. An illegal move changes nothing and says why.
    pub fn apply_timed(
        &mut self,
        seat: Seat,
        mv: Move,
        millis: u64,
    ) -> Result<Applied, IllegalMove> {
        if !self.is_legal(seat, mv) {
            return Err(self.illegal(seat, mv));
        }
        if let Move::Play(card) = mv {
            return Ok(self.apply_play(seat, card, millis));
        }
        let mut applied = Applied::default();
        match mv {
            Move::ThrowIn => {
                let f = self.hand.flags[seat];
                let long = self
                    .rules
                    .contract
                    .as_ref()
                    .is_some_and(|c| c.throw_in_long_suit && f.long_suit);
                let reason = if long {
                    ThrowInReason::LongSuit
                } else {
                    ThrowInReason::WeakHand
                };
                // A weak hand goes to the next dealer, a long suit to the same one
                // (docs/rules.md#contract-throw-in-weak-hand,
                // docs/rules.md#contract-throw-in-long-suit).
                self.end_hand_unplayed(
                    HandEnd::ThrownIn { seat, reason },
                    reason == ThrowInReason::LongSuit,
                    &mut applied,
                );
            }
            Move::Keep => {
                self.hand.throw_in_pending &= !(1 << seat.index());
                self.advance_throw_in();
            }
            Move::Call(call) => self.apply_call(seat, call, &mut applied),
            Move::Trump(strain) => {
                self.hand.trump = Some(strain);
                self.phase = Phase::Play;
                applied.contract_made = true;
            }
            Move::Play(_) => unreachable!("card plays returned above"),
        }
        Ok(applied)
    }

    /// Whether `seat` may make `mv` now: the same answer as `legal_moves().contains(&mv)` for
    /// the seat to act, without listing the moves (every applied move is checked, and a card
    /// play is the common case: one set lookup).
    fn is_legal(&self, seat: Seat, mv: Move) -> bool {
        let h = &self.hand;
        if seat != h.to_act {
            return false;
        }
        match (self.phase, mv) {
            (Phase::Play, Move::Play(card)) => self.legal_cards().contains(card),
            (Phase::ThrowIn, Move::ThrowIn | Move::Keep) => true,
            (Phase::Auction, Move::Call(call)) => match self.rules.kind() {
                RulesKind::Contract(c) => h.auction.is_legal(c, &h.flags, call),
                RulesKind::Individual(i) => individual_is_legal(i, self.seat_scores[seat], call),
            },
            (Phase::Trump, Move::Trump(strain)) => {
                let c = self.contract_rules();
                c.is_some_and(|c| trump_is_legal(c, strain))
            }
            _ => false,
        }
    }

    /// Why `mv` is illegal for `seat` (which [`Game::is_legal`] said): what a fault tells the
    /// bot's author ("a card of the suit led (C) must be played").
    pub fn why_illegal(&self, seat: Seat, mv: Move) -> IllegalReason {
        self.illegal(seat, mv).reason
    }

    /// Why `mv` is illegal for `seat` (which [`Game::is_legal`] said). Only faulty players
    /// get here, so it may take its time.
    #[cold]
    fn illegal(&self, seat: Seat, mv: Move) -> IllegalMove {
        let illegal = |reason| IllegalMove {
            seat,
            attempted: describe(mv),
            reason,
        };
        let d = match self.phase {
            Phase::Over => return illegal(IllegalReason::GameOver),
            Phase::Deal => return illegal(IllegalReason::NeedsDeal),
            _ => self.decision().expect("a decision in this phase"),
        };
        if d.seat != seat {
            return illegal(IllegalReason::NotYourTurn(d.seat));
        }
        if d.kind != mv.kind() {
            return illegal(IllegalReason::WrongDecision(d.kind));
        }
        if let Move::Play(card) = mv {
            if !self.hand.held[seat].contains(card) {
                return illegal(IllegalReason::NotHeld);
            }
            if let Some(led) = self.hand.trick.led() {
                return illegal(IllegalReason::MustFollow(led));
            }
            return illegal(IllegalReason::MustLeadTrump);
        }
        let list: Vec<String> = self.legal_moves().iter().map(|m| m.to_string()).collect();
        illegal(IllegalReason::NotLegal(list.join(" ")))
    }

    fn apply_call(&mut self, seat: Seat, call: Call, applied: &mut Applied) {
        match self.rules.kind() {
            RulesKind::Contract(_) => {
                let c = self.rules.contract.as_ref().expect("contract rules");
                match self.hand.auction.apply(c, call) {
                    AuctionState::Open => self.hand.to_act = self.hand.auction.to_speak,
                    AuctionState::AllPassed => {
                        let same = c.all_pass == Redeal::SameDealer;
                        self.end_hand_unplayed(
                            HandEnd::AllPassed { same_dealer: same },
                            same,
                            applied,
                        );
                    }
                    AuctionState::Won {
                        declarer,
                        bid,
                        multiplier,
                    } => {
                        let h = &mut self.hand;
                        h.contract = Some(Contract {
                            declarer,
                            bid,
                            multiplier,
                        });
                        h.trick = Trick::new(declarer);
                        h.to_act = declarer;
                        // The declarer names the trump unless the bid names it or the first
                        // lead does (docs/rules.md#declarer).
                        if let Some(strain) = bid.strain {
                            h.trump = Some(strain);
                            self.phase = Phase::Play;
                            applied.contract_made = true;
                        } else if c.trump == TrumpChoice::DeclarerNames {
                            self.phase = Phase::Trump;
                        } else {
                            self.phase = Phase::Play;
                            applied.contract_made = true;
                        }
                    }
                }
            }
            RulesKind::Individual(i) => {
                let Call::Bid(b) = call else {
                    unreachable!("checked: individual auctions only bid")
                };
                let h = &mut self.hand;
                h.bids[seat] = Some(b.level);
                if seat != h.dealer {
                    h.to_act = seat.next();
                    return;
                }
                let bids = BySeat(h.bids.0.map(|b| b.expect("all four bid")));
                let highest = self.seat_scores.0.iter().copied().max().unwrap_or(0);
                let (sum, needed) = individual_sum(i, bids, highest);
                if sum < needed {
                    // Thrown in unscored, the next dealer deals (docs/rules.md#individual-bid-sum).
                    self.end_hand_unplayed(HandEnd::BidSumTooLow { sum, needed }, false, applied);
                } else {
                    let h = &mut self.hand;
                    h.trump = Some(Strain::Trump(i.trump));
                    h.trick = Trick::new(h.dealer.next());
                    h.to_act = h.dealer.next();
                    self.phase = Phase::Play;
                    applied.contract_made = true;
                }
            }
        }
    }

    /// Plays `card`. The result is returned by value rather than filled in through a
    /// reference like the other moves': a local `Applied` that the hand's end borrows must live
    /// on the stack, and copying it out after writing only its tags stalled store-to-load
    /// forwarding on every card played.
    fn apply_play(&mut self, seat: Seat, card: Card, millis: u64) -> Applied {
        if let Some(sp) = self.rules.individual.as_ref().and_then(|i| i.slow_play) {
            if millis > sp.limit_ms {
                self.hand.strikes[seat] = self.hand.strikes[seat].saturating_add(1);
            }
        }
        let h = &mut self.hand;
        if h.trump.is_none() {
            // docs/rules.md#contract-trump (first-lead): the declarer's first lead names the trump.
            h.trump = Some(Strain::Trump(card.suit()));
        }
        h.held[seat].remove(card);
        h.played.insert(card);
        h.trick.push(card);
        if !h.trick.is_complete() {
            h.to_act = seat.next();
            return Applied::default();
        }
        let trump = h.trump.and_then(Strain::trump);
        let winner = h
            .trick
            .winner(trump)
            .expect("a complete trick has a winner");
        let trick = Some((h.trick, winner));
        h.tricks.push((h.trick, winner));
        h.tricks_won[winner] += 1;
        h.trick = Trick::new(winner);
        h.to_act = winner;
        if h.tricks.len() < 13 {
            return Applied {
                trick,
                ..Applied::default()
            };
        }
        let mut applied = Applied {
            trick,
            ..Applied::default()
        };
        self.score_hand(&mut applied);
        applied
    }

    fn score_hand(&mut self, applied: &mut Applied) {
        let h = &self.hand;
        let mut result = HandResult {
            number: h.number,
            dealer: h.dealer,
            end: HandEnd::Played,
            team_delta: ByTeam([0; 2]),
            seat_delta: BySeat([0; 4]),
            reneged: BySeat([false; 4]),
            instant_winner: None,
        };
        match self.rules.kind() {
            RulesKind::Contract(c) => {
                let contract = h.contract.expect("a played hand has a contract");
                let team = contract.declarer.team();
                let tricks = team.seats().iter().map(|&s| h.tricks_won[s]).sum();
                let s = contract_score(
                    c,
                    contract.bid.level,
                    i32::from(contract.multiplier),
                    tricks,
                    self.team_scores[team],
                );
                result.team_delta[team] = s.declarers;
                result.team_delta[team.other()] = s.defenders;
                if s.instant_win {
                    result.instant_winner = Some(team);
                }
                for t in Team::ALL {
                    self.team_scores[t] += result.team_delta[t];
                }
            }
            RulesKind::Individual(i) => {
                let bids = BySeat(h.bids.0.map(|b| b.expect("a played hand has four bids")));
                let limit = i.slow_play.map_or(u8::MAX, |sp| sp.strikes);
                result.reneged = BySeat(h.strikes.0.map(|n| n >= limit));
                let s = individual_score(i, bids, h.tricks_won, result.reneged);
                result.seat_delta = s.delta;
                result.instant_winner = s.instant_winner;
                for seat in Seat::ALL {
                    self.seat_scores[seat] += s.delta[seat];
                }
            }
        }
        self.next_dealer = self.hand.dealer.next();
        self.finish_hand(result, applied);
    }

    fn end_hand_unplayed(&mut self, end: HandEnd, same_dealer: bool, applied: &mut Applied) {
        let result = HandResult {
            number: self.hand.number,
            dealer: self.hand.dealer,
            end,
            team_delta: ByTeam([0; 2]),
            seat_delta: BySeat([0; 4]),
            reneged: BySeat([false; 4]),
            instant_winner: None,
        };
        self.next_dealer = if same_dealer {
            self.hand.dealer
        } else {
            self.hand.dealer.next()
        };
        self.finish_hand(result, applied);
    }

    fn finish_hand(&mut self, result: HandResult, applied: &mut Applied) {
        applied.hand = Some(result);
        let (winner, reason) = if let Some(t) = result.instant_winner {
            (Some(t), EndReason::Instant)
        } else {
            let w = match self.rules.kind() {
                RulesKind::Contract(_) => contract_winner(self.rules.target, self.team_scores),
                RulesKind::Individual(i) => {
                    individual_winner(i, self.rules.target, self.seat_scores)
                }
            };
            (w, EndReason::Target)
        };
        if winner.is_some() {
            self.end(winner, reason, applied);
        } else if self.hands_dealt >= self.rules.max_hands {
            self.end(
                leader_at_cap(self.team_totals()),
                EndReason::HandCap,
                applied,
            );
        } else {
            self.phase = Phase::Deal;
        }
    }

    fn end(&mut self, winner: Option<Team>, reason: EndReason, applied: &mut Applied) {
        let r = GameResult {
            winner,
            reason,
            hands: self.hands_dealt,
        };
        self.result = Some(r);
        self.phase = Phase::Over;
        applied.game = Some(r);
    }

    /// The contract rules, for code that already knows the game is a contract game.
    pub fn contract_rules(&self) -> Option<&ContractRules> {
        self.rules.contract.as_ref()
    }

    pub fn individual_rules(&self) -> Option<&IndividualRules> {
        self.rules.individual.as_ref()
    }
}

fn describe(mv: Move) -> String {
    match mv {
        Move::ThrowIn => "throw in".to_string(),
        Move::Keep => "keep the hand".to_string(),
        Move::Call(c) => format!("call {c}"),
        Move::Trump(s) => format!("name trump {s}"),
        Move::Play(c) => format!("play {c}"),
    }
}

#[cfg(test)]
mod tests;
