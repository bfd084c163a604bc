//! The static schedules (round robin, gauntlet): who meets whom, and the lazy schedule against the whole schedule earlier versions
//! built before the first game: the same games in the same order on the same seeds (so
//! tournaments started before resume identically), and nothing held per game.

use tarneeb_referee::tournament::schedule::{
    deal_set_seed, units, Format, GameScore, GameSpec, Partners, Plan, Schedule, Unit,
};

fn plan(entrants: usize, format: Format, partners: Partners, duplicate: bool) -> Plan {
    Plan {
        entrants,
        format,
        partners,
        games: 2,
        duplicate,
        seed: 7,
        rounds: 0,
    }
}

fn disjoint(a: Unit, b: Unit) -> bool {
    !a.iter().any(|x| b.contains(x))
}

fn drain(s: &mut Schedule, win: impl Fn(&GameSpec) -> Option<u8>) -> Vec<GameSpec> {
    let mut all = Vec::new();
    while let Some(g) = s.next_game() {
        let winner = win(&g);
        s.finished(
            g.game,
            GameScore {
                winner,
                team_scores: [0, 0],
            },
        );
        all.push(g);
    }
    assert!(s.is_done());
    all
}

/// The static schedule as earlier versions built it, whole, before the first game.
fn eager(p: &Plan) -> Vec<GameSpec> {
    let us = units(p.entrants, p.partners);
    let n = us.len();
    let mut matches = Vec::new();
    let first = |u: Unit| u.contains(&0);
    for a in 0..n {
        for b in 0..n {
            let keep = match p.format {
                Format::RoundRobin => a < b,
                _ => first(us[a]) && !first(us[b]),
            };
            if keep && disjoint(us[a], us[b]) {
                matches.push([a, b]);
            }
        }
    }
    let (mut out, mut ds) = (Vec::new(), 0);
    for [a, b] in matches {
        for k in 0..p.games {
            let orders = if p.duplicate {
                vec![[a, b], [b, a]]
            } else if k % 2 == 0 {
                vec![[a, b]]
            } else {
                vec![[b, a]]
            };
            for sides in orders {
                let (t0, t1) = (us[sides[0]], us[sides[1]]);
                out.push(GameSpec {
                    game: out.len() as u64,
                    deal_set: ds,
                    pair: p.duplicate.then_some(ds),
                    seed: deal_set_seed(p.seed, ds),
                    sides,
                    seats: [t0[0], t1[0], t0[1], t1[1]],
                });
            }
            ds += 1;
        }
    }
    out
}

#[test]
fn lazy_static_schedules_equal_the_eager_ones() {
    // Resuming a tournament started by an earlier version needs the same games in the
    // same order on the same seeds.
    for (entrants, format, partners) in [
        (2, Format::RoundRobin, Partners::Own),
        (3, Format::RoundRobin, Partners::Own),
        (5, Format::RoundRobin, Partners::Rotate),
        (2, Format::Gauntlet, Partners::Own),
        (4, Format::Gauntlet, Partners::Own),
        (6, Format::Gauntlet, Partners::Rotate),
    ] {
        for duplicate in [true, false] {
            for games in [1, 3] {
                let mut p = plan(entrants, format, partners, duplicate);
                p.games = games;
                p.seed = 99 + games;
                let want = eager(&p);
                let mut s = Schedule::new(p.clone()).unwrap();
                assert_eq!(s.total_games(), want.len() as u64, "{p:?}");
                let got = drain(&mut s, |_| Some(0));
                assert_eq!(got, want, "{p:?}");
                for (k, n) in [(1, 3), (2, 3), (3, 3), (2, 2)] {
                    let mut s = Schedule::new(p.clone()).unwrap();
                    let count = s.shard(k, n).unwrap();
                    let got = drain(&mut s, |_| None);
                    // Shards own whole deal sets: a duplicate pair's two games are in one
                    // shard (the other shards' directories may be readable by its bots).
                    let shard: Vec<GameSpec> = want
                        .iter()
                        .filter(|g| g.deal_set % n == k - 1)
                        .cloned()
                        .collect();
                    assert_eq!(count, shard.len() as u64);
                    assert_eq!(got, shard, "{p:?} shard {k}/{n}");
                }
            }
        }
    }
    let mut k = Schedule::new(plan(4, Format::Knockout, Partners::Own, true)).unwrap();
    assert!(k.shard(1, 2).is_err());
}

#[test]
fn a_ten_million_game_schedule_holds_nothing_per_game() {
    let mut p = plan(2, Format::Gauntlet, Partners::Own, true);
    p.games = 5_000_000;
    let s_plan = p.clone();
    let mut s = Schedule::new(p).unwrap();
    assert_eq!(s.total_games(), 10_000_000);
    for _ in 0..1000 {
        let g = s.next_game().unwrap();
        s.finished(
            g.game,
            GameScore {
                winner: Some(0),
                team_scores: [41, 0],
            },
        );
        assert_eq!(s.held(), 0);
    }
    assert!(!s.is_done());
    // The last game is made as directly as the first.
    let mut end = Schedule::new(s_plan.clone()).unwrap();
    assert_eq!(end.shard(5_000_000, 5_000_000), Ok(2));
    assert_eq!(end.next_game().unwrap().game, 9_999_998);
    let last = end.next_game().unwrap();
    assert_eq!(last.game, 9_999_999);
    assert!(end.next_game().is_none() && end.is_done());
    assert_eq!(
        (last.deal_set, last.pair, last.sides),
        (4_999_999, Some(4_999_999), [1, 0])
    );
}

#[test]
fn rotate_meets_only_disjoint_partnerships() {
    let mut s = Schedule::new(plan(4, Format::RoundRobin, Partners::Rotate, false)).unwrap();
    let games = drain(&mut s, |_| None);
    // 6 partnerships, 3 disjoint pairings, 2 deal sets each.
    assert_eq!(games.len(), 6);
    for g in &games {
        let mut seats = g.seats.to_vec();
        seats.sort();
        assert_eq!(seats, vec![0, 1, 2, 3]);
    }
    assert!(Schedule::new(plan(3, Format::RoundRobin, Partners::Rotate, false)).is_err());
}

#[test]
fn gauntlet_plays_the_first_against_each_other() {
    let mut s = Schedule::new(plan(4, Format::Gauntlet, Partners::Own, false)).unwrap();
    let games = drain(&mut s, |_| None);
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.sides.contains(&0)));
}
