//! Double-dummy speed: `cargo run --release --example dd_bench [DEALS] [RECORD]`.
//!
//! 1. A whole fresh deal for one trump and leader (the figure DDS publishes): mean and p99.
//! 2. Every position of one hand's play (52 cards): one `DdSolver` in order, whose
//!    transposition table carries over, against the batch over all cores.
//! 3. With RECORD: the whole game's `replay --analyze` analysis.

use std::time::{Duration, Instant};

use tarneeb_referee::analysis::{analyse_game, card_values_many, DdSolver, Position};
use tarneeb_referee::rules::{DealSource, Seat, Strain, Suit};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: usize = args
        .next()
        .map_or(200, |a| a.parse().expect("DEALS is a number"));
    let record = args.next();
    let mut source = DealSource::from_seed(2026);
    let mut dd = DdSolver::new();
    let mut times = Vec::with_capacity(deals);
    let mut hands = Vec::new();
    for i in 0..deals {
        let deal = source.next_deal();
        let trump = Strain::ALL[i % 5];
        let p = Position::new(deal.hands(), Some(trump), Seat::from_index(i));
        let t = Instant::now();
        let tricks = dd.tricks(&p).expect("a fresh deal solves");
        times.push(t.elapsed());
        assert!(tricks <= 13);
        if i < 5 {
            hands.push(p);
        }
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / deals as u32;
    println!(
        "fresh deal, one trump and leader, tricks only: {deals} deals, mean {:.2} ms, p50 {:.2} ms, p99 {:.2} ms",
        mean.as_secs_f64() * 1e3,
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3
    );

    // A hand played out by always playing the lowest legal card: its 52 positions.
    let mut positions = Vec::new();
    for start in &hands {
        let mut p = start.clone();
        p.trump = Some(Strain::Trump(Suit::Spades));
        while p.tricks_left() > 0 {
            positions.push(p.clone());
            let c = p.legal_cards().lowest().expect("a card to play");
            p.play(c).unwrap();
        }
    }
    let t = Instant::now();
    let mut dd = DdSolver::new();
    for p in &positions {
        dd.card_values(p).unwrap();
    }
    let seq = t.elapsed();
    let t = Instant::now();
    let batch = card_values_many(&positions);
    let par = t.elapsed();
    assert!(batch.iter().all(Result::is_ok));
    println!(
        "every card's value at every position of {} hands ({} positions): one solver in order {:.0} ms ({:.1} ms a hand), batch on all cores {:.0} ms ({:.1} ms a hand)",
        hands.len(),
        positions.len(),
        seq.as_secs_f64() * 1e3,
        seq.as_secs_f64() * 1e3 / hands.len() as f64,
        par.as_secs_f64() * 1e3,
        par.as_secs_f64() * 1e3 / hands.len() as f64
    );

    if let Some(path) = record {
        let game = tarneeb_referee::record::replay_file(path.as_ref()).expect("a valid record");
        let t = Instant::now();
        let a = analyse_game(&game).expect("the game analyses");
        println!(
            "{path}: {} hands played out, analysed in {:.0} ms",
            a.hands.len(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
