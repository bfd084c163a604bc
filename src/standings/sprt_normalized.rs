//! The exact normalized-Elo SPRT (`--sprt ...,model=normalized`), as fastchess and OpenBench
//! compute it: M. Van den Bergh, *Comments on Normalized Elo*
//! (<https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>), section 4.1.
//!
//! Normalized Elo measures the score's distance from ½ in its own standard deviations,
//! `t = (μ − ½) / σ`, and reads elo0/elo1 as normalized Elo: `t = nelo / (800 / ln 10)` for
//! games (0, ½, 1) and `√2 · nelo / (800 / ln 10)` for duplicate pairs (0, ¼, ½, ¾, 1), the
//! pentanomial convention of fastchess. For each hypothesis the test finds the distribution `p`
//! over the outcome classes that makes the observed frequencies `p̂` most likely under the
//! constraint `t(p) = t*`, by the paper's fixed point: from the uniform distribution, with `μ`
//! and `σ` of the current `p`,
//!
//! ```text
//! φ_i = a_i − ½ − ½ t* σ (1 + ((a_i − μ) / σ)²)
//! θ  solves  Σ p̂_i φ_i / (1 + θ φ_i) = 0   (a decreasing function of θ: bisection)
//! p_i ← p̂_i / (1 + θ φ_i)
//! ```
//!
//! until `p` stops moving; then `LLR = N Σ p̂_i (ln p1_i − ln p0_i)`. The caller regularizes
//! empty classes as fastchess does (0.001 each: [`super::sprt::llr_of_classes`]).

/// The log-likelihood ratio of the normalized test on regularized `counts` (all positive) of
/// the outcomes `k / (counts.len() − 1)`, for normalized Elo `nelo0` against `nelo1`.
pub fn llr_normalized(counts: &[f64], nelo0: f64, nelo1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 || counts.len() < 2 {
        return 0.0;
    }
    let step = (counts.len() - 1) as f64;
    let scores: Vec<f64> = (0..counts.len()).map(|k| k as f64 / step).collect();
    let observed: Vec<f64> = counts.iter().map(|c| c / n).collect();
    // Pairs have twice a game's variance under the same Elo: √2 for pentanomial scores.
    let unit = if counts.len() == 5 {
        std::f64::consts::SQRT_2
    } else {
        1.0
    } / (800.0 / std::f64::consts::LN_10);
    let p0 = most_likely(&scores, &observed, nelo0 * unit);
    let p1 = most_likely(&scores, &observed, nelo1 * unit);
    n * observed
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(o, (a, b))| o * (b.ln() - a.ln()))
        .sum::<f64>()
}

/// Mean and (population) variance of `scores` under `p`.
pub fn mean_and_variance(scores: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = scores.iter().zip(p).map(|(a, q)| a * q).sum();
    let var = scores
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mu).powi(2))
        .sum();
    (mu, var)
}

/// The distribution closest (in likelihood) to `observed` with `(μ − ½) / σ = t` (module
/// documentation).
pub fn most_likely(scores: &[f64], observed: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..10_000 {
        let (mu, var) = mean_and_variance(scores, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let (lo, hi) = phi
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &f| {
                (l.min(f), h.max(f))
            });
        if !(lo < 0.0 && hi > 0.0) {
            // t lies outside what any distribution on these scores can reach.
            break;
        }
        let f = |theta: f64| -> f64 {
            observed
                .iter()
                .zip(&phi)
                .map(|(o, ph)| o * ph / (1.0 + theta * ph))
                .sum()
        };
        // f falls from +∞ at −1/hi to −∞ at −1/lo.
        let (mut a, mut b) = (-1.0 / hi, -1.0 / lo);
        for _ in 0..200 {
            let mid = 0.5 * (a + b);
            if mid <= a || mid >= b {
                break;
            }
            if f(mid) > 0.0 {
                a = mid;
            } else {
                b = mid;
            }
        }
        let theta = 0.5 * (a + b);
        let mut moved: f64 = 0.0;
        for ((q, o), ph) in p.iter_mut().zip(observed).zip(&phi) {
            let next = o / (1.0 + theta * ph);
            moved = moved.max((next - *q).abs());
            *q = next;
        }
        if moved < 1e-13 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_likely_distribution_meets_its_constraint() {
        // 100 pairs [5, 20, 40, 25, 10]; for t = ±0.1 the fitted p sums to 1 and has
        // (μ − ½)/σ = t, and no nearby distribution on the constraint is more likely.
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let observed = [0.05, 0.20, 0.40, 0.25, 0.10];
        for t in [-0.1, 0.0, 0.1, 0.3] {
            let p = most_likely(&scores, &observed, t);
            let (mu, var) = mean_and_variance(&scores, &p);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{p:?}");
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-9, "{t}: {p:?}");
        }
    }

    #[test]
    fn the_fit_is_the_constrained_maximum() {
        // Lagrange: at the maximum of Σ p̂_i ln p_i on Σ p_i = 1 and μ − ½ − tσ = 0, p̂_i / p_i =
        // λ + ν g_i with g_i = a_i − t (a_i − μ)² / (2σ), the constraint's gradient. λ and ν
        // from classes 0 and 4 must fit classes 1 to 3.
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let observed = [0.05, 0.20, 0.40, 0.25, 0.10];
        let t = 0.25;
        let p = most_likely(&scores, &observed, t);
        let (mu, var) = mean_and_variance(&scores, &p);
        let g: Vec<f64> = scores
            .iter()
            .map(|a| a - t * (a - mu).powi(2) / (2.0 * var.sqrt()))
            .collect();
        let r: Vec<f64> = observed.iter().zip(&p).map(|(o, q)| o / q).collect();
        let nu = (r[4] - r[0]) / (g[4] - g[0]);
        let lambda = r[0] - nu * g[0];
        for k in 1..4 {
            assert!((lambda + nu * g[k] - r[k]).abs() < 1e-8, "class {k}: {p:?}");
        }
    }

    #[test]
    fn hand_checked_against_the_papers_formulas() {
        // Worked by bench/sprt_reference.py (Python, written from the paper's equations) on
        // fixed counts, elo0 = 0 and elo1 = 5 normalized. Pentanomial [5, 20, 40, 25, 10]
        // (t̂ = 0.0375 / 0.2534 = 0.148): LLR 0.27831, near N (t1 − t0)(t̂ − (t0 + t1)/2) =
        // 0.280; trinomial 30/40/30 (t̂ = 0): −0.01035; trinomial 20/30/50: 0.50580.
        let llr = llr_normalized(&[5.0, 20.0, 40.0, 25.0, 10.0], 0.0, 5.0);
        assert!((llr - 0.27831).abs() < 1e-5, "{llr}");
        let llr = llr_normalized(&[30.0, 40.0, 30.0], 0.0, 5.0);
        assert!((llr + 0.01035).abs() < 1e-5, "{llr}");
        let llr = llr_normalized(&[20.0, 30.0, 50.0], 0.0, 5.0);
        assert!((llr - 0.50580).abs() < 1e-5, "{llr}");
    }
}
