//! Small-sample statistics of a head-to-head: the mean score of a list of unit scores (pairs
//! score 0, .25, .5, .75 or 1; single games 0, .5 or 1), its 95% interval, the Elo of both, and
//! the likelihood of superiority.
//!
//! The formulas are those of the chess testers (fastchess's pentanomial Elo, fishtest's
//! `LLRcalc`): the mean `x̄`, the per-unit variance `σ²`, the error of the mean
//! `SE = sqrt(σ² / N)`, the interval `x̄ ± q · SE` mapped to Elo with `−400 log10(1/s − 1)`.
//!
//! LOS is fastchess's, exactly: `LOS = (1 − erf(−(x̄ − ½) / sqrt(2 σ²/N))) / 2 = Φ((x̄ − ½) /
//! sqrt(σ²/N))` with `σ²` the *population* variance of the units (no pseudo-observations), the
//! (normal, flat-prior) probability that the true score is above one half (fastchess's
//! `EloPentanomial::los` on pairs, `EloWDL::los` on games). It is withheld (`None`, printed
//! "n/a") when the normal law cannot speak: every unit scored alike (σ² = 0, where fastchess
//! divides by zero), or LOS says the score is beyond ½ at 2.5% on one side (LOS ≥ 97.5% or
//! ≤ 2.5%) while the 95% interval beside it still holds ½ (few units: the t interval below
//! is wider than the normal law).
//!
//! Two changes make the interval hold near 95% on few pairs, where the chess testers' normal
//! interval (q = 1.96, population variance) is too narrow, and a plain t interval collapses when
//! every pair split (a common sample with four pairs of close bots):
//! - `q` is Student's t quantile with `N − 1` degrees of freedom and `σ²` the sample variance
//!   (divided by `N − 1`);
//! - a sample in which some score classes never occurred gets a quarter of a pseudo-observation
//!   shared equally among the empty classes (the SPRT shares a whole one, see [`super::sprt`])
//!   in the variance only, so a sample of identical scores keeps a width. It vanishes once every
//!   class occurs. A quarter was chosen by simulation among 1, 1/2, 1/4, 1/10 and none: with
//!   none, four pairs of close bots (78% splits) cover 63% of the time; with a whole one,
//!   100% up to 10 pairs; with a quarter 0.99-1.00 at 4 pairs, 0.97-1.00 at 10, 0.95-0.98 at
//!   20 and 0.95-0.96 at 50 (the test `coverage_by_simulation`). At four pairs of close bots
//!   37% of samples are four splits, so no interval of the mean can be near 95% there.

use serde::{Deserialize, Serialize};

use super::ratings::elo_from_score;
use super::small_sample::PSEUDO;
pub use super::small_sample::{classes, t975};

/// Φ, the standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1.2e-7 relative (Numerical Recipes' Chebyshev
/// fit `erfcc`).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The distribution function of Student's t with `df` degrees of freedom at `x`, the law of
/// [`t975`]: `t_cdf(t975(df), df)` is 0.975, so an interval `d ± t975(df)·se` holds 0 exactly
/// when `t_cdf(d / se, df)` is between 2.5% and 97.5% (issue 40: the headline's interval and its
/// "N% sure" from one law). Exact for whole `df` (the finite series of Abramowitz and Stegun
/// 26.7.3 and 26.7.4 in θ = atan(x/√df)); `df` 0 is read as 1, and above 100,000 the normal
/// law, which it then equals to about 1e-6.
pub fn t_cdf(x: f64, df: u64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.is_infinite() {
        return if x > 0.0 { 1.0 } else { 0.0 };
    }
    let df = df.max(1);
    if df > 100_000 {
        return normal_cdf(x);
    }
    let v = df as f64;
    let theta = (x.abs() / v.sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    // A = P(|T| < |x|).
    let a = if df % 2 == 1 {
        let mut sum = 0.0;
        if df > 1 {
            let mut term = c;
            sum = term;
            let mut k = 3;
            while k < df {
                term *= c2 * (k - 1) as f64 / k as f64;
                sum += term;
                k += 2;
            }
        }
        2.0 / std::f64::consts::PI * (theta + s * sum)
    } else {
        let mut term = 1.0;
        let mut sum = 1.0;
        let mut k = 2;
        while k < df {
            term *= c2 * (k - 1) as f64 / k as f64;
            sum += term;
            k += 2;
        }
        s * sum
    };
    let a = a.clamp(0.0, 1.0);
    if x >= 0.0 {
        0.5 + a / 2.0
    } else {
        0.5 - a / 2.0
    }
}

/// Φ⁻¹(p) for 0 < p < 1 (Acklam's rational approximation, refined by one Newton step).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let x = if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Newton step on Φ(x) = p.
    let e = normal_cdf(x) - p;
    let density = (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    x - e / density
}

/// The mean of unit scores with its interval, in score and in Elo.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanScore {
    /// Units (pairs, or games without a twin).
    pub n: u64,
    pub score: f64,
    /// The 95% interval of the score.
    pub low: f64,
    pub high: f64,
    /// The same in Elo (see [`elo_of`] for scores of 0 and 1).
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Likelihood of superiority: the probability that the true score exceeds one half, as
    /// fastchess computes it; `None` with too few games (module documentation).
    pub los: Option<f64>,
}

/// fastchess's likelihood of superiority of unit scores counted per class 0, ¼, ½, ¾, 1:
/// `Φ((x̄ − ½) / sqrt(σ²/N))`, σ² the population variance; `None` without units or spread.
pub fn los_fastchess(counts: [u64; 5]) -> Option<f64> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean = (0..5)
        .map(|k| counts[k] as f64 * k as f64 / 4.0)
        .sum::<f64>()
        / nf;
    let var = (0..5)
        .map(|k| counts[k] as f64 * (k as f64 / 4.0 - mean).powi(2))
        .sum::<f64>()
        / nf;
    if var <= 0.0 {
        return None;
    }
    Some(normal_cdf((mean - 0.5) / (var / nf).sqrt()))
}

/// Elo of a score, kept finite (±1200 at a score of 0 or 1, about 1000 to 1 odds).
pub fn elo_of(s: f64) -> f64 {
    elo_from_score(s.clamp(0.001, 0.999))
}

/// See the module documentation; `None` without scores.
pub fn mean_score(scores: &[f64]) -> Option<MeanScore> {
    mean_score_of_classes(classes(scores))
}

/// [`mean_score`] of scores given as counts per class (unit scores are always one of the five
/// classes, so nothing is lost; the standings keep only these counts).
pub fn mean_score_of_classes(counts: [u64; 5]) -> Option<MeanScore> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let value = |k: usize| k as f64 / 4.0;
    let mean = (0..5).map(|k| counts[k] as f64 * value(k)).sum::<f64>() / nf;
    let mut ss: f64 = (0..5)
        .map(|k| counts[k] as f64 * (value(k) - mean).powi(2))
        .sum();
    // Only the classes the kind of unit can reach: 0, .5, 1 when no .25 or .75 occurred.
    let penta = counts[1] + counts[3] > 0;
    let reachable: Vec<usize> = if penta {
        (0..5).collect()
    } else {
        vec![0, 2, 4]
    };
    let empty: Vec<usize> = reachable.into_iter().filter(|&k| counts[k] == 0).collect();
    let mut weight = 0.0;
    if !empty.is_empty() {
        let w = PSEUDO / empty.len() as f64;
        for &k in &empty {
            ss += w * (k as f64 / 4.0 - mean).powi(2);
        }
        weight = PSEUDO;
    }
    let var = ss / (nf - 1.0 + weight).max(weight);
    let se = (var / nf).sqrt();
    let q = t975(n.saturating_sub(1).max(1));
    let (low, high) = ((mean - q * se).max(0.0), (mean + q * se).min(1.0));
    let los = los_fastchess(counts).filter(|&l| {
        let beyond_high = l >= 0.975 && low <= 0.5;
        let beyond_low = l <= 0.025 && high >= 0.5;
        !(beyond_high || beyond_low)
    });
    Some(MeanScore {
        n,
        score: mean,
        low,
        high,
        elo: elo_of(mean),
        elo_low: elo_of(low),
        elo_high: elo_of(high),
        los,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn quantiles() {
        assert!((normal_cdf(1.959964) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_quantile(0.975) - 1.959964).abs() < 1e-6);
        assert!((normal_quantile(0.9875) - 2.241403).abs() < 1e-5);
        // t(0.975, 99) = 1.984217, t(0.975, 40) = 2.021075, t(0.975, 31) = 2.039513.
        assert!((t975(99) - 1.984217).abs() < 1e-4, "{}", t975(99));
        assert!((t975(40) - 2.021075).abs() < 1e-4, "{}", t975(40));
        assert!((t975(31) - 2.039513).abs() < 2e-4, "{}", t975(31));
        assert_eq!(t975(3), 3.1824);
    }

    #[test]
    fn worked_example_against_the_pentanomial_formulas() {
        // 100 pairs, counts [5, 20, 40, 25, 10]: x̄ = 0.5375, population σ² = 0.06421875.
        // fastchess: SE = sqrt(σ²/N) = 0.0253414, LOS = Φ(0.0375 / 0.0253414) = 0.930535,
        // Elo = −400 log10(1/0.5375 − 1) = 26.1067.
        // Here σ² is the sample variance 0.06421875 × 100/99 = 0.0648674, SE = 0.0254691,
        // LOS = Φ(1.47237) = 0.929540, and the interval 0.5375 ± t(99) SE = 0.5375 ± 1.984217 ×
        // 0.0254691 = [0.486964, 0.588036], in Elo [−9.0605, +61.8180].
        let mut scores = Vec::new();
        for (k, c) in [5, 20, 40, 25, 10].into_iter().enumerate() {
            scores.extend(std::iter::repeat_n(k as f64 * 0.25, c));
        }
        assert_eq!(classes(&scores), [5, 20, 40, 25, 10]);
        let m = mean_score(&scores).unwrap();
        assert_eq!(m.n, 100);
        assert!((m.score - 0.5375).abs() < 1e-12);
        assert!((m.elo - 26.1067).abs() < 1e-3, "{m:?}");
        // LOS is fastchess's (population variance): 0.930535.
        assert!((m.los.unwrap() - 0.930535).abs() < 1e-6, "{m:?}");
        assert!((m.low - 0.486964).abs() < 1e-5, "{m:?}");
        assert!((m.high - 0.588036).abs() < 1e-5, "{m:?}");
        assert!((m.elo_low + 9.0605).abs() < 2e-2, "{m:?}");
        assert!((m.elo_high - 61.8180).abs() < 2e-2, "{m:?}");
        // fastchess's own LOS, with the population variance.
        let se = (0.06421875f64 / 100.0).sqrt();
        assert!((normal_cdf(0.0375 / se) - 0.930535).abs() < 1e-5);
    }

    #[test]
    fn los_as_fastchess_computes_it() {
        // Worked by bench/sprt_reference.py, which writes fastchess's formula
        // (1 − erf(−(x̄ − ½)/sqrt(2σ²/N)))/2 with math.erf: 10 pairs [1, 1, 4, 3, 1]
        // (x̄ = 0.55, σ² = 0.0725): 0.721472; 10 pairs [0, 1, 5, 3, 1]: 0.943077.
        assert!((los_fastchess([1, 1, 4, 3, 1]).unwrap() - 0.721472).abs() < 1e-6);
        assert!((los_fastchess([0, 1, 5, 3, 1]).unwrap() - 0.943077).abs() < 1e-6);
        // Single games (trinomial, EloWDL::los): 6 won, 2 drawn, 2 lost: x̄ = 0.7,
        // σ² = (6 × .09 + 2 × .04 + 2 × .49)/10 = 0.16, LOS = Φ(0.2 / 0.126491) = Φ(1.581139)
        // = 0.943077 (the same as above: both samples have x̄ − ½ = σ/√N × 1.58).
        assert!((los_fastchess([2, 0, 2, 0, 6]).unwrap() - 0.943077).abs() < 1e-6);
        let m = mean_score_of_classes([0, 1, 5, 3, 1]).unwrap();
        assert_eq!(m.los, los_fastchess([0, 1, 5, 3, 1]));
    }

    #[test]
    fn los_never_contradicts_the_interval_beside_it() {
        // Two won pairs: the interval is [~0, 1] (it holds ½) and σ² = 0: no LOS (it printed
        // 97.7% beside [−1199.8, +1199.8]). Three pairs 1, 1, ¾: σ² > 0 and fastchess's LOS is
        // 1.000, but the t interval still holds ½, so no LOS either.
        let two = mean_score_of_classes([0, 0, 0, 0, 2]).unwrap();
        assert!(two.low <= 0.5, "{two:?}");
        assert_eq!(two.los, None);
        let three = mean_score_of_classes([0, 0, 0, 1, 2]).unwrap();
        assert!(los_fastchess([0, 0, 0, 1, 2]).unwrap() > 0.975);
        assert!(three.low <= 0.5 && three.los.is_none(), "{three:?}");
        // Once the interval leaves ½, LOS is shown: 12 pairs of 1 and ¾.
        let many = mean_score_of_classes([0, 0, 0, 6, 6]).unwrap();
        assert!(many.low > 0.5 && many.los.unwrap() > 0.975, "{many:?}");
    }

    #[test]
    fn identical_scores_keep_a_width() {
        let m = mean_score(&[0.5; 4]).unwrap();
        assert_eq!(m.score, 0.5);
        assert!(m.high - m.low > 0.2, "{m:?}");
        assert_eq!(m.los, None, "no spread: fastchess divides by zero");
        assert!(mean_score(&[]).is_none());
        let one = mean_score(&[1.0]).unwrap();
        assert!(one.low < 0.5 && one.high == 1.0, "{one:?}");
    }

    /// Draws `n` pair scores from `p` (probabilities of 0, .25, .5, .75, 1).
    fn draw(rng: &mut impl Rng, p: &[f64; 5], n: usize) -> Vec<f64> {
        (0..n)
            .map(|_| {
                let mut u: f64 = rng.gen();
                for (k, &pk) in p.iter().enumerate() {
                    if u < pk {
                        return k as f64 / 4.0;
                    }
                    u -= pk;
                }
                1.0
            })
            .collect()
    }

    pub(crate) fn coverage(p: &[f64; 5], n: usize, reps: usize, seed: u64) -> f64 {
        let truth: f64 = p
            .iter()
            .enumerate()
            .map(|(k, pk)| pk * k as f64 / 4.0)
            .sum();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let hits = (0..reps)
            .filter(|_| {
                let m = mean_score(&draw(&mut rng, p, n)).unwrap();
                m.low <= truth && truth <= m.high
            })
            .count();
        hits as f64 / reps as f64
    }

    #[test]
    fn coverage_by_simulation() {
        // Close bots (78% of pairs split, as the audit measured), a clearer edge, and a wide
        // spread; 4000 samples each at 4, 10, 20 and 50 pairs.
        let cases = [
            [0.02, 0.10, 0.78, 0.08, 0.02],
            [0.03, 0.12, 0.55, 0.20, 0.10],
            [0.10, 0.20, 0.40, 0.20, 0.10],
        ];
        for (i, p) in cases.iter().enumerate() {
            for n in [4, 10, 20, 50] {
                let c = coverage(p, n, 4000, 7 + n as u64);
                eprintln!("{p:?} n={n}: {c:.3}");
                // 4000 samples: the standard error of a coverage near .95 is .0034.
                assert!(c >= 0.935, "{p:?} at {n} pairs covers only {c}");
                if n >= 20 || (i == 2 && n >= 10) {
                    assert!(c <= 0.985, "{p:?} at {n} pairs covers {c}: too wide");
                }
            }
        }
    }

    #[test]
    fn t_cdf_is_students_law() {
        // Closed forms: df 1 is Cauchy's law, df 2 is 1/2 + x / (2 sqrt(2 + x²)).
        for x in [-3.0f64, -0.5, 0.0, 0.7, 2.0, 40.0] {
            let cauchy = 0.5 + x.atan() / std::f64::consts::PI;
            assert!((t_cdf(x, 1) - cauchy).abs() < 1e-12, "df 1 at {x}");
            let two = 0.5 + x / (2.0 * (2.0 + x * x).sqrt());
            assert!((t_cdf(x, 2) - two).abs() < 1e-12, "df 2 at {x}");
        }
        // Tables (R's pt): pt(1, 5) = 0.8183913, pt(-2, 9) = 0.03827641.
        assert!((t_cdf(1.0, 5) - 0.818_391_3).abs() < 1e-6);
        assert!((t_cdf(-2.0, 9) - 0.038_276_41).abs() < 1e-6);
        // Many degrees of freedom: the normal law.
        assert!((t_cdf(1.96, 200_000) - 0.975_002_1).abs() < 1e-6);
    }

    #[test]
    fn t_cdf_at_the_quantile_is_the_quantiles_level() {
        // The interval d ± t975(df)·se and the chance t_cdf(d/se, df) are the same law: at the
        // interval's edge the chance is 97.5% for every df (the quantile's table to 30, its
        // expansion beyond, both within 1e-4).
        for df in (1..=60).chain([100, 500, 2_000, 50_000]) {
            let p = t_cdf(t975(df), df);
            assert!((p - 0.975).abs() < 2e-5, "df {df}: {p}");
        }
    }
}
