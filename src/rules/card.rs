//! Suits, ranks and cards, with the two-character text form used on the wire and in records.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. The discriminant is the suit's index in card sets; it is *not* a bidding order
/// (bidding orders are a rules option, see [`crate::rules::StrainOrder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, 2 low to Ace high in every suit (all rule texts agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn letter(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    pub fn from_letter(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase();
        b"23456789TJQKA"
            .iter()
            .position(|&b| b as char == c)
            .map(|i| Rank::ALL[i])
    }

    /// High-card points (A 4, K 3, Q 2, J 1), used by the Dakak rule
    /// (docs/rules.md#contract-dakak).
    pub const fn high_card_points(self) -> u32 {
        match self {
            Rank::Ace => 4,
            Rank::King => 3,
            Rank::Queen => 2,
            Rank::Jack => 1,
            _ => 0,
        }
    }
}

/// The text of every card by index, so writing a card (52 of them in every request's history)
/// costs a table lookup instead of the formatting machinery.
const CARD_TEXT: [&str; 52] = [
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D", "3D", "4D",
    "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2H", "3H", "4H", "5H", "6H", "7H",
    "8H", "9H", "TH", "JH", "QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS",
    "JS", "QS", "KS", "AS",
];

/// One of the 52 cards, stored as `suit * 13 + rank` so that a hand is a 52-bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank as u8)
    }

    /// The card with index `i` (0..52); `None` outside that range.
    pub const fn from_index(i: u8) -> Option<Card> {
        if i < 52 {
            Some(Card(i))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 / 13) as usize)
    }

    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 13) as usize]
    }

    /// The card's two-character text: rank then suit, `AS`, `TH`, `2C`.
    pub const fn as_str(self) -> &'static str {
        CARD_TEXT[self.0 as usize]
    }

    /// Every card, clubs first, 2 to Ace within a suit.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a card: write rank then suit, like AS, TH, 9D or 2C")]
pub struct ParseCardError {
    pub text: String,
}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError {
            text: s.to_string(),
        };
        let mut chars = s.chars();
        let (r, su) = match (chars.next(), chars.next(), chars.next()) {
            (Some(r), Some(su), None) => (r, su),
            _ => return Err(err()),
        };
        let rank = Rank::from_letter(r).ok_or_else(err)?;
        let suit = Suit::from_letter(su).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Suit::Clubs => "C",
            Suit::Diamonds => "D",
            Suit::Hearts => "H",
            Suit::Spades => "S",
        })
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let s = String::deserialize(d)?;
        let mut c = s.chars();
        match (c.next().and_then(Suit::from_letter), c.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(serde::de::Error::custom(format!(
                "'{s}' is not a suit: write C, D, H or S"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_for_every_card() {
        for c in Card::all() {
            let text = c.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), c);
        }
        assert_eq!(
            "AS".parse::<Card>().unwrap(),
            Card::new(Rank::Ace, Suit::Spades)
        );
        assert_eq!(
            "th".parse::<Card>().unwrap(),
            Card::new(Rank::Ten, Suit::Hearts)
        );
    }

    #[test]
    fn the_text_table_is_rank_letter_then_suit_letter() {
        for c in Card::all() {
            let expect = format!("{}{}", c.rank().letter(), c.suit().letter());
            assert_eq!(c.as_str(), expect, "card index {}", c.index());
        }
    }

    #[test]
    fn bad_card_text_is_rejected_with_the_input_named() {
        for bad in ["", "A", "ASX", "1S", "AX", "10H"] {
            let e = bad.parse::<Card>().unwrap_err();
            assert!(e.to_string().contains(&format!("'{bad}'")));
        }
    }

    #[test]
    fn ranks_order_ace_high_two_low() {
        // docs/rules.md#cards: A high to 2 low.
        assert!(Rank::Ace > Rank::King && Rank::King > Rank::Queen && Rank::Three > Rank::Two);
        assert_eq!(Card::all().count(), 52);
    }
}
