//! Built-in players for the in-process simulator: uniformly random, and a simple greedy one.
//! They read only what a bot would be told (their own hand and public play).

use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg32;

use crate::rules::{
    Bid, Call, Card, CardSet, DecisionKind, Game, Level, Move, Rank, Seat, Strain, Suit,
};

/// The kinds of built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayerKind {
    /// A uniformly random legal move.
    Random,
    /// Bids from high cards and suit length, names its longest suit, wins tricks cheaply.
    Greedy,
}

/// A player's random number generator; each player gets its own stream from the game seed.
pub struct Player {
    kind: PlayerKind,
    rng: Pcg32,
}

impl Player {
    pub fn new(kind: PlayerKind, seed: u64) -> Player {
        Player {
            kind,
            rng: Pcg32::seed_from_u64(seed),
        }
    }

    /// Chooses a move for the seat to act; the game must be waiting for a decision.
    /// Inlined so that the simulator's loop calls the random player directly.
    #[inline]
    pub fn choose(&mut self, game: &Game) -> Move {
        match self.kind {
            PlayerKind::Random => random_move(game, &mut self.rng),
            PlayerKind::Greedy => {
                greedy_move(game).unwrap_or_else(|| random_move(game, &mut self.rng))
            }
        }
    }
}

/// A uniformly random legal move. Card play picks straight from the legal card set, without
/// building a move list (this is the simulator's hot path).
pub fn random_move(game: &Game, rng: &mut impl RngCore) -> Move {
    let d = game.decision().expect("a decision is pending");
    if d.kind == DecisionKind::Play {
        let cards = game.legal_cards();
        let i = below(rng, cards.len());
        return Move::Play(cards.nth(i).expect("index below len"));
    }
    let moves = game.legal_moves();
    moves.as_slice()[below(rng, moves.len() as u32) as usize]
}

/// A uniform integer in `0..n` (n > 0) from one 32-bit draw: Lemire's multiply-shift with
/// rejection. `rand`'s `gen_range` does the same multiply but recomputes its rejection zone
/// on every call; here the exact threshold (a division) is needed only when the low half of
/// the product falls below `n`, which for our n <= 48 happens about once in 10^8 draws.
fn below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n > 0, "a decision has at least one legal move");
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Rough playing strength: high-card points plus length beyond four cards.
fn strength(hand: CardSet) -> u32 {
    hand.high_card_points()
        + Suit::ALL
            .iter()
            .map(|&s| hand.count_suit(s).saturating_sub(4))
            .sum::<u32>()
}

fn longest_suit(hand: CardSet) -> Suit {
    *Suit::ALL
        .iter()
        .max_by_key(|&&s| (hand.count_suit(s), s))
        .expect("four suits")
}

fn greedy_move(game: &Game) -> Option<Move> {
    let d = game.decision()?;
    let h = game.hand();
    let hand = h.held[d.seat];
    let legal = game.legal_moves();
    match d.kind {
        DecisionKind::ThrowIn => Some(Move::ThrowIn),
        DecisionKind::Trump => {
            let s = longest_suit(hand);
            Some(Move::Trump(Strain::Trump(s)))
        }
        DecisionKind::Call if game.individual_rules().is_some() => {
            // Expected own tricks: aces, guarded kings, and trumps beyond three.
            let trump = game.individual_rules().map_or(Suit::Hearts, |i| i.trump);
            let mut est = 0;
            for s in Suit::ALL {
                est += u32::from(hand.has(Rank::Ace, s));
                est += u32::from(hand.has(Rank::King, s) && hand.count_suit(s) >= 2);
            }
            est += hand.count_suit(trump).saturating_sub(3);
            let want = Level::new(est.clamp(1, 13) as u8)?;
            legal
                .iter()
                .copied()
                .rfind(|m| matches!(m, Move::Call(Call::Bid(b)) if b.level <= want))
                .or_else(|| legal.iter().next().copied())
        }
        DecisionKind::Call => {
            // Team estimate: own strength in tricks plus what a partner usually brings.
            let est = 4 + strength(hand) / 4;
            let strain = Strain::Trump(longest_suit(hand));
            let bid_ok =
                |b: &Bid| u32::from(b.level.get()) <= est && b.strain.is_none_or(|s| s == strain);
            legal
                .iter()
                .copied()
                .find(|m| matches!(m, Move::Call(Call::Bid(b)) if bid_ok(b)))
                .or_else(|| {
                    legal
                        .contains(&Move::Call(Call::Pass))
                        .then_some(Move::Call(Call::Pass))
                })
                .or_else(|| legal.iter().next().copied())
        }
        DecisionKind::Play => Some(Move::Play(greedy_card(game, d.seat))),
    }
}

/// Wins the trick as cheaply as possible unless partner is already winning; else plays low.
fn greedy_card(game: &Game, seat: Seat) -> Card {
    let h = game.hand();
    let legal = game.legal_cards();
    let trump = h.trump.and_then(Strain::trump);
    let lowest = |set: CardSet| {
        set.iter()
            .min_by_key(|c| (Some(c.suit()) == trump, c.rank()))
            .expect("a legal card exists")
    };
    if h.trick.is_empty() {
        // Lead the highest card of the longest non-trump suit if it is an ace, else low.
        if let Some(ace) = legal
            .iter()
            .find(|c| c.rank() == Rank::Ace && Some(c.suit()) != trump)
        {
            return ace;
        }
        return lowest(legal);
    }
    let current = h.trick.winner(trump);
    if current.is_some_and(|w| w.team() == seat.team()) {
        return lowest(legal);
    }
    let winning: CardSet = legal
        .iter()
        .filter(|&c| {
            let mut t = h.trick;
            t.push(c);
            t.winner(trump) == Some(seat)
        })
        .collect();
    if winning.is_empty() {
        lowest(legal)
    } else {
        winning
            .iter()
            .min_by_key(|c| (Some(c.suit()) == trump, c.rank()))
            .expect("non-empty")
    }
}
