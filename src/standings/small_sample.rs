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
        return super::stats::normal_cdf(x);
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

#[cfg(test)]
mod tests {
    use super::*;

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
