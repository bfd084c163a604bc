//! Which games a shard of a tournament plays (`--shard K/N`): whole deal sets.

/// What a shard owns, as `tournament.json` of a sharded tournament names it (`shard_unit`).
pub const SHARD_UNIT: &str = "deal set";

/// One part of a sharded tournament (`--shard K/N`, 1 <= K <= N). Shards own whole deal
/// sets: both games of a duplicate pair are played by one shard. Shards often run at once on a
/// shared file system, and in the wide sandbox view a bot sees every directory but its own
/// tournament's and the `--peers`: had the twins been split, a bot could read the record of
/// its own deal, all four hands, in another shard's directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
    /// Games of one deal set: 2 in duplicate, else 1.
    per_deal_set: u64,
    /// `--twins-apart`: shards own games, not deal sets (see [`Shard::twins_apart`]).
    apart: bool,
}

/// What a shard owns with `--twins-apart` (`shard_unit` of its `tournament.json`).
pub const TWINS_APART_UNIT: &str =
    "game: first twins in shards 1 to N/2, second twins in N/2+1 to N";

impl Shard {
    /// Shard `k` of `n` (the caller checks 1 <= k <= n).
    pub fn new(k: u64, n: u64, duplicate: bool) -> Shard {
        Shard {
            k,
            n,
            per_deal_set: if duplicate { 2 } else { 1 },
            apart: false,
        }
    }

    /// Shard `k` of `n` of a duplicate tournament with the two games of every pair apart
    /// (`--twins-apart`): shards 1 to n/2 play the first game of every pair, shards n/2+1 to n
    /// the second, deal set d's games going to shards d mod n/2 + 1 and that plus n/2. Run on
    /// hosts that share no kernel between the halves, no host plays both games of a pair.
    /// The caller checks that `n` is even and 1 <= k <= n.
    pub fn twins_apart(k: u64, n: u64) -> Shard {
        Shard {
            k,
            n,
            per_deal_set: 2,
            apart: true,
        }
    }

    /// Whether the two games of a pair go to different shards (`--twins-apart`).
    pub fn is_apart(self) -> bool {
        self.apart
    }

    /// The shard (its K) that plays game `game`.
    pub fn owner(self, game: u64) -> u64 {
        if self.apart {
            let half = (self.n / 2).max(1);
            return (game / 2) % half + 1 + (game % 2) * half;
        }
        (game / self.per_deal_set) % self.n + 1
    }

    /// Whether this shard plays game `game`.
    pub fn owns(self, game: u64) -> bool {
        self.owner(game) == self.k
    }

    /// The first game from `game` on that this shard plays.
    pub fn next_from(self, game: u64) -> u64 {
        if self.owns(game) {
            return game;
        }
        if self.apart {
            // This shard's games are 2 d + p for the deal sets d = r modulo n/2.
            let half = (self.n / 2).max(1);
            let (r, p) = ((self.k - 1) % half, u64::from(self.k > half));
            let least = (game.saturating_sub(p)).div_ceil(2);
            let d = least + (r + half - least % half) % half;
            return 2 * d + p;
        }
        // Straight to this shard's deal set in the cycle of `n` deal sets `game` is in, or
        // the next cycle's if that one is behind.
        let cycle = self.per_deal_set * self.n;
        let start = game / cycle * cycle + (self.k - 1) * self.per_deal_set;
        if start > game {
            start
        } else {
            start + cycle
        }
    }

    /// How many of the games `0..total` this shard plays.
    pub fn games_of(self, total: u64) -> u64 {
        if self.apart {
            let start = total / self.n * self.n;
            return total / self.n + (start..total).filter(|&g| self.owns(g)).count() as u64;
        }
        let cycle = self.per_deal_set * self.n;
        let before = (self.k - 1) * self.per_deal_set;
        let rest = (total % cycle)
            .saturating_sub(before)
            .min(self.per_deal_set);
        total / cycle * self.per_deal_set + rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of `0..total` that `s` owns, checked against what it says of them: as many as
    /// `games_of` counts, and `next_from` from every game lands on one it owns, never before
    /// the game it starts from, and reaches every one of them.
    fn owned_games(s: Shard, total: u64) -> Vec<u64> {
        let mine: Vec<u64> = (0..total).filter(|&g| s.owns(g)).collect();
        assert_eq!(s.games_of(total), mine.len() as u64, "{s:?} of {total}");
        let firsts: Vec<u64> = (0..total)
            .map(|g| s.next_from(g))
            .filter(|&g| g < total)
            .collect();
        assert!(firsts.iter().all(|&g| s.owns(g)), "{s:?} of {total}");
        assert!(mine.iter().all(|g| firsts.contains(g)), "{s:?} of {total}");
        assert!((0..total).all(|g| s.next_from(g) >= g), "{s:?} of {total}");
        mine
    }

    #[test]
    fn twins_apart_puts_the_two_games_of_every_pair_in_the_two_halves() {
        for n in [2u64, 4, 6] {
            let half = n / 2;
            for total in (0..30).filter(|t| t % 2 == 0) {
                let mut counted = 0;
                for k in 1..=n {
                    let s = Shard::twins_apart(k, n);
                    let mine = owned_games(s, total);
                    for &g in &mine {
                        // First twins (even games) in the first half, second twins in the other.
                        assert_eq!(g % 2 == 0, k <= half, "{k}/{n} owns game {g}");
                        // Its twin is in the other half.
                        let twin = g ^ 1;
                        assert!(!s.owns(twin));
                        assert_eq!(s.owner(twin), if k <= half { k + half } else { k - half });
                    }
                    counted += mine.len();
                }
                assert_eq!(counted as u64, total, "every game in exactly one shard");
            }
        }
    }

    #[test]
    fn shards_split_the_deal_sets_and_count_their_games() {
        for duplicate in [true, false] {
            let per = if duplicate { 2 } else { 1 };
            for n in 1..5 {
                for total in (0..23).filter(|t| t % per == 0) {
                    let mut counted = 0;
                    for k in 1..=n {
                        let s = Shard::new(k, n, duplicate);
                        let mine = owned_games(s, total);
                        // Both games of a pair in one shard, each shard every n-th deal set.
                        for &g in &mine {
                            assert!(s.owns(g / per * per) && s.owns(g / per * per + per - 1));
                            assert_eq!((g / per) % n, k - 1);
                        }
                        counted += mine.len();
                    }
                    assert_eq!(counted as u64, total, "every game in exactly one shard");
                }
            }
        }
    }
}
