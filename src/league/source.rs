//! The league's games for the tournament runner: each duplicate pair chosen by
//! [`super::matchmaking`] from the ratings so far, kept in the database before it is handed out
//! (so a killed league plays it again, same deals and seats), and every finished game written
//! to the database with the ratings it changed.
//!
//! A run plays one roster (the versions active when it started, and those of games left
//! unfinished); when an entrant is added, updated or retired the source stops handing out
//! pairs, the runner finishes the games in flight, and the league starts the next run with the
//! new roster (`tarneeb league run` loops). Both games of a pair are handed out one after the
//! other, so a roster change never splits a pair.

use std::collections::{HashMap, VecDeque};

use super::db::{Db, Planned, RatingNow, Version};
use super::matchmaking::{self, Candidate, UNRATED_HALF_WIDTH};
use crate::standings::row::GameRow;
use crate::standings::table::{from_totals, Standings};
use crate::standings::tally::Tally;
use crate::tournament::directory::seal::Key;
use crate::tournament::run::runner::{Entrant, GameSource};
use crate::tournament::schedule::{deal_set_seed, GameSpec, Partners};

/// Games the share cap looks back over.
pub const RECENT: usize = 200;

/// Why a run's source stopped handing out games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The league holds the games `--games` asked for.
    Limit,
    /// An entrant was added, updated or retired: start a run with the new roster.
    Roster,
    /// Fewer than two active versions: wait for one.
    TooFew,
    /// The database failed.
    Failed(String),
}

pub struct LeagueSource {
    db: Db,
    key: Key,
    seed: u64,
    roster: Vec<Version>,
    /// Roster indices of the versions that may start new pairs.
    active: Vec<usize>,
    /// Every version's id, by label (rows name versions by label).
    ids: HashMap<String, i64>,
    stamp: i64,
    queue: VecDeque<GameSpec>,
    next_game: u64,
    next_deal_set: u64,
    until: Option<u64>,
    max_share: f64,
    tally: Tally,
    standings: Option<Standings>,
    /// Games played between two versions (ids, lower first).
    met: HashMap<(i64, i64), u64>,
    /// The versions at the four seats of each recent game.
    recent: VecDeque<[i64; 4]>,
    /// Games two versions played as partners (ids, lower first; `--partners rotate`).
    partnered: HashMap<(i64, i64), u64>,
    /// `--partners rotate`: versions partner each other, not copies of themselves.
    partners: Partners,
    /// Whether a remote version can start a pair now (its relay has idle connections); no
    /// check: every version can.
    available: Option<Availability>,
    /// Duplicate deals for pairs with a remote version (`league run --remote-duplicate`).
    remote_duplicate: bool,
    pub ended: Option<Ended>,
}

/// Whether a remote version's relay is connected now (see [`LeagueSource::set_remote`]).
pub type Availability = Box<dyn Fn(&Version) -> bool + Send>;

/// The two versions of each side that faced each other (with own partners, one pair).
fn opponents(seats: [i64; 4]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for a in [seats[0], seats[2]] {
        for b in [seats[1], seats[3]] {
            if a != b && !out.contains(&key_of(a, b)) {
                out.push(key_of(a, b));
            }
        }
    }
    out
}

/// The partnerships of a game whose partners are two versions.
fn partnerships(seats: [i64; 4]) -> Vec<(i64, i64)> {
    [(seats[0], seats[2]), (seats[1], seats[3])]
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| key_of(a, b))
        .collect()
}

fn key_of(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

impl LeagueSource {
    /// The source of the next run: the roster now, every game so far counted, the games a
    /// killed run left unfinished first. `until`: stop once the league holds that many games
    /// (rounded up to a whole pair).
    pub fn new(
        db: Db,
        key: Key,
        seed: u64,
        until: Option<u64>,
        max_share: f64,
    ) -> Result<LeagueSource, String> {
        let mut tally = Tally::new();
        let mut met = HashMap::new();
        let mut partnered = HashMap::new();
        let mut recent = VecDeque::new();
        db.rows(|row, seats| {
            count_game(&mut met, &mut partnered, &mut recent, seats);
            tally.push(row);
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        let standings = (tally.rows() > 0).then(|| league_standings(&tally));
        let source = LeagueSource {
            db,
            key,
            seed,
            roster: Vec::new(),
            active: Vec::new(),
            ids: HashMap::new(),
            stamp: 0,
            queue: VecDeque::new(),
            next_game: 0,
            next_deal_set: 0,
            until,
            max_share,
            tally,
            standings,
            met,
            recent,
            partnered,
            partners: Partners::Own,
            available: None,
            remote_duplicate: false,
            ended: None,
        };
        source.next_run()
    }

    /// The source of the run after this one: the roster read again, the games counted so
    /// far kept (a league of a million games is not read again for a new entrant).
    pub fn next_run(mut self) -> Result<LeagueSource, String> {
        let e = |e: super::db::DbError| e.to_string();
        let db = &self.db;
        // The stamp before the versions: a change between the two reads then starts one
        // more run, where the other order would leave this run on a roster it never sees.
        let stamp = db.roster_stamp().map_err(e)?;
        let versions = db.versions().map_err(e)?;
        let unfinished = db.unfinished().map_err(e)?;
        let (next_game, next_deal_set) = db.next_numbers().map_err(e)?;
        let ids: HashMap<String, i64> = versions.iter().map(|v| (v.label.clone(), v.id)).collect();
        let in_flight: Vec<i64> = unfinished.iter().flat_map(|p| p.seats).collect();
        let roster: Vec<Version> = versions
            .into_iter()
            .filter(|v| !v.retired || in_flight.contains(&v.id))
            .collect();
        let index: HashMap<i64, usize> =
            roster.iter().enumerate().map(|(i, v)| (v.id, i)).collect();
        self.active = (0..roster.len()).filter(|&i| !roster[i].retired).collect();
        self.queue = unfinished
            .iter()
            .map(|p| GameSpec {
                game: p.game,
                deal_set: p.deal_set,
                pair: p.pair,
                seed: p.seed,
                sides: [0, 1],
                seats: p.seats.map(|id| index[&id]),
            })
            .collect();
        self.roster = roster;
        self.ids = ids;
        self.stamp = stamp;
        (self.next_game, self.next_deal_set) = (next_game, next_deal_set);
        self.ended = None;
        Ok(self)
    }

    /// The versions this run plays, in the order of its entrant indices.
    pub fn roster(&self) -> &[Version] {
        &self.roster
    }

    /// The roster as the runner's entrants: each version by its label (`NAME@N`).
    pub fn entrants(&self) -> Vec<Entrant> {
        self.roster
            .iter()
            .map(|v| Entrant {
                name: v.label.clone(),
                command: v.command.clone(),
            })
            .collect()
    }

    /// Games a killed run left unfinished, played first.
    pub fn replays(&self) -> usize {
        self.queue.len()
    }

    /// Games the league holds (finished).
    pub fn games(&self) -> u64 {
        self.tally.rows()
    }

    pub fn standings(&self) -> Option<&Standings> {
        self.standings.as_ref()
    }

    /// The roster stamp this run was read at (see [`Db::roster_stamp`]).
    pub fn stamp(&self) -> i64 {
        self.stamp
    }

    /// How remote versions take part: `available` says whether one can start a pair now (a
    /// remote entrant plays while its relay is connected, and its seats are not left to
    /// forfeit as absent); `duplicate`: whether a pair with a remote version is played on
    /// the same deals twice. By default it is not: all of an entrant's connections belong to
    /// one owner, who could learn a deal in one game before playing its twin, so such a pair
    /// is two games on deals of their own.
    pub fn set_remote(&mut self, available: Availability, duplicate: bool) {
        self.available = Some(available);
        self.remote_duplicate = duplicate;
    }

    /// Whether the run stopped because no two versions could play though enough are active:
    /// remote versions whose relays are not connected.
    pub fn waiting_for_remote(&self) -> bool {
        self.ended.is_none() && self.active.len() >= 2
    }

    /// Whether two versions could start a pair now.
    pub fn can_pair_now(&self) -> bool {
        self.ready().len() >= 2
    }

    /// The active versions that can play now: a remote one only while its relay is connected.
    fn ready(&self) -> Vec<usize> {
        self.active
            .iter()
            .copied()
            .filter(|&i| {
                let v = &self.roster[i];
                !v.is_remote() || self.available.as_ref().is_none_or(|ok| ok(v))
            })
            .collect()
    }

    /// The database (to wait on it between runs).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// `--partners rotate`: each pair's two versions partner two others (those they have
    /// partnered least), so every version partners every other over time; with fewer than
    /// four versions able to play, a pair is played with own partners.
    pub fn set_partners(&mut self, partners: Partners) {
        self.partners = partners;
    }

    fn candidate(&self, i: usize) -> Candidate {
        let v = &self.roster[i];
        let recent = self.recent.iter().filter(|p| p.contains(&v.id)).count() as u64;
        let rated = self
            .standings
            .as_ref()
            .and_then(|s| s.entrants.iter().find(|e| e.name == v.label))
            .filter(|e| e.games > 0 && e.elo_high.is_finite() && e.elo_low.is_finite());
        match rated {
            Some(e) => Candidate {
                elo: e.elo,
                half_width: (e.elo_high - e.elo_low) / 2.0,
                recent,
            },
            None => Candidate {
                elo: 0.0,
                half_width: UNRATED_HALF_WIDTH,
                recent,
            },
        }
    }

    /// The partners of `a` and `b` (roster indices) for their next pair: themselves with own
    /// partners (or fewer than four versions ready); with `--partners rotate`, two other
    /// ready versions, those `a` and `b` partnered least (ties: the older versions).
    fn partners_for(&self, a: usize, b: usize, ready: &[usize]) -> (usize, usize) {
        let others: Vec<usize> = ready
            .iter()
            .copied()
            .filter(|&v| v != a && v != b)
            .collect();
        if self.partners == Partners::Own || others.len() < 2 {
            return (a, b);
        }
        let times = |x: usize, y: usize| {
            let k = key_of(self.roster[x].id, self.roster[y].id);
            self.partnered.get(&k).copied().unwrap_or(0)
        };
        let mut best: Option<(u64, (usize, usize))> = None;
        for &k in &others {
            for &l in others.iter().filter(|&&l| l != k) {
                let t = times(a, k) + times(b, l);
                if best.is_none_or(|(bt, _)| t < bt) {
                    best = Some((t, (k, l)));
                }
            }
        }
        best.map_or((a, b), |(_, p)| p)
    }

    fn new_pair(&mut self) -> Result<Option<GameSpec>, String> {
        if let Some(n) = self.until {
            if self.next_game >= n {
                self.ended = Some(Ended::Limit);
                return Ok(None);
            }
        }
        if self.db.roster_stamp().map_err(|e| e.to_string())? != self.stamp {
            self.ended = Some(Ended::Roster);
            return Ok(None);
        }
        if self.active.len() < 2 {
            self.ended = Some(Ended::TooFew);
            return Ok(None);
        }
        // Too few found is no end: the runner asks again while games run, and the league
        // waits for a relay.
        let ready = self.ready();
        let cands: Vec<Candidate> = ready.iter().map(|&i| self.candidate(i)).collect();
        let ids: Vec<i64> = ready.iter().map(|&i| self.roster[i].id).collect();
        let met =
            |i: usize, j: usize| self.met.get(&key_of(ids[i], ids[j])).copied().unwrap_or(0) / 2;
        let Some((i, j)) = matchmaking::pick(&cands, met, self.recent.len() as u64, self.max_share)
        else {
            return Ok(None);
        };
        let (a, b) = (ready[i], ready[j]);
        let (pa, pb) = self.partners_for(a, b, &ready);
        let remote = [a, b, pa, pb].iter().any(|&v| self.roster[v].is_remote());
        let duplicate = !remote || self.remote_duplicate;
        let deal_set = self.next_deal_set;
        let seed = deal_set_seed(self.seed, deal_set);
        // A pair that is not duplicate: its second game on the next deal set.
        let (twin_set, twin_seed) = if duplicate {
            (deal_set, seed)
        } else {
            (deal_set + 1, deal_set_seed(self.seed, deal_set + 1))
        };
        let pair = duplicate.then_some(deal_set);
        let game = self.next_game;
        // The first game of each pair alternates which side sits at seats 0 and 2.
        let ((x, px), (y, py)) = if deal_set.is_multiple_of(2) {
            ((a, pa), (b, pb))
        } else {
            ((b, pb), (a, pa))
        };
        let specs = [
            GameSpec {
                game,
                deal_set,
                pair,
                seed,
                sides: [0, 1],
                seats: [x, y, px, py],
            },
            GameSpec {
                game: game + 1,
                deal_set: twin_set,
                pair,
                seed: twin_seed,
                sides: [1, 0],
                seats: [y, x, py, px],
            },
        ];
        let planned: Vec<Planned> = specs
            .iter()
            .map(|s| Planned {
                game: s.game,
                pair: s.pair,
                deal_set: s.deal_set,
                seed: s.seed,
                seats: s.seats.map(|i| self.roster[i].id),
            })
            .collect();
        self.db.plan(&planned).map_err(|e| e.to_string())?;
        self.next_game += 2;
        self.next_deal_set = twin_set + 1;
        let [first, second] = specs;
        self.queue.push_back(second);
        Ok(Some(first))
    }
}

impl GameSource for LeagueSource {
    fn next_game(&mut self) -> Option<GameSpec> {
        if let Some(spec) = self.queue.pop_front() {
            return Some(spec);
        }
        if self.ended.is_some() {
            return None;
        }
        match self.new_pair() {
            Ok(spec) => spec,
            Err(e) => {
                self.ended = Some(Ended::Failed(e));
                None
            }
        }
    }

    fn finished(&mut self, spec: &GameSpec, row: &GameRow) -> Result<(), String> {
        let seats = spec.seats.map(|i| self.roster[i].id);
        count_game(&mut self.met, &mut self.partnered, &mut self.recent, seats);
        self.tally.push(row.clone());
        let standings = league_standings(&self.tally);
        let ratings = ratings_of(&standings, &self.ids);
        let snapshot = serde_json::to_string(&standings).expect("standings are JSON");
        self.db
            .finish_game(&self.key, row, seats, &ratings, &snapshot)
            .map_err(|e| e.to_string())?;
        self.standings = Some(standings);
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.queue.is_empty() && self.ended.is_some()
    }
}

/// One more game seated `seats` (version ids): who met whom, who partnered whom, the recent
/// games.
fn count_game(
    met: &mut HashMap<(i64, i64), u64>,
    partnered: &mut HashMap<(i64, i64), u64>,
    recent: &mut VecDeque<[i64; 4]>,
    seats: [i64; 4],
) {
    for k in opponents(seats) {
        *met.entry(k).or_insert(0) += 1;
    }
    for k in partnerships(seats) {
        *partnered.entry(k).or_insert(0) += 1;
    }
    recent.push_back(seats);
    if recent.len() > RECENT {
        recent.pop_front();
    }
}

/// Each version's standing in `s` as the database keeps it (`ids`: version ids by label).
pub fn ratings_of(s: &Standings, ids: &HashMap<String, i64>) -> Vec<RatingNow> {
    s.entrants
        .iter()
        .filter_map(|e| {
            Some(RatingNow {
                version: *ids.get(&e.name)?,
                games: e.games as i64,
                place: e.place as i64,
                elo: e.elo,
                low: e.elo_low,
                high: e.elo_high,
            })
        })
        .collect()
}

/// The standings of a league's games, with the verdict in words (a league has no schedule:
/// never provisional, but versions that have not met are named as such).
pub fn league_standings(tally: &Tally) -> Standings {
    let mut s = from_totals(tally.totals());
    crate::standings::headline::apply(&mut s, None);
    s
}
