//! A remedy for strategy fusion in the last tricks (issue 28 item 3): alpha-mu search with two
//! of my own moves (Cazenave and Ventos 2019, "The alpha-mu search algorithm for the game of
//! Bridge"), run over the sampled deals ("worlds") once every hand is down to
//! [`ENDGAME_CARDS`] cards.
//!
//! Plain pimc solves each world double-dummy, so in each world my own later cards are chosen
//! knowing that world's hidden cards: a line that needs a guess later (which king to play for,
//! which suit to keep) is credited as if I always guessed right. Here my card now and my next
//! card are one strategy for all the worlds I cannot tell apart: my next card may depend on
//! the cards played in between (which I see) but not on the world. The other three players
//! still choose per world (as double-dummy solving has them do: the usual assumption of
//! alpha-mu, cautious about opponents, generous about a partner), and after my second card
//! the rest is solved double-dummy. A node's value is a Pareto front of vectors (one entry per
//! world, each a score for my side): at my moves the fronts of my cards are pooled, at the
//! others' the children's vectors are combined world by world (the worst for me at an
//! opponent, the best at my partner) for every choice of one vector per child.
//!
//! Why this remedy and not the others the issue names: information-set MCTS needs thousands of
//! playouts a move to beat pimc, Extended PIMC (Arjonilla, Saffidine and Cazenave 2024) an
//! imperfect-information subgame solve at each postponed level; both are far from pimc's
//! `--ms 50` budgets (a late card thinks 10 to 40 ms). With at most three cards in each hand
//! the tree of one world is at most a few thousand plays, so two of my moves (with three
//! cards, my last card is forced: the search is exact about my own information there) over a
//! few dozen worlds fit in a few milliseconds, solved by a small minimax here rather than by
//! DDS calls (a median of 3 ms a card at `--ms 50` in docs/analysis.md's run). Earlier tricks
//! keep plain pimc: with four cards a hand one world's tree is already a hundred times larger.

use std::str::FromStr;
use std::time::Instant;

use crate::analysis::Position;
use crate::rules::{Card, CardSet, Seat};

/// How pimc's card play treats strategy fusion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fusion {
    /// Plain pimc: every world solved double-dummy.
    #[default]
    Off,
    /// Alpha-mu search over the sampled worlds in the last [`ENDGAME_CARDS`] tricks.
    Endgame,
}

impl FromStr for Fusion {
    type Err = String;

    fn from_str(s: &str) -> Result<Fusion, String> {
        match s {
            "off" => Ok(Fusion::Off),
            "endgame" => Ok(Fusion::Endgame),
            _ => Err(format!("fusion: '{s}' is not off or endgame")),
        }
    }
}

/// The search starts when the tricks left (the one on the table included) are at most this:
/// with three, one world's tree below my card is at most 27 plays of the others, 2 of mine and
/// a two-card double-dummy solve (16 lines): a few thousand plays; with four it is a hundred
/// times that, past a late card's budget at `--ms 50`.
pub const ENDGAME_CARDS: u8 = 3;

/// Worlds sampled for the search: the unseen cards of a three-card ending (at most nine, often
/// fewer where voids are known) fall in at most 1,680 ways, and a few dozen worlds put the
/// likely guesses in proportion while keeping the fronts short.
pub const WORLDS: usize = 32;

/// My moves the search keeps one strategy for (the one to play now included): alpha-mu's M.
pub const MY_MOVES: u32 = 2;

/// The most vectors a front keeps (those with the largest totals): the product of the
/// children's fronts at the others' moves can grow fast when their worlds part ways.
const FRONT_CAP: usize = 24;

/// Plays (of the search and of its double-dummy solves) after which it gives up and plain pimc
/// answers: a bound on the time whatever the position.
const WORK_CAP: usize = 2_000_000;

/// The card chosen (its index in `legal`) and each card's best total over the worlds.
#[derive(Clone, Debug)]
pub struct Choice {
    pub best: usize,
    pub totals: Vec<f64>,
}

/// One vector per strategy of mine: entry `w` is what it brings in world `w` (0 where the
/// world cannot reach the node).
type Front = Vec<Vec<f64>>;

struct Search<'a> {
    me: Seat,
    worlds: usize,
    /// My side's score for its tricks from the root on (monotone in the tricks).
    value: &'a dyn Fn(u8) -> f64,
    work: usize,
    deadline: Option<Instant>,
}

/// Whether the search applies to this position: few enough tricks left, a choice, and the
/// trump known (the rules of the trick are the same in every world).
pub fn applies(p: &Position, legal: &[Card]) -> bool {
    let left = p.tricks_left();
    (2..=ENDGAME_CARDS).contains(&left) && legal.len() > 1 && p.trump.is_some()
}

/// The card to play for `me` in `worlds` (positions that differ only in the hidden cards,
/// `me` to play and holding the same hand in each), with `value` my side's score for the
/// tricks it takes from here. `None` if the worlds disagree with `legal` or the search ran
/// past [`WORK_CAP`] or `deadline`: then plain pimc answers.
pub fn choose(
    worlds: &[Position],
    me: Seat,
    legal: &[Card],
    value: &dyn Fn(u8) -> f64,
    deadline: Option<Instant>,
) -> Option<Choice> {
    let first = worlds.first()?;
    let legal_set: CardSet = legal.iter().copied().collect();
    let agree = worlds
        .iter()
        .all(|p| p.to_play() == me && p.legal_cards() == legal_set && p.held[me] == first.held[me]);
    if !agree {
        return None;
    }
    let mut s = Search {
        me,
        worlds: worlds.len(),
        value,
        work: 0,
        deadline,
    };
    let all: Vec<(usize, Position)> = worlds.iter().cloned().enumerate().collect();
    let mut totals = Vec::with_capacity(legal.len());
    for &c in legal {
        let (next, taken) = s.play_all(&all, c)?;
        let front = s.node(&next, taken, MY_MOVES - 1)?;
        let best = front
            .iter()
            .map(|v| v.iter().sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        totals.push(best);
    }
    let best = (0..legal.len()).max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))?;
    Some(Choice { best, totals })
}

impl Search<'_> {
    /// Plays `c` in every world of `alive` where it is legal: those worlds after it, and my
    /// side's trick if it closed one (the same in each: the table is public).
    fn play_all(
        &mut self,
        alive: &[(usize, Position)],
        c: Card,
    ) -> Option<(Vec<(usize, Position)>, u8)> {
        let mut next = Vec::new();
        let mut ours = 0;
        for (w, p) in alive {
            if !p.legal_cards().contains(c) {
                continue;
            }
            let mut q = p.clone();
            let won = q.play(c).ok()?;
            ours = u8::from(won.is_some_and(|s| s.team() == self.me.team()));
            next.push((*w, q));
        }
        self.tick()?;
        Some((next, ours))
    }

    /// Counts one step of work; `None` once past the caps.
    fn tick(&mut self) -> Option<()> {
        self.work += 1;
        let late =
            self.work.is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() >= d);
        (self.work <= WORK_CAP && !late).then_some(())
    }

    /// The front of the node whose worlds are `alive` (all at the same public state), my side
    /// having taken `taken` tricks since the root, with `mine` of my moves still to search.
    fn node(&mut self, alive: &[(usize, Position)], taken: u8, mine: u32) -> Option<Front> {
        let p0 = &alive.first()?.1;
        if p0.tricks_left() == 0 || mine == 0 {
            let mut v = vec![0.0; self.worlds];
            for (w, p) in alive {
                let rest = self.solve(p)?;
                v[*w] = (self.value)(taken + rest);
            }
            return Some(vec![v]);
        }
        let seat = p0.to_play();
        let cards = alive
            .iter()
            .fold(CardSet::EMPTY, |a, (_, p)| a.union(p.legal_cards()));
        let mut children = Vec::new();
        for c in cards.iter() {
            let (next, ours) = self.play_all(alive, c)?;
            if next.is_empty() {
                continue;
            }
            let left = if seat == self.me { mine - 1 } else { mine };
            let mask: Vec<bool> = (0..self.worlds)
                .map(|w| next.iter().any(|(x, _)| *x == w))
                .collect();
            children.push((mask, self.node(&next, taken + ours, left)?));
        }
        if seat == self.me {
            // My hand and the table are the same in every world: each card is a strategy of
            // mine, whichever world it meets.
            let pooled = children.into_iter().flat_map(|(_, f)| f).collect();
            return Some(prune(pooled));
        }
        let best_for_me = seat.team() == self.me.team();
        let mut acc: Front = vec![vec![0.0; self.worlds]];
        let mut covered = vec![false; self.worlds];
        for (mask, front) in children {
            let mut merged = Vec::with_capacity(acc.len() * front.len());
            for a in &acc {
                for b in &front {
                    self.tick()?;
                    let v = (0..self.worlds)
                        .map(|w| match (covered[w], mask[w]) {
                            (true, true) if best_for_me => a[w].max(b[w]),
                            (true, true) => a[w].min(b[w]),
                            (false, true) => b[w],
                            _ => a[w],
                        })
                        .collect();
                    merged.push(v);
                }
            }
            acc = prune(merged);
            covered.iter_mut().zip(&mask).for_each(|(c, m)| *c |= m);
        }
        Some(acc)
    }

    /// My side's double-dummy tricks from `p` on (every card known): a plain minimax, the
    /// positions being a few cards a hand.
    fn solve(&mut self, p: &Position) -> Option<u8> {
        if p.tricks_left() == 0 {
            return Some(0);
        }
        self.tick()?;
        let ours = p.to_play().team() == self.me.team();
        let mut best: Option<u8> = None;
        for c in p.legal_cards().iter() {
            let mut q = p.clone();
            let won = q.play(c).ok()?;
            let v = u8::from(won.is_some_and(|s| s.team() == self.me.team())) + self.solve(&q)?;
            best = Some(match best {
                None => v,
                Some(b) if ours => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best
    }
}

/// The vectors no other is at least as good as in every world, largest totals first, at most
/// [`FRONT_CAP`] of them.
fn prune(mut front: Front) -> Front {
    let total = |v: &Vec<f64>| v.iter().sum::<f64>();
    front.sort_by(|a, b| total(b).total_cmp(&total(a)));
    let mut kept: Front = Vec::new();
    for v in front {
        let dominated = kept.iter().any(|k| k.iter().zip(&v).all(|(x, y)| x >= y));
        if !dominated {
            kept.push(v);
            if kept.len() == FRONT_CAP {
                break;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::DdSolver;
    use crate::rules::{BySeat, Strain, Suit, Trick};
    use std::collections::BTreeMap;

    /// The cards played since the root: what I know at a move of mine besides my hand.
    type History = Vec<Card>;

    /// Every move of mine below `p` with a choice, by what I know there, and its legal cards.
    fn my_moves(p: &Position, me: Seat, h: &mut History, out: &mut BTreeMap<History, CardSet>) {
        if p.tricks_left() == 0 {
            return;
        }
        let legal = p.legal_cards();
        if p.to_play() == me && legal.len() > 1 {
            out.insert(h.clone(), legal);
        }
        for c in legal.iter() {
            let mut q = p.clone();
            q.play(c).unwrap();
            h.push(c);
            my_moves(&q, me, h, out);
            h.pop();
        }
    }

    /// My side's tricks from `p` on when I play by `plan` (what I know -> my card) and the
    /// others, who see every card, play best against it (the opponents) or for it (my partner).
    fn under(p: &Position, me: Seat, plan: &BTreeMap<History, Card>, h: &mut History) -> u8 {
        if p.tricks_left() == 0 {
            return 0;
        }
        let legal = p.legal_cards();
        let seat = p.to_play();
        let choices: Vec<Card> = match (seat == me, plan.get(h)) {
            (true, Some(&c)) => vec![c],
            _ => legal.iter().collect(),
        };
        let values = choices.into_iter().map(|c| {
            let mut q = p.clone();
            let won = q.play(c).unwrap();
            h.push(c);
            let v = u8::from(won.is_some_and(|s| s.team() == me.team())) + under(&q, me, plan, h);
            h.pop();
            v
        });
        if seat.team() == me.team() {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// The true value of leading `c` for a player who cannot see the hidden cards: the best
    /// over every plan of mine (one card for each thing I may know later, the same in every
    /// world) of the tricks summed over the worlds. By plain enumeration of the plans.
    fn exact(worlds: &[Position], me: Seat, c: Card) -> u32 {
        let mut moves = BTreeMap::new();
        for p in worlds {
            my_moves(p, me, &mut vec![], &mut moves);
        }
        moves.remove(&vec![]);
        let keys: Vec<History> = moves.keys().cloned().collect();
        let options: Vec<Vec<Card>> = keys.iter().map(|k| moves[k].iter().collect()).collect();
        let plans = options
            .iter()
            .try_fold(1usize, |n, o| n.checked_mul(o.len()));
        let plans = plans
            .filter(|&n| n <= 1 << 16)
            .expect("few enough plans to enumerate");
        (0..plans)
            .map(|mut i| {
                let mut plan: BTreeMap<History, Card> = BTreeMap::new();
                plan.insert(vec![], c);
                for (k, o) in keys.iter().zip(&options) {
                    plan.insert(k.clone(), o[i % o.len()]);
                    i /= o.len();
                }
                worlds
                    .iter()
                    .map(|p| u32::from(under(p, me, &plan, &mut vec![])))
                    .sum()
            })
            .max()
            .unwrap()
    }

    /// Plain pimc's card: the most double-dummy tricks summed over the worlds (DDS).
    fn pimc_card(worlds: &[Position], legal: &[Card]) -> (Card, Vec<u32>) {
        let mut dd = DdSolver::new();
        let mut sums = vec![0u32; legal.len()];
        for p in worlds {
            let v = dd.card_values(p).unwrap();
            for (s, &c) in sums.iter_mut().zip(legal) {
                *s += u32::from(v.value_of(c).unwrap());
            }
        }
        let best = (0..legal.len())
            .max_by(|&a, &b| sums[a].cmp(&sums[b]).then(b.cmp(&a)))
            .unwrap();
        (legal[best], sums)
    }

    fn hand(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn a_guess_later_is_worth_less_than_plain_pimc_credits() {
        // Issue 28 item 3: "strategy fusion not addressed (every sample 'guesses' right)".
        // Spades are trump, I (seat 0) lead to the last 3 tricks holding QD AH JS, and the KS
        // is with one opponent or the other (the two worlds differ only there). After the AH
        // I must guess which way the KS lies; the JS first needs no guess. Every world's
        // solve credits both lines with all it can make, so plain pimc cannot tell them apart
        // and takes the AH (its tie goes to the first card); a plan that cannot see the
        // hidden cards makes a trick fewer over the two worlds with it.
        let me = Seat::S0;
        let world = |s1: &str, s3: &str| Position {
            held: BySeat([hand("QD AH JS"), hand(s1), hand("AD JH TS"), hand(s3)]),
            trump: Some(Strain::Trump(Suit::Spades)),
            table: Trick::new(me),
            must_lead: None,
        };
        let worlds = [world("KD TH KS", "9H QH 9S"), world("KD TH 9S", "9H QH KS")];
        let legal: Vec<Card> = hand("QD AH JS").iter().collect();
        let (ah, js): (Card, Card) = ("AH".parse().unwrap(), "JS".parse().unwrap());
        let (pimc, sums) = pimc_card(&worlds, &legal);
        assert_eq!(pimc, ah, "{sums:?}");
        assert_eq!(
            sums[1], sums[2],
            "every world credits the AH with its guess right"
        );
        // The same choice through pimc's own tally of the deals.
        let mut dd = DdSolver::new();
        let mut tally = crate::pimc::play_value::Tally::new(None, 0, legal.len());
        for p in &worlds {
            let v = dd.card_values(p).unwrap();
            tally.add(legal.iter().map(|&c| v.value_of(c).unwrap()));
        }
        assert_eq!(tally.best().map(|i| legal[i]), Some(ah));
        // The truth, by enumerating every plan of mine: the JS is better.
        let (true_ah, true_js) = (exact(&worlds, me, ah), exact(&worlds, me, js));
        assert!(true_js > true_ah, "{true_js} {true_ah}");
        // The search sees it, and values each card as the enumeration does.
        let value = |v: u8| f64::from(v);
        let choice = choose(&worlds, me, &legal, &value, None).unwrap();
        assert_eq!(legal[choice.best], js, "{:?}", choice.totals);
        for (&c, &t) in legal.iter().zip(&choice.totals) {
            assert_eq!(t, f64::from(exact(&worlds, me, c)), "{c}");
        }
    }

    #[test]
    fn the_endgame_minimax_agrees_with_dds() {
        // The search's own double-dummy solve stands in for DDS after its second move: the
        // tricks of every card of every seat on turn, in the worlds above, must be DDS's.
        let mut dd = DdSolver::new();
        let world = Position {
            held: BySeat([
                hand("QD AH JS"),
                hand("KD TH KS"),
                hand("AD JH TS"),
                hand("9H QH 9S"),
            ]),
            trump: Some(Strain::Trump(Suit::Spades)),
            table: Trick::new(Seat::S1),
            must_lead: None,
        };
        let mut positions = vec![
            world.clone(),
            Position {
                trump: Some(Strain::NoTrump),
                ..world
            },
        ];
        for p in positions.clone() {
            for c in p.legal_cards().iter() {
                let mut q = p.clone();
                q.play(c).unwrap();
                positions.push(q);
            }
        }
        for p in &positions {
            let seat = p.to_play();
            let mut s = Search {
                me: seat,
                worlds: 1,
                value: &|v| f64::from(v),
                work: 0,
                deadline: None,
            };
            let v = dd.card_values(p).unwrap();
            for c in p.legal_cards().iter() {
                let mut q = p.clone();
                let won = q.play(c).unwrap();
                let mine = u8::from(won.is_some_and(|w| w.team() == seat.team()));
                assert_eq!(
                    Some(mine + s.solve(&q).unwrap()),
                    v.value_of(c),
                    "{p:?} {c}"
                );
            }
        }
    }
}
