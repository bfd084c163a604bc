//! Running totals of result rows: everything [`super::table`] reports, gathered one row at a
//! time in memory that does not grow with the rows.
//!
//! Why: a tournament of millions of games, or `tarneeb standings` on a million rows, must not
//! hold every row. What the standings need is small: per-entrant counts, the crosstable, per
//! two entrants the unit scores by class (0, ¼, ½, ¾, 1), and the rating observations, of
//! which identical ones (same sides, same score: a few dozen in a big tournament) are merged
//! into one with the sum of their weights. A duplicate game waits, as an *open half*, only
//! until its twin arrives (see [`super::pairs`] for what makes twins); halves still open at the
//! end count singly, as before.
//!
//! Order: the standings name entrants in order of first appearance in schedule order and fit
//! observations in schedule order of each unit's first game. Rows may arrive in any order
//! (several game workers append as games end), so each entrant and each merged observation
//! keeps the earliest position it was seen at, `(game, arrival)`, and is sorted by it at the
//! end: the result equals that of sorting all rows first.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use super::accuracy::AccuracySum;
use super::boards::{pair_boards, BoardScale};
use super::pairs::{game_score0, pair_key, team};
use super::pairwise::{Cell, Meeting};
use super::ratings::Observation;
use super::row::GameRow;
use super::twins::{self, TwinOrder, TwinSum};

/// Where a row came: its game number, then its arrival (ties of pooled tournaments keep input
/// order).
type Pos = (u64, u64);

/// Per-entrant counts (see [`super::table`] for how a game counts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub forfeits: BTreeMap<String, u64>,
    pub timeouts: u64,
    pub points_for: i64,
    pub points_against: i64,
    /// Double-dummy tricks lost (`tournament --analyze`), as running sums.
    pub accuracy: AccuracySum,
}

/// A duplicate game's twin key, owned (see [`super::pairs::PairKey`]).
type OpenKey = (u64, u64, Option<String>, [[String; 2]; 2]);

/// Merged observations: per (side 0, side 1, score bits), the earliest position and the weight.
type Merged = HashMap<([usize; 2], [usize; 2], u64), (Pos, f64), Fast>;

/// FNV-1a: the maps here are looked up several times per row with keys the organiser's
/// files give (entrant names, twin keys), not a bot, so the cost of SipHash's resistance to
/// chosen keys buys nothing; it was a sixth of `standings` on a million rows. The offset basis is the state a new hasher starts from.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Fast = BuildHasherDefault<Fnv>;

/// The running totals; see the module documentation.
#[derive(Default)]
pub struct Tally {
    names: Vec<String>,
    index: HashMap<String, usize, Fast>,
    /// Per entrant: the earliest (game, arrival, seat) it sat at.
    first_seen: Vec<(u64, u64, usize)>,
    counts: Vec<Counts>,
    cross: Vec<Vec<Cell>>,
    /// Keyed by (lower index, higher index), scores from the lower's side.
    meetings: BTreeMap<(usize, usize), Meeting>,
    observations: Merged,
    boards: Merged,
    /// Duplicate games waiting for their twin, by the seating (key's first partnership at team
    /// 0 or not), in arrival order.
    open: HashMap<OpenKey, [VecDeque<(Pos, GameRow)>; 2], Fast>,
    rows: u64,
    pairs: u64,
    board_pairs: u64,
    /// Per entrant (by index): first against second twin, `--analyze` (see [`super::twins`]).
    twin_sums: Vec<TwinSum>,
}

/// The totals with entrants in their final order (first appearance in schedule order).
pub struct Totals {
    pub names: Vec<String>,
    pub counts: Vec<Counts>,
    /// `cross[i][j]`: entrant i against entrant j.
    pub cross: Vec<Vec<Cell>>,
    pub meetings: BTreeMap<(usize, usize), Meeting>,
    /// In schedule order of their first unit; weights are how many units they merge.
    pub observations: Vec<Observation>,
    pub boards: Vec<Observation>,
    pub rows: u64,
    /// Complete duplicate pairs, and those with hand results.
    pub pairs: u64,
    pub board_pairs: u64,
    /// Per entrant: its first-against-second-twin comparison (`None` without analysed pairs).
    pub twin_order: Vec<Option<TwinOrder>>,
}

impl Tally {
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Rows counted so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Rows held while waiting for their twin (a measure of memory).
    pub fn open_halves(&self) -> usize {
        self.open.values().map(|[a, b]| a.len() + b.len()).sum()
    }

    fn slot(&mut self, name: &str, seen: (u64, u64, usize)) -> usize {
        let i = match self.index.get(name) {
            Some(&i) => i,
            None => {
                let i = self.names.len();
                self.names.push(name.to_string());
                self.index.insert(name.to_string(), i);
                self.first_seen.push(seen);
                self.counts.push(Counts::default());
                for r in self.cross.iter_mut() {
                    r.push(Cell::default());
                }
                self.cross.push(vec![Cell::default(); i + 1]);
                i
            }
        };
        self.first_seen[i] = self.first_seen[i].min(seen);
        i
    }

    /// Counts one row.
    pub fn push(&mut self, row: GameRow) {
        let pos = (row.game, self.rows);
        self.rows += 1;
        let seats: [usize; 4] =
            std::array::from_fn(|s| self.slot(&row.seats[s], (pos.0, pos.1, s)));
        let mut distinct = seats.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for &e in &distinct {
            self.counts[e].games += 1;
            if row.winner.is_none() {
                self.counts[e].draws += 1;
            }
            self.counts[e]
                .accuracy
                .add_row(&row, (0..4).filter(|&s| seats[s] == e));
        }
        for t in 0..2 {
            let mut side = [seats[t], seats[t + 2]];
            side.sort_unstable();
            for (k, &e) in side.iter().enumerate() {
                if k == 1 && side[0] == e {
                    continue;
                }
                let c = &mut self.counts[e];
                c.points_for += i64::from(row.team_scores[t]);
                c.points_against += i64::from(row.team_scores[1 - t]);
                match row.winner {
                    Some(w) if usize::from(w) == t => c.wins += 1,
                    Some(_) => c.losses += 1,
                    None => {}
                }
            }
        }
        // A game both partnerships forfeited is charged to both (see GameRow::forfeiting_seats).
        for seat in row.forfeiting_seats() {
            let kind = row.forfeit_kind.clone().unwrap_or_else(|| "unknown".into());
            *self.counts[seats[usize::from(seat)]]
                .forfeits
                .entry(kind)
                .or_default() += 1;
        }
        for (seat, &n) in row.timeouts.iter().enumerate() {
            self.counts[seats[seat]].timeouts += u64::from(n);
        }
        // Crosstable: every entrant against every entrant on the other side only.
        let s0 = game_score0(&row);
        let (t0, t1) = (dedup2([seats[0], seats[2]]), dedup2([seats[1], seats[3]]));
        for &a in &t0 {
            for &b in &t1 {
                if t0.contains(&b) || t1.contains(&a) {
                    continue;
                }
                self.cross[a][b].games += 1;
                self.cross[a][b].points += s0;
                self.cross[b][a].games += 1;
                self.cross[b][a].points += 1.0 - s0;
            }
        }
        self.unit_of(pos, row);
    }

    /// Makes the row a rating unit, or keeps it open until its twin comes.
    fn unit_of(&mut self, pos: Pos, row: GameRow) {
        let Some((key, first)) = pair_key(&row) else {
            let sides = self.sides(&row);
            add_unit(
                &mut self.observations,
                &mut self.meetings,
                sides,
                game_score0(&row),
                pos,
                false,
            );
            return;
        };
        let [[a, b], [c, d]] = key.partnerships;
        let owned: OpenKey = (
            key.seed,
            key.deal_set,
            key.deals.map(String::from),
            [[a.into(), b.into()], [c.into(), d.into()]],
        );
        let mine = usize::from(!first);
        let queues = self.open.entry(owned).or_default();
        let Some((other_pos, other)) = queues[1 - mine].pop_front() else {
            queues[mine].push_back((pos, row));
            return;
        };
        if queues.iter().all(VecDeque::is_empty) {
            self.open.retain(|_, q| q.iter().any(|v| !v.is_empty()));
        }
        let ((p, x), y) = if other_pos < pos {
            ((other_pos, other), row)
        } else {
            ((pos, row), other)
        };
        let sides = self.sides(&x);
        // The twin seats the partnerships the other way round: its team 1 is our team 0.
        let score0 = (game_score0(&x) + 1.0 - game_score0(&y)) / 2.0;
        add_unit(
            &mut self.observations,
            &mut self.meetings,
            sides,
            score0,
            p,
            true,
        );
        self.pairs += 1;
        let index = &self.index;
        twins::add_pair(&mut self.twin_sums, &x, &y, |n| index[n]);
        if let Some(b) = pair_boards(&x, &y, BoardScale::Points) {
            self.board_pairs += 1;
            let w = self
                .boards
                .entry((sides[0], sides[1], b.score().to_bits()))
                .or_insert((p, 0.0));
            w.0 = w.0.min(p);
            w.1 += 1.0;
        }
    }

    fn sides(&self, row: &GameRow) -> [[usize; 2]; 2] {
        [0, 1].map(|t| team(row, t).map(|n| self.index[n]))
    }

    /// The totals so far, entrants in their final order; halves still open count singly.
    pub fn totals(&self) -> Totals {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|&i| self.first_seen[i]);
        let mut remap = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old] = new;
        }
        let mut observations = self.observations.clone();
        let mut meetings = self.meetings.clone();
        for queues in self.open.values() {
            for (pos, row) in queues.iter().flatten() {
                add_unit(
                    &mut observations,
                    &mut meetings,
                    self.sides(row),
                    game_score0(row),
                    *pos,
                    false,
                );
            }
        }
        let ordered = |m: &Merged| -> Vec<Observation> {
            let mut v: Vec<_> = m.iter().collect();
            v.sort_by(|x, y| x.1 .0.cmp(&y.1 .0).then_with(|| x.0.cmp(y.0)));
            v.into_iter()
                .map(|((s0, s1, score), (_, w))| Observation {
                    side0: s0.iter().map(|&i| remap[i]).collect(),
                    side1: s1.iter().map(|&i| remap[i]).collect(),
                    score0: f64::from_bits(*score),
                    weight: *w,
                })
                .collect()
        };
        let meetings = meetings
            .into_iter()
            .map(|((a, b), m)| {
                let (x, y) = (remap[a], remap[b]);
                if x < y {
                    ((x, y), m)
                } else {
                    let mut c = m.classes;
                    c.reverse();
                    ((y, x), Meeting { classes: c, ..m })
                }
            })
            .collect();
        Totals {
            names: order.iter().map(|&i| self.names[i].clone()).collect(),
            counts: order.iter().map(|&i| self.counts[i].clone()).collect(),
            cross: order
                .iter()
                .map(|&i| order.iter().map(|&j| self.cross[i][j]).collect())
                .collect(),
            meetings,
            observations: ordered(&observations),
            boards: ordered(&self.boards),
            rows: self.rows,
            pairs: self.pairs,
            board_pairs: self.board_pairs,
            twin_order: order
                .iter()
                .map(|&i| self.twin_sums.get(i).and_then(TwinSum::finish))
                .collect(),
        }
    }
}

fn dedup2(t: [usize; 2]) -> Vec<usize> {
    if t[0] == t[1] {
        vec![t[0]]
    } else {
        t.to_vec()
    }
}

/// Counts one rating unit: its observation, and the meeting of every two entrants on opposite
/// sides (an entrant on both sides meets nobody in it).
fn add_unit(
    observations: &mut Merged,
    meetings: &mut BTreeMap<(usize, usize), Meeting>,
    [side0, side1]: [[usize; 2]; 2],
    score0: f64,
    pos: Pos,
    pair: bool,
) {
    let w = observations
        .entry((side0, side1, score0.to_bits()))
        .or_insert((pos, 0.0));
    w.0 = w.0.min(pos);
    w.1 += 1.0;
    let class = |s: f64| (s.clamp(0.0, 1.0) * 4.0).round() as usize;
    for &a in &dedup2(side0) {
        for &b in &dedup2(side1) {
            if side1.contains(&a) || side0.contains(&b) {
                continue;
            }
            let (key, s) = if a < b {
                ((a, b), score0)
            } else {
                ((b, a), 1.0 - score0)
            };
            let m = meetings.entry(key).or_default();
            m.classes[class(s)] += 1;
            if pair {
                m.pairs += 1;
            } else {
                m.singles += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::pairs::units;

    type Obs = (Vec<String>, Vec<String>, u64, f64);

    /// The observations as the standings made them before the tally: every unit of
    /// [`units`] (rows sorted by game, twins zipped), identical ones merged in unit order.
    fn from_units(rows: &[GameRow]) -> Vec<Obs> {
        let mut out: Vec<Obs> = Vec::new();
        for u in units(rows) {
            let key = (
                u.side0.map(String::from).to_vec(),
                u.side1.map(String::from).to_vec(),
                u.score0.to_bits(),
            );
            match out
                .iter_mut()
                .find(|o| (&o.0, &o.1, o.2) == (&key.0, &key.1, key.2))
            {
                Some(o) => o.3 += 1.0,
                None => out.push((key.0, key.1, key.2, 1.0)),
            }
        }
        out
    }

    fn from_tally(rows: &[GameRow], arrival: &[usize]) -> (Vec<String>, Vec<Obs>, usize) {
        let mut t = Tally::new();
        let mut most_open = 0;
        for &i in arrival {
            t.push(rows[i].clone());
            most_open = most_open.max(t.open_halves());
        }
        let totals = t.totals();
        let name = |i: &usize| totals.names[*i].clone();
        let obs = totals
            .observations
            .iter()
            .map(|o| {
                let side = |s: &Vec<usize>| s.iter().map(name).collect();
                (side(&o.side0), side(&o.side1), o.score0.to_bits(), o.weight)
            })
            .collect();
        (totals.names.clone(), obs, most_open)
    }

    proptest::proptest! {
        #[test]
        fn rows_in_any_order_give_the_units_of_the_sorted_rows(
            games in proptest::collection::vec((0usize..3, 0usize..3, 0u8..3, proptest::bool::ANY), 1..40),
            shuffle in proptest::collection::vec(0usize..1000, 40),
        ) {
            let names = ["A", "B", "C"];
            // Game g is half `g / 2` of a duplicate pair (seed 100 + g / 2), X at team 0 in the
            // even game and at team 1 in the odd one; some games are missing (a run stopped).
            let rows: Vec<GameRow> = games
                .iter()
                .enumerate()
                .filter(|(_, (_, _, _, kept))| *kept)
                .map(|(g, &(x, y, w, _))| {
                    let (x, y) = (names[x], names[(x + 1 + y % 2) % 3]);
                    let seats = if g % 2 == 0 { [x, y, x, y] } else { [y, x, y, x] };
                    let pair = g as u64 / 2;
                    let winner = (w < 2).then_some(w);
                    GameRow::sample(g as u64, Some(pair), 100 + pair, seats, winner)
                })
                .collect();
            let mut arrival: Vec<usize> = (0..rows.len()).collect();
            for (i, s) in shuffle.iter().enumerate().take(rows.len()) {
                arrival.swap(i, s % rows.len());
            }
            let (names_sorted, obs, _) = from_tally(&rows, &(0..rows.len()).collect::<Vec<_>>());
            let (names_any, obs_any, _) = from_tally(&rows, &arrival);
            proptest::prop_assert_eq!(&obs, &from_units(&rows));
            proptest::prop_assert_eq!(&obs_any, &obs);
            proptest::prop_assert_eq!(names_any, names_sorted);
        }
    }

    #[test]
    fn only_open_halves_are_held() {
        // 200,000 games of pairs in schedule order: at most one half waits at a time, and the
        // observations merge into the few distinct results.
        let rows: Vec<GameRow> = (0..200_000u64)
            .map(|g| {
                let seats = if g % 2 == 0 {
                    ["A", "B", "A", "B"]
                } else {
                    ["B", "A", "B", "A"]
                };
                GameRow::sample(g, Some(g / 2), g / 2, seats, Some((g % 3 == 0) as u8))
            })
            .collect();
        let (_, obs, most_open) = from_tally(&rows, &(0..rows.len()).collect::<Vec<_>>());
        assert_eq!(most_open, 1);
        assert!(obs.len() <= 5, "{obs:?}");
        assert_eq!(obs.iter().map(|o| o.3).sum::<f64>(), 100_000.0);
    }

    #[test]
    fn a_double_forfeit_is_charged_to_both_sides() {
        // Both partnerships failed the handshake: a draw, forfeit_seat 0 (x) and
        // also_forfeited 3 (w, rotated partners); a row written before also_forfeited was
        // kept falls back to the seat after forfeit_seat (y).
        let mut row = GameRow::sample(0, None, 1, ["x", "y", "z", "w"], None);
        row.reason = "forfeit".into();
        row.forfeit_seat = Some(0);
        row.forfeit_kind = Some("handshake".into());
        let mut old = row.clone();
        row.also_forfeited = Some(3);
        let charged = |r: GameRow| {
            let mut t = Tally::new();
            t.push(r);
            let totals = t.totals();
            let mut out: Vec<(String, u64)> = totals
                .names
                .iter()
                .zip(&totals.counts)
                .map(|(n, c)| (n.clone(), c.forfeits.values().sum()))
                .filter(|x| x.1 > 0)
                .collect();
            out.sort();
            out
        };
        assert_eq!(charged(row), [("w".into(), 1), ("x".into(), 1)]);
        old.game = 1;
        assert_eq!(charged(old), [("x".into(), 1), ("y".into(), 1)]);
    }
}
