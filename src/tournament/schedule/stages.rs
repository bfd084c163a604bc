//! The formats whose games depend on results: a knockout's rounds, king of the hill's
//! challengers and the Swiss's rounds are made as earlier matches end, and [`Schedule::finished`]
//! is where a result moves them on. Part of [`super`] (its types' fields are shared).

use super::{deal_set_seed, GameScore, GameSpec, Match, MatchOutcome, Schedule, Stage};

impl Schedule {
    /// The finished matches in the order they were made, with how each was decided.
    pub fn bracket(&self) -> Vec<MatchOutcome> {
        (0..self.matches.len())
            .filter_map(|m| {
                let (half_points, points) = self.match_tally(m)?;
                let sides = self.matches[m].sides;
                let winner = usize::from(self.match_winner(m)? != sides[0]);
                let decided_by = if half_points[0] != half_points[1] {
                    "games"
                } else if points[0] != points[1] {
                    "team points"
                } else {
                    "bot order"
                };
                Some(MatchOutcome {
                    round: self.matches[m].round,
                    sides: sides.map(|u| self.units[u]),
                    half_points,
                    points,
                    winner,
                    decided_by,
                })
            })
            .collect()
    }

    pub(super) fn add_match(&mut self, sides: [usize; 2], round: u64) -> usize {
        let [a, b] = sides;
        let mut games = Vec::new();
        for k in 0..self.plan.games {
            let ds = self.next_deal_set;
            self.next_deal_set += 1;
            let seed = deal_set_seed(self.plan.seed, ds);
            let orders: Vec<[usize; 2]> = if self.plan.duplicate {
                vec![[a, b], [b, a]]
            } else if k % 2 == 0 {
                vec![[a, b]]
            } else {
                vec![[b, a]]
            };
            for sides in orders {
                let (t0, t1) = (self.units[sides[0]], self.units[sides[1]]);
                let spec = GameSpec {
                    game: self.next_game,
                    deal_set: ds,
                    pair: self.plan.duplicate.then_some(ds),
                    seed,
                    sides,
                    seats: [t0[0], t1[0], t0[1], t1[1]],
                };
                self.next_game += 1;
                games.push(spec.game);
                self.specs.insert(spec.game, spec.clone());
                self.queue.push_back(spec);
            }
        }
        self.matches.push(Match {
            sides,
            games,
            round,
        });
        self.matches.len() - 1
    }

    pub(super) fn knockout_round(&mut self, alive: &[usize]) {
        if alive.len() == 1 {
            self.champion = Some(alive[0]);
            self.stage = Stage::Done;
            return;
        }
        let mut matches = Vec::new();
        let round = self.matches.last().map_or(1, |m| m.round + 1);
        for two in alive.chunks_exact(2) {
            matches.push(self.add_match([two[0], two[1]], round));
        }
        let bye = (alive.len() % 2 == 1).then(|| alive[alive.len() - 1]);
        self.stage = Stage::Knockout { matches, bye };
    }

    /// The Swiss ranking: half points, then the seeded tie-break order.
    fn swiss_ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.units.len()).collect();
        let tie = |u: usize| deal_set_seed(self.plan.seed ^ 0x5753_4953_5300_0000, u as u64);
        order.sort_by_key(|&u| (std::cmp::Reverse(self.half_points[u]), tie(u)));
        order
    }

    /// Pairs and queues Swiss round `round`.
    pub(super) fn swiss_round(&mut self, round: u64) {
        let ranked = self.swiss_ranking();
        let pairing =
            crate::tournament::schedule::swiss::pair_round(&ranked, &self.met, &self.byes);
        let matches = pairing
            .matches
            .iter()
            .map(|&[a, b]| {
                self.met.insert((a.min(b), a.max(b)));
                self.add_match([a, b], round)
            })
            .collect();
        if let Some(b) = pairing.bye {
            self.byes[b] += 1;
        }
        self.stage = Stage::Swiss {
            round,
            matches,
            bye: pairing.bye,
        };
    }

    /// The points of the Swiss standings so far (half points per partnership).
    pub fn swiss_half_points(&self) -> &[u64] {
        &self.half_points
    }

    /// Half points (2 per game won, 1 per draw) and team points of side 0 and side 1 of a
    /// finished match.
    fn match_tally(&self, m: usize) -> Option<([u32; 2], [i64; 2])> {
        let m = &self.matches[m];
        let mut wins = [0u32; 2];
        let mut points = [0i64; 2];
        for g in &m.games {
            let r = self.results.get(g)?;
            let spec = &self.specs[g];
            for (side, unit) in m.sides.iter().enumerate() {
                let team = if spec.sides[0] == *unit { 0 } else { 1 };
                wins[side] += match r.winner {
                    Some(w) if usize::from(w) == team => 2,
                    Some(_) => 0,
                    None => 1,
                };
                points[side] += i64::from(r.team_scores[team]);
            }
        }
        Some((wins, points))
    }

    /// The winner of a finished match: by wins (draws a half), then points, then unit order.
    fn match_winner(&self, m: usize) -> Option<usize> {
        let (wins, points) = self.match_tally(m)?;
        let sides = self.matches[m].sides;
        let key = |s: usize| (wins[s], points[s], std::cmp::Reverse(sides[s]));
        Some(if key(0) >= key(1) { sides[0] } else { sides[1] })
    }

    /// Records a finished game; may queue the next round's games.
    pub fn finished(&mut self, game: u64, score: GameScore) {
        if matches!(self.stage, Stage::Static | Stage::Done) {
            return;
        }
        self.results.insert(game, score);
        match &self.stage {
            Stage::Knockout { matches, bye } => {
                let winners: Option<Vec<usize>> =
                    matches.iter().map(|&m| self.match_winner(m)).collect();
                if let Some(mut alive) = winners {
                    alive.extend(*bye);
                    self.knockout_round(&alive);
                }
            }
            Stage::Hill { current, next } => {
                let next = *next;
                if let Some(king) = self.match_winner(*current) {
                    if next < self.units.len() {
                        let m = self.add_match([king, next], self.matches.len() as u64 + 1);
                        self.stage = Stage::Hill {
                            current: m,
                            next: next + 1,
                        };
                    } else {
                        self.champion = Some(king);
                        self.stage = Stage::Done;
                    }
                }
            }
            Stage::Swiss {
                round,
                matches,
                bye,
            } => {
                let (round, bye) = (*round, *bye);
                let points: Option<Vec<(usize, [u32; 2])>> = matches
                    .iter()
                    .map(|&m| self.match_tally(m).map(|(p, _)| (m, p)))
                    .collect();
                if let Some(points) = points {
                    for (m, p) in points {
                        let sides = self.matches[m].sides;
                        self.half_points[sides[0]] += u64::from(p[0]);
                        self.half_points[sides[1]] += u64::from(p[1]);
                    }
                    if let Some(b) = bye {
                        // Half the match's points: as if it had drawn every game.
                        let games = self.plan.games * if self.plan.duplicate { 2 } else { 1 };
                        self.half_points[b] += games;
                    }
                    if round < self.plan.rounds {
                        self.swiss_round(round + 1);
                    } else {
                        self.stage = Stage::Done;
                    }
                }
            }
            Stage::Static | Stage::Done => {}
        }
    }
}
