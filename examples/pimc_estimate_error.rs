//! How well the hand estimate (`pimc::infer::estimate`, my hand's plus my partner's) follows
//! my side's double-dummy tricks as the unseen hands vary, which is what lets a pimc call
//! judge hundreds of estimated deals around a few solved ones. For random hands of mine,
//! deals the other 39 cards many times and solves each in every strain (me leading):
//! prints the mean of solved minus estimated tricks (the bias), the spread of the solved
//! tricks over the deals of one hand of mine (what a call must judge), and the spread of
//! solved minus estimated (what the estimate leaves unexplained).
//!
//!     cargo run --release --example pimc_estimate_error [HANDS] [DEALS_PER_HAND]

use rand::seq::SliceRandom;
use rand::SeedableRng;
use tarneeb_referee::analysis::{solve_many, Position, Want};
use tarneeb_referee::pimc::infer::estimate;
use tarneeb_referee::rules::{BySeat, Card, CardSet, Seat, Strain};

fn sd(xs: &[f64]) -> f64 {
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() as f64 - 1.0)).sqrt()
}

fn main() {
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let (hands, deals) = (arg(1, 12), arg(2, 10));
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let (mut errors, mut spread_t, mut spread_e) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..hands {
        let mut cards: Vec<Card> = CardSet::FULL.iter().collect();
        cards.shuffle(&mut rng);
        let mine: CardSet = cards[..13].iter().copied().collect();
        let mut rest = cards[13..].to_vec();
        let mut per = vec![(Vec::new(), Vec::new()); Strain::ALL.len()];
        for _ in 0..deals {
            rest.shuffle(&mut rng);
            let mut h = BySeat([CardSet::EMPTY; 4]);
            h[Seat::S0] = mine;
            for (i, &c) in rest.iter().enumerate() {
                h[Seat::ALL[1 + i / 13]].insert(c);
            }
            let ps: Vec<Position> = Strain::ALL
                .iter()
                .map(|&s| Position::new(h, Some(s), Seat::S0))
                .collect();
            for (j, v) in solve_many(&ps, Want::Best).into_iter().enumerate() {
                let t = f64::from(v.unwrap().best());
                let s = Strain::ALL[j];
                let e = estimate(h[Seat::S0], s) + estimate(h[Seat::S2], s);
                per[j].0.push(t);
                per[j].1.push(t - e);
                errors.push(t - e);
            }
        }
        for (t, e) in &per {
            spread_t.push(sd(t));
            spread_e.push(sd(e));
        }
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    println!(
        "{hands} hands x {deals} deals x 5 strains: solved - estimated tricks {:+.2} on average; \
         spread over one hand's deals: solved {:.2}, solved - estimated {:.2}",
        mean(&errors),
        mean(&spread_t),
        mean(&spread_e)
    );
}
