//! Tricks: the cards on the table and who wins them.

use serde::Serialize;

use super::card::{Card, Suit};
use super::card_set::CardSet;
use super::seat::Seat;

/// A trick in progress or completed: cards in the order played, starting with the leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Trick {
    pub leader: Seat,
    #[serde(serialize_with = "ser_cards")]
    cards: [Option<Card>; 4],
    #[serde(skip)]
    len: u8,
}

fn ser_cards<S: serde::Serializer>(cards: &[Option<Card>; 4], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(cards.iter().flatten())
}

impl Trick {
    pub const fn new(leader: Seat) -> Trick {
        Trick {
            leader,
            cards: [None; 4],
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_complete(&self) -> bool {
        self.len == 4
    }

    pub fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = Some(c);
        self.len += 1;
    }

    /// The suit led, once a card is down.
    pub fn led(&self) -> Option<Suit> {
        self.cards[0].map(Card::suit)
    }

    /// Whose turn it is in this trick.
    pub fn to_play(&self) -> Seat {
        self.leader.plus(self.len as usize)
    }

    /// `(seat, card)` in the order played.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.cards[..self.len as usize]
            .iter()
            .enumerate()
            .filter_map(move |(i, c)| c.map(|c| (self.leader.plus(i), c)))
    }

    pub fn card_of(&self, seat: Seat) -> Option<Card> {
        self.plays().find(|&(s, _)| s == seat).map(|(_, c)| c)
    }

    /// The winner so far: the highest trump if any was played, else the highest card of the
    /// suit led (docs/rules.md#trick-winner). `None` with no cards down.
    pub fn winner(&self, trump: Option<Suit>) -> Option<Seat> {
        let led = self.led()?;
        // Within a suit a higher card has a higher index, so the winning card is the highest
        // of the trumps on the table, or if there are none of the cards of the suit led.
        // Sets, and a sum for the winner's place, rather than comparing card by card: which
        // card wins is random in the simulator, and branches on it would be mispredicted.
        // Slots past `len` are `None`, so all four can be read.
        let table: CardSet = self.cards.iter().flatten().copied().collect();
        let trumps = trump.map_or(CardSet::EMPTY, |t| table.of_suit(t));
        let pool = if trumps.is_empty() {
            table.of_suit(led)
        } else {
            trumps
        };
        let best = Some(pool.highest()?);
        // The cards are distinct: exactly one slot holds `best`.
        let position: usize = (0..4).map(|i| usize::from(self.cards[i] == best) * i).sum();
        Some(self.leader.plus(position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trick(leader: Seat, cards: &[&str]) -> Trick {
        let mut t = Trick::new(leader);
        for c in cards {
            t.push(c.parse().unwrap());
        }
        t
    }

    #[test]
    fn highest_of_suit_led_wins_without_trump() {
        // docs/rules.md#trick-winner: without a trump, the highest card of the suit led.
        let t = trick(Seat::S1, &["TH", "AS", "QH", "2H"]);
        assert_eq!(t.winner(Some(Suit::Clubs)), Some(Seat::S3));
        // An off-suit ace never wins.
        assert_eq!(t.winner(None), Some(Seat::S3));
    }

    #[test]
    fn highest_trump_wins() {
        // docs/rules.md#trick-winner: the highest trump wins.
        let t = trick(Seat::S0, &["AH", "2S", "KH", "5S"]);
        assert_eq!(t.winner(Some(Suit::Spades)), Some(Seat::S3));
        assert_eq!(t.winner(Some(Suit::Hearts)), Some(Seat::S0));
    }

    #[test]
    fn no_trump_only_suit_led_counts() {
        // docs/rules.md#trick-winner: at No Trump only the suit led counts.
        let t = trick(Seat::S2, &["3D", "AS", "AC", "4D"]);
        assert_eq!(t.winner(None), Some(Seat::S1));
        assert_eq!(t.to_play(), Seat::S2);
    }
}
