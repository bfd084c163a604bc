//! `--analyze`: does an entrant play better in the second game of its duplicate pairs than in
//! the first? The two games of a pair hold the same deals with the partnerships' seats swapped,
//! so an entrant that carried anything from the first game to the second (its opponents'
//! cards, through a channel the machine left open: docs/competitions.md, "The duplicate twin")
//! plays the second with knowledge it should not have. Its double-dummy accuracy shows it.
//!
//! The statistic: for every complete pair an entrant sat in (both games analysed, a hand
//! played out in each), `d = x1 - x2`, where `x1` and `x2` are the tricks its seats lost
//! double-dummy per seat-hand in the pair's first game (the lower game number, the one a run
//! plays first) and in its second. Over its `n` pairs, `t = mean(d) / (s / sqrt(n))`, `s` the
//! sample standard deviation of the `d`s: the difference in standard errors, positive when the
//! second games are played better. Under no pair-order effect the `d`s have mean 0 and `t`
//! follows Student's t with `n - 1` degrees of freedom (the pairs are independent deals). The
//! entrant is flagged when the one-sided probability of a `t` this large is below
//! [`FLAG_P`] and there are at least [`MIN_PAIRS`] pairs. Honest bots are flagged with about
//! that probability each (0.1%), so a tournament of 10 entrants flags an honest one about once
//! in 100 tournaments: a flag is a reason to look at the games, not a proof.

use serde::{Deserialize, Serialize};

use super::row::GameRow;

/// A one-sided probability below this flags the entrant.
pub const FLAG_P: f64 = 0.001;
/// Fewer pairs than this never flag (the spread of a handful of differences says little).
pub const MIN_PAIRS: u64 = 5;

/// One entrant's first-against-second-twin comparison (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwinOrder {
    /// Complete pairs with both games analysed.
    pub pairs: u64,
    /// Mean DD tricks lost per seat-hand in the first games, and in the second games.
    pub first: f64,
    pub second: f64,
    /// `first - second`, as standard errors of the mean difference (none below two pairs or
    /// when every pair gave the same difference).
    pub standard_errors: Option<f64>,
    /// One-sided probability of a difference this large with no pair-order effect.
    pub p: Option<f64>,
    /// `p < FLAG_P` over at least `MIN_PAIRS` pairs.
    pub flagged: bool,
}

/// One entrant's running sums: Welford's update over the per-pair differences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TwinSum {
    n: u64,
    sum_first: f64,
    sum_second: f64,
    mean: f64,
    m2: f64,
}

/// The entrant's tricks lost per seat-hand in `row` at `seats`, when analysed with a hand out.
fn per_seat_hand(row: &GameRow, seats: &[usize]) -> Option<f64> {
    let a = row.accuracy.as_ref().filter(|a| a.hands > 0)?;
    if seats.is_empty() {
        return None;
    }
    let lost: u64 = seats.iter().map(|&s| u64::from(a.tricks_lost[s])).sum();
    Some(lost as f64 / (u64::from(a.hands) * seats.len() as u64) as f64)
}

impl TwinSum {
    /// Counts the difference `first - second` of one pair.
    pub fn add(&mut self, first: f64, second: f64) {
        let d = first - second;
        self.n += 1;
        self.sum_first += first;
        self.sum_second += second;
        let delta = d - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (d - self.mean);
    }

    /// Counts the pair `first`, `second` for the entrant seated at `seats1` in the first game
    /// and `seats2` in the second, when both games carry an analysis.
    pub fn add_pair(
        &mut self,
        first: &GameRow,
        seats1: &[usize],
        second: &GameRow,
        seats2: &[usize],
    ) {
        if let (Some(x1), Some(x2)) = (per_seat_hand(first, seats1), per_seat_hand(second, seats2))
        {
            self.add(x1, x2);
        }
    }

    /// The comparison (`None` before any analysed pair).
    pub fn finish(&self) -> Option<TwinOrder> {
        if self.n == 0 {
            return None;
        }
        let n = self.n as f64;
        let (t, p) = if self.n >= 2 && self.m2 > 1e-12 {
            let se = (self.m2 / (n - 1.0) / n).sqrt();
            let t = self.mean / se;
            (Some(t), Some(t_upper_tail(t, n - 1.0)))
        } else {
            (None, None)
        };
        Some(TwinOrder {
            pairs: self.n,
            first: self.sum_first / n,
            second: self.sum_second / n,
            standard_errors: t,
            p,
            flagged: self.n >= MIN_PAIRS && p.is_some_and(|p| p < FLAG_P),
        })
    }
}

/// Adds a complete pair (`first` played before `second`) to each entrant's sums; `index`
/// gives an entrant's slot by name.
pub fn add_pair(
    sums: &mut Vec<TwinSum>,
    first: &GameRow,
    second: &GameRow,
    index: impl Fn(&str) -> usize,
) {
    // Rows without an analysis (most tournaments) cost nothing here.
    if first.accuracy.is_none() || second.accuracy.is_none() {
        return;
    }
    let mut names: Vec<&str> = first.seats.iter().map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let at = |r: &GameRow| -> Vec<usize> { (0..4).filter(|&s| r.seats[s] == name).collect() };
        let i = index(name);
        if sums.len() <= i {
            sums.resize(i + 1, TwinSum::default());
        }
        sums[i].add_pair(first, &at(first), second, &at(second));
    }
}

/// The one-sided tail `P(T > t)` of Student's t with `df` degrees of freedom.
pub fn t_upper_tail(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let half = 0.5 * incomplete_beta(df / 2.0, 0.5, x);
    if t >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
/// Lentz), using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges
/// slowly.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut f = d;
    for m in 1..300 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        for num in [
            even,
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + num * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + num / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            f *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    f
}

/// The standings' line for a flagged entrant, e.g. `plays better in second twins: 3.1
/// standard errors`.
pub fn flag_line(name: &str, o: &TwinOrder) -> String {
    format!(
        "  {name}: plays better in second twins: {:.1} standard errors (DD lost/hand {:.2} in first twins, {:.2} in second, {} pairs, one-sided p = {:.2e})",
        o.standard_errors.unwrap_or(f64::NAN),
        o.first,
        o.second,
        o.pairs,
        o.p.unwrap_or(f64::NAN),
    )
}

/// What the twin check means, under the flags.
pub const LEGEND: &str = "Twin order: an entrant is flagged when it plays the second game of its duplicate pairs better\nthan the first beyond chance (it may have learnt the cards: docs/competitions.md).\n";

/// The default report's lines (without `--detail`): the entrants flagged, if any, without the
/// legend (empty when none is).
pub fn render_flags(entrants: &[(String, Option<TwinOrder>)]) -> String {
    let flagged: Vec<String> = entrants
        .iter()
        .filter_map(|(n, o)| o.as_ref().filter(|o| o.flagged).map(|o| flag_line(n, o)))
        .collect();
    if flagged.is_empty() {
        return String::new();
    }
    format!("\nTwin order:\n{}\n", flagged.join("\n"))
}

/// The report's section: one line per flagged entrant, or a line saying none was.
pub fn render(entrants: &[(String, Option<TwinOrder>)]) -> String {
    let checked = entrants.iter().filter(|(_, o)| o.is_some()).count();
    if checked == 0 {
        return String::new();
    }
    let mut out = String::from("\nTwin order:\n");
    let flagged: Vec<String> = entrants
        .iter()
        .filter_map(|(n, o)| o.as_ref().filter(|o| o.flagged).map(|o| flag_line(n, o)))
        .collect();
    if flagged.is_empty() {
        out.push_str(&format!(
            "  no entrant plays better in second twins beyond chance ({checked} checked)\n"
        ));
    } else {
        for l in flagged {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out.push_str(LEGEND);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::row::RowAccuracy;

    #[test]
    fn students_t_tail_matches_known_values() {
        // df 1 is Cauchy: P(T > t) = 1/2 - atan(t)/pi.
        for t in [0.5, 1.0, 3.0] {
            let want = 0.5 - f64::atan(t) / std::f64::consts::PI;
            assert!((t_upper_tail(t, 1.0) - want).abs() < 1e-9, "{t}");
        }
        // Tables: t(9) at 3.0 is 0.007470; the 97.5% points of t975 give 0.025.
        assert!((t_upper_tail(3.0, 9.0) - 0.007_47).abs() < 2e-5);
        for df in [2u64, 5, 10, 29] {
            let q = crate::standings::stats::t975(df);
            assert!((t_upper_tail(q, df as f64) - 0.025).abs() < 2e-5, "{df}");
        }
        assert!((t_upper_tail(0.0, 4.0) - 0.5).abs() < 1e-12);
        assert!((t_upper_tail(-3.0, 9.0) - (1.0 - 0.007_47)).abs() < 2e-5);
    }

    #[test]
    fn the_difference_is_in_standard_errors_of_the_per_pair_differences() {
        // d = 0.5, 1.0, 0.0, 1.5: mean 0.75, sample sd sqrt(1.25/3) = 0.6455, se 0.3227: t = 2.324.
        let mut s = TwinSum::default();
        for (a, b) in [(1.0, 0.5), (1.5, 0.5), (0.5, 0.5), (2.0, 0.5)] {
            s.add(a, b);
        }
        let o = s.finish().unwrap();
        assert_eq!(o.pairs, 4);
        assert!((o.first - 1.25).abs() < 1e-12 && (o.second - 0.5).abs() < 1e-12);
        assert!((o.standard_errors.unwrap() - 2.3238).abs() < 1e-3);
        assert!(!o.flagged, "four pairs never flag");
        // No spread: no t, no flag.
        let mut s = TwinSum::default();
        for _ in 0..8 {
            s.add(1.0, 0.0);
        }
        assert_eq!(s.finish().unwrap().standard_errors, None);
        assert!(!s.finish().unwrap().flagged);
    }

    #[test]
    fn pairs_count_each_entrants_own_seats_in_each_game() {
        let row = |game, seats: [&str; 4], lost: [u32; 4]| GameRow {
            accuracy: Some(RowAccuracy {
                hands: 2,
                tricks_lost: lost,
            }),
            ..GameRow::sample(game, Some(0), game, seats, Some(0))
        };
        // A at 0 and 2 in the first game, at 1 and 3 in the second.
        let first = row(0, ["A", "B", "A", "B"], [2, 0, 2, 1]);
        let second = row(1, ["B", "A", "B", "A"], [1, 0, 3, 0]);
        let mut sums = Vec::new();
        let names = ["A", "B"];
        add_pair(&mut sums, &first, &second, |n| {
            names.iter().position(|&m| m == n).unwrap()
        });
        // A: first 4/4 = 1, second 0/4; B: first 1/4, second 4/4.
        let a = sums[0].finish().unwrap();
        assert_eq!((a.first, a.second), (1.0, 0.0));
        let b = sums[1].finish().unwrap();
        assert_eq!((b.first, b.second), (0.25, 1.0));
        // A game without analysis leaves the pair out.
        let bare = GameRow::sample(1, Some(0), 1, ["B", "A", "B", "A"], Some(0));
        let mut sums = Vec::new();
        add_pair(&mut sums, &first, &bare, |n| {
            names.iter().position(|&m| m == n).unwrap()
        });
        assert!(sums.iter().all(|s| s.finish().is_none()));
    }

    #[test]
    fn a_steady_gain_in_second_twins_flags_and_noise_does_not() {
        // Ten pairs, second games 0.4 tricks per hand better, spread 0.1: t about 12.
        let mut s = TwinSum::default();
        let mut honest = TwinSum::default();
        for k in 0..10 {
            let wobble = if k % 2 == 0 { 0.1 } else { -0.1 };
            s.add(1.0 + wobble, 0.6);
            honest.add(1.0 + wobble, 1.0 - wobble / 2.0);
        }
        let o = s.finish().unwrap();
        assert!(o.flagged && o.standard_errors.unwrap() > 10.0, "{o:?}");
        assert!(flag_line("cheat", &o).contains("plays better in second twins: "));
        let h = honest.finish().unwrap();
        assert!(
            !h.flagged && h.standard_errors.unwrap().abs() < 1.0,
            "{h:?}"
        );
    }
}
