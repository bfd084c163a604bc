//! Double-dummy analysis of a verified game record: for every hand played out, the tricks the
//! declaring side could take with best play (the par of the play), what each card played cost
//! its side, and (contract games) what each trump would have made for the declarer.

use serde::Serialize;

use super::position::{Position, PositionError};
use super::solver::{solve_many, CardValues, Want};
use crate::record::verified::{VerifiedGame, VerifiedHand};
use crate::rules::{BidForm, BySeat, Card, CardSet, Seat, Strain, Team, TrumpChoice};

/// One card played, and what double-dummy play says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardVerdict {
    /// 1 to 13.
    pub trick: u8,
    pub seat: Seat,
    pub card: Card,
    /// Tricks this card gave away to the other side (0 for a best card).
    pub cost: u8,
    /// The best cards here when the card played cost tricks. When it cost nothing this holds
    /// the card played and maybe not every other best card (only the value was solved for).
    pub best: CardSet,
    /// The declaring side's double-dummy tricks for the whole hand after this card.
    pub side_tricks_after: u8,
}

/// Tricks the declarer's side makes double-dummy with each trump, the declarer leading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrainTricks {
    pub strain: Strain,
    pub tricks: u8,
}

/// One hand played out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandAnalysis {
    pub number: u32,
    /// The declarer's team (contract games) or the first leader's (400, Forty-One).
    pub side: Team,
    /// The side's double-dummy tricks at the start of the play.
    pub par: u8,
    /// The tricks the side took.
    pub taken: u8,
    pub cards: Vec<CardVerdict>,
    /// Contract games: what each trump would have made for the declarer (empty otherwise).
    pub strains: Vec<StrainTricks>,
}

/// Card-play accuracy of one seat (or of a whole game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Accuracy {
    pub cards: u32,
    /// Cards that were among the best.
    pub best: u32,
    /// Tricks given away, summed over the cards.
    pub tricks_lost: u32,
    pub best_share: f64,
    /// Tricks lost per hand played out.
    pub lost_per_hand: f64,
}

impl Accuracy {
    fn add(&mut self, cost: u8) {
        self.cards += 1;
        self.best += u32::from(cost == 0);
        self.tricks_lost += u32::from(cost);
    }

    fn finish(&mut self, hands: usize) {
        self.best_share = if self.cards == 0 {
            0.0
        } else {
            f64::from(self.best) / f64::from(self.cards)
        };
        self.lost_per_hand = if hands == 0 {
            0.0
        } else {
            f64::from(self.tricks_lost) / hands as f64
        };
    }
}

/// The whole game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    pub hands: Vec<HandAnalysis>,
    pub seats: BySeat<Accuracy>,
    pub game: Accuracy,
}

/// Why a game cannot be analysed (a verified record always can; this guards the FFI).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hand {hand}: {problem}")]
pub struct AnalysisError {
    pub hand: u32,
    pub problem: PositionError,
}

/// The start of the play of a hand played out: the leader, the trump as the play knows it
/// (`None` when the first lead names it) and any first-lead restriction.
fn start(g: &VerifiedGame, h: &VerifiedHand) -> Option<Position> {
    let first = h.tricks.first()?;
    if h.tricks.len() != 13 {
        return None;
    }
    let mut trump = h.trump;
    let mut must_lead = None;
    if let Some(c) = &g.header.rules.contract {
        if c.trump == TrumpChoice::FirstLead && c.bids == BidForm::Numbers {
            trump = None;
        }
        if c.trump_first_lead {
            must_lead = h.trump.and_then(Strain::trump);
        }
    }
    let mut p = Position::new(h.hands, trump, first.leader);
    p.must_lead = must_lead;
    Some(p)
}

fn side_of(h: &VerifiedHand, leader: Seat) -> Team {
    h.contract
        .as_ref()
        .map_or(leader.team(), |c| c.declarer.team())
}

/// One hand's place in the batch of positions.
struct Plan {
    hand: u32,
    side: Team,
    /// The index of the hand's first position; card `k` was played at `first + k`.
    first: usize,
    /// `(trick number, card)` in the order played.
    cards: Vec<(u8, Card)>,
    /// The strain table's positions.
    strains: Vec<(Strain, usize)>,
    winners: Vec<Seat>,
}

type Solved = Vec<Result<CardValues, PositionError>>;

fn value(solved: &Solved, i: usize, hand: u32) -> Result<&CardValues, AnalysisError> {
    solved[i].as_ref().map_err(|e| AnalysisError {
        hand,
        problem: e.clone(),
    })
}

/// The side's double-dummy total for the whole hand at each position (the tricks it has won,
/// plus its share of the rest with best play), then the tricks it took. A card's cost is how
/// far it moved the total against its own side.
fn totals(plan: &Plan, positions: &[Position], solved: &Solved) -> Result<Vec<u8>, AnalysisError> {
    let won_before = |k: usize| -> u8 {
        plan.winners[..k / 4]
            .iter()
            .filter(|w| w.team() == plan.side)
            .count() as u8
    };
    let mut totals = Vec::with_capacity(53);
    for k in 0..plan.cards.len() {
        let v = value(solved, plan.first + k, plan.hand)?;
        let left = positions[plan.first + k].tricks_left();
        let share = if v.seat.team() == plan.side {
            v.best()
        } else {
            left - v.best()
        };
        totals.push(won_before(k) + share);
    }
    totals.push(won_before(4 * plan.winners.len()));
    Ok(totals)
}

/// The tricks card `k` gave away; `None` if it would beat best play (a solver fault).
fn cost(plan: &Plan, totals: &[u8], seat: Seat, k: usize) -> Option<u8> {
    let (before, after) = (totals[k], totals[k + 1]);
    if seat.team() == plan.side {
        before.checked_sub(after)
    } else {
        after.checked_sub(before)
    }
}

/// Every position of every hand played out, solved as one batch.
pub fn analyse_game(g: &VerifiedGame) -> Result<GameAnalysis, AnalysisError> {
    let mut positions = Vec::new();
    let mut plans = Vec::new();
    for h in &g.hands {
        let Some(mut p) = start(g, h) else { continue };
        let side = side_of(h, p.table.leader);
        let first = positions.len();
        let mut cards = Vec::with_capacity(52);
        for t in &h.tricks {
            for &c in &t.cards {
                positions.push(p.clone());
                cards.push((t.number, c));
                p.play(c).map_err(|problem| AnalysisError {
                    hand: h.number,
                    problem,
                })?;
            }
        }
        let mut strains = Vec::new();
        if let (Some(c), Some(contract)) = (&g.header.rules.contract, &h.contract) {
            for strain in Strain::ALL {
                if strain == Strain::NoTrump && !(c.no_trump || c.bids == BidForm::Strains) {
                    continue;
                }
                let mut q = Position::new(h.hands, Some(strain), contract.declarer);
                q.must_lead = strain.trump().filter(|_| c.trump_first_lead);
                strains.push((strain, positions.len()));
                positions.push(q);
            }
        }
        plans.push(Plan {
            hand: h.number,
            side,
            first,
            cards,
            strains,
            winners: h.tricks.iter().map(|t| t.winner).collect(),
        });
    }
    // Best values alone fix every total and so every cost; the best cards are asked again
    // only where a card cost something (a solve for the best value is the cheapest).
    let mut solved = solve_many(&positions, Want::Best);
    let mut costly = Vec::new();
    for plan in &plans {
        let totals = totals(plan, &positions, &solved)?;
        for k in 0..plan.cards.len() {
            let seat = positions[plan.first + k].to_play();
            if cost(plan, &totals, seat, k) != Some(0) {
                costly.push(plan.first + k);
            }
        }
    }
    let picked: Vec<Position> = costly.iter().map(|&i| positions[i].clone()).collect();
    for (i, r) in costly.into_iter().zip(solve_many(&picked, Want::BestCards)) {
        solved[i] = r;
    }
    let mut seats = BySeat([Accuracy::default(); 4]);
    let mut game = Accuracy::default();
    let mut hands = Vec::with_capacity(plans.len());
    for plan in plans {
        let totals = totals(&plan, &positions, &solved)?;
        let mut verdicts = Vec::with_capacity(52);
        for (k, &(trick, card)) in plan.cards.iter().enumerate() {
            let v = value(&solved, plan.first + k, plan.hand)?;
            let after = totals[k + 1];
            // Double-dummy play never gains on best play: a negative cost is a solver fault.
            let cost = cost(&plan, &totals, v.seat, k).ok_or_else(|| AnalysisError {
                hand: plan.hand,
                problem: PositionError::Rejected(format!(
                    "{card} of seat {} would beat best play",
                    v.seat
                )),
            })?;
            seats[v.seat].add(cost);
            game.add(cost);
            verdicts.push(CardVerdict {
                trick,
                seat: v.seat,
                card,
                cost,
                // Where the card cost nothing only its value was asked: it is a best card.
                best: if cost == 0 {
                    v.best_cards().union(CardSet::from_iter([card]))
                } else {
                    v.best_cards()
                },
                side_tricks_after: after,
            });
        }
        let strains = plan
            .strains
            .iter()
            .map(|&(strain, at)| {
                Ok(StrainTricks {
                    strain,
                    tricks: value(&solved, at, plan.hand)?.best(),
                })
            })
            .collect::<Result<Vec<_>, AnalysisError>>()?;
        hands.push(HandAnalysis {
            number: plan.hand,
            side: plan.side,
            par: totals[0],
            taken: totals[totals.len() - 1],
            cards: verdicts,
            strains,
        });
    }
    let played = hands.len();
    for s in Seat::ALL {
        seats[s].finish(played);
    }
    game.finish(played);
    Ok(GameAnalysis { hands, seats, game })
}
