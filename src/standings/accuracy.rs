//! `tournament --analyze`: card-play accuracy measured double-dummy. After each game the
//! tricks each seat's cards gave away with all hands known (see [`crate::analysis`]) go into
//! the game's results row; the standings show, per entrant, the tricks its seats lost per hand
//! with a 95% interval. The luck of the cards does not move this measure, so it compares across
//! tournaments.
//!
//! The interval: the hands of one game are not independent (same bots, same scores, one
//! match), so the unit is the game. For each game an entrant sat in, its value is the tricks
//! its seats lost over its seat-hands there (hands played out times its seats); the column is
//! the mean of these per-game values, and the interval the mean plus or minus Student's t
//! (n - 1 degrees of freedom, 97.5% quantile) times their standard deviation over the square
//! root of n. One game gives no interval.

use serde::{Deserialize, Serialize};

use super::row::GameRow;
pub use super::row::RowAccuracy;
use super::stats::t975;

/// One entrant's double-dummy tricks lost per hand per seat, over the games that carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntrantAccuracy {
    /// Games with an analysis and at least one hand played out.
    pub games: u64,
    /// Seat-hands analysed (hands played out times the entrant's seats, summed).
    pub seat_hands: u64,
    /// Tricks lost, summed over them.
    pub tricks_lost: u64,
    /// The mean over games of each game's tricks lost per seat-hand.
    pub per_hand: f64,
    /// The 95% interval of `per_hand` (none from a single game).
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Mean of `xs` with its two-sided 95% Student's t interval (`None` below two values).
pub fn mean_interval(xs: &[f64]) -> (f64, Option<(f64, f64)>) {
    let n = xs.len();
    if n == 0 {
        return (0.0, None);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t975(n as u64 - 1) * (var / n as f64).sqrt();
    (mean, Some((mean - half, mean + half)))
}

/// One entrant's running sums, kept by [`super::tally::Tally`] so the column needs no rows:
/// per-game values enter Welford's update (mean and squared deviations), which gives the same
/// mean and sample variance as a second pass over the values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AccuracySum {
    games: u64,
    seat_hands: u64,
    lost: u64,
    mean: f64,
    m2: f64,
}

impl AccuracySum {
    /// Counts one game where the entrant's seats lost `lost` tricks over `seat_hands`.
    pub fn add(&mut self, lost: u64, seat_hands: u64) {
        if seat_hands == 0 {
            return;
        }
        let x = lost as f64 / seat_hands as f64;
        self.games += 1;
        self.seat_hands += seat_hands;
        self.lost += lost;
        let d = x - self.mean;
        self.mean += d / self.games as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Counts `row` for the entrant at `seats` (its seat indexes there), when the row carries
    /// an analysis with a hand played out.
    pub fn add_row(&mut self, row: &GameRow, seats: impl IntoIterator<Item = usize>) {
        let Some(a) = row.accuracy.as_ref().filter(|a| a.hands > 0) else {
            return;
        };
        let (mut n, mut l) = (0u64, 0u64);
        for s in seats {
            n += u64::from(a.hands);
            l += u64::from(a.tricks_lost[s]);
        }
        self.add(l, n);
    }

    /// The column's figures (`None` before any analysed game).
    pub fn finish(&self) -> Option<EntrantAccuracy> {
        if self.games == 0 {
            return None;
        }
        let interval = (self.games >= 2).then(|| {
            let var = self.m2 / (self.games - 1) as f64;
            let half = t975(self.games - 1) * (var / self.games as f64).sqrt();
            (self.mean - half, self.mean + half)
        });
        Some(EntrantAccuracy {
            games: self.games,
            seat_hands: self.seat_hands,
            tricks_lost: self.lost,
            per_hand: self.mean,
            low: interval.map(|i| i.0),
            high: interval.map(|i| i.1),
        })
    }
}

/// Each of `names`' accuracy over the rows that carry an analysis (`None` for an entrant
/// without one).
pub fn per_entrant(rows: &[GameRow], names: &[String]) -> Vec<Option<EntrantAccuracy>> {
    names
        .iter()
        .map(|name| {
            let mut sum = AccuracySum::default();
            for r in rows {
                let seats: Vec<usize> = (0..4).filter(|&i| &r.seats[i] == name).collect();
                if !seats.is_empty() {
                    sum.add_row(r, seats);
                }
            }
            sum.finish()
        })
        .collect()
}

/// The column's cells: the value, and its interval.
pub fn cells(a: Option<&EntrantAccuracy>) -> [String; 2] {
    match a {
        None => ["-".into(), "-".into()],
        Some(a) => [
            format!("{:.2}", a.per_hand),
            match (a.low, a.high) {
                (Some(l), Some(h)) => format!("[{l:.2}, {h:.2}]"),
                _ => "-".into(),
            },
        ],
    }
}

/// What the columns mean, under the table.
pub const LEGEND: &str = "DD lost/hand: tricks the entrant's cards gave away per hand against perfect play (lower is\nbetter; the luck of the cards does not move it).\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_is_students_t_over_per_game_values() {
        // Values 1, 2, 3, 6: mean 3, sample variance (4 + 1 + 0 + 9) / 3 = 14/3, standard
        // error sqrt(14/3 / 4) = 1.0801; t(3 df, 97.5%) = 3.1824: half width 3.4374.
        let (mean, i) = mean_interval(&[1.0, 2.0, 3.0, 6.0]);
        let (low, high) = i.unwrap();
        assert!((mean - 3.0).abs() < 1e-12);
        assert!((low - (3.0 - 3.4374)).abs() < 1e-3, "{low}");
        assert!((high - (3.0 + 3.4374)).abs() < 1e-3, "{high}");
        assert_eq!(mean_interval(&[2.5]), (2.5, None));
        // The running sums give the same figures as the two passes.
        let mut sum = AccuracySum::default();
        for lost in [1, 2, 3, 6] {
            sum.add(lost, 1);
        }
        let a = sum.finish().unwrap();
        assert!((a.per_hand - mean).abs() < 1e-12);
        assert!((a.low.unwrap() - low).abs() < 1e-12 && (a.high.unwrap() - high).abs() < 1e-12);
    }

    #[test]
    fn per_game_values_count_the_entrants_seats_and_hands() {
        let with = |game, seats: [&str; 4], hands, lost: [u32; 4]| GameRow {
            accuracy: Some(RowAccuracy {
                hands,
                tricks_lost: lost,
            }),
            ..GameRow::sample(game, None, game, seats, Some(0))
        };
        let rows = vec![
            // A holds seats 0 and 2 over 4 hands: (2 + 6) / 8 = 1; B: (4 + 0) / 8 = 0.5.
            with(0, ["A", "B", "A", "B"], 4, [2, 4, 6, 0]),
            // A at seat 1 only, 2 hands: 3 / 2 = 1.5; B at 0 and 2: 1 / 4; C at 3: 0 / 2.
            with(1, ["B", "A", "B", "C"], 2, [1, 3, 0, 0]),
            // No analysis, or no hand played out: not counted.
            GameRow::sample(2, None, 2, ["A", "B", "A", "B"], Some(1)),
            with(3, ["A", "B", "A", "B"], 0, [0; 4]),
        ];
        let names = ["A", "B", "C", "D"].map(String::from);
        let got = per_entrant(&rows, &names);
        let a = got[0].as_ref().unwrap();
        assert_eq!((a.games, a.seat_hands, a.tricks_lost), (2, 10, 11));
        assert!((a.per_hand - 1.25).abs() < 1e-12);
        // Two values 1 and 1.5: s = 0.35355, se = 0.25, t(1) = 12.7062.
        assert!((a.high.unwrap() - (1.25 + 12.7062 * 0.25)).abs() < 1e-3);
        let b = got[1].as_ref().unwrap();
        assert!((b.per_hand - 0.375).abs() < 1e-12);
        let c = got[2].as_ref().unwrap();
        assert_eq!((c.games, c.per_hand, c.low), (1, 0.0, None));
        assert!(got[3].is_none());
        assert_eq!(cells(got[3].as_ref()), ["-", "-"]);
        assert_eq!(cells(Some(c)), ["0.00", "-"]);
    }
}
