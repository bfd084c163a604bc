//! Deals of the cards a player cannot see that agree with everything public: the cards
//! already played, each seat's number of cards, and the suits a seat has shown out of; and,
//! softly, the auction (see [`infer`](super::infer)): deals far from what a seat's calls said
//! are mostly turned down.

use rand::seq::SliceRandom;
use rand::Rng;

use super::infer::Clue;
use crate::rules::{BySeat, Card, CardSet, Seat, Suit};

/// Candidate deals tried for one that fits the auction before the best-fitting one is taken
/// instead (a bound on the time a sample can cost, however tight or contradictory the clues).
pub const TRIES: usize = 64;

/// How sharply a deal is turned down for each estimated trick it lies from the auction: a
/// deal `d` tricks away is kept with probability `exp(-d^2 / (2 SPREAD^2))`.
const SPREAD: f64 = 1.0;

/// What a seat knows about the other hands.
#[derive(Clone, Debug)]
pub struct Knowledge {
    pub me: Seat,
    pub mine: CardSet,
    /// Cards not in my hand and not played: the ones to deal out.
    pub unseen: CardSet,
    /// How many of them each other seat holds.
    pub counts: BySeat<u32>,
    /// Suits each seat is known to be out of (a bit per suit).
    pub void: BySeat<u8>,
    /// Cards each seat has played this hand (with its unseen cards, its hand as dealt, which
    /// is what its calls described).
    pub played: BySeat<CardSet>,
    /// What the auction said about the other seats' hands.
    pub clues: Vec<Clue>,
}

impl Knowledge {
    /// Marks `seat` out of `suit` (it did not follow to a lead of that suit).
    pub fn show_out(&mut self, seat: Seat, suit: Suit) {
        self.void[seat] |= 1 << suit.index();
    }

    fn may_hold(&self, seat: Seat, c: Card) -> bool {
        self.void[seat] & (1 << c.suit().index()) == 0
    }

    /// One deal that agrees with the public play, drawn in proportion to how well it fits the
    /// auction: candidates are kept with a probability falling with their distance from the
    /// calls, and after [`TRIES`] refusals the closest candidate is taken. `None` only if the
    /// public play is contradictory.
    pub fn sample_fitting(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        if self.clues.is_empty() {
            return self.sample(rng);
        }
        let mut best: Option<(f64, BySeat<CardSet>)> = None;
        for _ in 0..TRIES {
            let hands = self.sample(rng)?;
            let d = self.distance(&hands);
            let keep = (-(d * d) / (2.0 * SPREAD * SPREAD)).exp();
            if rng.gen::<f64>() < keep {
                return Some(hands);
            }
            if best.as_ref().is_none_or(|(b, _)| d < *b) {
                best = Some((d, hands));
            }
        }
        best.map(|(_, h)| h)
    }

    /// How far a deal lies from the auction: each clue's distance for its seat's dealt hand.
    pub fn distance(&self, hands: &BySeat<CardSet>) -> f64 {
        self.clues
            .iter()
            .map(|c| c.distance(hands[c.seat].union(self.played[c.seat])))
            .sum()
    }

    /// One deal of the unseen cards, uniform enough for sampling: cards with the fewest
    /// possible holders are placed first, each with a seat drawn in proportion to its room.
    /// `None` after many failed tries (only if the knowledge is contradictory).
    pub fn sample(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != self.me).collect();
        let mut cards: Vec<Card> = self.unseen.iter().collect();
        for _ in 0..200 {
            cards.shuffle(rng);
            cards.sort_by_key(|&c| others.iter().filter(|&&s| self.may_hold(s, c)).count());
            let mut room = self.counts;
            let mut hands = BySeat([CardSet::EMPTY; 4]);
            hands[self.me] = self.mine;
            let mut ok = true;
            for &c in &cards {
                let total: u32 = others
                    .iter()
                    .filter(|&&s| self.may_hold(s, c))
                    .map(|&s| room[s])
                    .sum();
                if total == 0 {
                    ok = false;
                    break;
                }
                let mut pick = rng.gen_range(0..total);
                for &s in &others {
                    if !self.may_hold(s, c) {
                        continue;
                    }
                    if pick < room[s] {
                        hands[s].insert(c);
                        room[s] -= 1;
                        break;
                    }
                    pick -= room[s];
                }
            }
            if ok {
                return Some(hands);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn samples_respect_counts_and_voids() {
        let mut deck: Vec<Card> = Card::all().collect();
        let mut rng = Pcg64::seed_from_u64(1);
        deck.shuffle(&mut rng);
        let mine: CardSet = deck[..5].iter().copied().collect();
        let unseen: CardSet = deck[5..20].iter().copied().collect();
        let mut k = Knowledge {
            me: Seat::S2,
            mine,
            unseen,
            counts: BySeat([5, 5, 0, 5]),
            void: BySeat([0; 4]),
            played: BySeat([CardSet::EMPTY; 4]),
            clues: Vec::new(),
        };
        // Seat 1 is out of the suit of the first unseen card, if seats 0 and 3 can take them.
        let suit = unseen.iter().next().unwrap().suit();
        if unseen.of_suit(suit).len() <= 10 {
            k.show_out(Seat::S1, suit);
        }
        for _ in 0..200 {
            let h = k.sample(&mut rng).expect("a consistent deal exists");
            assert_eq!(h[Seat::S2], mine);
            for s in [Seat::S0, Seat::S1, Seat::S3] {
                assert_eq!(h[s].len(), 5);
                assert!(h[s].minus(unseen).is_empty());
                if k.void[s] != 0 {
                    assert!(h[s].of_suit(suit).is_empty());
                }
            }
        }
    }

    #[test]
    fn samples_lean_towards_what_the_auction_said() {
        use crate::pimc::infer::estimate;
        use crate::rules::Strain;
        let mut deck: Vec<Card> = Card::all().collect();
        let mut rng = Pcg64::seed_from_u64(3);
        deck.shuffle(&mut rng);
        let mine: CardSet = deck[..13].iter().copied().collect();
        let spades = Strain::Trump(Suit::Spades);
        let mut k = Knowledge {
            me: Seat::S0,
            mine,
            unseen: CardSet::FULL.minus(mine),
            counts: BySeat([0, 13, 13, 13]),
            void: BySeat([0; 4]),
            played: BySeat([CardSet::EMPTY; 4]),
            clues: Vec::new(),
        };
        let mean = |k: &Knowledge, rng: &mut Pcg64, seat: Seat| {
            let n = 400;
            let sum: f64 = (0..n)
                .map(|_| estimate(k.sample_fitting(rng).unwrap()[seat], spades))
                .sum();
            sum / f64::from(n)
        };
        let free = mean(&k, &mut rng, Seat::S1);
        // Seat 1 bid spades at a level saying "6 tricks alone, 4+ spades"; seat 3 passed.
        k.clues = vec![
            Clue {
                seat: Seat::S1,
                strain: Some(spades),
                low: Some(6.0),
                high: None,
                long: Some((Suit::Spades, 4)),
            },
            Clue {
                seat: Seat::S3,
                strain: None,
                low: None,
                high: Some(2.0),
                long: None,
            },
        ];
        let bid = mean(&k, &mut rng, Seat::S1);
        let passed = mean(&k, &mut rng, Seat::S3);
        assert!(bid > free + 2.0, "bidder {bid:.2}, unconstrained {free:.2}");
        assert!(passed < free, "passer {passed:.2}, unconstrained {free:.2}");
        // Impossible clues cost bounded time and still give a deal of the right shape.
        k.clues[0].low = Some(40.0);
        let h = k.sample_fitting(&mut rng).unwrap();
        assert_eq!(h[Seat::S1].len(), 13);
    }
}
