//! Exact uniform deals of the unseen cards under the hand sizes and the known voids, by
//! suit-length counting: the number of deals that give the three other seats `a`, `b` and `c`
//! cards of a suit of `n` unseen cards is the multinomial `n! / (a! b! c!)`, and a dynamic
//! programme over the suits (the rooms left in each hand its state) counts every deal that
//! completes. Drawing each suit's split in proportion to its multinomial times the deals that
//! complete it, then dealing the suit's cards at random in that split, makes every consistent
//! deal equally likely. (Placing card by card, the fewest holders first, does not: with one
//! card each of three suits and two voids it drew the three deals 1/4, 3/8, 3/8.)

use rand::seq::SliceRandom;
use rand::Rng;

use crate::rules::{BySeat, Card, CardSet, Seat, Suit};

/// Most cards a suit or a hand can hold, plus one.
const N: usize = 14;

const FACTORIAL: [u128; N] = {
    let mut f = [1u128; N];
    let mut i = 1;
    while i < N {
        f[i] = f[i - 1] * i as u128;
        i += 1;
    }
    f
};

fn multinomial(a: usize, b: usize, c: usize) -> u128 {
    FACTORIAL[a + b + c] / (FACTORIAL[a] * FACTORIAL[b] * FACTORIAL[c])
}

/// The counting table of one state of knowledge; build it once, draw many deals.
#[derive(Clone, Debug)]
pub struct DealCounter {
    /// The three seats that receive cards, in order.
    seats: [Seat; 3],
    /// Each seat's hand size.
    rooms: [usize; 3],
    /// The unseen cards of each suit (`Suit::ALL` order).
    cards: [Vec<Card>; 4],
    /// Whether each seat may hold each suit.
    may: [[bool; 4]; 3],
    /// `ways[i][r0][r1]`: deals of suits `i..4` given rooms `r0`, `r1` (the third seat's
    /// room is what is left of those suits' cards).
    ways: Vec<[[u128; N]; N]>,
}

impl DealCounter {
    /// The counter for dealing `unseen` to the seats other than `me`, each its `counts`,
    /// none a card of a suit its `void` bit (`1 << suit index`) is set for. `None` when the
    /// sizes do not add up to the cards or a size is above 13.
    pub fn new(
        me: Seat,
        unseen: CardSet,
        counts: &BySeat<u32>,
        void: &BySeat<u8>,
    ) -> Option<DealCounter> {
        let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != me).collect();
        let seats = [others[0], others[1], others[2]];
        let rooms = seats.map(|s| counts[s] as usize);
        if rooms.iter().any(|&r| r >= N) || rooms.iter().sum::<usize>() != unseen.len() as usize {
            return None;
        }
        let cards = Suit::ALL.map(|s| unseen.of_suit(s).iter().collect::<Vec<Card>>());
        let may = seats.map(|s| Suit::ALL.map(|suit| void[s] & (1 << suit.index()) == 0));
        let mut ways = vec![[[0u128; N]; N]; 5];
        ways[4][0][0] = 1;
        let mut left = 0;
        for i in (0..4).rev() {
            let n = cards[i].len();
            left += n;
            for r0 in 0..N {
                for r1 in 0..N {
                    if r0 + r1 > left {
                        continue;
                    }
                    let r2 = left - r0 - r1;
                    let mut total = 0u128;
                    for (a, b, c) in splits(n, &may, i) {
                        if a <= r0 && b <= r1 && c <= r2 {
                            total += multinomial(a, b, c) * ways[i + 1][r0 - a][r1 - b];
                        }
                    }
                    ways[i][r0][r1] = total;
                }
            }
        }
        Some(DealCounter {
            seats,
            rooms,
            cards,
            may,
            ways,
        })
    }

    /// How many deals agree with the knowledge.
    pub fn deals(&self) -> u128 {
        self.ways[0][self.rooms[0]][self.rooms[1]]
    }

    /// One deal drawn uniformly from those that agree (the other seats' cards only); `None`
    /// if there is none.
    pub fn sample(&self, rng: &mut impl Rng) -> Option<BySeat<CardSet>> {
        let mut hands = BySeat([CardSet::EMPTY; 4]);
        let (mut r0, mut r1) = (self.rooms[0], self.rooms[1]);
        let mut left: usize = self.cards.iter().map(Vec::len).sum();
        let mut deck: Vec<Card> = Vec::with_capacity(N);
        for i in 0..4 {
            let total = self.ways[i][r0][r1];
            if total == 0 {
                return None;
            }
            let n = self.cards[i].len();
            let r2 = left - r0 - r1;
            let mut pick = rng.gen_range(0..total);
            let mut chosen = None;
            for (a, b, c) in splits(n, &self.may, i) {
                if a > r0 || b > r1 || c > r2 {
                    continue;
                }
                let w = multinomial(a, b, c) * self.ways[i + 1][r0 - a][r1 - b];
                if pick < w {
                    chosen = Some((a, b));
                    break;
                }
                pick -= w;
            }
            let (a, b) = chosen?;
            deck.clear();
            deck.extend_from_slice(&self.cards[i]);
            deck.shuffle(rng);
            for (k, &c) in deck.iter().enumerate() {
                let to = if k < a {
                    0
                } else if k < a + b {
                    1
                } else {
                    2
                };
                hands[self.seats[to]].insert(c);
            }
            r0 -= a;
            r1 -= b;
            left -= n;
        }
        Some(hands)
    }
}

/// The ways to split a suit of `n` cards among the three seats that the voids allow.
fn splits(
    n: usize,
    may: &[[bool; 4]; 3],
    suit: usize,
) -> impl Iterator<Item = (usize, usize, usize)> {
    let may = [may[0][suit], may[1][suit], may[2][suit]];
    (0..=n)
        .flat_map(move |a| (0..=n - a).map(move |b| (a, b, n - a - b)))
        .filter(move |&(a, b, c)| (a == 0 || may[0]) && (b == 0 || may[1]) && (c == 0 || may[2]))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::pimc::sample::Knowledge;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    /// Seat 0 sees; seats 1 to 3 hold `counts` of `unseen`, with voids as `(seat, suit)`.
    fn knowledge(unseen: &str, counts: [u32; 3], voids: &[(Seat, Suit)]) -> Knowledge {
        let mut k = Knowledge {
            me: Seat::S0,
            mine: CardSet::EMPTY,
            unseen: set(unseen),
            counts: BySeat([0, counts[0], counts[1], counts[2]]),
            void: BySeat([0; 4]),
            played: BySeat([CardSet::EMPTY; 4]),
            clues: Vec::new(),
            ducks: Vec::new(),
        };
        for &(s, suit) in voids {
            k.show_out(s, suit);
        }
        k
    }

    /// Every deal that agrees with `k`, by trying each seat for each card.
    fn enumerate(k: &Knowledge) -> Vec<BySeat<CardSet>> {
        let cards: Vec<Card> = k.unseen.iter().collect();
        let others = [Seat::S1, Seat::S2, Seat::S3];
        let mut out = Vec::new();
        for code in 0..3usize.pow(cards.len() as u32) {
            let mut hands = BySeat([CardSet::EMPTY; 4]);
            let mut c = code;
            for &card in &cards {
                hands[others[c % 3]].insert(card);
                c /= 3;
            }
            let fits = others.iter().all(|&s| {
                hands[s].len() == k.counts[s]
                    && Suit::ALL.iter().all(|&x| {
                        k.void[s] & (1 << x.index()) == 0 || hands[s].of_suit(x).is_empty()
                    })
            });
            if fits {
                out.push(hands);
            }
        }
        out
    }

    /// Pearson's chi-square of `n` uniform draws over the deals that agree with `k`, against
    /// the 0.1% critical value for its degrees of freedom (Wilson-Hilferty); and the counter's
    /// count against the enumeration's.
    fn check_uniform(k: &Knowledge, n: usize, seed: u64) {
        let all = enumerate(k);
        let counter = DealCounter::new(k.me, k.unseen, &k.counts, &k.void).unwrap();
        assert_eq!(counter.deals(), all.len() as u128);
        let mut seen: HashMap<[u64; 4], usize> =
            all.iter().map(|h| (h.0.map(|c| c.bits()), 0)).collect();
        let mut rng = Pcg64::seed_from_u64(seed);
        for _ in 0..n {
            let h = k.sample(&mut rng).expect("a deal agrees");
            *seen
                .get_mut(&h.0.map(|c| c.bits()))
                .expect("a consistent deal") += 1;
        }
        let expected = n as f64 / all.len() as f64;
        let chi2: f64 = seen
            .values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        let df = (all.len() - 1) as f64;
        let t = 2.0 / (9.0 * df);
        let critical = df * (1.0 - t + 3.09 * t.sqrt()).powi(3);
        assert!(
            chi2 < critical,
            "chi-square {chi2:.1} over {} deals, critical {critical:.1}: {:?}",
            all.len(),
            seen.values().collect::<Vec<_>>()
        );
    }

    #[test]
    fn three_cards_two_voids_three_deals_a_third_each() {
        // Issue 28's case: one card each of spades, hearts and diamonds to three seats of one
        // card, seat 1 void in spades and seat 2 in hearts: three deals, each 1/3 (placing the
        // most constrained card first drew them 1/4, 3/8, 3/8).
        let k = knowledge(
            "AS AH AD",
            [1, 1, 1],
            &[(Seat::S1, Suit::Spades), (Seat::S2, Suit::Hearts)],
        );
        check_uniform(&k, 30_000, 1);
    }

    #[test]
    fn small_endings_with_voids_are_dealt_uniformly() {
        // Seven and eight unseen cards over hands of unequal sizes, with voids.
        let k = knowledge(
            "AS KS QS AH KH AD 2C",
            [3, 2, 2],
            &[(Seat::S1, Suit::Hearts), (Seat::S3, Suit::Spades)],
        );
        check_uniform(&k, 40_000, 2);
        let k = knowledge(
            "AS KS AH KH QH AD KD AC",
            [3, 3, 2],
            &[
                (Seat::S2, Suit::Diamonds),
                (Seat::S2, Suit::Spades),
                (Seat::S3, Suit::Hearts),
            ],
        );
        check_uniform(&k, 60_000, 3);
    }

    #[test]
    fn contradictions_have_no_deal_and_a_whole_deal_counts_right() {
        // Two spades for a seat of two cards void in spades and one of one card void too.
        let k = knowledge(
            "AS KS 2H",
            [2, 1, 0],
            &[(Seat::S1, Suit::Spades), (Seat::S2, Suit::Spades)],
        );
        let counter = DealCounter::new(k.me, k.unseen, &k.counts, &k.void).unwrap();
        assert_eq!(counter.deals(), 0);
        assert_eq!(k.sample(&mut Pcg64::seed_from_u64(0)), None);
        // Sizes that do not add up.
        assert!(
            DealCounter::new(Seat::S0, set("AS"), &BySeat([0, 1, 1, 0]), &BySeat([0; 4])).is_none()
        );
        // 39 cards to three hands of 13: 39! / (13!)^3.
        let mine = CardSet::suit(Suit::Clubs);
        let counter = DealCounter::new(
            Seat::S0,
            CardSet::FULL.minus(mine),
            &BySeat([0, 13, 13, 13]),
            &BySeat([0; 4]),
        )
        .unwrap();
        assert_eq!(counter.deals(), 84_478_098_072_866_400);
    }

    #[test]
    fn auction_clues_weigh_deals_as_their_importance_weights_say() {
        // Seat 1 named spades as trump, so it holds 2 or more (a clue: each spade short
        // weighs exp(-d^2 / 2)); seat 3 showed out of hearts. The deals picked must follow
        // the weighted enumeration: each deal's weight over the total.
        use crate::pimc::infer::Clue;
        let mut k = knowledge(
            "AS KS QS AH KH AD 2C",
            [3, 2, 2],
            &[(Seat::S3, Suit::Hearts)],
        );
        k.clues = vec![Clue {
            seat: Seat::S1,
            strain: None,
            low: None,
            high: None,
            long: Some((Suit::Spades, 2)),
        }];
        let all = enumerate(&k);
        let weights: Vec<f64> = all.iter().map(|h| k.log_weight(h).exp()).collect();
        let total: f64 = weights.iter().sum();
        let index: HashMap<[u64; 4], usize> = all
            .iter()
            .enumerate()
            .map(|(i, h)| (h.0.map(|c| c.bits()), i))
            .collect();
        let n = 20_000;
        let mut seen = vec![0usize; all.len()];
        let mut rng = Pcg64::seed_from_u64(4);
        let sampler = k.sampler();
        for _ in 0..n {
            let h = sampler.fitting(&mut rng).unwrap();
            seen[index[&h.0.map(|c| c.bits())]] += 1;
        }
        // Total variation distance: the sampling noise of 20,000 draws over these deals is
        // about 0.01; resampling from 64 candidates adds a bias of order 1/64 of the spread
        // of the weights.
        let tv: f64 = seen
            .iter()
            .zip(&weights)
            .map(|(&o, &w)| (o as f64 / n as f64 - w / total).abs())
            .sum::<f64>()
            / 2.0;
        assert!(tv < 0.03, "total variation {tv:.3}");
        // The weights matter: uniform draws would be far off.
        let uniform: f64 = weights
            .iter()
            .map(|&w| (1.0 / all.len() as f64 - w / total).abs())
            .sum::<f64>()
            / 2.0;
        assert!(uniform > 0.1, "uniform is {uniform:.3} away");
    }
}
