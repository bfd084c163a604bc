//! Deals of the cards a player cannot see that agree with everything public: the cards
//! already played, each seat's number of cards, and the suits a seat has shown out of; and,
//! softly, the auction (see [`infer`](super::infer)): deals far from what a seat's calls said
//! weigh less. The deals are exactly uniform under the hard constraints ([`DealCounter`]), the
//! auction's clues importance weights on them.

use rand::Rng;

use super::deal_count::DealCounter;
use super::infer::Clue;
use super::read_play::Duck;
use crate::rules::{BySeat, CardSet, Seat, Suit};

/// Uniform candidate deals drawn for each deal weighted by the auction (a bound on the time a
/// sample can cost, however tight or contradictory the clues).
pub const TRIES: usize = 64;

/// How sharply a deal is discounted for each estimated trick it lies from the auction: a
/// deal `d` tricks away weighs `exp(-d^2 / (2 SPREAD^2))` against one that fits.
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
    /// Cards played that a seat holding a winner would not have played
    /// ([`read_play`](super::read_play)).
    pub ducks: Vec<Duck>,
}

impl Knowledge {
    /// Marks `seat` out of `suit` (it did not follow to a lead of that suit).
    pub fn show_out(&mut self, seat: Seat, suit: Suit) {
        self.void[seat] |= 1 << suit.index();
    }

    /// One deal that agrees with the public play, drawn in proportion to how well it fits the
    /// auction (see [`Sampler::fitting`]). `None` only if the public play is contradictory.
    pub fn sample_fitting(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        self.sampler().fitting(rng)
    }

    /// The sampler of this knowledge: its deal counting done once, for many deals.
    pub fn sampler(&self) -> Sampler<'_> {
        Sampler {
            k: self,
            counter: DealCounter::new(self.me, self.unseen, &self.counts, &self.void),
        }
    }

    /// How much a deal weighs, as a log: its fit to the auction, `exp(-d^2 / (2 SPREAD^2))`
    /// for a deal `d` estimated tricks away, times the likelihood of the cards played
    /// ([`read_play`](super::read_play)).
    pub fn log_weight(&self, hands: &BySeat<CardSet>) -> f64 {
        let d = self.distance(hands);
        let play: f64 = self
            .ducks
            .iter()
            .map(|x| x.likelihood(hands[x.seat]).ln())
            .sum();
        -(d * d) / (2.0 * SPREAD * SPREAD) + play
    }

    /// How far a deal lies from the auction: each clue's distance for its seat's dealt hand.
    pub fn distance(&self, hands: &BySeat<CardSet>) -> f64 {
        self.clues
            .iter()
            .map(|c| c.distance(hands[c.seat].union(self.played[c.seat])))
            .sum()
    }

    /// One deal of the unseen cards, drawn uniformly from every deal that agrees with the
    /// counts and the voids ([`DealCounter`]); `None` if none does.
    pub fn sample(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        self.sampler().uniform(rng)
    }
}

/// Draws deals for one state of knowledge.
pub struct Sampler<'a> {
    k: &'a Knowledge,
    counter: Option<DealCounter>,
}

impl Sampler<'_> {
    /// One deal drawn uniformly from every deal that agrees with the counts and the voids,
    /// my hand included.
    pub fn uniform(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        let mut hands = self.counter.as_ref()?.sample(rng)?;
        hands[self.k.me] = self.k.mine;
        Some(hands)
    }

    /// One deal drawn with the auction's clues and the play's likelihood as importance weights:
    /// [`TRIES`] uniform deals, one of them picked in proportion to its weight
    /// ([`Knowledge::log_weight`]; sampling-importance-resampling). Deals that fit the calls
    /// are as likely as their weight says, however tight the clues, with no refusal count to
    /// run out: when no candidate fits, the nearer ones are still the likelier (the weights
    /// are taken relative to the best candidate's).
    pub fn fitting(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        if self.k.clues.is_empty() && self.k.ducks.is_empty() {
            return self.uniform(rng);
        }
        let mut pool = Vec::with_capacity(TRIES);
        for _ in 0..TRIES {
            let hands = self.uniform(rng)?;
            pool.push((self.k.log_weight(&hands), hands));
        }
        let top = pool.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        let weights: Vec<f64> = pool.iter().map(|p| (p.0 - top).exp()).collect();
        let mut pick = rng.gen::<f64>() * weights.iter().sum::<f64>();
        for (w, (_, hands)) in weights.iter().zip(&pool) {
            if pick < *w {
                return Some(*hands);
            }
            pick -= w;
        }
        pool.last().map(|p| p.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Card;
    use rand::seq::SliceRandom;
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
            ducks: Vec::new(),
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
    fn a_seat_that_did_not_ruff_a_trick_it_could_win_is_dealt_trumps_less_often() {
        // Issue 28: samples "re-weighted by what was seen" (a player who discarded rather than win
        // a trick he could cheaply win). docs/rules.md#follow-suit, docs/rules.md#trick-winner:
        // follow suit if able, else any card; the highest trump wins. Spades are trump. Seat 2 led
        // KH, seat 3 and I followed, seat 1 (last, out of hearts) discarded 4D: with a spade it
        // would have won. Six cards are left unseen, two each for seats 1, 2, 3; two of them are
        // spades.
        use crate::pimc::read_play::{ducks, DUCK};
        let cards =
            |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
        let set = |s: &str| -> CardSet { cards(s).into_iter().collect() };
        let mut k = Knowledge {
            me: Seat::S0,
            mine: set("2C 3C"),
            unseen: set("AS 2S 5C 6C 7C 8C"),
            counts: BySeat([0, 2, 2, 2]),
            void: BySeat([0; 4]),
            played: BySeat([CardSet::EMPTY; 4]),
            clues: Vec::new(),
            ducks: Vec::new(),
        };
        k.show_out(Seat::S1, Suit::Hearts);
        let spadeless = |k: &Knowledge, rng: &mut Pcg64| {
            let n = 4000;
            let hits = (0..n)
                .filter(|_| {
                    let h = k.sample_fitting(rng).unwrap();
                    h[Seat::S1].of_suit(Suit::Spades).is_empty()
                })
                .count();
            hits as f64 / f64::from(n)
        };
        let mut rng = Pcg64::seed_from_u64(5);
        // Uniformly, seat 1 holds no spade in C(4,2)/C(6,2) = 6/15 of the deals.
        let before = spadeless(&k, &mut rng);
        assert!((before - 0.4).abs() < 0.03, "{before}");
        k.ducks = ducks(
            Seat::S0,
            &[(Seat::S2, cards("KH 2H 3H 4D"))],
            Some(Suit::Spades),
        );
        // Weighted: 0.4 / (0.4 + 0.6 * DUCK) = 0.73 (64 candidates a deal: a little less).
        let want = 0.4 / (0.4 + 0.6 * DUCK);
        let after = spadeless(&k, &mut rng);
        assert!((after - want).abs() < 0.04, "{after} against {want:.3}");
        assert!(after > before + 0.2, "{after} against {before} unweighted");
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
            ducks: Vec::new(),
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
