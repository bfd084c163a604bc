//! Answers without solving, for when double-dummy solving cannot finish inside the move's
//! budget (a first deal can take DDS seconds on a loaded machine): bids and trumps by the
//! hand estimate of [`infer`](super::infer), cards by winning the trick cheaply.

use crate::rules::{Call, Card, CardSet, Move, Rules, Seat, Strain, Suit, Trick};

use super::infer::estimate;
use super::wire::ViewIn;

/// A legal move from `legal` (never empty) by quick rules of thumb.
pub fn answer(rules: &Rules, view: &ViewIn, legal: &[Move]) -> Move {
    let hand: CardSet = view.hand.iter().copied().collect();
    let best_strain = |strains: &mut dyn Iterator<Item = Strain>| {
        strains.max_by(|&a, &b| estimate(hand, a).total_cmp(&estimate(hand, b)))
    };
    let trumps = legal.iter().filter_map(|m| match m {
        Move::Trump(s) => Some(*s),
        _ => None,
    });
    if let Some(s) = best_strain(&mut trumps.clone()) {
        return Move::Trump(s);
    }
    let bids: Vec<(Move, u8, Option<Strain>)> = legal
        .iter()
        .filter_map(|&m| match m {
            Move::Call(Call::Bid(b)) => Some((m, b.level.get(), b.strain)),
            _ => None,
        })
        .collect();
    let cards: Vec<Card> = legal
        .iter()
        .filter_map(|m| match m {
            Move::Play(c) => Some(*c),
            _ => None,
        })
        .collect();
    if let Some(ind) = &rules.individual {
        let mine = estimate(hand, Strain::Trump(ind.trump));
        if let Some(&(m, _, _)) = bids.iter().min_by(|a, b| {
            (f64::from(a.1) - mine)
                .abs()
                .total_cmp(&(f64::from(b.1) - mine).abs())
        }) {
            return m;
        }
    } else if !bids.is_empty() {
        // The side's tricks: my estimate and a partner's usual share.
        let team = |s: Option<Strain>| {
            let strain = s.or_else(|| best_strain(&mut Suit::ALL.into_iter().map(Strain::Trump)));
            strain.map_or(0.0, |s| estimate(hand, s)) + 3.0
        };
        let makes = bids
            .iter()
            .filter(|&&(_, level, s)| f64::from(level) <= team(s) - 0.5)
            .min_by_key(|&&(_, level, _)| level);
        let pass = Move::Call(Call::Pass);
        return match makes {
            Some(&(m, _, _)) => m,
            None if legal.contains(&pass) => pass,
            None => bids.iter().min_by_key(|b| b.1).map_or(legal[0], |b| b.0),
        };
    }
    if !cards.is_empty() {
        return Move::Play(card(view, &cards));
    }
    if legal.contains(&Move::Keep) {
        return Move::Keep;
    }
    legal[0]
}

/// The cheapest card that wins the trick for my side, else the cheapest card.
fn card(view: &ViewIn, legal: &[Card]) -> Card {
    let trump = view.trump.as_deref().and_then(|t| {
        let mut c = t.chars();
        c.next()
            .and_then(Suit::from_letter)
            .filter(|_| t.len() == 1)
    });
    let cost = |c: &Card| (trump == Some(c.suit()), c.rank() as u8);
    let cheapest = *legal.iter().min_by_key(|c| cost(c)).unwrap_or(&legal[0]);
    let Some(t) = view.current_trick.as_ref().filter(|t| !t.cards.is_empty()) else {
        return cheapest;
    };
    let me: Seat = view.seat;
    let mut trick = Trick::new(t.leader);
    for &c in &t.cards {
        trick.push(c);
    }
    if trick.winner(trump) == Some(me.partner()) {
        return cheapest;
    }
    legal
        .iter()
        .filter(|&&c| {
            let mut after = trick;
            after.push(c);
            after.winner(trump) == Some(me)
        })
        .min_by_key(|c| cost(c))
        .copied()
        .unwrap_or(cheapest)
}
