//! pimc's sampler speed: `cargo run --release --example pimc_sampler_speed [DEALS]`.
//! Deals per second drawn exactly uniformly (suit-length counting, the table built once), and
//! weighted by two auction clues (each one picked from 64 uniform candidates), for a hand of
//! mine at the start of the play and for a late position with voids.

use std::time::Instant;

use rand::SeedableRng;
use rand_pcg::Pcg64;
use tarneeb_referee::pimc::infer::Clue;
use tarneeb_referee::pimc::sample::Knowledge;
use tarneeb_referee::rules::{BySeat, CardSet, DealSource, Seat, Strain, Suit};

fn main() {
    let deals: usize = std::env::args()
        .nth(1)
        .map_or(20_000, |a| a.parse().expect("DEALS is a number"));
    let deal = DealSource::from_seed(7).next_deal();
    let mine = deal.hands()[Seat::S0];
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
    let mut rng = Pcg64::seed_from_u64(1);
    let time = |what: &str, k: &Knowledge, rng: &mut Pcg64, n: usize| {
        let t = Instant::now();
        let sampler = k.sampler();
        for _ in 0..n {
            sampler.fitting(rng).expect("a deal");
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{what}: {n} deals in {:.0} ms, {:.0} deals/s",
            s * 1e3,
            n as f64 / s
        );
    };
    time("whole deal, uniform", &k, &mut rng, deals);
    k.clues = vec![
        Clue {
            seat: Seat::S1,
            strain: Some(Strain::Trump(Suit::Spades)),
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
    time("whole deal, two clues", &k, &mut rng, deals / 20);
    // Later: 6 cards each left, seat 1 out of hearts.
    let mut late = k.clone();
    let rest: Vec<_> = late.unseen.iter().collect();
    late.unseen = rest[..18].iter().copied().collect();
    late.counts = BySeat([0, 6, 6, 6]);
    late.void[Seat::S1] = 1 << Suit::Hearts.index();
    late.clues.clear();
    if late.sampler().uniform(&mut rng).is_some() {
        time("6 cards a hand with voids, uniform", &late, &mut rng, deals);
    }
}
