//! Entrant against entrant: the crosstable (every game's points between two entrants on
//! opposite sides), the head-to-head of every two entrants that met (units, pentanomial counts,
//! score and Elo with 95% interval, likelihood of superiority; see [`super::stats`]), and
//! whether the leader's margin is beyond chance.

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use super::ratings::FitReport;
use super::stats::{mean_score_of_classes, normal_cdf, MeanScore};

/// One cell of the crosstable: the row entrant's points against the column entrant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub games: u64,
    /// 1 per game won, ½ per draw.
    pub points: f64,
}

/// Entrants in standings order; `cells[i][j]` is entrant i against entrant j.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crosstable {
    pub names: Vec<String>,
    pub cells: Vec<Vec<Cell>>,
}

/// Units between two entrants, from the lower-indexed one's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Meeting {
    pub pairs: u64,
    pub singles: u64,
    /// Units of each score class 0, ¼, ½, ¾, 1.
    pub classes: [u64; 5],
}

/// Two entrants' results against each other, from `a`'s side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    pub a: String,
    pub b: String,
    /// Duplicate pairs, and games without a twin, between them.
    pub pairs: u64,
    pub single_games: u64,
    /// Units of each score 0, ¼, ½, ¾, 1 for `a` (a game without a twin counts as 0, ½ or 1).
    pub pentanomial: [u64; 5],
    #[serde(flatten)]
    pub score: MeanScore,
    /// Rating difference `a − b` from the fit on all games, with its 95% interval.
    pub rating_diff: f64,
    pub rating_diff_low: f64,
    pub rating_diff_high: f64,
}

/// The head-to-head of every two entrants (in standings `order`) whose sides met, from their
/// meetings (keyed by the lower index; see [`super::tally`]).
pub fn head_to_head(
    names: &[String],
    meetings: &BTreeMap<(usize, usize), Meeting>,
    fit: &FitReport,
    order: &[usize],
) -> Vec<HeadToHead> {
    let mut out = Vec::new();
    for (x, &i) in order.iter().enumerate() {
        for &j in &order[x + 1..] {
            let Some(m) = meetings.get(&(i.min(j), i.max(j))) else {
                continue;
            };
            let mut classes = m.classes;
            if i > j {
                classes.reverse();
            }
            let Some(score) = mean_score_of_classes(classes) else {
                continue;
            };
            let (d, se) = difference(fit, i, j);
            out.push(HeadToHead {
                a: names[i].clone(),
                b: names[j].clone(),
                pairs: m.pairs,
                single_games: m.singles,
                pentanomial: classes,
                score,
                rating_diff: d,
                rating_diff_low: d - fit.quantile * se,
                rating_diff_high: d + fit.quantile * se,
            });
        }
    }
    out
}

/// The fitted difference `r_i − r_j` and its standard error.
pub fn difference(fit: &FitReport, i: usize, j: usize) -> (f64, f64) {
    let c = &fit.covariance;
    let var = c[i][i] + c[j][j] - 2.0 * c[i][j];
    (fit.ratings[i].elo - fit.ratings[j].elo, var.max(0.0).sqrt())
}

/// Whether the leader stands out beyond chance among all entrants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderNote {
    pub leader: String,
    /// The entrant whose rating is closest to the leader's, relative to its error.
    pub closest: String,
    pub margin: f64,
    /// The margin over `closest` in standard errors of the difference.
    pub z: f64,
    /// The margin, in standard errors, that the top of `k` equal entrants exceeds by chance in
    /// 5% of tournaments (see [`chance_margin`]), and never less than the quantile of the
    /// fitted-difference interval: a leader called clear has that interval above 0.
    pub z_needed: f64,
    pub clear: bool,
    /// The degrees of freedom of the fit's Student's t (its intervals' quantile), from which
    /// the chance that the leader is the stronger is read too; None: the normal law.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub df: Option<u64>,
}

/// The leader (`order[0]`) is clear when its fitted margin over every other entrant, in
/// standard errors of the difference, exceeds [`chance_margin`] for the number of entrants and
/// the fit's own quantile (so the fitted-difference interval of head to head excludes 0).
pub fn leader_note(names: &[String], fit: &FitReport, order: &[usize]) -> Option<LeaderNote> {
    let k = order.len();
    if k < 2 {
        return None;
    }
    let top = order[0];
    let z_needed = chance_margin(k).max(fit.quantile);
    let (closest, margin, z) = order[1..]
        .iter()
        .map(|&j| {
            let (d, se) = difference(fit, top, j);
            let z = if se > 0.0 { d / se } else { f64::INFINITY };
            (j, d, z)
        })
        .min_by(|x, y| x.2.total_cmp(&y.2))?;
    Some(LeaderNote {
        leader: names[top].clone(),
        closest: names[closest].clone(),
        margin,
        z,
        z_needed,
        clear: z >= z_needed,
        df: fit.df,
    })
}

/// The margin `c` (in standard errors of a difference) by which the top of `k` equally strong
/// entrants leads all the others in 5% of tournaments, when the ratings' errors are
/// independent and equal (σ each, so a difference has error σ√2):
///
/// ```text
/// P(top leads every other by c σ√2) = k ∫ φ(x) Φ(x − c√2)^(k−1) dx = 0.05
/// ```
///
/// solved by bisection. For two entrants it is 1.96 (the top is whoever is ahead, so the
/// two-sided test); it falls as entrants are added, because leading *every* other entrant by a
/// margin is harder than leading one: 1.36 among four, 1.04 among ten. Comparing the leader's
/// margin with it answers "is the leader ahead by more than luck puts the top of this field",
/// which the entrants' own intervals do not (the top of four identical bots has an interval
/// clear of the field mean more often than 5%: 7.5% against 3.5% for this margin in the test).
pub fn chance_margin(k: usize) -> f64 {
    let k = k.max(2);
    // Fields up to 32 from the table (the bisection costs about a millisecond, and a league
    // computes its standings after every game); a test solves each again.
    match KNOWN_MARGINS.get(k - 2) {
        Some(&c) => c,
        None => solve_chance_margin(k),
    }
}

/// [`chance_margin`] of 2 to 32 entrants, as [`solve_chance_margin`] gives them.
const KNOWN_MARGINS: [f64; 31] = [
    1.9599639799807846,
    1.5344382707307886,
    1.355766009940453,
    1.2523621204009032,
    1.1830502878756306,
    1.1324597032516976,
    1.0934185958749367,
    1.0620840207875517,
    1.0361911448062529,
    1.0143087546193783,
    0.9954827803876469,
    0.9790497501862774,
    0.9645321668604083,
    0.9515764707657581,
    0.9399145315810529,
    0.9293388109608713,
    0.9196858119439639,
    0.9108247364047202,
    0.9026495194293602,
    0.8950731139548225,
    0.8880233112604401,
    0.8814396323459732,
    0.8752709804421102,
    0.8694738437088745,
    0.8640109019843294,
    0.8588499344141383,
    0.8539629540364331,
    0.8493255155981387,
    0.8449161570833894,
    0.8407159453608983,
    0.8367081038331889,
];

fn solve_chance_margin(k: usize) -> f64 {
    let tail = |c: f64| {
        let (lo, hi, steps) = (-8.0, 8.0, 800);
        let h = (hi - lo) / steps as f64;
        let mut sum = 0.0;
        for s in 0..=steps {
            let x = lo + s as f64 * h;
            let w = if s == 0 || s == steps { 0.5 } else { 1.0 };
            let density = (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
            sum += w * density * normal_cdf(x - c * std::f64::consts::SQRT_2).powi(k as i32 - 1);
        }
        k as f64 * sum * h
    };
    let (mut lo, mut hi) = (0.0f64, 6.0f64);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if tail(mid) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::ratings::{fit_with, FitOptions, Observation};
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_top_of_identical_entrants_is_rarely_called_clear() {
        // Four identical entrants, a round robin of 10 duplicate pairs per match, pair scores
        // drawn from a symmetric pentanomial: the leader is called clear in about 5% of 400
        // tournaments, while its own interval lies above the field mean far more often.
        let p = [0.05, 0.15, 0.60, 0.15, 0.05];
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(13);
        let (mut clear, mut own) = (0, 0);
        let runs = 400;
        for _ in 0..runs {
            let mut obs = Vec::new();
            for i in 0..4 {
                for j in i + 1..4 {
                    for _ in 0..10 {
                        let mut u: f64 = rng.gen();
                        let mut k = 0;
                        while k < 4 && u >= p[k] {
                            u -= p[k];
                            k += 1;
                        }
                        obs.push(Observation {
                            side0: vec![i, i],
                            side1: vec![j, j],
                            score0: k as f64 / 4.0,
                            weight: 1.0,
                        });
                    }
                }
            }
            let fit = fit_with(4, &obs, &FitOptions::default());
            let mut order: Vec<usize> = (0..4).collect();
            order.sort_by(|&a, &b| fit.ratings[b].elo.total_cmp(&fit.ratings[a].elo));
            let note = leader_note(&names, &fit, &order).unwrap();
            clear += usize::from(note.clear);
            own += usize::from(fit.ratings[order[0]].low > 0.0);
        }
        let (clear, own) = (clear as f64 / runs as f64, own as f64 / runs as f64);
        eprintln!("called clear: {clear:.3} (own interval above 0: {own:.3})");
        // The note also needs the fitted-difference interval above 0 (t quantile ≥ 1.96, more
        // than the 1.36 of four entrants), so it is called clear less often than 5%.
        assert!(clear <= 0.05, "{clear}");
        assert!(own > 2.0 * clear, "{own} {clear}");
    }

    #[test]
    fn a_clear_leader_has_its_difference_interval_above_zero() {
        // Four entrants, a leader 1.63 standard errors ahead of the next: beyond the chance
        // margin of four (1.36) but not beyond the interval's quantile: not clear.
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut obs = Vec::new();
        for (i, j, s, n) in [
            (0, 1, 0.53, 40),
            (0, 2, 0.6, 40),
            (0, 3, 0.6, 40),
            (1, 2, 0.5, 40),
        ] {
            for _ in 0..n {
                obs.push(Observation {
                    side0: vec![i, i],
                    side1: vec![j, j],
                    score0: s,
                    weight: 1.0,
                });
            }
        }
        // The same score every pair would have no variance: alternate around it.
        for (k, o) in obs.iter_mut().enumerate() {
            o.score0 += if k % 2 == 0 { 0.25 } else { -0.25 };
        }
        let fit = fit_with(4, &obs, &FitOptions::default());
        let order = [0, 1, 2, 3];
        let note = leader_note(&names, &fit, &order).unwrap();
        let (d, se) = difference(&fit, 0, 1);
        eprintln!("{note:?} d {d} se {se} q {}", fit.quantile);
        assert!(note.z > chance_margin(4), "{note:?}");
        assert!(note.z < fit.quantile, "{note:?}");
        assert!(
            !note.clear,
            "called clear with {d:+.1} ± {:.1}",
            fit.quantile * se
        );
        assert!(note.z_needed >= fit.quantile);
    }

    #[test]
    fn the_table_of_margins_is_what_the_bisection_gives() {
        for (i, &c) in KNOWN_MARGINS.iter().enumerate() {
            assert_eq!(c, solve_chance_margin(i + 2), "{} entrants", i + 2);
        }
        assert_eq!(chance_margin(33), solve_chance_margin(33));
    }

    #[test]
    fn chance_margins() {
        // Two entrants: P(|Z| > c) = 5%, c = 1.96.
        assert!(
            (chance_margin(2) - 1.96).abs() < 1e-3,
            "{}",
            chance_margin(2)
        );
        let (four, ten) = (chance_margin(4), chance_margin(10));
        eprintln!("chance margin: 4 entrants {four:.3}, 10 entrants {ten:.3}");
        assert!(four < 1.96 && ten < four);
    }
}
