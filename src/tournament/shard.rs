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
}

impl Shard {
    /// Shard `k` of `n` (the caller checks 1 <= k <= n).
    pub fn new(k: u64, n: u64, duplicate: bool) -> Shard {
        Shard {
            k,
            n,
            per_deal_set: if duplicate { 2 } else { 1 },
        }
    }

    /// The shard (its K) that plays game `game`.
    pub fn owner(self, game: u64) -> u64 {
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

    #[test]
    fn shards_split_the_deal_sets_and_count_their_games() {
        for duplicate in [true, false] {
            let per = if duplicate { 2 } else { 1 };
            for n in 1..5 {
                for total in (0..23).filter(|t| t % per == 0) {
                    let mut counted = 0;
                    for k in 1..=n {
                        let s = Shard::new(k, n, duplicate);
                        let mine: Vec<u64> = (0..total).filter(|&g| s.owns(g)).collect();
                        assert_eq!(s.games_of(total), mine.len() as u64, "{k}/{n} of {total}");
                        // Both games of a pair in one shard, each shard every n-th deal set.
                        for &g in &mine {
                            assert!(s.owns(g / per * per) && s.owns(g / per * per + per - 1));
                            assert_eq!((g / per) % n, k - 1);
                        }
                        counted += mine.len();
                        let firsts: Vec<u64> = (0..total)
                            .map(|g| s.next_from(g))
                            .filter(|&g| g < total)
                            .collect();
                        assert!(firsts.iter().all(|&g| s.owns(g)));
                        assert!(mine.iter().all(|g| firsts.contains(g)));
                    }
                    assert_eq!(counted as u64, total, "every game in exactly one shard");
                }
            }
        }
    }
}
