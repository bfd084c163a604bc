//! Tests of [`super`]: the schedule of every format, shards and Swiss rounds.

use super::*;

fn plan(entrants: usize, format: Format, partners: Partners, duplicate: bool) -> Plan {
    Plan {
        entrants,
        format,
        partners,
        games: 2,
        duplicate,
        seed: 7,
        rounds: if format == Format::Swiss { 3 } else { 0 },
    }
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

#[test]
fn round_robin_duplicate_pairs_swap_sides_on_the_same_seed() {
    let mut s = Schedule::new(plan(3, Format::RoundRobin, Partners::Own, true)).unwrap();
    assert_eq!(s.total_games(), 3 * 2 * 2);
    let games = drain(&mut s, |_| Some(0));
    assert_eq!(games.len(), 12);
    for two in games.chunks(2) {
        assert_eq!(two[0].seed, two[1].seed);
        assert_eq!(two[0].pair, two[1].pair);
        assert_eq!(two[0].sides, [two[1].sides[1], two[1].sides[0]]);
        assert_eq!(two[0].seats[0], two[1].seats[1]);
    }
    let seeds: std::collections::HashSet<u64> = games.iter().map(|g| g.seed).collect();
    assert_eq!(seeds.len(), 6);
}

#[test]
fn knockout_and_hill_crown_the_winner() {
    // The unit with the highest index always wins.
    let top = |g: &GameSpec| Some(if g.sides[0] > g.sides[1] { 0 } else { 1 });
    let mut k = Schedule::new(plan(5, Format::Knockout, Partners::Own, true)).unwrap();
    let n = drain(&mut k, top).len() as u64;
    assert_eq!(k.champion(), Some([4, 4]));
    assert_eq!(n, k.total_games());
    let mut h = Schedule::new(plan(4, Format::KingOfTheHill, Partners::Own, true)).unwrap();
    let n = drain(&mut h, top).len() as u64;
    assert_eq!(h.champion(), Some([3, 3]));
    assert_eq!(n, h.total_games());
    // All draws with equal points: entrant order decides.
    let mut k = Schedule::new(plan(4, Format::Knockout, Partners::Own, true)).unwrap();
    drain(&mut k, |_| None);
    assert_eq!(k.champion(), Some([0, 0]));
}

#[test]
fn deal_set_seeds_differ_and_repeat() {
    assert_eq!(deal_set_seed(1, 5), deal_set_seed(1, 5));
    assert_ne!(deal_set_seed(1, 5), deal_set_seed(1, 6));
    assert_ne!(deal_set_seed(1, 5), deal_set_seed(2, 5));
}

/// Plays a Swiss schedule to the end with results from `seed`; returns the games and the
/// rounds' matches (as unit pairs) and byes.
fn swiss(units: usize, rounds: u64, seed: u64) -> (Vec<GameSpec>, Schedule) {
    let mut p = plan(units, Format::Swiss, Partners::Own, true);
    p.rounds = rounds;
    p.games = 1;
    let mut s = Schedule::new(p).unwrap();
    let games = drain(&mut s, |g| {
        let h = deal_set_seed(seed, g.game);
        match h % 5 {
            0 => None,
            1 | 2 => Some(0),
            _ => Some(1),
        }
    });
    (games, s)
}

fn rounds_of(games: &[GameSpec], per_round: usize) -> Vec<Vec<[usize; 2]>> {
    games
        .chunks(per_round * 2)
        .map(|r| {
            r.chunks(2)
                .map(|m| {
                    let mut x = m[0].sides;
                    x.sort_unstable();
                    x
                })
                .collect()
        })
        .collect()
}

#[test]
fn swiss_needs_rounds() {
    let mut p = plan(4, Format::Swiss, Partners::Own, true);
    p.rounds = 0;
    assert!(Schedule::new(p).err().unwrap().contains("--rounds"));
    let mut p = plan(4, Format::RoundRobin, Partners::Own, true);
    p.rounds = 2;
    assert!(Schedule::new(p).is_err());
}

#[test]
fn swiss_pairs_score_groups() {
    // Eight partnerships, the higher unit index always wins: after round 1 the four
    // winners (2 points each) meet each other in round 2, the four losers each other.
    let mut p = plan(8, Format::Swiss, Partners::Own, true);
    p.rounds = 2;
    p.games = 1;
    let mut s = Schedule::new(p).unwrap();
    let top = |g: &GameSpec| Some(if g.sides[0] > g.sides[1] { 0 } else { 1 });
    let games = drain(&mut s, top);
    assert_eq!(games.len() as u64, s.total_games());
    let rounds = rounds_of(&games, 4);
    let winners: Vec<usize> = rounds[0].iter().map(|m| m[1]).collect();
    for m in &rounds[1] {
        assert_eq!(
            winners.contains(&m[0]),
            winners.contains(&m[1]),
            "round 2 mixes score groups: {rounds:?}"
        );
    }
    // Points: a winner of both rounds has 2 games won in each = 8 half points.
    assert_eq!(s.swiss_half_points().iter().max(), Some(&8));
}

#[test]
fn a_swiss_of_thirty() {
    // The organiser's case: 30 partnerships, 7 rounds, 15 matches a round, no repeats.
    let (games, s) = swiss(30, 7, 5);
    assert_eq!(games.len() as u64, s.total_games());
    let mut met = HashSet::new();
    for round in rounds_of(&games, 15) {
        assert_eq!(round.len(), 15);
        for m in round {
            assert!(met.insert((m[0], m[1])), "{m:?} met twice");
        }
    }
}

proptest::proptest! {
    #[test]
    fn swiss_properties(units in 3usize..13, rounds in 1u64..7, seed in 0u64..1000) {
        let (games, s) = swiss(units, rounds, seed);
        let per_round = units / 2;
        proptest::prop_assert_eq!(games.len() as u64, s.total_games());
        let all = rounds_of(&games, per_round);
        proptest::prop_assert_eq!(all.len() as u64, rounds);
        let mut met = HashSet::new();
        let mut byes = vec![0usize; units];
        for (r, round) in all.iter().enumerate() {
            // Everyone plays once a round, but for one bye when the count is odd.
            let mut seen: Vec<usize> = round.iter().flatten().copied().collect();
            seen.sort_unstable();
            seen.dedup();
            proptest::prop_assert_eq!(seen.len(), 2 * per_round);
            if units % 2 == 1 {
                let bye = (0..units).find(|u| !seen.contains(u)).unwrap();
                byes[bye] += 1;
                // No second bye before everyone has had one.
                proptest::prop_assert!(byes[bye] <= r / units + 1, "{:?}", byes);
            }
            // No repeat while a repeat-free pairing must exist (Dirac: each player has
            // met at most r others, fewer than half the field).
            for m in round {
                let fresh = met.insert((m[0], m[1]));
                if r < (units - 1) / 2 {
                    proptest::prop_assert!(fresh, "repeat {:?} in round {}", m, r + 1);
                }
            }
        }
        // Deterministic: the same plan and results give the same games.
        let (again, _) = swiss(units, rounds, seed);
        proptest::prop_assert_eq!(games, again);
    }
}
