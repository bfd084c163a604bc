//! Conversions between our cards, suits, seats and strains and those of the `dds-bridge` crate.
//!
//! Both number seats in playing order (ours 0 -> 1 -> 2 -> 3, DDS's North -> East -> South ->
//! West, each seat's left-hand opponent playing next), so seat `i` is DDS's `Seat::ALL[i]` and
//! partners stay partners (0 & 2 are North & South). Suits are clubs, diamonds, hearts, spades
//! in both; ranks are 0..=12 here and 2..=14 there.

use contract_bridge::hand::{Card as DdsCard, Hand as DdsHand, Holding, Rank as DdsRank};
use contract_bridge::seat::Seat as DdsSeat;
use contract_bridge::{Strain as DdsStrain, Suit as DdsSuit};

use crate::rules::{Card, CardSet, Rank, Seat, Strain, Suit};

pub fn seat_to_dds(s: Seat) -> DdsSeat {
    DdsSeat::ALL[s.index()]
}

pub fn seat_from_dds(s: DdsSeat) -> Seat {
    Seat::from_index(s as usize)
}

pub fn suit_to_dds(s: Suit) -> DdsSuit {
    match s {
        Suit::Clubs => DdsSuit::Clubs,
        Suit::Diamonds => DdsSuit::Diamonds,
        Suit::Hearts => DdsSuit::Hearts,
        Suit::Spades => DdsSuit::Spades,
    }
}

pub fn suit_from_dds(s: DdsSuit) -> Suit {
    match s {
        DdsSuit::Clubs => Suit::Clubs,
        DdsSuit::Diamonds => Suit::Diamonds,
        DdsSuit::Hearts => Suit::Hearts,
        DdsSuit::Spades => Suit::Spades,
    }
}

pub fn strain_to_dds(s: Strain) -> DdsStrain {
    match s {
        Strain::Trump(Suit::Clubs) => DdsStrain::Clubs,
        Strain::Trump(Suit::Diamonds) => DdsStrain::Diamonds,
        Strain::Trump(Suit::Hearts) => DdsStrain::Hearts,
        Strain::Trump(Suit::Spades) => DdsStrain::Spades,
        Strain::NoTrump => DdsStrain::Notrump,
    }
}

pub fn card_to_dds(c: Card) -> DdsCard {
    DdsCard {
        suit: suit_to_dds(c.suit()),
        rank: DdsRank::new(c.rank() as u8 + 2),
    }
}

/// `None` for a rank outside 2..=14, which DDS never returns for a real card.
pub fn card_from_dds(c: DdsCard) -> Option<Card> {
    let r = c.rank.get().checked_sub(2)?;
    let rank = *Rank::ALL.get(usize::from(r))?;
    Some(Card::new(rank, suit_from_dds(c.suit)))
}

/// Our 13 bits of a suit (rank 0 at bit 0) are DDS's holding bits 2..=14.
pub fn hand_to_dds(cards: CardSet) -> DdsHand {
    let holding = |s: Suit| {
        let bits = (cards.of_suit(s).bits() >> (13 * s.index())) as u16;
        Holding::from_bits_truncate(bits << 2)
    };
    DdsHand::new(
        holding(Suit::Clubs),
        holding(Suit::Diamonds),
        holding(Suit::Hearts),
        holding(Suit::Spades),
    )
}

/// The cards of a DDS holding in `suit`, for the equal cards DDS reports beside a play.
pub fn holding_cards(suit: Suit, h: Holding) -> CardSet {
    let bits = u64::from(h.to_bits() >> 2) & 0x1fff;
    CardSet::from_bits(bits << (13 * suit.index()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_and_keeps_its_text() {
        for c in Card::all() {
            let d = card_to_dds(c);
            assert_eq!(card_from_dds(d), Some(c));
            // contract-bridge writes cards suit first ("♠A" style or "SA"): compare parts.
            assert_eq!(d.rank.letter(), c.rank().letter(), "{c}");
            assert_eq!(suit_from_dds(d.suit), c.suit());
        }
    }

    #[test]
    fn hands_convert_card_by_card() {
        let mut set = CardSet::EMPTY;
        for (i, c) in Card::all().enumerate() {
            if i % 3 == 0 || c.rank() == Rank::Ace {
                set.insert(c);
            }
        }
        let h = hand_to_dds(set);
        assert_eq!(h.len(), set.len() as usize);
        for c in Card::all() {
            assert_eq!(h.contains(card_to_dds(c)), set.contains(c), "{c}");
        }
        for s in Suit::ALL {
            assert_eq!(holding_cards(s, h[suit_to_dds(s)]), set.of_suit(s));
        }
    }

    #[test]
    fn seats_keep_playing_order_and_partnerships() {
        for s in Seat::ALL {
            let d = seat_to_dds(s);
            assert_eq!(seat_from_dds(d), s);
            // Our next seat plays after us; DDS's next is the left-hand opponent.
            assert_eq!(seat_to_dds(s.next()), d.lho());
            assert_eq!(seat_to_dds(s.partner()), d.partner());
        }
        assert_eq!(seat_to_dds(Seat::S0), DdsSeat::North);
        assert_eq!(seat_to_dds(Seat::S1), DdsSeat::East);
    }

    #[test]
    fn strains_map_one_to_one() {
        let all: Vec<DdsStrain> = Strain::ALL.iter().map(|&s| strain_to_dds(s)).collect();
        assert_eq!(
            all,
            [
                DdsStrain::Clubs,
                DdsStrain::Diamonds,
                DdsStrain::Hearts,
                DdsStrain::Spades,
                DdsStrain::Notrump
            ]
        );
    }
}
