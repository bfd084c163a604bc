//! A position in the play of one hand: what each seat still holds, the trick on the table, the
//! trump. The double-dummy solver values positions; replay and the pimc bot build them.

use crate::rules::{BySeat, Card, CardSet, ContractRules, Seat, Strain, Suit, Trick, TrumpChoice};

/// A position that cannot arise in play, and so cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("card {0} is held twice, or held and on the table")]
    Duplicate(Card),
    #[error(
        "hand sizes do not fit the trick on the table: seat {seat} holds {held} cards, \
         {expected} expected"
    )]
    HandSizes {
        seat: Seat,
        held: u32,
        expected: u32,
    },
    #[error("seat {seat} may not play {card}: the legal cards are {legal}")]
    Illegal {
        seat: Seat,
        card: Card,
        legal: CardSet,
    },
    #[error("no card is left to play")]
    HandOver,
    #[error("the double-dummy solver rejects the position: {0}")]
    Rejected(String),
}

/// The play of a hand from some point on, as double-dummy analysis sees it (every card known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cards still in each seat's hand (not those on the table).
    pub held: BySeat<CardSet>,
    /// The trump; `None` while the first lead has still to name it (`trump: first-lead`).
    pub trump: Option<Strain>,
    /// The trick in progress (possibly empty); its leader leads next when it is empty.
    pub table: Trick,
    /// A suit the leader must lead if he holds it (`trump-first-lead`): only with an empty table.
    pub must_lead: Option<Suit>,
}

impl Position {
    /// The start of a hand's play.
    pub fn new(held: BySeat<CardSet>, trump: Option<Strain>, leader: Seat) -> Position {
        Position {
            held,
            trump,
            table: Trick::new(leader),
            must_lead: None,
        }
    }

    /// The start of the play with `strain` as trump and `declarer` leading, as the contract rules
    /// allow it to arise (the strain table's and pimc's "what would this trump make"): under
    /// `trump: first-lead` the trump is the suit of the declarer's first lead
    /// (docs/rules.md#contract-trump), so the lead is forced into that suit and a suit the declarer
    /// does not hold cannot be trump at all (`None`); under `trump-first-lead` the first lead must
    /// be a trump if he holds one.
    pub fn declaring(
        held: BySeat<CardSet>,
        strain: Strain,
        declarer: Seat,
        rules: &ContractRules,
    ) -> Option<Position> {
        let mut p = Position::new(held, Some(strain), declarer);
        if rules.trump == TrumpChoice::FirstLead {
            let suit = strain.trump()?;
            if held[declarer].of_suit(suit).is_empty() {
                return None;
            }
            p.must_lead = Some(suit);
        } else if rules.trump_first_lead {
            p.must_lead = strain.trump();
        }
        Some(p)
    }

    pub fn to_play(&self) -> Seat {
        self.table.to_play()
    }

    /// Tricks still to be won, the one on the table included.
    pub fn tricks_left(&self) -> u8 {
        let leader_cards = self.held[self.table.leader].len() + u32::from(!self.table.is_empty());
        leader_cards as u8
    }

    /// The cards the player on turn may play.
    pub fn legal_cards(&self) -> CardSet {
        let held = self.held[self.to_play()];
        let forced = match self.table.led() {
            Some(led) => Some(led),
            None => self.must_lead,
        };
        match forced.map(|s| held.of_suit(s)) {
            Some(f) if !f.is_empty() => f,
            _ => held,
        }
    }

    /// Plays `card` for the seat on turn; a fourth card closes the trick and its winner leads.
    /// Returns the winner of a trick this card completed.
    pub fn play(&mut self, card: Card) -> Result<Option<Seat>, PositionError> {
        let seat = self.to_play();
        if self.tricks_left() == 0 {
            return Err(PositionError::HandOver);
        }
        let legal = self.legal_cards();
        if !legal.contains(card) {
            return Err(PositionError::Illegal { seat, card, legal });
        }
        self.held[seat].remove(card);
        self.trump.get_or_insert(Strain::Trump(card.suit()));
        self.must_lead = None;
        self.table.push(card);
        if !self.table.is_complete() {
            return Ok(None);
        }
        let trump = self.trump.and_then(Strain::trump);
        let winner = self.table.winner(trump).expect("a full trick has a winner");
        self.table = Trick::new(winner);
        Ok(Some(winner))
    }

    /// Checks what DDS would otherwise reject: distinct cards, and hand sizes that fit the trick
    /// on the table.
    pub fn validate(&self) -> Result<(), PositionError> {
        let mut seen = CardSet::EMPTY;
        let cards = Seat::ALL
            .iter()
            .flat_map(|&s| self.held[s].iter())
            .chain(self.table.plays().map(|(_, c)| c));
        for c in cards {
            if seen.contains(c) {
                return Err(PositionError::Duplicate(c));
            }
            seen.insert(c);
        }
        let played = self.table.len();
        // The leader's right-hand opponent plays last, so has played nothing to this trick yet.
        let full = self.held[self.table.leader.plus(3)].len();
        for i in 0..4 {
            let seat = self.table.leader.plus(i);
            let expected = full - u32::from(i < played);
            if self.held[seat].len() != expected {
                return Err(PositionError::HandSizes {
                    seat,
                    held: self.held[seat].len(),
                    expected,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    #[test]
    fn a_trick_completes_and_its_winner_leads() {
        let held = BySeat([set("AS 2H"), set("KS 3H"), set("QS 4H"), set("JS 5H")]);
        let mut p = Position::new(held, Some(Strain::Trump(Suit::Hearts)), Seat::S1);
        assert_eq!(p.tricks_left(), 2);
        p.validate().unwrap();
        assert_eq!(p.play("KS".parse().unwrap()), Ok(None));
        assert_eq!(p.tricks_left(), 2);
        // Must follow spades.
        assert!(p.play("4H".parse().unwrap()).is_err());
        for c in ["QS", "JS"] {
            assert_eq!(p.play(c.parse().unwrap()), Ok(None));
        }
        assert_eq!(p.play("AS".parse().unwrap()), Ok(Some(Seat::S0)));
        assert_eq!(p.to_play(), Seat::S0);
        assert_eq!(p.tricks_left(), 1);
        p.validate().unwrap();
    }

    #[test]
    fn first_lead_names_the_trump_and_must_lead_binds_the_leader_only() {
        let held = BySeat([set("AS 2H"), set("KS 3H"), set("QS 4H"), set("JS 5H")]);
        let mut p = Position::new(held, None, Seat::S0);
        p.must_lead = Some(Suit::Hearts);
        assert_eq!(p.legal_cards(), set("2H"));
        p.play("2H".parse().unwrap()).unwrap();
        assert_eq!(p.trump, Some(Strain::Trump(Suit::Hearts)));
        assert_eq!(p.legal_cards(), set("3H"));
    }

    #[test]
    fn validate_rejects_bad_sizes_and_duplicates() {
        let mut p = Position::new(
            BySeat([set("AS 2H"), set("KS"), set("QS 4H"), set("JS 5H")]),
            None,
            Seat::S0,
        );
        assert!(matches!(
            p.validate(),
            Err(PositionError::HandSizes { seat: Seat::S1, .. })
        ));
        p.held[Seat::S1] = set("AS 3H");
        assert_eq!(
            p.validate(),
            Err(PositionError::Duplicate("AS".parse().unwrap()))
        );
    }
}
