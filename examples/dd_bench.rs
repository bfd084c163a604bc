//! Double-dummy speed: `cargo run --release --example dd_bench [DEALS] [RECORD...]`.
//!
//! 1. A whole fresh deal for one trump and leader (the figure DDS publishes): mean and p99.
//! 2. Every position of one hand's play (52 cards): one `DdSolver` in order against the
//!    batch over all cores. (DEALS = 0 skips 1 and 2.)
//! 3. With RECORDs: each whole game's analysis, in process CPU time (all threads) and wall
//!    time: `replay --analyze`'s fast path, the reference path that solves every position,
//!    and the card-play accuracy alone (`tournament --analyze`); then the means per game.

use std::time::{Duration, Instant};

use tarneeb_referee::analysis::{
    analyse_game_by, card_values_many, game_accuracy, DdSolver, Method, Position,
};
use tarneeb_referee::rules::{DealSource, Seat, Strain, Suit};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: usize = args
        .next()
        .map_or(200, |a| a.parse().expect("DEALS is a number"));
    let records: Vec<String> = args.collect();
    if deals > 0 {
        fresh_deals_and_one_hand(deals);
    }
    if !records.is_empty() {
        whole_games(&records);
    }
}

/// CPU time of the whole process (every thread), in seconds.
fn cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn whole_games(records: &[String]) {
    let mut sums = [(0.0, 0.0); 3];
    let mut hands = 0;
    for path in records {
        let game = tarneeb_referee::record::replay_file(path.as_ref()).expect("a valid record");
        let mut line = String::new();
        for (i, sum) in sums.iter_mut().enumerate() {
            let (c, w) = (cpu(), Instant::now());
            let n = match i {
                0 => analyse_game_by(&game, Method::Play)
                    .expect("analyses")
                    .hands
                    .len(),
                1 => analyse_game_by(&game, Method::Positions)
                    .expect("analyses")
                    .hands
                    .len(),
                _ => game_accuracy(&game).expect("analyses").1.cards as usize / 52,
            };
            let (c, w) = (cpu() - c, w.elapsed().as_secs_f64());
            sum.0 += c;
            sum.1 += w;
            if i == 0 {
                hands += n;
                line = format!("{path}: {n} hands played out;");
            }
            line += &format!(" {:.0} ms CPU ({:.0} ms wall)", c * 1e3, w * 1e3);
        }
        println!("{line}   [fast / reference / accuracy only]");
    }
    let n = records.len() as f64;
    println!(
        "mean per game over {} games ({:.1} hands each): fast {:.0} ms CPU ({:.0} ms wall), reference {:.0} ms CPU ({:.0} ms wall), accuracy only {:.0} ms CPU ({:.0} ms wall)",
        records.len(),
        hands as f64 / n,
        sums[0].0 / n * 1e3,
        sums[0].1 / n * 1e3,
        sums[1].0 / n * 1e3,
        sums[1].1 / n * 1e3,
        sums[2].0 / n * 1e3,
        sums[2].1 / n * 1e3,
    );
}

fn fresh_deals_and_one_hand(deals: usize) {
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
}
