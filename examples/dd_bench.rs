//! Double-dummy speed: `cargo run --release --example dd_bench [DEALS] [RECORD...]`.
//!
//! 1. A whole fresh deal for one trump and leader (the figure DDS publishes): mean and p99.
//! 2. Every position of one hand's play (52 cards): one `DdSolver` in order against the
//!    batch over all cores. (DEALS = 0 skips 1 and 2.)
//!    Both for the best value only (what the strain table asks) and for the value of every
//!    lead (`solutions=3`, what DDS's own figures time).
//! 3. With RECORDs: each whole game's analysis, in process CPU time (all threads) and wall
//!    time: `replay --analyze`'s fast path and, inside it, the strain table's solves; the
//!    reference path that solves every position (the algorithm before the play analyser);
//!    and the card-play accuracy alone (`tournament --analyze`); then the mean and p99 per
//!    game of each. `bench/analysis.sh` makes a fixed set of records and runs this.

use std::time::{Duration, Instant};

use tarneeb_referee::analysis::{
    analyse_game_by, card_values_many, game_accuracy, solve_many, strain_table, DdSolver, Method,
    Position, Want,
};
use tarneeb_referee::rules::{DealSource, Seat, Strain, Suit, TrumpChoice};

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

/// Mean and p99 of a set of figures, in milliseconds.
fn mean_p99(xs: &[f64]) -> (f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let p99 = v[((v.len() as f64 - 1.0) * 0.99).round() as usize];
    (mean * 1e3, p99 * 1e3)
}

/// What each trump would have made for the declarer, the declarer leading, for every
/// contract hand played out, less the trump played where its start is the par's (the play
/// analyser finds that one): the positions `replay --analyze` solves for its strain table.
fn strain_positions(game: &tarneeb_referee::record::verified::VerifiedGame) -> Vec<Position> {
    let mut out = Vec::new();
    let Some(rules) = &game.header.rules.contract else {
        return out;
    };
    for h in &game.hands {
        let Some(c) = &h.contract else { continue };
        if h.tricks.len() != 13 {
            continue;
        }
        for (s, p) in strain_table(h.hands, c.declarer, rules) {
            if Some(s) == h.trump && rules.trump != TrumpChoice::FirstLead {
                continue;
            }
            out.push(p);
        }
    }
    out
}

fn whole_games(records: &[String]) {
    const NAMES: [&str; 4] = [
        "replay --analyze (fast path)",
        "  of which the strain table",
        "the reference (every position solved afresh)",
        "card-play accuracy only (tournament --analyze)",
    ];
    // Per method: CPU and wall seconds of each game.
    let mut runs: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); NAMES.len()];
    let mut hands = 0;
    for path in records {
        let game = tarneeb_referee::record::replay_file(path.as_ref()).expect("a valid record");
        let mut line = String::new();
        for (i, run) in runs.iter_mut().enumerate() {
            let (c, w) = (cpu(), Instant::now());
            let n = match i {
                0 => analyse_game_by(&game, Method::Play)
                    .expect("analyses")
                    .hands
                    .len(),
                1 => solve_many(&strain_positions(&game), Want::Best).len(),
                2 => analyse_game_by(&game, Method::Positions)
                    .expect("analyses")
                    .hands
                    .len(),
                _ => game_accuracy(&game).expect("analyses").1.cards as usize / 52,
            };
            let (c, w) = (cpu() - c, w.elapsed().as_secs_f64());
            run.0.push(c);
            run.1.push(w);
            if i == 0 {
                hands += n;
                line = format!("{path}: {n} hands played out;");
            }
            line += &format!(" {:.0} ms CPU ({:.0} ms wall)", c * 1e3, w * 1e3);
        }
        println!("{line}   [fast / its strain table / reference / accuracy only]");
    }
    println!(
        "per game over {} games ({:.1} hands played out each), CPU of all threads and wall:",
        records.len(),
        hands as f64 / records.len() as f64
    );
    for (name, (c, w)) in NAMES.iter().zip(&runs) {
        let ((cm, cp), (wm, wp)) = (mean_p99(c), mean_p99(w));
        println!(
            "  {name}: CPU mean {cm:.0} ms, p99 {cp:.0} ms; wall mean {wm:.0} ms, p99 {wp:.0} ms"
        );
    }
}

/// One line of fresh-deal solve times: wall per deal (mean, p50, p99) and CPU per deal.
fn report_fresh(what: &str, deals: usize, times: &mut [Duration], cpu_used: f64) {
    times.sort();
    let mean = times.iter().sum::<Duration>() / deals as u32;
    println!(
        "fresh deal, one trump and leader, {what}: {deals} deals, wall mean {:.1} ms, p50 {:.1} ms, p99 {:.1} ms; CPU {:.1} ms a deal",
        mean.as_secs_f64() * 1e3,
        percentile(times, 0.5).as_secs_f64() * 1e3,
        percentile(times, 0.99).as_secs_f64() * 1e3,
        cpu_used / deals as f64 * 1e3
    );
}

fn fresh_deals_and_one_hand(deals: usize) {
    let mut source = DealSource::from_seed(2026);
    let mut dd = DdSolver::new();
    let mut times = Vec::with_capacity(deals);
    let mut hands = Vec::new();
    let c0 = cpu();
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
    let cpu_used = cpu() - c0;
    report_fresh("tricks only (solutions=1)", deals, &mut times, cpu_used);

    // The figure DDS publishes: the value of every opening lead (solutions=3).
    let mut source = DealSource::from_seed(2026);
    let mut times = Vec::with_capacity(deals);
    let c0 = cpu();
    for i in 0..deals {
        let deal = source.next_deal();
        let p = Position::new(deal.hands(), Some(Strain::ALL[i % 5]), Seat::from_index(i));
        let t = Instant::now();
        let v = dd.card_values(&p).expect("a fresh deal solves");
        times.push(t.elapsed());
        assert!(v.best() <= 13);
    }
    report_fresh(
        "every lead valued (solutions=3)",
        deals,
        &mut times,
        cpu() - c0,
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
