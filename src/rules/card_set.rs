//! A set of cards as a 52-bit mask: hands, played cards and legal plays cost one `u64`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::{Card, Rank, Suit};

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = (1 << 13) - 1;

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const FULL: CardSet = CardSet((1 << 52) - 1);

    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Only the low 52 bits are kept, so no set can hold a card that does not exist.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & ((1 << 52) - 1))
    }

    pub const fn suit(s: Suit) -> CardSet {
        CardSet(SUIT_MASK << (s as u64 * 13))
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, c: Card) -> bool {
        self.0 & (1 << c.index()) != 0
    }

    pub fn insert(&mut self, c: Card) {
        self.0 |= 1 << c.index();
    }

    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1 << c.index());
    }

    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    pub const fn of_suit(self, s: Suit) -> CardSet {
        self.intersect(CardSet::suit(s))
    }

    pub const fn count_suit(self, s: Suit) -> u32 {
        self.of_suit(s).len()
    }

    /// The lowest card (clubs first, then by rank); `None` when empty.
    pub fn lowest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(self.0.trailing_zeros() as u8)
        }
    }

    pub fn highest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(63 - self.0.leading_zeros() as u8)
        }
    }

    /// The `n`-th card in index order (0-based); used to pick a uniformly random card without
    /// building a list.
    pub fn nth(self, n: u32) -> Option<Card> {
        // Skip whole suits by popcount, then clear low bits within the suit.
        let mut n = n;
        for suit in 0..4 {
            let part = (self.0 >> (suit * 13)) & SUIT_MASK;
            let count = part.count_ones();
            if n < count {
                let mut bits = part;
                for _ in 0..n {
                    bits &= bits - 1;
                }
                return Card::from_index((suit * 13 + bits.trailing_zeros() as u64) as u8);
            }
            n -= count;
        }
        None
    }

    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    pub fn high_card_points(self) -> u32 {
        self.iter().map(|c| c.rank().high_card_points()).sum()
    }

    pub fn has(self, rank: Rank, suit: Suit) -> bool {
        self.contains(Card::new(rank, suit))
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Card::from_index(i as u8)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

/// Shown as its cards, highest suit first and high to low within a suit, as players sort them.
impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in self.display_order() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl CardSet {
    /// Spades, hearts, diamonds, clubs; ace first within each suit.
    pub fn display_order(self) -> impl Iterator<Item = Card> {
        let bits = self.0;
        (0..52u8)
            .rev()
            .filter(move |i| bits & (1 << i) != 0)
            .filter_map(Card::from_index)
    }
}

/// On the wire a set is a list of card strings, in display order.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.display_order())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let mut set = CardSet::EMPTY;
        for c in cards {
            if set.contains(c) {
                return Err(serde::de::Error::custom(format!(
                    "card {c} appears twice in one list"
                )));
            }
            set.insert(c);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = CardSet::EMPTY;
        let a = "AS".parse().unwrap();
        let two = "2C".parse().unwrap();
        s.insert(a);
        s.insert(two);
        assert_eq!(s.len(), 2);
        assert_eq!(s.lowest(), Some(two));
        assert_eq!(s.highest(), Some(a));
        assert_eq!(s.nth(1), Some(a));
        assert_eq!(s.nth(2), None);
        assert_eq!(s.count_suit(Suit::Spades), 1);
        s.remove(a);
        assert!(!s.contains(a));
        assert_eq!(CardSet::FULL.len(), 52);
        assert_eq!(CardSet::from_bits(u64::MAX), CardSet::FULL);
        for suit in Suit::ALL {
            assert_eq!(CardSet::suit(suit).len(), 13);
            assert!(CardSet::suit(suit).iter().all(|c| c.suit() == suit));
        }
    }

    #[test]
    fn display_is_high_first() {
        let s: CardSet = ["2C", "AS", "TH"]
            .iter()
            .map(|t| t.parse::<Card>().unwrap())
            .collect();
        assert_eq!(s.to_string(), "AS TH 2C");
    }
}
