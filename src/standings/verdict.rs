//! The SPRT verdict of a tournament, fixed by the first unit (duplicate pair, or game without
//! duplicate) that takes the LLR across a bound.
//!
//! Games run several at once, so when the test decides, games started before it are still being
//! played. Their rows are kept in `results.jsonl` (they are results like any other), but they do
//! not change the verdict: a sequential test's error rates hold for the stopping rule "stop at
//! the first crossing", and folding in later observations can pull the LLR back inside the
//! bounds (a printed "accept H1" would then turn into "continue" on the same data).
//!
//! The rows are read in the order they were appended to `results.jsonl`, which is the order the
//! runner saw the games end, so `tarneeb standings DIR` replays the runner's test exactly and
//! prints the same verdict.

use std::collections::BTreeMap;

use super::boards::pair_boards;
use super::row::GameRow;
use super::sprt::{sprt, sprt_of_classes, SprtConfig, SprtDecision, SprtState, Units};

/// The test as rows arrive.
#[derive(Clone, Debug)]
pub struct SprtTracker {
    cfg: SprtConfig,
    entrant: String,
    /// Games of duplicate pairs whose twin has not ended yet, by deals.
    open: BTreeMap<(u64, u64, Option<String>), GameRow>,
    /// Units seen, by score class 0, ¼, ½, ¾, 1 (all the test needs).
    classes: [u64; 5],
    /// Pairs of games (pentanomial) or single games or boards (trinomial).
    units: Units,
    current: SprtState,
    decided: Option<Decided>,
    rows_seen: usize,
}

/// The state at the crossing, and how many units and rows the test had seen then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decided {
    pub state: SprtState,
    pub units: usize,
    pub rows: usize,
}

impl SprtTracker {
    /// A test of `entrant` (its score in every game it plays).
    pub fn new(cfg: SprtConfig, entrant: &str) -> SprtTracker {
        SprtTracker {
            cfg,
            entrant: entrant.to_string(),
            open: BTreeMap::new(),
            classes: [0; 5],
            units: if cfg.boards.is_some() {
                Units::Games
            } else {
                Units::Pairs
            },
            current: sprt(&cfg, Units::Pairs, &[]),
            decided: None,
            rows_seen: 0,
        }
    }

    fn team_of(&self, row: &GameRow) -> Option<usize> {
        if row.seats[0] == self.entrant || row.seats[2] == self.entrant {
            Some(0)
        } else if row.seats[1] == self.entrant || row.seats[3] == self.entrant {
            Some(1)
        } else {
            None
        }
    }

    /// The entrant's score in a game it plays: 1, ½ or 0.
    fn game_score(&self, row: &GameRow) -> f64 {
        match (row.winner, self.team_of(row)) {
            (Some(w), Some(t)) if usize::from(w) == t => 1.0,
            (None, _) => 0.5,
            _ => 0.0,
        }
    }

    /// Adds the next finished game. Returns true when this row decided the test.
    pub fn push(&mut self, row: &GameRow) -> bool {
        self.rows_seen += 1;
        if self.team_of(row).is_none() {
            return false;
        }
        let score = self.game_score(row);
        let unit = match (row.pair, self.cfg.boards) {
            (None, None) => {
                self.units = Units::Games;
                Some(score)
            }
            (None, Some(_)) => None, // a game without a twin has no boards
            (Some(p), boards) => {
                let key = (row.seed, p, row.deals.clone());
                match self.open.remove(&key) {
                    Some(first) => match boards {
                        None => Some((self.game_score(&first) + score) / 2.0),
                        Some(scale) => pair_boards(&first, row, scale).map(|b| {
                            // `b` is for team 0 of the first game.
                            if self.team_of(&first) == Some(0) {
                                b.score()
                            } else {
                                1.0 - b.score()
                            }
                        }),
                    },
                    None => {
                        self.open.insert(key, row.clone());
                        None
                    }
                }
            }
        };
        let Some(unit) = unit else { return false };
        self.classes[(unit.clamp(0.0, 1.0) * 4.0).round() as usize] += 1;
        self.current = sprt_of_classes(&self.cfg, self.units, self.classes);
        if self.decided.is_none() && self.current.decision != SprtDecision::Continue {
            self.decided = Some(Decided {
                state: self.current,
                units: self.units(),
                rows: self.rows_seen,
            });
            return true;
        }
        false
    }

    /// The verdict: the state at the first crossing once there was one, else the current state.
    pub fn verdict(&self) -> SprtState {
        self.decided.map_or(self.current, |d| d.state)
    }

    pub fn decided(&self) -> Option<Decided> {
        self.decided
    }

    /// The state over every unit seen, including those after the crossing.
    pub fn current(&self) -> SprtState {
        self.current
    }

    /// Units seen so far.
    pub fn units(&self) -> usize {
        self.classes.iter().sum::<u64>() as usize
    }

    /// Rows seen so far (games of other entrants included).
    pub fn rows(&self) -> usize {
        self.rows_seen
    }

    /// The verdict for `--json`: the decision and LLR that stand, the bounds, the units the
    /// test had at the crossing, the games after it and the LLR over everything.
    pub fn to_json(&self) -> serde_json::Value {
        let v = self.verdict();
        serde_json::json!({
            "decision": match v.decision {
                SprtDecision::Continue => "continue",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::AcceptH1 => "H1",
            },
            "llr": v.llr,
            "lower": v.lower,
            "upper": v.upper,
            "elo0": self.cfg.elo0,
            "elo1": self.cfg.elo1,
            "alpha": self.cfg.alpha,
            "beta": self.cfg.beta,
            "score": if self.cfg.boards.is_some() { "boards" } else { "results" },
            "scale": self.cfg.boards.map(|b| b.name()),
            "model": self.cfg.model.name(),
            "units_at_decision": self.decided.map(|d| d.units),
            "games_after_decision": self.decided.map(|d| self.rows_seen - d.rows),
            "llr_all_units": self.current.llr,
            "units": self.units(),
        })
    }

    /// The verdict as the command prints it, with what came after the crossing.
    pub fn describe(&self) -> String {
        let s = self.verdict();
        let decision = match s.decision {
            SprtDecision::Continue => "no decision yet (continue)",
            SprtDecision::AcceptH0 => "accept H0 (elo0)",
            SprtDecision::AcceptH1 => "accept H1 (elo1)",
        };
        let mut text = format!(
            "SPRT: {decision}: LLR {:.3} (bounds {:.3}, {:.3})",
            s.llr, s.lower, s.upper
        );
        if let Some(d) = self.decided {
            text.push_str(&format!(" after {} units", d.units));
            let later = self.rows_seen - d.rows;
            if later > 0 {
                text.push_str(&format!(
                    "; {later} games in flight at the decision are kept in the results but not in the test (LLR over all units {:.3})",
                    self.current.llr
                ));
            }
        }
        text.push_str(&format!("; model: {}", self.cfg.model.describe()));
        text
    }
}

/// The verdict over rows in the order they were appended to `results.jsonl`.
pub fn replay(cfg: SprtConfig, entrant: &str, rows: &[GameRow]) -> SprtTracker {
    let mut t = SprtTracker::new(cfg, entrant);
    for r in rows {
        t.push(r);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::sprt::parse_sprt;

    fn row(game: u64, pair: Option<u64>, a_first: bool, a_wins: Option<bool>) -> GameRow {
        let (x, y) = if a_first { ("A", "B") } else { ("B", "A") };
        let winner = a_wins.map(|w| if w == a_first { 0 } else { 1 });
        GameRow::sample(game, pair, 77 + pair.unwrap_or(game), [x, y, x, y], winner)
    }

    fn cfg() -> SprtConfig {
        parse_sprt("elo0=0,elo1=10").unwrap()
    }

    #[test]
    fn the_verdict_names_its_model() {
        let t = SprtTracker::new(parse_sprt("elo0=0,elo1=5,model=normalized").unwrap(), "A");
        assert_eq!(t.to_json()["model"], "normalized");
        assert!(
            t.describe()
                .ends_with("; model: normalized Elo, exact (fastchess, OpenBench)"),
            "{}",
            t.describe()
        );
        let t = SprtTracker::new(parse_sprt("elo0=0,elo1=5").unwrap(), "A");
        assert_eq!(t.to_json()["model"], "logistic");
    }

    #[test]
    fn games_ending_after_the_crossing_do_not_change_the_verdict() {
        // Single games (--no-duplicate): wins until the test accepts H1; then the games that
        // were in flight end, all lost, and pull the LLR back inside the bounds.
        let mut t = SprtTracker::new(cfg(), "A");
        let mut game = 0;
        while t.decided().is_none() {
            t.push(&row(game, None, game % 2 == 0, Some(true)));
            game += 1;
        }
        let at = t.verdict();
        assert_eq!(at.decision, SprtDecision::AcceptH1);
        let crossing = game;
        while t.current().decision != SprtDecision::Continue {
            t.push(&row(game, None, game % 2 == 0, Some(false)));
            game += 1;
        }
        assert!(game > crossing);
        assert_eq!(t.verdict(), at, "the verdict moved after the crossing");
        assert_eq!(t.decided().unwrap().units, crossing as usize);
        let text = t.describe();
        assert!(text.starts_with("SPRT: accept H1 (elo1)"), "{text}");
        assert!(
            text.ends_with("; model: logistic Elo, fishtest's normal approximation (LLR_alt2)"),
            "{text}"
        );
        assert!(
            text.contains(&format!("{} games in flight", game - crossing)),
            "{text}"
        );
        // The same rows replayed (as `tarneeb standings` does) give the same verdict.
        let rows: Vec<GameRow> = (0..game)
            .map(|g| row(g, None, g % 2 == 0, Some(g < crossing)))
            .collect();
        assert_eq!(replay(cfg(), "A", &rows).verdict(), at);
    }

    #[test]
    fn board_scores_decide_split_pairs() {
        // Every pair splits (each side wins its game), so game results carry nothing; on the
        // boards A gains 2 points per pair: A is team 0 of the first game, +3 net on the one
        // hand; in the twin (A team 1) A nets −1 with the cards B had.
        let cfg = parse_sprt("elo0=0,elo1=10,score=boards").unwrap();
        let mut boards = SprtTracker::new(cfg, "A");
        let mut results = SprtTracker::new(parse_sprt("elo0=0,elo1=10").unwrap(), "A");
        for p in 0..200u64 {
            let mut first = row(2 * p, Some(p), true, Some(true));
            first.hand_deltas = vec![[3, 0]];
            let mut second = row(2 * p + 1, Some(p), false, Some(false));
            second.hand_deltas = vec![[1, 0]];
            for r in [&first, &second] {
                boards.push(r);
                results.push(r);
            }
        }
        assert_eq!(boards.classes, [0, 0, 0, 0, 200]);
        assert_eq!(results.classes, [0, 0, 200, 0, 0]);
        assert_eq!(boards.verdict().decision, SprtDecision::AcceptH1);
        assert!(boards.decided().unwrap().units < 50);
        assert_eq!(results.verdict().decision, SprtDecision::AcceptH0);
        assert!(boards.to_json()["score"] == "boards");
    }

    #[test]
    fn a_bot_that_forfeits_every_game_loses_on_boards() {
        // A wins the one hand it plays at each table, then forfeits: its boards would say +10
        // a pair; the forfeits say it lost every pair, and the SPRT on boards accepts H0.
        let cfg = parse_sprt("elo0=0,elo1=10,score=boards").unwrap();
        let mut t = SprtTracker::new(cfg, "A");
        let mut p = 0;
        while t.decided().is_none() && p < 500 {
            let mut first = row(2 * p, Some(p), true, Some(false));
            first.hand_deltas = vec![[5, 0]];
            first.forfeit_seat = Some(0);
            let mut second = row(2 * p + 1, Some(p), false, Some(false));
            second.hand_deltas = vec![[0, 5]];
            second.forfeit_seat = Some(1);
            t.push(&first);
            t.push(&second);
            p += 1;
        }
        assert_eq!(
            t.verdict().decision,
            SprtDecision::AcceptH0,
            "after {p} pairs"
        );
        assert_eq!(t.classes[0], p, "every pair lost: {:?}", t.classes);
    }

    #[test]
    fn a_pair_counts_when_its_second_game_ends() {
        // Pair 0's first game ends, then pair 1 entirely, then pair 0's twin: units are pairs in
        // the order they complete, each the mean of its two games.
        let mut t = SprtTracker::new(cfg(), "A");
        t.push(&row(0, Some(0), true, Some(true)));
        assert_eq!(t.units(), 0);
        t.push(&row(2, Some(1), true, Some(false)));
        t.push(&row(3, Some(1), false, Some(false)));
        assert_eq!(t.units(), 1);
        t.push(&row(1, Some(0), false, None));
        assert_eq!(t.units(), 2);
        assert_eq!(t.classes, [1, 0, 0, 1, 0]);
        // A game of pair 0 in another tournament (other seed) is not its twin.
        let mut other = row(5, Some(0), false, Some(true));
        other.seed = 999;
        t.push(&other);
        assert_eq!(t.units(), 2);
    }
}
