//! Issue 40 point 5: the ratings' intervals do not depend on which side a result row calls
//! side 0 (see [`super::ratings`]).

use super::ratings::{fit_with, FitOptions, Observation};

/// Issue 40 point 5: "Intervals symmetric in the labelling of sides (a test that swaps
/// sides in every row)". Three entrants, single games and duplicate pairs with labels mixed
/// (some rows name the stronger side first, some second) and a score class never reached,
/// so the pseudo-observation counts: swapping the sides of every row (and of half of them)
/// gives the same ratings and intervals.
#[test]
fn intervals_do_not_depend_on_which_side_a_row_calls_side_0() {
    let mut obs = Vec::new();
    let rows: [(usize, usize, f64, f64); 9] = [
        (0, 1, 1.0, 3.0),
        (1, 0, 0.0, 2.0),
        (0, 1, 0.5, 1.0),
        (2, 0, 1.0, 1.0),
        (0, 2, 1.0, 2.0),
        (2, 0, 0.0, 3.0),
        (1, 2, 1.0, 2.0),
        (2, 1, 1.0, 1.0),
        (1, 2, 0.75, 2.0),
    ];
    for &(a, b, score0, weight) in &rows {
        obs.push(Observation {
            side0: vec![a],
            side1: vec![b],
            score0,
            weight,
        });
    }
    let swap = |o: &Observation| Observation {
        side0: o.side1.clone(),
        side1: o.side0.clone(),
        score0: 1.0 - o.score0,
        weight: o.weight,
    };
    let all: Vec<_> = obs.iter().map(swap).collect();
    let half: Vec<_> = obs
        .iter()
        .enumerate()
        .map(|(k, o)| if k % 2 == 0 { swap(o) } else { o.clone() })
        .collect();
    let base = fit_with(3, &obs, &FitOptions::default());
    for other in [&all, &half] {
        let rep = fit_with(3, other, &FitOptions::default());
        assert!(
            (rep.dispersion - base.dispersion).abs() < 1e-9,
            "{rep:?} {base:?}"
        );
        for (x, y) in rep.ratings.iter().zip(&base.ratings) {
            assert!((x.elo - y.elo).abs() < 1e-6, "{x:?} {y:?}");
            assert!((x.low - y.low).abs() < 1e-6, "{x:?} {y:?}");
            assert!((x.high - y.high).abs() < 1e-6, "{x:?} {y:?}");
        }
    }
}
