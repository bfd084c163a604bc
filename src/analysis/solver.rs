//! Double-dummy values of positions through DDS (Bo Haglund and Soren Hein's solver, via the
//! `dds-bridge` crate). The card play of all four games is bridge's (follow suit, a trump or
//! No Trump, the trick's winner leads), so DDS applies unchanged; the two things it does not
//! know, a trump named by the first lead and `trump-first-lead`, are handled here by solving
//! the position after each allowed lead instead.

use dds_bridge::{Board, CurrentTrick, FoundPlays, Objective, Target};

use super::dds_map::{card_from_dds, card_to_dds, hand_to_dds, holding_cards, seat_to_dds};
use super::dds_map::{strain_to_dds, suit_from_dds};
use super::position::{Position, PositionError};
use crate::rules::{Card, CardSet, Seat};

/// The double-dummy value of each legal card for the player on turn: the tricks his side takes
/// of the tricks left (the one on the table included) when he plays it and everyone plays
/// best afterwards. Sorted best first, then by card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardValues {
    pub seat: Seat,
    pub values: Vec<(Card, u8)>,
}

impl CardValues {
    /// The position's value: the best card's.
    pub fn best(&self) -> u8 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    pub fn value_of(&self, card: Card) -> Option<u8> {
        self.values
            .iter()
            .find(|&&(c, _)| c == card)
            .map(|&(_, v)| v)
    }

    /// Tricks that playing `card` gives away (0 for a best card).
    pub fn cost_of(&self, card: Card) -> Option<u8> {
        Some(self.best() - self.value_of(card)?)
    }

    /// The cards of best value.
    pub fn best_cards(&self) -> CardSet {
        let best = self.best();
        self.values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(c, _)| c)
            .collect()
    }
}

/// How one position is answered: by one DDS solve of all its legal cards, or (when DDS cannot
/// see the rule that binds the lead) by one solve of each allowed lead.
enum Plan {
    Direct,
    PerLead(Vec<Card>),
}

/// What a solve must find. DDS's cost grows with it: the best value alone is cheapest, the
/// exact value of every card dearest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// The value of every legal card.
    Values,
    /// The best cards and their value (the other cards are left out of [`CardValues`]).
    BestCards,
    /// The best value only (one best card in [`CardValues`]).
    Best,
}

/// Whether DDS might see the legal cards as one run of equal cards. It then skips the search
/// and reports no score unless asked for every card (`Target::Legal`), which the crate turns
/// into a panic. Cards of two suits are never one run, nor are cards with a card still held
/// by another seat between them; anything else is treated as possibly one run.
fn maybe_one_run(p: &Position) -> bool {
    let legal = p.legal_cards();
    let (Some(low), Some(high)) = (legal.lowest(), legal.highest()) else {
        return true;
    };
    if low.suit() != high.suit() {
        return false;
    }
    let others = Seat::ALL
        .iter()
        .filter(|&&s| s != p.to_play())
        .fold(CardSet::EMPTY, |acc, &s| acc.union(p.held[s]));
    !others
        .of_suit(low.suit())
        .iter()
        .any(|c| c.index() > low.index() && c.index() < high.index())
}

fn target(p: &Position, want: Want) -> Target {
    match want {
        _ if want == Want::Values || maybe_one_run(p) => Target::Legal,
        Want::BestCards => Target::All(None),
        _ => Target::Any(None),
    }
}

/// Whether DDS cannot see what binds the lead here (a trump the lead will name, a lead
/// restricted to trumps), so each allowed lead is solved on its own.
pub(super) fn needs_per_lead(p: &Position) -> bool {
    p.table.is_empty()
        && (p.trump.is_none()
            || p.must_lead
                .is_some_and(|s| !p.held[p.to_play()].of_suit(s).is_empty()))
}

fn plan(p: &Position) -> Plan {
    if needs_per_lead(p) {
        Plan::PerLead(p.legal_cards().iter().collect())
    } else {
        Plan::Direct
    }
}

pub(super) fn board(p: &Position) -> Result<Board, PositionError> {
    p.validate()?;
    let trump = p.trump.ok_or_else(|| {
        PositionError::Rejected(
            "no trump with cards on the table: the first card led names it".into(),
        )
    })?;
    let table: Vec<_> = p.table.plays().map(|(_, c)| card_to_dds(c)).collect();
    let trick = CurrentTrick::from_slice(strain_to_dds(trump), seat_to_dds(p.table.leader), &table)
        .map_err(|e| PositionError::Rejected(e.to_string()))?;
    let mut hands = contract_bridge::deal::Builder::new();
    for s in Seat::ALL {
        hands[seat_to_dds(s)] = hand_to_dds(p.held[s]);
    }
    let remaining = hands
        .build_partial()
        .map_err(|_| PositionError::Rejected("a card is held twice".into()))?;
    Board::try_new(remaining, trick).map_err(|e| PositionError::Rejected(e.to_string()))
}

fn expand(found: &FoundPlays) -> Vec<(Card, u8)> {
    let mut out = Vec::new();
    for play in &found.plays {
        let suit = suit_from_dds(play.card.suit);
        let score = play.score.get();
        out.extend(card_from_dds(play.card).map(|c| (c, score)));
        out.extend(holding_cards(suit, play.equals).iter().map(|c| (c, score)));
    }
    out
}

fn best_score(found: &FoundPlays) -> u8 {
    found
        .plays
        .iter()
        .map(|pl| pl.score.get())
        .max()
        .unwrap_or(0)
}

fn sorted(seat: Seat, mut values: Vec<(Card, u8)>) -> CardValues {
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    values.dedup();
    CardValues { seat, values }
}

/// The value of each legal card in every position, solved as one batch over all cores.
pub fn card_values_many(positions: &[Position]) -> Vec<Result<CardValues, PositionError>> {
    solve_many(positions, Want::Values)
}

/// Every position solved for `want`, as one batch over all cores.
pub fn solve_many(positions: &[Position], want: Want) -> Vec<Result<CardValues, PositionError>> {
    solve_batch(positions, &|_, p| target(p, want))
}

/// The best cards of each position whose best value for the player on turn is already known
/// (the analysis has it from the play analyser): DDS then searches only for cards reaching
/// that value, one null-window search each, instead of finding the value first. Each
/// position's [`CardValues`] holds its best cards at that value.
pub fn best_cards_many(positions: &[(Position, u8)]) -> Vec<Result<CardValues, PositionError>> {
    let ps: Vec<Position> = positions.iter().map(|(p, _)| p.clone()).collect();
    let known = |i: usize, p: &Position| -> Target {
        if maybe_one_run(p) {
            Target::Legal
        } else {
            // Every card reaches 0 tricks: DDS then lists them all without a search.
            Target::All(dds_bridge::TrickCount::try_new(positions[i].1).ok())
        }
    };
    solve_batch(&ps, &known)
        .into_iter()
        .zip(positions)
        .map(|(r, &(_, best))| {
            let v = r?;
            let cards = v.values.into_iter().filter(|&(_, s)| s >= best);
            Ok(sorted(v.seat, cards.map(|(c, _)| (c, best)).collect()))
        })
        .collect()
}

/// Every position solved for the target `target_of` gives it, as one batch over all cores.
fn solve_batch(
    positions: &[Position],
    target_of: &dyn Fn(usize, &Position) -> Target,
) -> Vec<Result<CardValues, PositionError>> {
    // First round: every direct position, and every position after an allowed lead.
    let mut objectives = Vec::new();
    let mut jobs: Vec<Result<(Plan, usize), PositionError>> = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        if p.tricks_left() == 0 {
            jobs.push(Err(PositionError::HandOver));
            continue;
        }
        let job = match plan(p) {
            Plan::Direct => board(p).map(|b| {
                objectives.push(Objective {
                    board: b,
                    target: target_of(i, p),
                });
                (Plan::Direct, objectives.len() - 1)
            }),
            Plan::PerLead(leads) => {
                let first = objectives.len();
                let mut r = Ok(());
                for &c in &leads {
                    let mut next = p.clone();
                    r = r.and(next.play(c).map(|_| ()));
                    match board(&next) {
                        Ok(b) => objectives.push(Objective {
                            board: b,
                            target: target(&next, Want::Best),
                        }),
                        Err(e) => r = Err(e),
                    }
                }
                r.map(|()| (Plan::PerLead(leads), first))
            }
        };
        jobs.push(job);
    }
    let found = dds_bridge::solve_boards(&objectives);
    positions
        .iter()
        .zip(jobs)
        .map(|(p, job)| {
            let (plan, at) = job?;
            let seat = p.to_play();
            Ok(match plan {
                Plan::Direct => sorted(seat, expand(&found[at])),
                Plan::PerLead(leads) => {
                    let left = p.tricks_left();
                    let values = leads
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| {
                            let theirs = best_score(&found[at + i]);
                            (c, left - theirs)
                        })
                        .collect();
                    sorted(seat, values)
                }
            })
        })
        .collect()
}

/// A DDS solver context of our own, for one thread's sequence of related positions (the
/// transposition table carries over between calls).
pub struct DdSolver {
    inner: dds_bridge::Solver,
}

impl Default for DdSolver {
    fn default() -> Self {
        DdSolver::new()
    }
}

impl DdSolver {
    pub fn new() -> DdSolver {
        DdSolver {
            inner: dds_bridge::Solver::default(),
        }
    }

    /// The value of each legal card for the player on turn.
    pub fn card_values(&mut self, p: &Position) -> Result<CardValues, PositionError> {
        if p.tricks_left() == 0 {
            return Err(PositionError::HandOver);
        }
        match plan(p) {
            Plan::Direct => {
                let found = self.inner.solve_board(&Objective {
                    board: board(p)?,
                    target: Target::Legal,
                });
                Ok(sorted(p.to_play(), expand(&found)))
            }
            Plan::PerLead(leads) => {
                let mut values = Vec::with_capacity(leads.len());
                for c in leads {
                    let mut next = p.clone();
                    next.play(c)?;
                    values.push((c, p.tricks_left() - self.tricks(&next)?));
                }
                Ok(sorted(p.to_play(), values))
            }
        }
    }

    /// The tricks the side on turn takes of the tricks left, with best play by all.
    pub fn tricks(&mut self, p: &Position) -> Result<u8, PositionError> {
        if p.tricks_left() == 0 {
            return Ok(0);
        }
        match plan(p) {
            Plan::Direct => {
                let found = self.inner.solve_board(&Objective {
                    board: board(p)?,
                    target: target(p, Want::Best),
                });
                Ok(best_score(&found))
            }
            Plan::PerLead(_) => Ok(self.card_values(p)?.best()),
        }
    }
}
