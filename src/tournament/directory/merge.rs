//! What `tarneeb standings DIR...` merged: each directory's command (a fingerprint of its
//! `tournament.json` without what shards of one run may differ in), its shard, the rows it
//! gave; the shards missing and whether the schedule was played to its end ("incomplete: X of
//! Y games"). Two directories that hold the same game of one command with different results
//! (two runs of one command whose bots are not deterministic) are refused: counting either
//! would depend on the order of the arguments.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use serde_json::Value;

use crate::standings::row::GameRow;
use crate::tournament::schedule::bracket::plan_of;
use crate::tournament::schedule::Schedule;

/// One directory of a merge.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergedDir {
    pub dir: String,
    /// The first 12 hex digits of the BLAKE3 hash of its command (shard-neutral
    /// `tournament.json`): equal for shards of one tournament and for runs of one command.
    pub command: String,
    /// `K/N` for a shard of a sharded run.
    pub shard: Option<String>,
    /// Rows read, and rows counted (the others were games another directory gave first,
    /// with the same result).
    pub rows: u64,
    pub counted: u64,
}

/// The merge as the standings state it (text and `merge` in the JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeReport {
    pub dirs: Vec<MergedDir>,
    /// Games counted, and the games of the whole schedule when the directories hold one
    /// command (`None` when they differ or the size is unknown).
    pub games: u64,
    pub expected_games: Option<u64>,
    /// Shards `K/N` of a sharded run of which no directory was given.
    pub missing_shards: Vec<String>,
    /// `incomplete: X of Y games`, or `None` when every game of the schedule is there.
    pub incomplete: Option<String>,
}

/// The fingerprint of a shard-neutral config.
pub fn fingerprint(neutral: &Value) -> String {
    let text = serde_json::to_string(neutral).unwrap_or_default();
    blake3::hash(text.as_bytes()).to_hex()[..12].to_string()
}

/// The games of the whole schedule `config` describes, when it can be rebuilt from it.
pub fn expected_games(config: &Value) -> Option<u64> {
    Schedule::new(plan_of(config)?)
        .ok()
        .map(|s| s.total_games())
}

/// Finds games given twice with different results. Rows are kept as a hash of what a result
/// is (seed, seats, winner, team scores, reason, hands), 16 bytes a game.
#[derive(Default)]
pub struct Conflicts {
    seen: HashMap<u64, (usize, u64)>,
}

fn digest(r: &GameRow) -> u64 {
    let key = serde_json::json!([r.seed, r.seats, r.winner, r.team_scores, r.reason, r.hands]);
    let h = blake3::hash(key.to_string().as_bytes());
    u64::from_le_bytes(h.as_bytes()[..8].try_into().expect("8 bytes"))
}

impl Conflicts {
    /// `row` of directory `dir` (an index into `names`): `Ok(true)` when first seen (to be
    /// counted), `Ok(false)` when another directory gave the same result, an error naming both
    /// directories when it gave another.
    pub fn check(&mut self, dir: usize, names: &[String], row: &GameRow) -> Result<bool, String> {
        let d = digest(row);
        match self.seen.get(&row.game) {
            None => {
                self.seen.insert(row.game, (dir, d));
                Ok(true)
            }
            Some(&(_, first)) if first == d => Ok(false),
            Some(&(other, _)) => Err(format!(
                "{} and {} hold game {} of the same command with different results: they are two runs of one command (bots that are not deterministic), not shards of one run, and counting either would depend on the order of the arguments. Give the standings of each directory separately, or only the shards of one run",
                names[other], names[dir], row.game
            )),
        }
    }
}

/// The report of a merge: `dirs` with their configs (shard-neutral, and as written) and rows.
pub fn report(dirs: Vec<MergedDir>, configs: &[(Value, Value)]) -> MergeReport {
    let games = dirs.iter().map(|d| d.counted).sum();
    let one_command = configs.windows(2).all(|w| w[0].0 == w[1].0);
    let expected_games = if one_command {
        configs.first().and_then(|(_, c)| expected_games(c))
    } else {
        None
    };
    let mut missing_shards = Vec::new();
    // A whole run of the command (no shard) holds every shard's games: none is missing.
    let whole = dirs.iter().any(|d| d.shard.is_none());
    if one_command && !whole {
        let shards: BTreeSet<(u64, u64)> = dirs
            .iter()
            .filter_map(|d| {
                let (k, n) = d.shard.as_deref()?.split_once('/')?;
                Some((k.parse().ok()?, n.parse().ok()?))
            })
            .collect();
        if let Some(&(_, n)) = shards.iter().next() {
            for k in 1..=n {
                if !shards.contains(&(k, n)) {
                    missing_shards.push(format!("{k}/{n}"));
                }
            }
        }
    }
    let incomplete = expected_games
        .filter(|&y| games < y)
        .map(|y| format!("incomplete: {games} of {y} games"));
    MergeReport {
        dirs,
        games,
        expected_games,
        missing_shards,
        incomplete,
    }
}

impl MergeReport {
    /// The lines printed above the standings: the directories when there are several, the
    /// missing shards and the games missing (none for one whole directory).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for d in self.dirs.iter().filter(|_| self.dirs.len() > 1) {
            let shard = d
                .shard
                .as_ref()
                .map_or(String::new(), |s| format!(", shard {s}"));
            let dup = if d.rows > d.counted {
                format!(
                    " ({} games also in an earlier directory, with the same results: counted once)",
                    d.rows - d.counted
                )
            } else {
                String::new()
            };
            out.push_str(&format!(
                "from {}: command {}{shard}, {} games{dup}\n",
                d.dir, d.command, d.rows
            ));
        }
        if !self.missing_shards.is_empty() {
            out.push_str(&format!(
                "missing shards: {} (give their directories too)\n",
                self.missing_shards.join(", ")
            ));
        }
        if let Some(i) = &self.incomplete {
            out.push_str(&format!(
                "{i}: the standings cover part of the schedule (a run stopped early, a missing shard, or an SPRT that decided)\n"
            ));
        }
        let commands: BTreeSet<&str> = self.dirs.iter().map(|d| d.command.as_str()).collect();
        if commands.len() > 1 {
            out.push_str(
                "note: the directories hold different commands: their games are pooled, none counted twice only within one command\n",
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(shard: Option<&str>) -> (Value, Value) {
        let full = serde_json::json!({"entrants": [{"name": "a"}, {"name": "b"}],
            "format": "gauntlet", "partners": "own", "games": 4, "duplicate": true, "seed": 3,
            "shard": shard});
        let (neutral, _) = crate::tournament::directory::results::shard_neutral(full.clone());
        (neutral, full)
    }

    fn dir(name: &str, shard: Option<&str>, rows: u64) -> MergedDir {
        MergedDir {
            dir: name.into(),
            command: fingerprint(&cfg(shard).0),
            shard: shard.map(String::from),
            rows,
            counted: rows,
        }
    }

    #[test]
    fn a_missing_shard_and_a_partial_run_are_reported() {
        // A gauntlet of 4 duplicate deal sets: 8 games. Shards 1/3 and 3/3 given, 2/3 not.
        assert_eq!(expected_games(&cfg(None).1), Some(8));
        let r = report(
            vec![dir("s1", Some("1/3"), 3), dir("s3", Some("3/3"), 2)],
            &[cfg(Some("1/3")), cfg(Some("3/3"))],
        );
        assert_eq!(r.missing_shards, ["2/3"]);
        assert_eq!(r.incomplete.as_deref(), Some("incomplete: 5 of 8 games"));
        let text = r.text();
        assert!(text.contains("missing shards: 2/3"), "{text}");
        assert!(text.contains("from s1: command "), "{text}");
        assert!(text.contains(", shard 1/3, 3 games"), "{text}");
        // One run stopped after 3 games; a whole run is not called incomplete, and one whole
        // directory adds no line.
        let r = report(vec![dir("run", None, 3)], &[cfg(None)]);
        assert_eq!(r.incomplete.as_deref(), Some("incomplete: 3 of 8 games"));
        let r = report(vec![dir("run", None, 8)], &[cfg(None)]);
        assert_eq!(r.text(), "");
        assert_eq!((r.incomplete, r.missing_shards.len()), (None, 0));
    }

    #[test]
    fn two_runs_of_one_command_with_different_results_are_refused() {
        let names = vec!["A".to_string(), "B".to_string()];
        let row = |winner| GameRow::sample(5, Some(2), 99, ["x", "y", "x", "y"], winner);
        let mut c = Conflicts::default();
        assert_eq!(c.check(0, &names, &row(Some(0))), Ok(true));
        // The same result again (deterministic bots, or shards overlapping): counted once.
        assert_eq!(c.check(1, &names, &row(Some(0))), Ok(false));
        let err = c.check(1, &names, &row(Some(1))).unwrap_err();
        assert!(
            err.starts_with("A and B hold game 5 of the same command with different results"),
            "{err}"
        );
    }
}
