//! Ratings: a Bradley-Terry (logistic) model on the Elo scale, fitted by maximum likelihood.
//!
//! # Model
//!
//! Every entrant `i` has a rating `r_i` in Elo. An [`Observation`] sets two sides against each
//! other; a side's strength is the mean of its members' ratings (an entrant partnered with
//! itself is the side `[a, a]`, strength `r_a`), and
//!
//! ```text
//! P(side0 scores) = p(S0 - S1) = 1 / (1 + 10^(-(S0 - S1) / 400))
//! ```
//!
//! The observed `score0` (0..=1: a game scores 1, 0.5 or 0; a duplicate pair scores the mean of
//! its two games, 0, .25, .5, .75 or 1) enters the quasi-likelihood
//! `weight × (score0 ln p + (1 − score0) ln(1 − p))`. Writing `a_i = (copies of i in side0) /
//! |side0| − (copies of i in side1) / |side1|` and `c = ln 10 / 400`, the gradient is
//! `Σ w (s − p) c a` and the Fisher information `I = Σ w p (1 − p) c² a aᵀ`.
//!
//! Only rating differences are identified, so the ratings are anchored to mean 0; the
//! information then has the null vector `1`, and every inverse below is the Moore–Penrose
//! pseudo-inverse `I⁺ = (I + λ·11ᵀ/n)⁻¹ − 11ᵀ/(λ n)` (for any λ > 0), which is exactly the
//! covariance of the sum-zero (anchored) estimates.
//!
//! # Fitting
//!
//! Newton iterations `r ← r + t·I⁺ g` from `r = 0`, with a backtracking line search `t ∈ {1,
//! ½, ¼, …}` on the (concave) log-likelihood, until the step is below 1e-9 Elo or the gain it
//! can bring (the Newton decrement) is below the log-likelihood's rounding. Identical
//! observations are merged first (weights summed), so an iteration costs the same for a
//! thousand games as for a million.
//!
//! **Prior.** So that an entrant who won (or lost) everything keeps a finite rating, every
//! entrant also plays [`FitOptions::prior_draws`] (default 2, as BayesElo's default prior of two
//! virtual draws) pseudo-games that it *drew* against the field mean (the side of all
//! entrants, each once). The prior is translation-invariant, so the anchoring is unaffected;
//! it shrinks estimates from few games toward 0 (about 2 Elo at 190 Elo over 100 games) and
//! keeps an entrant with a perfect or null record at a finite rating with a finite interval
//! (with a near-zero prior such an interval spans thousands of Elo and overlaps everyone's).
//! It also keeps the information matrix non-singular when the schedule's graph is
//! disconnected.
//!
//! # Standard errors
//!
//! The binomial model assumes an observation's variance is `p (1 − p)`. Duplicate pairs (the
//! mean of two games on the same deals) vary much less than that, and draws also reduce the
//! variance, so the model-based covariance `I⁺` is rescaled by the Pearson dispersion (a
//! quasi-likelihood / "observed variance" correction):
//!
//! ```text
//! φ_obs = (Σ w (s − p)² + R) / (Σ w p (1 − p) / N × (N − (n − 1) + ψ))   (real observations)
//! φ     = (N φ_obs + K) / (N + K)                  (N = Σ w, K = FitOptions::dispersion_prior)
//! SE_i  = sqrt(φ_i · I⁺_ii),   interval = elo ± t(N − (n − 1)) SE
//! ```
//!
//! Small samples (issue 13): the residuals are divided by the degrees of freedom left after
//! fitting `n − 1` differences, as a sample variance by `N − 1`, and the quantile is Student's
//! t on those degrees of freedom (1.96 from a few hundred on). Score classes (0, ¼, ½, ¾, 1;
//! 0, ½, 1 for single games) the sample never reached share `ψ = ¼` of a pseudo-observation,
//! `R` being its squared distance from the mean expected score, so identical scores keep a
//! width; this is the head-to-head's rule (`stats`). Classes and mean are read with every row
//! oriented from its lowest-numbered entrant's side, so the interval does not depend on which
//! side a result row calls side 0 (issue 40 point 5). Coverage by simulation:
//! `ratings_coverage`.
//!
//! For **two entrants** (all observations A against B) the MLE has `p = s̄` and
//! `Σ w (s − p)² / N = var`, the observed per-observation variance, so with `K = 0`:
//! `SE(r_A − r_B) = sqrt(var / (N (s̄(1 − s̄))²)) / c = 400/ln10 × sqrt(var / N) / (s̄(1 − s̄))`,
//! the textbook (pentanomial, as in fishtest and fastchess) error of the Elo of a mean score
//! (here times `sqrt(N / (N − 1))`, the sample variance's degrees of freedom).
//! For **many entrants** the same single dispersion factor is used for everybody (the
//! quasi-likelihood estimate; it is < 1 when pairs cancel the luck of the deal). Guards on
//! little data: `K` (default 0; it was 1 before the degrees of freedom and `ψ` replaced it,
//! and made two entrants' intervals cover 98% at 10-20 pairs) pseudo-observations of exactly
//! binomial variance shrink `φ` toward 1; and an
//! entrant whose record is all wins or all losses (or who played nothing), whose estimate the
//! prior alone bounds, uses `φ_i = max(φ, 1)`.

use serde::{Deserialize, Serialize};

use super::small_sample::{empty_classes, t975, PSEUDO};

/// Elo points per natural-log unit of odds: 400 / ln 10 ≈ 173.7178.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// One result between two sides. `side0`/`side1` hold entrant indices (repeat an index for an
/// entrant partnered with itself); `score0` is side 0's score in 0..=1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub side0: Vec<usize>,
    pub side1: Vec<usize>,
    pub score0: f64,
    pub weight: f64,
}

/// A fitted rating (mean 0 over the entrants) with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// Tuning of [`fit_with`]; [`fit`] uses the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Pseudo-games per entrant drawn against the field mean (weak prior). 0 disables it; the
    /// MLE then diverges for an entrant with a perfect or null record.
    pub prior_draws: f64,
    /// Pseudo-observations of binomial variance mixed into the dispersion estimate.
    pub dispersion_prior: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            prior_draws: 2.0,
            dispersion_prior: 0.0,
        }
    }
}

/// Everything [`fit_with`] computes.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub ratings: Vec<Rating>,
    /// Standard error of each rating (Elo), after the dispersion scaling.
    pub std_errors: Vec<f64>,
    /// The dispersion factor φ (before the per-entrant `max(φ, 1)` guard).
    pub dispersion: f64,
    /// The multiple of a standard error that makes a two-sided 95% interval: Student's t with
    /// the degrees of freedom left after the fit (observations minus `n − 1`).
    pub quantile: f64,
    /// Those degrees of freedom (None: no observation, the normal law): the chance that one
    /// entrant is the stronger is read from the same law, [`super::small_sample::t_cdf`].
    pub df: Option<u64>,
    /// Covariance of the anchored ratings (Elo²), `φ I⁺`, so that the error of a difference is
    /// `sqrt(c_ii + c_jj − 2 c_ij)`.
    pub covariance: Vec<Vec<f64>>,
    pub iterations: usize,
    pub converged: bool,
}

/// Expected score of a side `diff` Elo stronger than its opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// The classic Elo difference of a mean score: `−400 log10(1/s − 1)` (±∞ at 1 and 0).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Fits the ratings of `n` entrants with the default [`FitOptions`].
pub fn fit(n: usize, obs: &[Observation]) -> Vec<Rating> {
    fit_with(n, obs, &FitOptions::default()).ratings
}

struct Term {
    coef: Vec<(usize, f64)>, // sparse a
    score: f64,
    weight: f64,
}

impl Term {
    fn diff(&self, r: &[f64]) -> f64 {
        self.coef.iter().map(|&(i, a)| a * r[i]).sum()
    }
}

fn coefficients(n: usize, side0: &[usize], side1: &[usize]) -> Vec<(usize, f64)> {
    let mut a = vec![0.0; n];
    for (side, sign) in [(side0, 1.0), (side1, -1.0)] {
        for &i in side {
            assert!(i < n, "observation names entrant {i} of only {n}");
            a[i] += sign / side.len() as f64;
        }
    }
    a.into_iter()
        .enumerate()
        .filter(|&(_, v)| v.abs() > 1e-12)
        .collect()
}

fn log_likelihood(terms: &[Term], r: &[f64]) -> f64 {
    let c = 1.0 / ELO_PER_NAT;
    terms
        .iter()
        .map(|t| {
            let x = c * t.diff(r);
            // ln p = −ln(1 + e^{−x}), ln(1 − p) = −ln(1 + e^{x}), computed stably.
            let ln_p = -softplus(-x);
            let ln_q = -softplus(x);
            t.weight * (t.score * ln_p + (1.0 - t.score) * ln_q)
        })
        .sum()
}

fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// Gradient and Fisher information (Elo units) at `r`.
fn derivatives(terms: &[Term], r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let c = 1.0 / ELO_PER_NAT;
    let mut g = vec![0.0; n];
    let mut h = vec![vec![0.0; n]; n];
    for t in terms {
        let p = expected_score(t.diff(r));
        for &(i, ai) in &t.coef {
            g[i] += t.weight * (t.score - p) * c * ai;
            for &(j, aj) in &t.coef {
                h[i][j] += t.weight * p * (1.0 - p) * c * c * ai * aj;
            }
        }
    }
    (g, h)
}

/// Inverse of a small dense matrix by Gauss-Jordan elimination with partial pivoting; `None`
/// if singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let scale = m
        .iter()
        .flatten()
        .fold(0.0f64, |acc, v| acc.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= scale * 1e-14 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Moore–Penrose pseudo-inverse of a symmetric information matrix whose null space is the
/// constant vector (plus anything the data leave unidentified: those directions come out 0).
fn pseudo_inverse(h: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = h.len();
    let trace: f64 = (0..n).map(|i| h[i][i]).sum();
    let lambda = if trace > 0.0 { trace / n as f64 } else { 1.0 };
    let shifted: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| h[i][j] + lambda / n as f64).collect())
        .collect();
    match invert(&shifted) {
        Some(mut inv) => {
            for row in inv.iter_mut() {
                for v in row.iter_mut() {
                    *v -= 1.0 / (lambda * n as f64);
                }
            }
            inv
        }
        None => vec![vec![f64::INFINITY; n]; n],
    }
}

/// Merges identical terms (same sides, same score) into one whose weight is the sum of theirs.
/// Every quantity of the fit (likelihood, gradient, information, dispersion, the boundary test)
/// is a weighted sum over terms, so this changes no result beyond rounding, while a big
/// tournament's observations (a million games between a few entrants, each scoring one of
/// five values) shrink to a few dozen terms: each Newton iteration then costs nothing,
/// whatever the number of games.
fn aggregate(terms: impl Iterator<Item = Term>) -> Vec<Term> {
    type Key = (Vec<(usize, u64)>, u64);
    let mut index: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    let mut out: Vec<Term> = Vec::new();
    for t in terms {
        let key = (
            t.coef.iter().map(|&(i, a)| (i, a.to_bits())).collect(),
            t.score.to_bits(),
        );
        match index.get(&key) {
            Some(&k) => out[k].weight += t.weight,
            None => {
                index.insert(key, out.len());
                out.push(t);
            }
        }
    }
    out
}

/// Fits the ratings of `n` entrants (indices `0..n`) to `obs`; see the module documentation.
/// Observations with a non-positive or non-finite weight, or whose sides are identical, are
/// ignored; scores are clamped to 0..=1. Panics if an observation names an entrant `>= n`.
pub fn fit_with(n: usize, obs: &[Observation], opts: &FitOptions) -> FitReport {
    if n == 0 {
        return FitReport {
            ratings: Vec::new(),
            std_errors: Vec::new(),
            dispersion: 1.0,
            quantile: Z95,
            df: None,
            covariance: Vec::new(),
            iterations: 0,
            converged: true,
        };
    }
    let (terms, prior_len) = terms_of(n, obs, opts);
    let (r, iterations, converged) = maximize(n, &terms);
    let (_, h) = derivatives(&terms, &r);
    let cov = pseudo_inverse(&h);
    let real = &terms[prior_len..];
    let (dispersion, df) = dispersion_of(n, real, &r, opts);
    let quantile = t975(df);
    let boundary = at_boundary(n, real);
    let mut ratings = Vec::with_capacity(n);
    let mut std_errors = Vec::with_capacity(n);
    for i in 0..n {
        let phi = if boundary[i] {
            dispersion.max(1.0)
        } else {
            dispersion
        };
        let se = if n == 1 {
            0.0
        } else {
            (phi * cov[i][i].max(0.0)).sqrt()
        };
        std_errors.push(se);
        ratings.push(Rating {
            elo: r[i],
            low: r[i] - quantile * se,
            high: r[i] + quantile * se,
        });
    }
    let covariance = if n == 1 {
        vec![vec![0.0]]
    } else {
        cov.iter()
            .map(|row| row.iter().map(|c| dispersion * c).collect())
            .collect()
    };
    FitReport {
        ratings,
        std_errors,
        dispersion,
        quantile,
        df: Some(df),
        covariance,
        iterations,
        converged,
    }
}

/// The likelihood's terms: the prior draws first (each entrant against the whole field), then
/// the observations, identical ones merged; returns the terms and how many are prior.
fn terms_of(n: usize, obs: &[Observation], opts: &FitOptions) -> (Vec<Term>, usize) {
    let real = aggregate(
        obs.iter()
            .filter(|o| o.weight > 0.0 && o.weight.is_finite() && o.score0.is_finite())
            .map(|o| Term {
                coef: coefficients(n, &o.side0, &o.side1),
                score: o.score0.clamp(0.0, 1.0),
                weight: o.weight,
            })
            .filter(|t| !t.coef.is_empty()),
    );
    let mut terms: Vec<Term> = Vec::with_capacity(real.len() + n);
    if opts.prior_draws > 0.0 && n > 1 {
        let field: Vec<usize> = (0..n).collect();
        for i in 0..n {
            terms.push(Term {
                coef: coefficients(n, &[i], &field),
                score: 0.5,
                weight: opts.prior_draws,
            });
        }
    }
    let prior_len = terms.len();
    terms.extend(real);
    (terms, prior_len)
}

/// Newton's method with a backtracking line search on the log-likelihood, from all ratings
/// 0; the result is centred on a mean of 0. Returns the ratings, the iterations and whether
/// they converged.
fn maximize(n: usize, terms: &[Term]) -> (Vec<f64>, usize, bool) {
    let mut r = vec![0.0; n];
    let mut iterations = 0;
    let mut converged = n == 1;
    while !converged && iterations < 200 {
        iterations += 1;
        let (g, h) = derivatives(terms, &r);
        let cov = pseudo_inverse(&h);
        let step: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| cov[i][j] * g[j]).sum())
            .collect();
        if step.iter().any(|v| !v.is_finite()) {
            break;
        }
        let ll0 = log_likelihood(terms, &r);
        // The Newton decrement g·I⁺g is twice the gain the step can bring. Once it is lost in
        // the rounding of the log-likelihood, the step is rounding noise too (a few 1e-9 Elo
        // back and forth when an entrant lost every one of many games): converged.
        let decrement: f64 = g.iter().zip(&step).map(|(a, b)| a * b).sum();
        if decrement <= 1e-15 * (1.0 + ll0.abs()) {
            converged = true;
            break;
        }
        let mut t = 1.0;
        let mut next = r.clone();
        for _ in 0..60 {
            next = r.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            if log_likelihood(terms, &next) >= ll0 - 1e-12 * ll0.abs() {
                break;
            }
            t *= 0.5;
        }
        let moved = r
            .iter()
            .zip(&next)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        r = next;
        if moved < 1e-9 {
            converged = true;
        }
    }
    let mean = r.iter().sum::<f64>() / n as f64;
    for v in r.iter_mut() {
        *v -= mean;
    }
    (r, iterations, converged)
}

/// The dispersion of the observations around the fit (how much wider than the logistic
/// model's own variance the scores spread) and the degrees of freedom of the interval's
/// quantile.
fn dispersion_of(n: usize, real: &[Term], r: &[f64], opts: &FitOptions) -> (f64, u64) {
    let (mut resid, mut model, mut total) = (0.0, 0.0, 0.0);
    for t in real {
        let p = expected_score(t.diff(r));
        resid += t.weight * (t.score - p).powi(2);
        model += t.weight * p * (1.0 - p);
        total += t.weight;
    }
    // Small samples: the residuals are measured around a fit that used `n − 1` degrees of
    // freedom (divide by N − (n − 1), as a sample variance by N − 1), and score classes the
    // sample never reached share a quarter of a pseudo-observation, around the mean expected
    // score, so a sample of identical scores keeps a width (as the head-to-head does, in
    // `stats`). The quantile is Student's t with N − (n − 1) degrees of freedom.
    //
    // Which side a result row calls side 0 must not matter (issue 40 point 5): the classes and
    // the mean are read with every row oriented the same way, from the side of its
    // lowest-numbered entrant (whose coefficient is then positive). A row whose sides cancel
    // (the same entrants on both) is read from its better side; its expected score is ½.
    let params = n.saturating_sub(1) as f64;
    let mut counts = [0.0f64; 5];
    let mut expected = 0.0;
    for t in real {
        let p = expected_score(t.diff(r));
        let (score, p) = match t.coef.first() {
            Some(&(_, a)) if a > 0.0 => (t.score, p),
            Some(_) => (1.0 - t.score, 1.0 - p),
            None => (t.score.max(1.0 - t.score), 0.5),
        };
        counts[(score.clamp(0.0, 1.0) * 4.0).round() as usize] += t.weight;
        expected += t.weight * p;
    }
    let empty = empty_classes(&counts);
    let (mut pseudo_resid, mut pseudo_weight) = (0.0, 0.0);
    if total > 0.0 && !empty.is_empty() {
        let mean = expected / total;
        let w = PSEUDO / empty.len() as f64;
        pseudo_resid = empty.iter().map(|s| w * (s - mean).powi(2)).sum();
        pseudo_weight = PSEUDO;
    }
    let k = opts.dispersion_prior.max(0.0);
    let dispersion = if total > 0.0 && model > 0.0 {
        let free = (total - params + pseudo_weight).max(pseudo_weight.max(PSEUDO));
        let phi_obs = (resid + pseudo_resid) / (model / total * free);
        (total * phi_obs + k) / (total + k)
    } else {
        1.0
    };
    (dispersion, (total - params).round().max(1.0) as u64)
}

/// Entrants at the boundary: all wins, all losses, or nothing played. Their interval never
/// narrows below the model's own variance.
fn at_boundary(n: usize, real: &[Term]) -> Vec<bool> {
    let mut achieved = vec![0.0; n];
    let mut possible = vec![0.0; n];
    for t in real {
        for &(i, a) in &t.coef {
            let own = if a > 0.0 { t.score } else { 1.0 - t.score };
            achieved[i] += t.weight * a.abs() * own;
            possible[i] += t.weight * a.abs();
        }
    }
    (0..n)
        .map(|i| {
            possible[i] <= 0.0
                || achieved[i] <= 1e-12 * possible[i]
                || achieved[i] >= possible[i] * (1.0 - 1e-12)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXACT: FitOptions = FitOptions {
        prior_draws: 0.0,
        dispersion_prior: 0.0,
    };

    fn game(a: usize, b: usize, score: f64) -> Observation {
        Observation {
            side0: vec![a],
            side1: vec![b],
            score0: score,
            weight: 1.0,
        }
    }

    fn games(a: usize, b: usize, wins: usize, losses: usize) -> Vec<Observation> {
        let mut v = vec![game(a, b, 1.0); wins];
        v.extend(vec![game(a, b, 0.0); losses]);
        v
    }

    #[test]
    fn classic_formula_values() {
        // By hand: s = 0.75 -> 1/s - 1 = 1/3 -> -400 log10(1/3) = 400 × 0.4771213 = 190.8485.
        assert!((elo_from_score(0.75) - 190.8485).abs() < 1e-4);
        assert!((expected_score(190.8485) - 0.75).abs() < 1e-7);
        assert_eq!(elo_from_score(0.5), 0.0);
    }

    #[test]
    fn two_entrants_reproduce_classic_elo() {
        // A scores 3 of 4 against B: s = 0.75, difference 190.85, anchored A = +95.42, B = −95.42.
        let obs = games(0, 1, 3, 1);
        let r = fit_with(2, &obs, &EXACT).ratings;
        assert!((r[0].elo - 95.4243).abs() < 1e-3, "{r:?}");
        assert!((r[1].elo + 95.4243).abs() < 1e-3, "{r:?}");
        // The same with the weak prior on 100 games: shrunk by well under 0.1 Elo.
        let obs = games(0, 1, 75, 25);
        // The default prior (2 virtual draws each, as BayesElo) shrinks 100 games a little.
        let r = fit(2, &obs);
        assert!((r[0].elo - r[1].elo - 190.8485).abs() < 5.0, "{r:?}");
        assert!(r[0].elo - r[1].elo < 190.8485);
        // Sides written as partnerships of one entrant ([a, a] vs [b, b]) are the same thing.
        let paired: Vec<Observation> = obs
            .iter()
            .map(|o| Observation {
                side0: vec![0, 0],
                side1: vec![1, 1],
                ..o.clone()
            })
            .collect();
        let r2 = fit(2, &paired);
        assert!((r2[0].elo - r[0].elo).abs() < 1e-9);
    }

    #[test]
    fn three_entrants_hand_solved() {
        // A beats B 3-1 (odds 3), B beats C 3-1 (odds 3), A beats C 9-1 (odds 9 = 3 × 3). The
        // odds multiply exactly, so the BT likelihood equations Σ (s − p) = 0 hold per pairing at
        // A − B = B − C = 400 log10 3 = 190.8485, A − C = 400 log10 9 = 381.6970: with mean 0,
        // A = +190.8485, B = 0, C = −190.8485.
        let mut obs = games(0, 1, 3, 1);
        obs.extend(games(1, 2, 3, 1));
        obs.extend(games(0, 2, 9, 1));
        let rep = fit_with(3, &obs, &EXACT);
        assert!(rep.converged);
        let e: Vec<f64> = rep.ratings.iter().map(|r| r.elo).collect();
        assert!((e[0] - 190.8485).abs() < 1e-3, "{e:?}");
        assert!(e[1].abs() < 1e-3, "{e:?}");
        assert!((e[2] + 190.8485).abs() < 1e-3, "{e:?}");
        // With the default prior the few games here are shrunk toward 0, order kept.
        let d = fit(3, &obs);
        assert!(d[0].elo > 120.0 && d[0].elo < 190.8485, "{d:?}");
        assert!(d[0].elo > d[1].elo && d[1].elo > d[2].elo, "{d:?}");
    }

    #[test]
    fn constructed_from_known_ratings() {
        // Observations whose scores are the model's expectations at known ratings have those
        // ratings as their MLE (the score equations hold with s = p), including 2-vs-2 sides.
        let truth = [150.0, 50.0, -60.0, -140.0];
        let mut obs = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                if i < j {
                    let s = expected_score(truth[i] - truth[j]);
                    obs.push(Observation {
                        side0: vec![i],
                        side1: vec![j],
                        score0: s,
                        weight: 7.0,
                    });
                }
            }
        }
        let s = expected_score((truth[0] + truth[3]) / 2.0 - (truth[1] + truth[2]) / 2.0);
        obs.push(Observation {
            side0: vec![0, 3],
            side1: vec![1, 2],
            score0: s,
            weight: 3.0,
        });
        let r = fit_with(4, &obs, &EXACT).ratings;
        for (got, want) in r.iter().zip(truth) {
            assert!((got.elo - want).abs() < 1e-6, "{r:?}");
        }
    }

    #[test]
    fn standard_error_matches_textbook_for_pairs() {
        // 100 duplicate pairs, pentanomial counts [5, 20, 40, 25, 10] at scores 0 .. 1:
        // s̄ = (0·5 + .25·20 + .5·40 + .75·25 + 1·10) / 100 = 53.75 / 100 = 0.5375,
        // E[x²] = (.0625·20 + .25·40 + .5625·25 + 10) / 100 = 0.353125, var = 0.353125 − 0.5375²
        // = 0.06421875. Elo = −400 log10(1/0.5375 − 1) = 26.1067; textbook
        // SE = 400/ln10 × sqrt(0.06421875/100) / (0.5375 × 0.4625) = 17.7086 (difference),
        // i.e. 8.8543 per anchored rating. Here the variance is the sample one (divided by
        // N − 1 = 99, the fit's degrees of freedom: one difference for two entrants), so the SE
        // is 8.8543 × sqrt(100/99) = 8.8989 and the 95% half-width t(99) × 8.8989 = 1.984217 ×
        // 8.8989 = 17.6574.
        let counts = [5, 20, 40, 25, 10];
        let mut obs = Vec::new();
        for (k, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                obs.push(game(0, 1, k as f64 * 0.25));
            }
        }
        let rep = fit_with(2, &obs, &EXACT);
        let r = rep.ratings.clone();
        assert!((r[0].elo - r[1].elo - 26.1067).abs() < 1e-3, "{r:?}");
        assert!(
            (rep.std_errors[0] - 8.8989).abs() < 1e-3,
            "{:?}",
            rep.std_errors
        );
        assert!((r[0].high - r[0].elo - 17.6574).abs() < 1e-3, "{r:?}");
        assert!((rep.quantile - 1.984217).abs() < 1e-4);
        // Formula check against the textbook expression itself.
        let (s, var, n) = (0.5375f64, 0.06421875f64, 100.0f64);
        let textbook = ELO_PER_NAT * (var / n).sqrt() / (s * (1.0 - s));
        assert!((2.0 * rep.std_errors[0] / textbook - (100.0f64 / 99.0).sqrt()).abs() < 1e-6);
        // φ = φ_obs × 100/99 = 0.06421875 / (0.5375 × 0.4625) × 100/99 = 0.260934; every
        // class occurred, so no pseudo-observation. Defaults add no binomial pseudo-observation
        // (K = 0) either: the same without the virtual draws.
        assert!((rep.dispersion - 0.260934).abs() < 1e-5, "{rep:?}");
        let d = fit_with(
            2,
            &obs,
            &FitOptions {
                prior_draws: 0.0,
                ..FitOptions::default()
            },
        );
        assert!((d.dispersion - rep.dispersion).abs() < 1e-12, "{d:?}");
    }

    /// Merging identical observations changes nothing: the same ratings, errors and
    /// dispersion as one observation of the summed weight.
    #[test]
    fn identical_observations_fit_as_one_weighted_observation() {
        let mut many = games(0, 1, 30, 10);
        many.extend(games(1, 2, 12, 12));
        let mut one = vec![
            Observation {
                weight: 30.0,
                ..game(0, 1, 1.0)
            },
            Observation {
                weight: 10.0,
                ..game(0, 1, 0.0)
            },
            Observation {
                weight: 12.0,
                ..game(1, 2, 1.0)
            },
        ];
        one.push(Observation {
            weight: 12.0,
            ..game(1, 2, 0.0)
        });
        let (a, b) = (
            fit_with(3, &many, &FitOptions::default()),
            fit_with(3, &one, &FitOptions::default()),
        );
        for (x, y) in a.ratings.iter().zip(&b.ratings) {
            assert!((x.elo - y.elo).abs() < 1e-6 && (x.low - y.low).abs() < 1e-6);
        }
        assert!((a.dispersion - b.dispersion).abs() < 1e-9);
    }

    /// An entrant that loses every one of a million games: the fit still converges in a few
    /// Newton iterations (issue 14: it used to grow with the rows).
    #[test]
    fn a_million_losses_converge_in_bounded_iterations() {
        let mut obs = Vec::new();
        for k in 0..1_000_000u32 {
            let (a, b) = [(0, 1), (0, 2), (1, 2)][(k % 3) as usize];
            let score = if b == 2 { 1.0 } else { f64::from(k % 2) };
            obs.push(game(a, b, score));
        }
        let rep = fit_with(3, &obs, &FitOptions::default());
        assert!(rep.converged && rep.iterations <= 50, "{rep:?}");
        assert!(rep.ratings[2].elo < rep.ratings[0].elo - 400.0, "{rep:?}");
        assert!(rep
            .ratings
            .iter()
            .all(|r| r.low.is_finite() && r.high.is_finite()));
    }

    #[test]
    fn binomial_games_have_binomial_error() {
        // 75 wins, 25 losses: var = 0.75 × 0.25, so SE(diff) = 173.7178 × sqrt(0.1875/100) / 0.1875
        // = 173.7178 × 0.0433013 / 0.1875 = 40.118 (= 1 / sqrt(Fisher information), φ = 1).
        // Small-sample terms: the residuals 100 × 0.1875 = 18.75 over N − 1 = 99 degrees of
        // freedom, and the class 1/2 (a draw) never occurred, so it gets a quarter
        // pseudo-observation: φ = (18.75 + 0.25 × (0.5 − 0.75)²) / (0.1875 × 99.25) = 1.008396,
        // SE = 40.118 × sqrt(1.008396) = 40.286.
        let rep = fit_with(2, &games(0, 1, 75, 25), &EXACT);
        assert!((rep.dispersion - 1.008396).abs() < 1e-5, "{rep:?}");
        assert!((2.0 * rep.std_errors[0] - 40.286).abs() < 1e-2, "{rep:?}");
    }

    #[test]
    fn perfect_records_stay_finite() {
        let obs = games(0, 1, 10, 0);
        let rep = fit(2, &obs);
        assert!(rep.iter().all(|r| r.elo.is_finite() && r.low.is_finite()));
        assert!(rep[0].elo > 200.0 && rep[1].elo < -200.0, "{rep:?}");
        // ...and the interval of a perfect record no longer spans the loser's.
        assert!(rep[0].low > rep[1].high, "{rep:?}");
        // Wide interval: the prior, not the data, bounds the estimate.
        assert!(rep[0].high - rep[0].low > 200.0, "{rep:?}");
        // Three entrants, one of whom lost everything, one never played.
        let mut obs = games(0, 1, 4, 4);
        obs.extend(games(2, 0, 0, 5));
        let rep = fit_with(4, &obs, &FitOptions::default());
        assert!(rep.converged);
        let r = rep.ratings;
        assert!(r.iter().all(|x| x.elo.is_finite() && x.high.is_finite()));
        assert!(r[2].elo < r[0].elo && r[2].elo < r[1].elo);
        // Entrant 3 only has its prior draws against the field mean: it lands near the mean
        // with the widest interval of all (nothing but the prior is known about it).
        assert!(r[3].elo.abs() < 200.0, "{r:?}");
        let width = |x: &Rating| x.high - x.low;
        assert!(r[..3].iter().all(|x| width(x) < width(&r[3])), "{r:?}");
        let mean: f64 = r.iter().map(|x| x.elo).sum::<f64>() / 4.0;
        assert!(mean.abs() < 1e-9);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(fit(0, &[]).is_empty());
        assert_eq!(
            fit(1, &[]),
            vec![Rating {
                elo: 0.0,
                low: 0.0,
                high: 0.0
            }]
        );
        let r = fit(2, &[]);
        assert_eq!(r[0].elo, 0.0);
        assert!(r[0].high > 0.0);
        // All-split pairs: zero observed variance, but the dispersion prior keeps a width.
        let r = fit(2, &[game(0, 1, 0.5), game(0, 1, 0.5)]);
        assert!(r[0].elo.abs() < 1e-9 && r[0].high > 10.0, "{r:?}");
    }
}
