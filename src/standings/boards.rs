//! Board scoring: the two games of a duplicate pair compared hand by hand, as boards are in
//! duplicate bridge.
//!
//! Both games of a pair are dealt from the same seed, so hand k holds the same cards at the same
//! seats in both; only the partnerships sitting there differ. For hand k, side X's *board
//! result* is its net team points (its team's score change minus the other team's) at the
//! first table plus its net at the second table, where it holds the cards its opponents held
//! at the first. If X and Y would play the cards alike, the two nets cancel and the board is 0;
//! what is left is how much better X did with the same cards. A pair's board score is the sum
//! over its hands. Game results ignore everything but who reached the target first: two close
//! bots split 78% of pairs ½-½, which says nothing, while the boards of such a pair almost never
//! sum to exactly 0.
//!
//! **Hands without a twin.** A game ends when a team reaches the target, so one game of a pair
//! often has more hands than the other: the longer game's extra hands were dealt to nobody at
//! the other table, and are left out of the board score (they count in the game result as
//! always). Every hand both games reached is a board: the k-th deck of a seed is the same and
//! is dealt to the seats in seat order whoever deals, so hand k holds the same cards at the
//! same seats at both tables. Its dealer can differ (after an all-pass redeal by the same
//! dealer at one table only, the rotation is shifted), which changes who bids first; such
//! hands still count, as counting only same-dealer hands kept 43% of the hands of close C
//! bots and separated them less well (1.09 against 1.13 standard deviations per pair).

//! **Forfeits.** A pair in which a side forfeited is scored on its forfeits, not on its
//! hands: the side that forfeited more of the pair's two games loses the boards (0), the other
//! wins them (1), and equal forfeits (one each, or a draw by both failing the handshake) split
//! them (½). Scoring only the hands played before a crash let a bot that crashed early in every
//! game win on boards (+59 board Elo for a bot that lost all 1,386 games by forfeit, and an SPRT
//! on boards accepted H1 for it): a forfeit never gains anything on boards. Such a pair counts
//! as a board pair even when no hand was played.
//!
//! **Scale.** `points` (the default) sums the net team points as they are. `imps` first maps
//! each hand's board result `d` through an IMP-like table (a roughly logarithmic scale, as
//! bridge's International Match Points are: the first points of a swing count most) so that one
//! hand with a large swing (a failed high bid) does not outweigh many small edges:
//!
//! ```text
//! |d|   0  1  2  3-4  5-6  7-9  10-13  14-18  19-25  26-35  36+
//! IMPs  0  1  2   3    4    5     6      7      8      9    10
//! ```
//!
//! **Statistic.** For ratings and the SPRT a pair's board score becomes a result from side 0's
//! point of view: 1 when its board score is positive, ½ when it is 0, 0 when negative (who won
//! the boards). That keeps the same logistic model and Elo scale as game results ("board Elo":
//! the Elo difference whose expected score is the share of pairs won on the boards), and the
//! SPRT's trinomial formulas apply unchanged.

use serde::{Deserialize, Serialize};

use super::pairs::{team, Unit};
use super::row::GameRow;

/// How a hand's board result is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardScale {
    #[default]
    Points,
    Imps,
}

impl BoardScale {
    pub fn parse(text: &str) -> Result<BoardScale, String> {
        match text {
            "points" => Ok(BoardScale::Points),
            "imps" => Ok(BoardScale::Imps),
            _ => Err(format!("'{text}' is not a board scale: use points or imps")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BoardScale::Points => "points",
            BoardScale::Imps => "imps",
        }
    }

    /// One hand's board result on this scale.
    pub fn apply(self, d: i64) -> f64 {
        match self {
            BoardScale::Points => d as f64,
            BoardScale::Imps => {
                const UPPER: [i64; 10] = [0, 1, 2, 4, 6, 9, 13, 18, 25, 35];
                let imps = UPPER.iter().position(|&u| d.abs() <= u).unwrap_or(10);
                d.signum() as f64 * imps as f64
            }
        }
    }
}

/// A pair's boards from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairBoards {
    /// Hands played at both tables.
    pub hands: usize,
    /// The sum of the board results, on the chosen scale.
    pub total: f64,
    /// Set when a side forfeited a game of the pair: the score the forfeits give (see the
    /// module documentation), which the hands do not change.
    pub forfeit_score: Option<f64>,
}

impl PairBoards {
    /// 1, ½ or 0: who won the boards (see the module documentation).
    pub fn score(&self) -> f64 {
        if let Some(s) = self.forfeit_score {
            return s;
        }
        if self.total > 0.0 {
            1.0
        } else if self.total < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// Net points of team `t` on each hand of `row`.
fn nets(row: &GameRow, t: usize) -> impl Iterator<Item = i64> + '_ {
    row.hand_deltas
        .iter()
        .map(move |d| i64::from(d[t]) - i64::from(d[1 - t]))
}

/// Which teams of `row` forfeited it: `[team 0, team 1]`. A forfeit with no winner (both
/// partnerships failed the handshake) is both teams'.
fn forfeited(row: &GameRow) -> [bool; 2] {
    match (row.forfeit_seat, row.winner) {
        (Some(_), None) => [true, true],
        (Some(s), Some(_)) => {
            let t = usize::from(s % 2);
            [t == 0, t == 1]
        }
        (None, _) => [false, false],
    }
}

/// The boards of the pair `first`, `second` for the side sitting as team 0 in `first`;
/// `None` when neither game was forfeited and either row has no hand results (rows written
/// before they were kept).
pub fn pair_boards(first: &GameRow, second: &GameRow, scale: BoardScale) -> Option<PairBoards> {
    let side = {
        let mut s = team(first, 0);
        s.sort_unstable();
        s
    };
    let mut second_team0 = team(second, 0);
    second_team0.sort_unstable();
    // The side's team in the second game: the other one when the seats were swapped.
    let t2 = if second_team0 == side { 0 } else { 1 };
    let (f1, f2) = (forfeited(first), forfeited(second));
    let mine = usize::from(f1[0]) + usize::from(f2[t2]);
    let theirs = usize::from(f1[1]) + usize::from(f2[1 - t2]);
    let forfeit_score = (mine + theirs > 0).then(|| match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => 0.0,
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
    });
    if forfeit_score.is_none() && (first.hand_deltas.is_empty() || second.hand_deltas.is_empty()) {
        return None;
    }
    let mut hands = 0;
    let mut total = 0.0;
    for (a, b) in nets(first, 0).zip(nets(second, t2)) {
        hands += 1;
        total += scale.apply(a + b);
    }
    Some(PairBoards {
        hands,
        total,
        forfeit_score,
    })
}

/// The board score of a rating unit from side 0's point of view, for pairs whose rows hold
/// hand results.
pub fn unit_boards(u: &Unit<'_>, scale: BoardScale) -> Option<PairBoards> {
    match u.rows.as_slice() {
        [first, second] => pair_boards(first, second, scale),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(game: u64, x: &str, y: &str, deltas: &[[i32; 2]]) -> GameRow {
        GameRow {
            hand_deltas: deltas.to_vec(),
            ..GameRow::sample(game, Some(0), 5, [x, y, x, y], Some(0))
        }
    }

    #[test]
    fn boards_by_hand() {
        // Table 1, X at team 0: hand 1 X +4 / Y 0, hand 2 X −3 (set) / Y +2, hand 3 X +5 / Y 0.
        // Table 2, Y at team 0 with the same cards: hand 1 Y +4 / X 0, hand 2 Y +3 / X 0,
        // hand 3 not played (the game had ended), hand count 2.
        // X's nets: table 1 [+4, −5, +5], table 2 (X is team 1) [−4, −3].
        // Boards: hand 1 +4 − 4 = 0 (the same result with the same cards), hand 2 −5 − 3 = −8
        // (X was set where Y made its bid), hand 3 has no twin and is left out.
        let first = game(0, "X", "Y", &[[4, 0], [-3, 2], [5, 0]]);
        let second = game(1, "Y", "X", &[[4, 0], [3, 0]]);
        let b = pair_boards(&first, &second, BoardScale::Points).unwrap();
        assert_eq!((b.hands, b.total), (2, -8.0));
        assert_eq!(b.score(), 0.0);
        // Y's view (team 0 of the second game as `first`): +8.
        let y = pair_boards(&second, &first, BoardScale::Points).unwrap();
        assert_eq!((y.hands, y.total), (2, 8.0));
        assert_eq!(y.score(), 1.0);
        // IMPs: a board of −8 is 5 IMPs.
        let imps = pair_boards(&first, &second, BoardScale::Imps).unwrap();
        assert_eq!(imps.total, -5.0);
        // Rows without hand results give no boards.
        let bare = game(1, "Y", "X", &[]);
        assert!(pair_boards(&first, &bare, BoardScale::Points).is_none());
    }

    #[test]
    fn a_forfeit_loses_the_boards_whatever_the_hands_said() {
        // X did well on the one hand it played at each table, then crashed: forfeit both games.
        let mut first = game(0, "X", "Y", &[[8, 0]]);
        first.forfeit_seat = Some(0); // X at team 0
        first.winner = Some(1);
        let mut second = game(1, "Y", "X", &[[0, 8]]);
        second.forfeit_seat = Some(1); // X at team 1
        second.winner = Some(0);
        let x = pair_boards(&first, &second, BoardScale::Points).unwrap();
        assert!(x.total > 0.0, "the hands alone favour X");
        assert_eq!(x.score(), 0.0, "X forfeited: it loses the boards");
        let y = pair_boards(&second, &first, BoardScale::Points).unwrap();
        assert_eq!(y.score(), 1.0);
        // A forfeit before any hand still scores the pair.
        let mut early = game(2, "X", "Y", &[]);
        early.forfeit_seat = Some(2);
        early.winner = Some(1);
        let clean = game(3, "Y", "X", &[[1, 0]]);
        assert_eq!(
            pair_boards(&early, &clean, BoardScale::Points)
                .unwrap()
                .score(),
            0.0
        );
        // One forfeit each, or a game both failed: the boards are split.
        let mut other = game(3, "Y", "X", &[[1, 0]]);
        other.forfeit_seat = Some(0); // Y at team 0 of the twin
        other.winner = Some(1);
        assert_eq!(
            pair_boards(&early, &other, BoardScale::Points)
                .unwrap()
                .score(),
            0.5
        );
        let mut both = game(4, "X", "Y", &[]);
        both.forfeit_seat = Some(1);
        both.winner = None;
        let twin = game(5, "Y", "X", &[[2, 0]]);
        assert_eq!(
            pair_boards(&both, &twin, BoardScale::Points)
                .unwrap()
                .score(),
            0.5
        );
    }

    #[test]
    fn imp_table() {
        let imps: Vec<f64> = [0, 1, 2, 3, 4, 5, 7, 10, 14, 19, 26, 36, 100]
            .iter()
            .map(|&d| BoardScale::Imps.apply(d))
            .collect();
        assert_eq!(imps, [0., 1., 2., 3., 3., 4., 5., 6., 7., 8., 9., 10., 10.]);
        assert_eq!(BoardScale::Imps.apply(-6), -4.0);
        assert_eq!(BoardScale::Points.apply(-6), -6.0);
    }
}
