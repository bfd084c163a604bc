//! A set of cards as a 52-bit mask: hands, played cards and legal plays cost one `u64`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::{Card, Rank, Suit};

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = (1 << 13) - 1;

/// `SELECT_IN_BYTE[b][k]`: the position of the `k`-th set bit of byte `b` (8 where there is
/// none), for [`CardSet::nth`].
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

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
    ///
    /// This is the random player's inner loop, and `n` is random, so it avoids data-dependent
    /// branches (each would be mispredicted about half the time): a broadword select (Vigna,
    /// "Broadword implementation of rank/select queries", 2008) finds the byte holding the card
    /// with a few multiplies and one popcount, then a 2 KiB table gives the bit within the byte.
    /// BMI2's `pdep` would do it in one instruction, but x86-64-v2 does not guarantee BMI2.
    pub fn nth(self, n: u32) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let x = self.0;
        // Popcount of each byte, then (multiplying by ONES) running totals: byte i of
        // `through` counts the cards in bytes 0..=i. At most 52 < 128, so no byte overflows.
        let mut bytes = x - ((x >> 1) & 0x5555_5555_5555_5555);
        bytes = (bytes & 0x3333_3333_3333_3333) + ((bytes >> 2) & 0x3333_3333_3333_3333);
        bytes = (bytes + (bytes >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        let through = bytes.wrapping_mul(ONES);
        // Byte i of `(n | 128) - through_i` keeps its high bit iff through_i <= n (no borrows:
        // every byte stays positive), so counting those bytes gives the byte holding card n.
        let below = ((u64::from(n) * ONES) | HIGHS) - through;
        let shift = (below & HIGHS).count_ones() * 8;
        // Cards in the bytes before that one, and which of the byte's own cards is wanted.
        let before = ((through << 8) >> shift) & 0xFF;
        let rank_in_byte = u64::from(n) - before;
        let byte = (x >> shift) & 0xFF;
        let bit = shift + u32::from(SELECT_IN_BYTE[byte as usize][rank_in_byte as usize]);
        Card::from_index(bit as u8)
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
    fn nth_agrees_with_iteration() {
        // Sets of every size and shape, including bits at the byte and suit boundaries.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut samples = vec![CardSet::EMPTY, CardSet::FULL, CardSet::from_bits(1 << 51)];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let sparse = x & (x >> 3) & (x >> 5);
            samples.push(CardSet::from_bits(x));
            samples.push(CardSet::from_bits(sparse));
        }
        for s in samples {
            let cards: Vec<Card> = s.iter().collect();
            for (i, &c) in cards.iter().enumerate() {
                assert_eq!(s.nth(i as u32), Some(c), "{s:?} card {i}");
            }
            assert_eq!(s.nth(cards.len() as u32), None);
            assert_eq!(s.nth(u32::MAX), None);
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
