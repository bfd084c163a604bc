//! Double-dummy analysis of a verified game record: for every hand played out, the tricks the
//! declaring side could take with best play (the par of the play), what each card played cost
//! its side, and (contract games) what each trump would have made for the declarer.

use serde::Serialize;

use super::play::play_totals;
use super::position::{Position, PositionError};
use super::solver::{best_cards_many, solve_many, CardValues, Want};
use crate::record::verified::{VerifiedGame, VerifiedHand};
use crate::rules::{
    BidForm, BySeat, Card, CardSet, ContractRules, Seat, Strain, Team, TrumpChoice,
};

/// One card played, and what double-dummy play says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardVerdict {
    /// 1 to 13.
    pub trick: u8,
    pub seat: Seat,
    pub card: Card,
    /// Tricks this card gave away to the other side (0 for a best card).
    pub cost: u8,
    /// The best cards here when the card played cost tricks. When it cost nothing this holds
    /// the card played only (the other best cards are not solved for).
    pub best: CardSet,
    /// The declaring side's double-dummy tricks for the whole hand after this card.
    pub side_tricks_after: u8,
}

/// Tricks the declarer's side makes double-dummy with each trump, the declarer leading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrainTricks {
    pub strain: Strain,
    pub tricks: u8,
}

/// One hand played out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandAnalysis {
    pub number: u32,
    /// The declarer's team (contract games) or the first leader's (400, Forty-One).
    pub side: Team,
    /// The side's double-dummy tricks at the start of the play.
    pub par: u8,
    /// The tricks the side took.
    pub taken: u8,
    pub cards: Vec<CardVerdict>,
    /// Contract games: what each trump would have made for the declarer (empty otherwise).
    pub strains: Vec<StrainTricks>,
}

/// Card-play accuracy of one seat (or of a whole game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Accuracy {
    pub cards: u32,
    /// Cards that were among the best.
    pub best: u32,
    /// Tricks given away, summed over the cards.
    pub tricks_lost: u32,
    pub best_share: f64,
    /// Tricks lost per hand played out.
    pub lost_per_hand: f64,
}

impl Accuracy {
    fn add(&mut self, cost: u8) {
        self.cards += 1;
        self.best += u32::from(cost == 0);
        self.tricks_lost += u32::from(cost);
    }

    fn finish(&mut self, hands: usize) {
        self.best_share = if self.cards == 0 {
            0.0
        } else {
            f64::from(self.best) / f64::from(self.cards)
        };
        self.lost_per_hand = if hands == 0 {
            0.0
        } else {
            f64::from(self.tricks_lost) / hands as f64
        };
    }
}

/// The whole game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    pub hands: Vec<HandAnalysis>,
    pub seats: BySeat<Accuracy>,
    pub game: Accuracy,
}

/// Why a game cannot be analysed (a verified record always can; this guards the FFI).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hand {hand}: {problem}")]
pub struct AnalysisError {
    pub hand: u32,
    pub problem: PositionError,
}

/// The start of the play of a hand played out: the leader, the trump as the play knows it
/// (`None` when the first lead names it) and any first-lead restriction.
fn start(g: &VerifiedGame, h: &VerifiedHand) -> Option<Position> {
    let first = h.tricks.first()?;
    if h.tricks.len() != 13 {
        return None;
    }
    let mut trump = h.trump;
    let mut must_lead = None;
    if let Some(c) = &g.header.rules.contract {
        if c.trump == TrumpChoice::FirstLead && c.bids == BidForm::Numbers {
            trump = None;
        }
        if c.trump_first_lead {
            must_lead = h.trump.and_then(Strain::trump);
        }
    }
    let mut p = Position::new(h.hands, trump, first.leader);
    p.must_lead = must_lead;
    Some(p)
}

fn side_of(h: &VerifiedHand, leader: Seat) -> Team {
    h.contract
        .as_ref()
        .map_or(leader.team(), |c| c.declarer.team())
}

/// How the side's double-dummy totals along the play are found. Both give the same values
/// (a test compares them on recorded games of every preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// DDS's play analyser, hand by hand on all cores: one full search per hand, then one
    /// null-window search per card on a warm transposition table.
    Play,
    /// Every position solved afresh for its best value, as one batch, the best cards found
    /// without their value known and every strain solved: several times slower, kept as
    /// the reference the fast path is checked against.
    Positions,
}

/// One hand's place in the batch of positions.
struct Plan {
    hand: u32,
    side: Team,
    /// The index of the hand's first position; card `k` was played at `first + k`.
    first: usize,
    /// `(trick number, card)` in the order played.
    cards: Vec<(u8, Card)>,
    /// The strain table's positions.
    strains: Vec<(Strain, usize)>,
    winners: Vec<Seat>,
}

impl Plan {
    /// Tricks the side won before card `k`.
    fn won_before(&self, k: usize) -> u8 {
        self.winners[..k / 4]
            .iter()
            .filter(|w| w.team() == self.side)
            .count() as u8
    }
}

type Solved = Vec<Result<CardValues, PositionError>>;

fn value(solved: &Solved, i: usize, hand: u32) -> Result<&CardValues, AnalysisError> {
    solved[i].as_ref().map_err(|e| AnalysisError {
        hand,
        problem: e.clone(),
    })
}

/// The side's double-dummy total for the whole hand at each position (the tricks it has won,
/// plus its share of the rest with best play), then the tricks it took, from every position
/// solved for its best value. A card's cost is how far it moved the total against its own side.
fn totals_of(
    plan: &Plan,
    positions: &[Position],
    solved: &Solved,
) -> Result<Vec<u8>, AnalysisError> {
    let mut totals = Vec::with_capacity(53);
    for k in 0..plan.cards.len() {
        let v = value(solved, plan.first + k, plan.hand)?;
        let left = positions[plan.first + k].tricks_left();
        let share = if v.seat.team() == plan.side {
            v.best()
        } else {
            left - v.best()
        };
        totals.push(plan.won_before(k) + share);
    }
    totals.push(plan.won_before(4 * plan.winners.len()));
    Ok(totals)
}

/// The totals of every hand by `method`.
/// What an analysis says of its progress: hands played out so far and in all (`replay
/// --analyze` shows it on a terminal).
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

fn all_totals(
    plans: &[Plan],
    positions: &[Position],
    method: Method,
    progress: Progress,
) -> Result<Vec<Vec<u8>>, AnalysisError> {
    match method {
        Method::Positions => {
            let cards: Vec<Position> = plans
                .iter()
                .flat_map(|p| positions[p.first..p.first + p.cards.len()].iter().cloned())
                .collect();
            let mut solved = solve_many(&cards, Want::Best);
            // Index the answers as the positions are.
            let mut full: Solved = Vec::with_capacity(positions.len());
            full.resize(positions.len(), Err(PositionError::HandOver));
            let mut at = 0;
            for p in plans {
                for k in 0..p.cards.len() {
                    full[p.first + k] =
                        std::mem::replace(&mut solved[at], Err(PositionError::HandOver));
                    at += 1;
                }
            }
            plans
                .iter()
                .map(|p| totals_of(p, positions, &full))
                .collect()
        }
        Method::Play => {
            let hands: Vec<(&Plan, &Position, Vec<Card>)> = plans
                .iter()
                .map(|p| {
                    let cards = p.cards.iter().map(|&(_, c)| c).collect();
                    (p, &positions[p.first], cards)
                })
                .collect();
            let done = std::sync::atomic::AtomicUsize::new(0);
            super::parallel::map(&hands, |(plan, start, cards)| {
                let r = play_totals(start, cards, plan.side).map_err(|problem| AnalysisError {
                    hand: plan.hand,
                    problem,
                });
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1,
                    hands.len(),
                );
                r
            })
            .into_iter()
            .collect()
        }
    }
}

/// The tricks card `k` gave away; `None` if it would beat best play (a solver fault).
fn cost(plan: &Plan, totals: &[u8], seat: Seat, k: usize) -> Option<u8> {
    let (before, after) = (totals[k], totals[k + 1]);
    if seat.team() == plan.side {
        before.checked_sub(after)
    } else {
        after.checked_sub(before)
    }
}

/// Double-dummy play never gains on best play: a negative cost is a solver fault.
fn checked_cost(plan: &Plan, totals: &[u8], seat: Seat, k: usize) -> Result<u8, AnalysisError> {
    cost(plan, totals, seat, k).ok_or_else(|| AnalysisError {
        hand: plan.hand,
        problem: PositionError::Rejected(format!(
            "{} of seat {seat} would beat best play",
            plan.cards[k].1
        )),
    })
}

/// The strain table's starting positions: each strain the declarer could have played in,
/// with him leading as the rules bind that lead. No Trump only where the rules have it; under
/// `trump: first-lead` only the suits he holds, each with the lead forced into it (the
/// trump there is the suit he leads: see [`Position::declaring`]), so that the table's best
/// entry is the par of the hand.
pub fn strain_table(
    hands: BySeat<CardSet>,
    declarer: Seat,
    c: &ContractRules,
) -> Vec<(Strain, Position)> {
    Strain::ALL
        .into_iter()
        .filter(|&s| s != Strain::NoTrump || c.no_trump || c.bids == BidForm::Strains)
        .filter_map(|s| Some((s, Position::declaring(hands, s, declarer, c)?)))
        .collect()
}

/// Every hand played out, its positions and (contract games) its strain table's positions.
fn plan_game(g: &VerifiedGame, strains: bool) -> Result<(Vec<Position>, Vec<Plan>), AnalysisError> {
    let mut positions = Vec::new();
    let mut plans = Vec::new();
    for h in &g.hands {
        let Some(mut p) = start(g, h) else { continue };
        let side = side_of(h, p.table.leader);
        let first = positions.len();
        let mut cards = Vec::with_capacity(52);
        for t in &h.tricks {
            for &c in &t.cards {
                positions.push(p.clone());
                cards.push((t.number, c));
                p.play(c).map_err(|problem| AnalysisError {
                    hand: h.number,
                    problem,
                })?;
            }
        }
        let mut table = Vec::new();
        if let (true, Some(c), Some(contract)) = (strains, &g.header.rules.contract, &h.contract) {
            for (strain, q) in strain_table(h.hands, contract.declarer, c) {
                table.push((strain, positions.len()));
                positions.push(q);
            }
        }
        plans.push(Plan {
            hand: h.number,
            side,
            first,
            cards,
            strains: table,
            winners: h.tricks.iter().map(|t| t.winner).collect(),
        });
    }
    Ok((positions, plans))
}

/// Every card of every hand played out, valued by DDS's play analyser (the fast path).
pub fn analyse_game(g: &VerifiedGame) -> Result<GameAnalysis, AnalysisError> {
    analyse_game_by(g, Method::Play)
}

/// [`analyse_game`], calling `progress(hands done, hands)` as each hand is played out.
pub fn analyse_game_with(
    g: &VerifiedGame,
    progress: Progress,
) -> Result<GameAnalysis, AnalysisError> {
    analyse_game_progress(g, Method::Play, progress)
}

/// Card-play accuracy only, per seat and for the game (what a tournament keeps): the totals
/// along the play fix every card's cost, so neither best cards nor the strain table are
/// solved.
pub fn game_accuracy(g: &VerifiedGame) -> Result<(BySeat<Accuracy>, Accuracy), AnalysisError> {
    let (positions, plans) = plan_game(g, false)?;
    let totals = all_totals(&plans, &positions, Method::Play, &|_, _| {})?;
    let mut seats = BySeat([Accuracy::default(); 4]);
    let mut game = Accuracy::default();
    for (plan, totals) in plans.iter().zip(&totals) {
        for k in 0..plan.cards.len() {
            let seat = positions[plan.first + k].to_play();
            let cost = checked_cost(plan, totals, seat, k)?;
            seats[seat].add(cost);
            game.add(cost);
        }
    }
    for s in Seat::ALL {
        seats[s].finish(plans.len());
    }
    game.finish(plans.len());
    Ok((seats, game))
}

/// Every position of every hand played out, its totals found by `method`.
pub fn analyse_game_by(g: &VerifiedGame, method: Method) -> Result<GameAnalysis, AnalysisError> {
    analyse_game_progress(g, method, &|_, _| {})
}

fn analyse_game_progress(
    g: &VerifiedGame,
    method: Method,
    progress: Progress,
) -> Result<GameAnalysis, AnalysisError> {
    let (positions, plans) = plan_game(g, true)?;
    let totals = all_totals(&plans, &positions, method, progress)?;
    // The totals fix every cost; the best cards are asked only where a card cost something,
    // with the value they reach already known.
    let (mut costly, mut picked) = (Vec::new(), Vec::new());
    for (plan, totals) in plans.iter().zip(&totals) {
        for k in 0..plan.cards.len() {
            let p = &positions[plan.first + k];
            let seat = p.to_play();
            if checked_cost(plan, totals, seat, k)? != 0 {
                let share = totals[k] - plan.won_before(k);
                let mine = if seat.team() == plan.side {
                    share
                } else {
                    p.tricks_left() - share
                };
                costly.push((plan.first + k, plan.hand));
                picked.push((p.clone(), mine));
            }
        }
    }
    // The strain table: the trump played with the declarer leading is the par itself (the
    // reference method solves it anyway, so the comparison checks this too).
    let mut strain_positions = Vec::new();
    let mut strain_known = Vec::new();
    for plan in &plans {
        for &(_, at) in &plan.strains {
            let is_par = positions[at] == positions[plan.first]
                && positions[at].to_play().team() == plan.side;
            if is_par && method == Method::Play {
                continue;
            }
            strain_positions.push(positions[at].clone());
            strain_known.push((plan.hand, at));
        }
    }
    let mut best_at: Vec<Option<CardSet>> = vec![None; positions.len()];
    let found = match method {
        Method::Play => best_cards_many(&picked),
        Method::Positions => {
            let ps: Vec<Position> = picked.iter().map(|(p, _)| p.clone()).collect();
            solve_many(&ps, Want::BestCards)
        }
    };
    for ((i, hand), r) in costly.iter().zip(found) {
        let v = r.map_err(|problem| AnalysisError {
            hand: *hand,
            problem,
        })?;
        best_at[*i] = Some(v.best_cards());
    }
    let mut strain_value: Vec<Option<u8>> = vec![None; positions.len()];
    for (&(hand, at), r) in strain_known
        .iter()
        .zip(solve_many(&strain_positions, Want::Best))
    {
        strain_value[at] = Some(r.map_err(|problem| AnalysisError { hand, problem })?.best());
    }
    let mut seats = BySeat([Accuracy::default(); 4]);
    let mut game = Accuracy::default();
    let mut hands = Vec::with_capacity(plans.len());
    for (plan, totals) in plans.into_iter().zip(totals) {
        let mut verdicts = Vec::with_capacity(52);
        for (k, &(trick, card)) in plan.cards.iter().enumerate() {
            let seat = positions[plan.first + k].to_play();
            let cost = checked_cost(&plan, &totals, seat, k)?;
            seats[seat].add(cost);
            game.add(cost);
            verdicts.push(CardVerdict {
                trick,
                seat,
                card,
                cost,
                // Where the card cost nothing it is a best card; the others were not asked.
                best: best_at[plan.first + k].unwrap_or_else(|| CardSet::from_iter([card])),
                side_tricks_after: totals[k + 1],
            });
        }
        let strains = plan
            .strains
            .iter()
            .map(|&(strain, at)| StrainTricks {
                strain,
                tricks: strain_value[at].unwrap_or(totals[0]),
            })
            .collect();
        hands.push(HandAnalysis {
            number: plan.hand,
            side: plan.side,
            par: totals[0],
            taken: totals[totals.len() - 1],
            cards: verdicts,
            strains,
        });
    }
    let played = hands.len();
    for s in Seat::ALL {
        seats[s].finish(played);
    }
    game.finish(played);
    Ok(GameAnalysis { hands, seats, game })
}
