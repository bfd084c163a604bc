//! A Swiss tournament spread over machines: shards play each round's games, and learn the
//! earlier rounds' results from each other's directories.
//!
//! Round `r`'s pairing depends on every result of the rounds before it, so no shard can run
//! ahead alone. `--shard K/N --round R` plays shard K's games (index modulo N is K − 1) of the
//! rounds up to R; the results of the other shards' games of earlier rounds come from their
//! directories, given with `--peers` (a shared file system, or copies). The shard's schedule is
//! the unsharded one cut after round R (a round's pairing does not depend on how many rounds
//! follow), fed every known row, so it pairs exactly as one whole run does and its games get
//! the numbers, seeds and seats the whole run gives them; the other shards' games of round R
//! are left to them. `tarneeb standings` merges the shards' directories as it merges a round
//! robin's. Refused, never guessed: a peer of another tournament (its `tournament.json`
//! differs beyond the shard and the sandbox), one game with different results in two
//! directories, and a round before R with other shards' games missing (the message names
//! them, their shards and the command that fixes it). Nothing of the above is written, so a
//! killed shard resumes with the same command.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::standings::row::GameRow;
use crate::tournament::directory::differences;
use crate::tournament::directory::results::shard_neutral;
use crate::tournament::directory::TournamentDir;
use crate::tournament::schedule::{units, GameScore, Plan, Schedule};

pub use crate::tournament::schedule::shard::Shard;

/// Games of one Swiss round: every round has the same number of matches.
pub fn games_per_round(plan: &Plan) -> u64 {
    let units = units(plan.entrants, plan.partners).len() as u64;
    units / 2 * plan.games * if plan.duplicate { 2 } else { 1 }
}

/// The round (from 1) game `game` belongs to.
pub fn round_of(plan: &Plan, game: u64) -> u64 {
    game / games_per_round(plan).max(1) + 1
}

/// Games a shard's run through round `round` accounts for: every game of the earlier rounds
/// (all shards' rows are fed to it) and its own games of round `round`.
pub fn games_through(plan: &Plan, shard: Shard, round: u64) -> u64 {
    let per = games_per_round(plan);
    let first = (round - 1) * per;
    first + (first..first + per).filter(|&g| shard.owns(g)).count() as u64
}

/// The rows of `out` and of the `peers` (other shards' directories of the same tournament),
/// each game once. `out` among the peers is skipped.
pub fn gather(out: &TournamentDir, peers: &[PathBuf]) -> Result<Vec<GameRow>, String> {
    let (mine, _) = shard_neutral(out.config().clone());
    let mut by_game: BTreeMap<u64, (GameRow, PathBuf)> = BTreeMap::new();
    let mut add = |rows: Vec<GameRow>, from: &Path| -> Result<(), String> {
        for r in rows {
            match by_game.get(&r.game) {
                Some((old, dir)) if !same_result(old, &r) => {
                    return Err(format!(
                        "game {} has different results in {} and {}: one of them is not a shard of this tournament or holds a stale copy; remove it from --peers",
                        r.game,
                        dir.display(),
                        from.display()
                    ))
                }
                Some(_) => {}
                None => {
                    by_game.insert(r.game, (r, from.to_path_buf()));
                }
            }
        }
        Ok(())
    };
    add(out.read_rows()?, out.path())?;
    let own_dir = out.path().canonicalize().ok();
    for p in peers {
        if p.canonicalize().ok().is_some_and(|c| Some(c) == own_dir) {
            continue;
        }
        if !p.exists() {
            // A shard not started yet (round 1 of a script that names every shard each
            // round): its games, if needed, are reported missing below.
            eprintln!("note: --peers {}: no such directory yet", p.display());
            continue;
        }
        let peer = TournamentDir::open(p)
            .map_err(|e| format!("--peers: {e}; give the --out directories of the other shards"))?;
        let (theirs, _) = shard_neutral(peer.config().clone());
        let changed = differences(&theirs, &mine);
        if !changed.is_empty() {
            return Err(format!(
                "--peers {}: a shard of another tournament ({}); every shard must be run with the same command but for --shard, --round, --peers and the sandbox settings",
                p.display(),
                changed.join("; ")
            ));
        }
        add(peer.read_rows()?, p)?;
    }
    Ok(by_game.into_values().map(|(r, _)| r).collect())
}

/// Two rows of one game with the same result (the referee's timing may differ).
fn same_result(a: &GameRow, b: &GameRow) -> bool {
    let untimed = |r: &GameRow| GameRow {
        referee_us_per_move: None,
        ..r.clone()
    };
    untimed(a) == untimed(b)
}

/// Replays `rows` through the schedule of `plan` cut after round `round` and checks that every
/// game of the rounds before `round` is either known or this shard's own. `Err` names the
/// missing games and the fix.
pub fn check_ready(
    plan: &Plan,
    rows: &[GameRow],
    shard: Shard,
    round: u64,
    out: &Path,
) -> Result<(), String> {
    let mut schedule = Schedule::new(Plan {
        rounds: round,
        ..plan.clone()
    })?;
    let known: HashMap<u64, &GameRow> = rows.iter().map(|r| (r.game, r)).collect();
    let mut unknown = Vec::new();
    while let Some(g) = schedule.next_game() {
        match known.get(&g.game) {
            Some(r) if r.seed == g.seed => schedule.finished(
                g.game,
                GameScore {
                    winner: r.winner,
                    team_scores: r.team_scores,
                },
            ),
            Some(r) => {
                return Err(format!(
                    "game {}: its row has seed {}, the schedule seed {}: a directory in --peers holds another tournament's rows",
                    g.game, r.seed, g.seed
                ))
            }
            None => unknown.push(g.game),
        }
    }
    waiting(plan, shard, round, &unknown, out)
}

/// `Err` naming the games of other shards, of rounds before `round`, among `missing`.
pub fn waiting(
    plan: &Plan,
    shard: Shard,
    round: u64,
    missing: &[u64],
    out: &Path,
) -> Result<(), String> {
    let late: Vec<u64> = missing
        .iter()
        .copied()
        .filter(|&g| !shard.owns(g) && round_of(plan, g) < round)
        .collect();
    let Some(&first) = late.iter().min() else {
        return Ok(());
    };
    let r = round_of(plan, first);
    let shards: BTreeSet<u64> = late.iter().map(|&g| shard.owner(g)).collect();
    let names: Vec<String> = shards.iter().map(|k| format!("{k}/{}", shard.n)).collect();
    let games: Vec<String> = late.iter().map(u64::to_string).collect();
    Err(format!(
        "round {r} is not finished: games {} of shard {} are in neither {} nor a --peers directory, and round {} cannot be paired without them; run shard {} with --round {r} (giving it this shard's directory with --peers), then run this command again with its directory after --peers",
        games.join(", "),
        names.join(", "),
        out.display(),
        r + 1,
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::{Format, Partners};

    fn plan(entrants: usize) -> Plan {
        Plan {
            entrants,
            format: Format::Swiss,
            partners: Partners::Own,
            games: 1,
            duplicate: true,
            seed: 3,
            rounds: 3,
        }
    }

    #[test]
    fn rounds_and_shares() {
        // Five partnerships: two matches a round (one bye), two games each.
        let p = plan(5);
        assert_eq!(games_per_round(&p), 4);
        assert_eq!(round_of(&p, 0), 1);
        assert_eq!(round_of(&p, 3), 1);
        assert_eq!(round_of(&p, 4), 2);
        // A shard owns deal sets: both games of a duplicate pair.
        let s = Shard::new(3, 3, true);
        assert!(s.owns(4) && s.owns(5) && !s.owns(3) && !s.owns(6) && s.owns(10));
        assert_eq!((s.owner(0), s.owner(3), s.owner(7)), (1, 2, 1));
        // Round 2 is games 4..8, deal sets 2 and 3: shard 3/3 owns deal set 2, shard 2/3 none.
        assert_eq!(games_through(&p, s, 2), 4 + 2);
        assert_eq!(games_through(&p, Shard::new(2, 3, true), 2), 4);
        // Without duplicate a deal set is one game.
        let single = Shard::new(2, 3, false);
        assert!(single.owns(1) && single.owns(4) && !single.owns(0));
    }

    #[test]
    fn a_missing_earlier_round_names_the_shard_and_the_fix() {
        let p = plan(4);
        let s = Shard::new(1, 2, true);
        let out = Path::new("part-1");
        // Round 2 needs round 1's games 2 and 3 (deal set 1, shard 2/2).
        let e = check_ready(&p, &[], s, 2, out).unwrap_err();
        assert!(e.contains("round 1 is not finished"), "{e}");
        assert!(e.contains("games 2, 3 of shard 2/2"), "{e}");
        assert!(e.contains("--round 1") && e.contains("--peers"), "{e}");
        // Round 1 needs nothing; round 2 with only its own games missing is fine too.
        assert!(check_ready(&p, &[], s, 1, out).is_ok());
        assert!(waiting(&p, s, 2, &[0, 1], out).is_ok());
        // The other shard's games of the round itself are not waited for.
        assert!(waiting(&p, s, 2, &[6, 7], out).is_ok());
    }
}
