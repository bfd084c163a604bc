//! Deals carried from one card decision to the next of the same hand, as a particle filter
//! (issue 28: "samples carried from move to move and re-weighted by what was seen").
//!
//! The deals a decision used were drawn from the posterior of that moment: uniform over the
//! deals that agree with the public play, times the auction's and the play's weights
//! ([`Knowledge::log_weight`]). The next decision's posterior is that one times what was seen
//! since: zero for a deal a card since played contradicts (the seat did not hold it, or it
//! held a card of a suit it has since shown out of), and the likelihood of the new ducks
//! ([`read_play`](super::read_play)) otherwise. So a deal that agrees is kept with
//! probability its new weight over the old one, the new ducks' likelihoods, at most 1
//! (rejection sampling with the old posterior as the envelope; taking the survivors' largest
//! ratio as the envelope instead would keep a lone survivor whatever it showed), and the kept
//! deals are again draws from the posterior, each at most once: no deal is solved twice in a
//! decision unless it was drawn twice.
//!
//! Each card played by another seat since the last decision was in that seat's hand in only
//! about a third of the deals, so a trick keeps about 1 in 27 of them (fewer than that when a
//! seat shows out): carrying saves drawing a few deals, it cannot replace the drawing.

use rand::Rng;

use super::sample::Knowledge;
use super::wire::ViewIn;
use crate::rules::{BySeat, Card, CardSet, Seat, Suit};

/// One deal of the unseen cards: each seat's cards held now (mine included).
pub type Deal = BySeat<CardSet>;

/// Most deals kept from one decision for the next (the first tricks use a handful, the last
/// ones a few dozen: this bounds the memory and the checking, not the usual case).
pub const KEEP: usize = 512;

/// Where a hand stands for one seat: what makes two requests the same hand, and the cards
/// played in it so far, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    seat: Seat,
    dealer: Seat,
    trump: Option<String>,
    /// My hand as dealt: what I hold and what I have played.
    dealt: CardSet,
    play: Vec<(Seat, Card)>,
}

impl Moment {
    pub fn of(view: &ViewIn) -> Moment {
        let tricks = view.tricks.iter().chain(view.current_trick.iter());
        let play: Vec<(Seat, Card)> = tricks
            .flat_map(|t| {
                t.cards
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (t.leader.plus(i), c))
            })
            .collect();
        let mut dealt: CardSet = view.hand.iter().copied().collect();
        for &(s, c) in &play {
            if s == view.seat {
                dealt.insert(c);
            }
        }
        Moment {
            seat: view.seat,
            dealer: view.dealer,
            trump: view.trump.clone(),
            dealt,
            play,
        }
    }

    /// Whether `self` is a later moment of the same hand as `earlier` (or the same moment):
    /// the same seat, dealer, trump and hand as dealt, and the play so far extends the earlier
    /// one. Anything else (a new hand, a new game, a play that went back) resets the carrying.
    pub fn follows(&self, earlier: &Moment) -> bool {
        self.seat == earlier.seat
            && self.dealer == earlier.dealer
            && self.trump == earlier.trump
            && self.dealt == earlier.dealt
            && self.play.starts_with(&earlier.play)
    }
}

/// The deals one decision used (or was given), kept for the next: each as dealt (held then
/// plus played by then, so that later play can be checked against it) with its log weight
/// under that decision's knowledge.
#[derive(Clone, Debug)]
pub struct Particles {
    at: Moment,
    deals: Vec<(Deal, f64)>,
}

impl Particles {
    /// Keeps up to [`KEEP`] of `deals` (held hands, drawn under `k` at `at`).
    pub fn keep(at: Moment, k: &Knowledge, deals: &[Deal]) -> Particles {
        let deals = deals
            .iter()
            .take(KEEP)
            .map(|h| {
                let dealt = BySeat(Seat::ALL.map(|s| h[s].union(k.played[s])));
                (dealt, k.log_weight(h))
            })
            .collect();
        Particles { at, deals }
    }

    pub fn len(&self) -> usize {
        self.deals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.deals.is_empty()
    }

    /// The deals still possible at `now` under `k`, as held now, each kept with probability
    /// its weight now over its weight when drawn (see the module's notes), in their order.
    /// None if `now` is not a later moment of the same hand.
    pub fn carry(&self, now: &Moment, k: &Knowledge, rng: &mut impl Rng) -> Vec<Deal> {
        if !now.follows(&self.at) {
            return Vec::new();
        }
        self.deals
            .iter()
            .filter_map(|(dealt, before)| {
                let held = held_now(dealt, k)?;
                let ratio = (k.log_weight(&held) - before).exp();
                (rng.gen::<f64>() < ratio).then_some(held)
            })
            .collect()
    }
}

/// A dealt deal's hands now, if it agrees with `k`: every seat played only cards it was dealt,
/// I hold my hand, and each other seat holds its count of unseen cards and none of a suit it
/// showed out of (the exact sampler's support, [`DealCounter`](super::deal_count::DealCounter)).
pub fn held_now(dealt: &Deal, k: &Knowledge) -> Option<Deal> {
    let mut held = *dealt;
    for s in Seat::ALL {
        if !k.played[s].minus(dealt[s]).is_empty() {
            return None;
        }
        held[s] = dealt[s].minus(k.played[s]);
        let fits = if s == k.me {
            held[s] == k.mine
        } else {
            let void = Suit::ALL
                .into_iter()
                .filter(|x| k.void[s] & (1 << x.index()) != 0)
                .fold(CardSet::EMPTY, |v, x| v.union(CardSet::suit(x)));
            held[s].minus(k.unseen).is_empty()
                && held[s].len() == k.counts[s]
                && held[s].intersect(void).is_empty()
        };
        if !fits {
            return None;
        }
    }
    Some(held)
}

/// A decision's stream of deals: carried and fresh ones in turn, carried first, while carried
/// ones last, then fresh ones only. So at most about half of a decision's deals are carried:
/// the fresh half keeps a decision from resting on the few deals an early draw happened to
/// give (the deals drawn at trick 1 by resampling 64 candidates lean a little towards the
/// likelier ones, and carried deals would keep that lean all hand).
#[derive(Debug, Default)]
pub struct Mix {
    carried: Vec<Deal>,
    /// How many of `carried` were handed out.
    given: usize,
    fresh: Vec<Deal>,
    fresh_next: bool,
}

impl Mix {
    pub fn new(carried: Vec<Deal>) -> Mix {
        Mix {
            carried,
            ..Mix::default()
        }
    }

    /// The next deal: a carried one on its turn while any is left, else `draw()`'s.
    pub fn next(&mut self, draw: impl FnOnce() -> Option<Deal>) -> Option<Deal> {
        let turn = !self.fresh_next;
        self.fresh_next = !self.fresh_next;
        if turn {
            if let Some(&d) = self.carried.get(self.given) {
                self.given += 1;
                return Some(d);
            }
        }
        let d = draw()?;
        self.fresh.push(d);
        Some(d)
    }

    /// How many carried deals were handed out.
    pub fn carried_used(&self) -> usize {
        self.given
    }

    /// The deals for the next decision: every carried deal (those not reached are draws from
    /// this posterior as much as the others), then the fresh ones used.
    pub fn deals(&self) -> Vec<Deal> {
        self.carried.iter().chain(&self.fresh).copied().collect()
    }
}

#[cfg(test)]
#[path = "carry_tests.rs"]
mod tests;
