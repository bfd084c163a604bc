//! Which partnerships meet, on which deals, in which games: a pure function of the entrants,
//! the format and the seed (and, for knockout and king of the hill, of earlier results).
//!
//! Entrants form *partnerships* ("units"): with `--partners own` every entrant partners a copy
//! of itself; with `--partners rotate` every unordered pair of distinct entrants is a
//! partnership, and only partnerships without a common entrant meet. A *match* between two
//! partnerships is `games` *deal sets*; a deal set has its own seed (from the tournament seed
//! and the deal set's index) and is played twice with the sides swapped (duplicate), or once.
//! Games are numbered 0, 1, 2, ... in the order they are created.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::tournament::schedule::shard::Shard;

/// The tournament formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
    Knockout,
    KingOfTheHill,
    Swiss,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Knockout => "knockout",
            Format::KingOfTheHill => "king-of-the-hill",
            Format::Swiss => "swiss",
        }
    }

    pub fn parse(text: &str) -> Result<Format, String> {
        [
            Format::RoundRobin,
            Format::Gauntlet,
            Format::Knockout,
            Format::KingOfTheHill,
            Format::Swiss,
        ]
        .into_iter()
        .find(|f| f.name() == text)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a format: use round-robin, gauntlet, knockout, king-of-the-hill or swiss"
            )
        })
    }

    /// Whether every game is known before the first one is played.
    pub fn is_static(self) -> bool {
        matches!(self, Format::RoundRobin | Format::Gauntlet)
    }
}

/// Who partners whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partners {
    /// Each entrant plays with a copy of itself.
    Own,
    /// Every entrant partners every other one.
    Rotate,
}

impl Partners {
    pub fn name(self) -> &'static str {
        match self {
            Partners::Own => "own",
            Partners::Rotate => "rotate",
        }
    }

    pub fn parse(text: &str) -> Result<Partners, String> {
        match text {
            "own" => Ok(Partners::Own),
            "rotate" => Ok(Partners::Rotate),
            _ => Err(format!("'{text}' is not a partner mode: use own or rotate")),
        }
    }
}

/// What the schedule depends on.
#[derive(Clone, Debug)]
pub struct Plan {
    /// How many entrants (they are referred to by index, in command-line order).
    pub entrants: usize,
    pub format: Format,
    pub partners: Partners,
    /// Deal sets per match.
    pub games: u64,
    pub duplicate: bool,
    pub seed: u64,
    /// Rounds of a Swiss tournament (`--rounds`); ignored by the other formats.
    pub rounds: u64,
}

/// A partnership: the entrants at the team's two seats (seat 0 then 2, or 1 then 3).
pub type Unit = [usize; 2];

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    pub game: u64,
    /// The deal set's index, shared by both games of a duplicate pair.
    pub deal_set: u64,
    /// `Some(deal_set)` for duplicate games.
    pub pair: Option<u64>,
    pub seed: u64,
    /// The partnership (index into [`Schedule::units`]) of team 0 and of team 1.
    pub sides: [usize; 2],
    /// The entrant at each seat.
    pub seats: [usize; 4],
}

/// How a finished game came out, as the schedule needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameScore {
    /// The winning team, `None` for a draw.
    pub winner: Option<u8>,
    pub team_scores: [i32; 2],
}

/// The seed of deal set `index`: SplitMix64 of the tournament seed and the index, so deal sets
/// are independent of each other and of the order they are played in.
pub fn deal_set_seed(seed: u64, index: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    mix(seed ^ mix(index))
}

/// The partnerships of a plan, in a fixed order.
pub fn units(entrants: usize, partners: Partners) -> Vec<Unit> {
    match partners {
        Partners::Own => (0..entrants).map(|i| [i, i]).collect(),
        Partners::Rotate => {
            let mut v = Vec::new();
            for i in 0..entrants {
                for j in i + 1..entrants {
                    v.push([i, j]);
                }
            }
            v
        }
    }
}

fn disjoint(a: Unit, b: Unit) -> bool {
    !a.iter().any(|x| b.contains(x))
}

/// Checks that a plan can be scheduled.
pub fn check(plan: &Plan) -> Result<(), String> {
    if plan.entrants < 2 {
        return Err(format!(
            "a tournament needs at least two entrants (--bot NAME=CMD), got {}",
            plan.entrants
        ));
    }
    if plan.format == Format::Swiss && plan.rounds == 0 {
        return Err("--format swiss needs --rounds R (at least 1)".into());
    }
    if plan.format != Format::Swiss && plan.rounds != 0 {
        return Err(format!(
            "--rounds is for --format swiss, not {}",
            plan.format.name()
        ));
    }
    if plan.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if plan.partners == Partners::Rotate {
        if plan.entrants < 4 {
            return Err(format!(
                "--partners rotate needs at least four entrants (two partnerships without a common entrant), got {}",
                plan.entrants
            ));
        }
        if !plan.format.is_static() {
            return Err(format!(
                "--partners rotate works with round-robin and gauntlet, not {}",
                plan.format.name()
            ));
        }
    }
    Ok(())
}

struct Match {
    sides: [usize; 2],
    games: Vec<u64>,
    /// Knockout: the round from 1; king of the hill: the match from 1; Swiss: the round.
    round: u64,
}

/// A finished match of a knockout or king of the hill, as its bracket shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOutcome {
    pub round: u64,
    pub sides: [Unit; 2],
    /// Half points (2 a game won, 1 a draw) and team points of each side.
    pub half_points: [u32; 2],
    pub points: [i64; 2],
    /// The side (0 or 1) that went through.
    pub winner: usize,
    /// What decided it: `games`, `team points`, or `bot order` (equal in both: the side
    /// whose entrant comes first in --bot order goes through).
    pub decided_by: &'static str,
}

enum Stage {
    /// Every game is known from the start: made one at a time from the game number (see
    /// [`Schedule::static_spec`]), so nothing is held per game however long the schedule.
    Static,
    /// The current round's matches, and the unit that sits this round out.
    Knockout {
        matches: Vec<usize>,
        bye: Option<usize>,
    },
    /// The current match, and the next challenger (index into units).
    Hill {
        current: usize,
        next: usize,
    },
    /// The current Swiss round (from 1), its matches and its bye.
    Swiss {
        round: u64,
        matches: Vec<usize>,
        bye: Option<usize>,
    },
    Done,
}

/// The schedule as results come in.
pub struct Schedule {
    plan: Plan,
    units: Vec<Unit>,
    matches: Vec<Match>,
    specs: HashMap<u64, GameSpec>,
    results: HashMap<u64, GameScore>,
    queue: VecDeque<GameSpec>,
    next_game: u64,
    next_deal_set: u64,
    stage: Stage,
    /// Static formats: the matches in order, the next game number to hand out, and the shard
    /// whose games alone are handed out (`--shard K/N`).
    static_matches: Vec<[usize; 2]>,
    cursor: u64,
    shard: Option<Shard>,
    champion: Option<usize>,
    /// Swiss: half points per unit, pairs that have met, byes per unit.
    half_points: Vec<u64>,
    met: HashSet<(usize, usize)>,
    byes: Vec<u32>,
}

impl Schedule {
    pub fn new(plan: Plan) -> Result<Schedule, String> {
        check(&plan)?;
        let units = units(plan.entrants, plan.partners);
        let mut s = Schedule {
            plan,
            units,
            matches: Vec::new(),
            specs: HashMap::new(),
            results: HashMap::new(),
            queue: VecDeque::new(),
            next_game: 0,
            next_deal_set: 0,
            stage: Stage::Static,
            static_matches: Vec::new(),
            cursor: 0,
            shard: None,
            champion: None,
            half_points: Vec::new(),
            met: HashSet::new(),
            byes: Vec::new(),
        };
        let n = s.units.len();
        match s.plan.format {
            Format::RoundRobin => {
                for a in 0..n {
                    for b in a + 1..n {
                        if disjoint(s.units[a], s.units[b]) {
                            s.static_matches.push([a, b]);
                        }
                    }
                }
            }
            Format::Gauntlet => {
                let units = s.units.clone();
                let first = |u: Unit| u.contains(&0);
                for a in (0..n).filter(|&a| first(units[a])) {
                    for b in (0..n).filter(|&b| !first(units[b])) {
                        if disjoint(units[a], units[b]) {
                            s.static_matches.push([a, b]);
                        }
                    }
                }
            }
            Format::Knockout => {
                let all: Vec<usize> = (0..n).collect();
                s.knockout_round(&all);
            }
            Format::Swiss => {
                s.half_points = vec![0; n];
                s.byes = vec![0; n];
                s.swiss_round(1);
            }
            Format::KingOfTheHill => {
                let m = s.add_match([0, 1], 1);
                s.stage = Stage::Hill {
                    current: m,
                    next: 2,
                };
            }
        }
        Ok(s)
    }

    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Games per match: its deal sets, each played twice in duplicate.
    fn per_match(&self) -> u64 {
        self.plan.games * if self.plan.duplicate { 2 } else { 1 }
    }

    /// How many games the whole tournament has (known in advance for every format).
    pub fn total_games(&self) -> u64 {
        let per_match = self.per_match();
        match self.plan.format {
            Format::RoundRobin | Format::Gauntlet => self.static_matches.len() as u64 * per_match,
            Format::Knockout | Format::KingOfTheHill => (self.units.len() as u64 - 1) * per_match,
            Format::Swiss => self.plan.rounds * (self.units.len() as u64 / 2) * per_match,
        }
    }

    /// Keeps only the games of shard `k` of `n` (`--shard K/N`, 1 <= K <= N; see [`Shard`]) of
    /// a static schedule; returns how many games that leaves.
    pub fn shard(&mut self, k: u64, n: u64) -> Result<u64, String> {
        self.shard_as(k, n, false)
    }

    /// [`Schedule::shard`], with `apart` the two games of every duplicate pair in different
    /// shards (`--twins-apart`: see [`Shard::twins_apart`]); `n` must then be even.
    pub fn shard_as(&mut self, k: u64, n: u64, apart: bool) -> Result<u64, String> {
        if !self.plan.format.is_static() {
            return Err(format!(
                "--shard works with round-robin, gauntlet and swiss (with --round), not {} (its games depend on earlier results)",
                self.plan.format.name()
            ));
        }
        if n == 0 || k == 0 || k > n {
            return Err(format!("--shard {k}/{n}: use K/N with 1 <= K <= N"));
        }
        let shard = if apart {
            if !self.plan.duplicate {
                return Err(
                    "--twins-apart splits the two games of each duplicate pair: drop --no-duplicate"
                        .into(),
                );
            }
            if !n.is_multiple_of(2) {
                return Err(format!(
                    "--twins-apart with --shard {k}/{n}: N must be even (shards 1 to N/2 play the first game of every pair, N/2+1 to N the second), like --shard {k}/{}",
                    n + 1
                ));
            }
            Shard::twins_apart(k, n)
        } else {
            Shard::new(k, n, self.plan.duplicate)
        };
        self.shard = Some(shard);
        self.cursor = 0;
        self.skip_others();
        Ok(shard.games_of(self.total_games()))
    }

    /// Moves the cursor past the games of other shards.
    fn skip_others(&mut self) {
        if let Some(shard) = self.shard {
            self.cursor = shard.next_from(self.cursor);
        }
    }

    /// Game `game` of a static schedule, as the eager schedule of earlier versions numbered it:
    /// the matches in order, each its deal sets in order (deal set numbers running on across
    /// matches), in duplicate each deal set with the sides as matched and then swapped, without
    /// duplicate the sides alternating by deal set.
    fn static_spec(&self, game: u64) -> GameSpec {
        let per_match = self.per_match();
        let [a, b] = self.static_matches[(game / per_match) as usize];
        let r = game % per_match;
        let k = if self.plan.duplicate { r / 2 } else { r };
        let deal_set = game / per_match * self.plan.games + k;
        let swapped = if self.plan.duplicate {
            r % 2 == 1
        } else {
            k % 2 == 1
        };
        let sides = if swapped { [b, a] } else { [a, b] };
        let (t0, t1) = (self.units[sides[0]], self.units[sides[1]]);
        GameSpec {
            game,
            deal_set,
            pair: self.plan.duplicate.then_some(deal_set),
            seed: deal_set_seed(self.plan.seed, deal_set),
            sides,
            seats: [t0[0], t1[0], t0[1], t1[1]],
        }
    }

    /// Whether every game is known in advance (see [`Format::is_static`]).
    pub fn is_static(&self) -> bool {
        self.plan.format.is_static()
    }

    /// Game `game` of a static schedule (whatever the shard); `None` for other formats and
    /// numbers past the end.
    pub fn static_game(&self, game: u64) -> Option<GameSpec> {
        (self.is_static() && game < self.total_games()).then(|| self.static_spec(game))
    }

    /// The next game that can be played now.
    pub fn next_game(&mut self) -> Option<GameSpec> {
        if matches!(self.stage, Stage::Static) {
            if self.cursor >= self.total_games() {
                return None;
            }
            let spec = self.static_spec(self.cursor);
            self.cursor += 1;
            self.skip_others();
            return Some(spec);
        }
        self.queue.pop_front()
    }

    /// True when no game is left to play and none will be added.
    pub fn is_done(&self) -> bool {
        match self.stage {
            Stage::Static => self.cursor >= self.total_games(),
            Stage::Done => self.queue.is_empty(),
            _ => false,
        }
    }

    /// Games, results and queued games held (a measure of memory: for static formats it stays
    /// 0 however many games the schedule has).
    pub fn held(&self) -> usize {
        self.specs.len() + self.results.len() + self.queue.len()
    }

    /// The winner of a knockout or king of the hill, once decided.
    pub fn champion(&self) -> Option<Unit> {
        self.champion.map(|u| self.units[u])
    }
}

/// The formats decided by results (knockout, king of the hill, Swiss): matches made as
/// earlier ones end.
mod stages;

#[cfg(test)]
mod tests;

pub mod bracket;
pub mod deal_sets;
pub mod shard;
pub mod swiss;
pub mod swiss_shards;
pub mod swiss_table;
