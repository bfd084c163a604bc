//! What the card play says about the hands beyond the voids: which card a player chose, out of
//! those its hand allowed, is evidence about that hand. As in the trick-taking literature (Buro,
//! Long, Furtak and Sturtevant 2009, "Improving State Evaluation, Inference, and Search in
//! Trick-Based Card Games", for Skat), a sampled deal is weighted by the likelihood of the cards
//! actually played under a simple policy of the players; the deals are then drawn in proportion
//! to that weight (with the auction's, see [`Sampler::fitting`](super::sample::Sampler)).
//!
//! The policy is the one almost every player follows: the last to play to a trick its side is
//! not winning takes it when one of its legal cards can (a sure trick costs nothing). So a seat
//! that played a losing card there, in a deal where it held a card that would have won (a
//! higher card of the suit led, or a trump when void in it), played against the policy: that
//! deal's likelihood is [`DUCK`] rather than 1. (Good players do duck now and then, to unblock
//! or to keep a squeeze card; the likelihood is low, not zero.)

use crate::rules::{Card, CardSet, Seat, Suit, Trick};

/// The likelihood that a last player who could have won the trick for its side played a card
/// that loses it instead.
pub const DUCK: f64 = 0.25;

/// A card played last to a trick the player's side was not winning, which did not win it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duck {
    pub seat: Seat,
    /// The trick before the card.
    pub trick: Trick,
    pub card: Card,
    /// The seat's cards played from this trick on, this card included: with the seat's cards
    /// in a sampled deal, the hand it held then.
    pub later: CardSet,
    pub trump: Option<Suit>,
}

impl Duck {
    /// The likelihood of the card in a deal where the seat now holds `hand`: [`DUCK`] if it
    /// held a legal card that would have won the trick, else 1.
    pub fn likelihood(&self, hand: CardSet) -> f64 {
        let held = hand.union(self.later);
        let led = self.trick.led();
        let follow = led.map_or(CardSet::EMPTY, |s| held.of_suit(s));
        let legal = if follow.is_empty() { held } else { follow };
        let wins = legal.iter().any(|c| {
            let mut after = self.trick;
            after.push(c);
            after.winner(self.trump) == Some(self.seat)
        });
        if wins {
            DUCK
        } else {
            1.0
        }
    }
}

/// The [`Duck`]s in the tricks played so far (the last card of each full trick; a trick on the
/// table has no last card yet), of every seat but `me`. `tricks` in order, with the trump.
pub fn ducks(me: Seat, tricks: &[(Seat, Vec<Card>)], trump: Option<Suit>) -> Vec<Duck> {
    let mut out = Vec::new();
    for (i, (leader, cards)) in tricks.iter().enumerate() {
        let [a, b, c, last] = cards[..] else {
            continue;
        };
        let seat = leader.plus(3);
        let mut trick = Trick::new(*leader);
        [a, b, c].into_iter().for_each(|x| trick.push(x));
        let mut after = trick;
        after.push(last);
        let partner_winning = trick.winner(trump) == Some(seat.partner());
        if seat == me || partner_winning || after.winner(trump) == Some(seat) {
            continue;
        }
        let later = tricks[i..]
            .iter()
            .flat_map(|(l, cs)| cs.iter().enumerate().map(move |(j, &c)| (l.plus(j), c)))
            .filter(|&(s, _)| s == seat)
            .map(|(_, c)| c)
            .collect();
        out.push(Duck {
            seat,
            trick,
            card: last,
            later,
            trump,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn a_last_player_who_could_have_won_and_did_not_is_unlikely_to_hold_the_winner() {
        // docs/rules.md#follow-suit, docs/rules.md#trick-winner: follow suit if able, else any
        // card; the highest trump wins, else the highest card of the suit led. Spades are trump.
        // Seat 2 leads KH, seat 3 plays 2H, seat 0 (me) 3H; seat 1, last, discards 4D and seat 2's
        // king wins. Seat 1 is out of hearts, so a spade would have won.
        let trump = Some(Suit::Spades);
        let tricks = vec![
            (Seat::S2, cards("KH 2H 3H 4D")),
            (Seat::S1, cards("5D 6D 7D 8D")),
        ];
        let found = ducks(Seat::S0, &tricks, trump);
        assert_eq!(found.len(), 1, "{found:?}");
        let d = found[0];
        assert_eq!((d.seat, d.card), (Seat::S1, "4D".parse().unwrap()));
        // Seat 1 played 4D, then led 5D.
        assert_eq!(d.later, cards("4D 5D").into_iter().collect());
        let hand = |s: &str| cards(s).into_iter().collect::<CardSet>();
        assert_eq!(d.likelihood(hand("2S 9C")), DUCK);
        assert_eq!(d.likelihood(hand("9C TC")), 1.0);
        // Following suit, only a higher heart wins: AH would have, QH would not.
        let tricks = vec![(Seat::S2, cards("KH 2H 3H 4H"))];
        let d = ducks(Seat::S0, &tricks, trump)[0];
        assert_eq!(d.likelihood(hand("AH 2S")), DUCK);
        assert_eq!(d.likelihood(hand("QH 2S")), 1.0);
        // No signal: my own card, a partner already winning, a last card that won.
        assert!(ducks(Seat::S1, &[(Seat::S2, cards("KH 2H 3H 4D"))], trump).is_empty());
        assert!(ducks(Seat::S0, &[(Seat::S0, cards("2H KH 3H 4D"))], trump).is_empty());
        assert!(ducks(Seat::S0, &[(Seat::S2, cards("KH 2H 3H 4S"))], trump).is_empty());
    }
}
