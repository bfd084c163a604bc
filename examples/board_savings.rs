//! How many duplicate pairs an SPRT needs on game results and on board scores, from the pairs
//! of a finished two-entrant tournament: each run draws the tournament's pairs at random (with
//! replacement) until the test decides, on both statistics from the same draws.
//!
//!     cargo run --release --example board_savings -- DIR [ELO0 ELO1 [RUNS]]
//!
//! The first entrant is tested against the second (as `--sprt` does); the statistics are the
//! pair's mean game score, and who won the boards on points and on the IMP-like scale.

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use tarneeb_referee::standings::boards::{unit_boards, BoardScale};
use tarneeb_referee::standings::pairs::units;
use tarneeb_referee::standings::sprt::{sprt, SprtConfig, SprtDecision, Units};
use tarneeb_referee::tournament::directory::TournamentDir;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: board_savings DIR [ELO0 ELO1 [RUNS]]");
        std::process::exit(2);
    };
    let num = |i: usize, d: f64| args.get(i).and_then(|v| v.parse().ok()).unwrap_or(d);
    let cfg = SprtConfig {
        elo0: num(1, 0.0),
        elo1: num(2, 10.0),
        alpha: 0.05,
        beta: 0.05,
        boards: None,
        model: Default::default(),
    };
    let runs = num(3, 2000.0) as usize;
    let rows = TournamentDir::open(&dir)
        .and_then(|d| d.read_rows())
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
    let first = rows
        .iter()
        .min_by_key(|r| r.game)
        .map(|r| r.seats[0].clone())
        .expect("rows");
    // Per pair: (game score, boards on points, boards on IMPs) for the first game's team 0,
    // turned to the entrant `first`'s point of view.
    let mut pairs: Vec<[f64; 3]> = Vec::new();
    let (mut hands, mut boards) = (0usize, 0usize);
    for u in units(&rows).iter().filter(|u| u.is_pair()) {
        let (Some(p), Some(i)) = (
            unit_boards(u, BoardScale::Points),
            unit_boards(u, BoardScale::Imps),
        ) else {
            continue;
        };
        hands += u.rows.iter().map(|r| r.hand_deltas.len()).sum::<usize>();
        boards += p.hands;
        let flip = |s: f64| {
            if u.side0.contains(&first.as_str()) {
                s
            } else {
                1.0 - s
            }
        };
        pairs.push([flip(u.score0), flip(p.score()), flip(i.score())]);
    }
    let n = pairs.len();
    if n == 0 {
        eprintln!("{}: no duplicate pairs with hand results", dir.display());
        std::process::exit(2);
    }
    let mean = |k: usize| pairs.iter().map(|p| p[k]).sum::<f64>() / n as f64;
    let split = pairs.iter().filter(|p| p[0] == 0.5).count();
    println!(
        "{n} pairs of {first}: {split} split ({:.0}%), {boards} of {hands} hands are boards; mean score: results {:.3}, boards {:.3}, boards (IMPs) {:.3}",
        100.0 * split as f64 / n as f64,
        mean(0),
        mean(1),
        mean(2)
    );
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    let cap = 20 * n.max(500);
    let mut total = [0usize; 3];
    let mut decided = [0usize; 3];
    let mut h1 = [0usize; 3];
    for _ in 0..runs {
        let mut scores: [Vec<f64>; 3] = Default::default();
        let mut done = [false; 3];
        for step in 1..=cap {
            let p = pairs[rng.gen_range(0..n)];
            for k in 0..3 {
                if done[k] {
                    continue;
                }
                scores[k].push(p[k]);
                let s = sprt(
                    &cfg,
                    if k == 0 { Units::Pairs } else { Units::Games },
                    &scores[k],
                );
                if s.decision != SprtDecision::Continue || step == cap {
                    done[k] = true;
                    total[k] += step;
                    if s.decision != SprtDecision::Continue {
                        decided[k] += 1;
                    }
                    if s.decision == SprtDecision::AcceptH1 {
                        h1[k] += 1;
                    }
                }
            }
            if done.iter().all(|&d| d) {
                break;
            }
        }
    }
    let names = ["results", "boards (points)", "boards (IMPs)"];
    for k in 0..3 {
        println!(
            "{:<16} mean pairs to a decision {:>8.1}  ({:.2} of results)  decided {:.1}%  H1 {:.1}%",
            names[k],
            total[k] as f64 / runs as f64,
            total[k] as f64 / total[0] as f64,
            100.0 * decided[k] as f64 / runs as f64,
            100.0 * h1[k] as f64 / runs as f64
        );
    }
}
