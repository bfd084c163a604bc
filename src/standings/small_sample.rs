//! Pieces of the small-sample statistics that both the head-to-head ([`super::stats`]) and the
//! ratings' fit ([`super::ratings`]) use: Student's t quantile, the five score classes of a
//! duplicate pair, and the pseudo-observation shared among the classes a sample never reached
//! (see [`super::stats`] for why a quarter).

/// The 97.5% quantile of Student's t with `df` degrees of freedom (two-sided 95%): a table to
/// 30, then the Cornish-Fisher expansion around the normal quantile (error below 1e-4).
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z = 1.959_963_984_540_054_f64;
            let v = df as f64;
            let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
        }
    }
}

/// Counts of scores in the five classes 0, .25, .5, .75, 1 (each score rounded to its class).
pub fn classes(scores: &[f64]) -> [u64; 5] {
    let mut c = [0u64; 5];
    for &s in scores {
        c[(s.clamp(0.0, 1.0) * 4.0).round() as usize] += 1;
    }
    c
}

/// The pseudo-observation shared among empty classes (see [`super::stats`]).
pub const PSEUDO: f64 = 0.25;

/// The classes a sample of `counts` can reach (0, .5, 1 when no .25 or .75 occurred: single
/// games) that it did not reach, as scores.
pub fn empty_classes(counts: &[f64; 5]) -> Vec<f64> {
    let penta = counts[1] + counts[3] > 0.0;
    (0..5)
        .filter(|&k| penta || k % 2 == 0)
        .filter(|&k| counts[k] <= 0.0)
        .map(|k| k as f64 / 4.0)
        .collect()
}
