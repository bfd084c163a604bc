//! Deals of the cards a player cannot see that agree with everything public: the cards
//! already played, each seat's number of cards, and the suits a seat has shown out of.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::rules::{BySeat, Card, CardSet, Seat, Suit};

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
}

impl Knowledge {
    /// Marks `seat` out of `suit` (it did not follow to a lead of that suit).
    pub fn show_out(&mut self, seat: Seat, suit: Suit) {
        self.void[seat] |= 1 << suit.index();
    }

    fn may_hold(&self, seat: Seat, c: Card) -> bool {
        self.void[seat] & (1 << c.suit().index()) == 0
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
}
