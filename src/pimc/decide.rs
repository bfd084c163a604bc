//! The pimc bot's decisions: Perfect Information Monte Carlo, as in the bridge program GIB.
//! Deal the unseen cards many times consistently with what is public, solve each deal
//! double-dummy, and take the move whose total over the deals is best.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::Rng;

use super::bid_value::{self, MatchState, Samples, SeatScores, Standing, DECLARER_EDGE};
use super::carry::Mix;
use super::fusion::{self, Fusion};
use super::infer;
use super::match_end::Horizon;
use super::play_value::{self, Tally};
use super::read_play;
use super::sample::Knowledge;
use super::throw_in::Bidding;
use super::wire::ViewIn;
use crate::analysis::{solve_many, Position, Want};
use crate::rules::{
    BidForm, BySeat, Call, Card, CardSet, DecisionKind, Move, Rules, Seat, Strain, Trick,
};

/// Positions solved together: one per core keeps both cores busy between clock checks (a
/// decision that solves several positions per deal, as a call's strains, takes one deal).
const BATCH: usize = 2;

/// Deals judged by the hand estimate for a call, besides the solved ones.
pub const ESTIMATED: usize = 200;

/// How many tricks more than the two hands' estimates a side takes double-dummy on average,
/// and the spread of the difference over the deals of one hand of mine (measured by
/// `examples/pimc_estimate_error.rs`: +1.12 and 1.43 over 10 hands of 8 deals in 5 strains,
/// where the solved tricks themselves spread by 2.26).
pub const ESTIMATE_BIAS: f64 = 1.1;
pub const ESTIMATE_SPREAD: f64 = 1.4;

/// How many solved deals the usual bias counts for against a call's own solved deals.
const BIAS_WEIGHT: f64 = 2.0;

/// What one decision cost, for the bot's stderr log.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    pub samples: usize,
    /// Whether the card came from the endgame search against strategy fusion ([`fusion`]).
    pub fused: bool,
    /// Of them, deals carried from the previous decision ([`super::carry`]).
    pub carried: usize,
    /// Time spent drawing fresh deals (what carrying saves).
    pub drawing: std::time::Duration,
}

/// What the bot knows of the hand in play: the rules, its view, and the deadline.
pub struct Table<'a> {
    pub rules: &'a Rules,
    pub view: &'a ViewIn,
    pub deadline: Instant,
    pub max_samples: usize,
    /// Whether the auction shapes the sampled hands (see [`infer`]).
    pub read_bids: bool,
    /// Whether the card play weighs tricks by the score (else it counts tricks).
    pub score_play: bool,
    /// Set when the answer is no longer wanted (the bot answered without it): the work stops
    /// at the next batch of deals.
    pub cancel: Option<&'a AtomicBool>,
    /// Whether the last tricks are played by the search against strategy fusion.
    pub fusion: Fusion,
    /// Whether the lead counts as a chance of being ahead at the hand cap in the hands just
    /// before it ([`super::match_end::Horizon`]); the last hand counts the game either way.
    pub cap_equity: bool,
}

impl Table<'_> {
    fn me(&self) -> Seat {
        self.view.seat
    }

    fn mine(&self) -> CardSet {
        self.view.hand.iter().copied().collect()
    }

    /// Before the play: the other hands hold the rest, as the auction so far describes them.
    /// For the bot's own calls in classic and Egyptian only a partner's bids count (they add
    /// tricks to the side): passes and opponents' bids, read as the sample bots mean them,
    /// made it bid too little to compete (a 12-game classic match against the C bot fell from
    /// 8 wins to 2 when it heeded them all).
    fn blind(&self) -> Knowledge {
        self.blind_for(false)
    }

    fn blind_for(&self, calling: bool) -> Knowledge {
        let mut clues = if self.read_bids {
            infer::clues(self.rules, self.view)
        } else {
            Vec::new()
        };
        if calling && self.rules.individual.is_none() {
            let partner = self.me().partner();
            clues.retain(|c| c.seat == partner && c.low.is_some());
        }
        let mut counts = BySeat([13; 4]);
        counts[self.me()] = 0;
        Knowledge {
            me: self.me(),
            mine: self.mine(),
            unseen: CardSet::FULL.minus(self.mine()),
            counts,
            void: BySeat([0; 4]),
            played: BySeat([CardSet::EMPTY; 4]),
            clues,
            ducks: Vec::new(),
        }
    }

    /// During the play: played cards are out, each seat holds `cards_left`, and a seat that
    /// did not follow suit is out of the suit led.
    pub fn knowledge(&self) -> Knowledge {
        let mut k = self.blind();
        let mut played = CardSet::EMPTY;
        let tricks = self
            .view
            .tricks
            .iter()
            .chain(self.view.current_trick.iter());
        for t in tricks {
            let Some(led) = t.cards.first().map(|c| c.suit()) else {
                continue;
            };
            for (i, &c) in t.cards.iter().enumerate() {
                played.insert(c);
                let seat = t.leader.plus(i);
                k.played[seat].insert(c);
                if c.suit() != led {
                    k.show_out(seat, led);
                }
            }
        }
        // The cards each seat chose, where a winner would have been the natural card.
        let done: Vec<_> = self
            .view
            .tricks
            .iter()
            .map(|t| (t.leader, t.cards.clone()))
            .collect();
        let trump = self.trump().and_then(Strain::trump);
        // The declarer's lead to the first trick must be a trump if they hold one
        // (docs/rules.md#contract-trump-first-lead), so a declarer who led another suit to it held
        // none, and holds none now.
        if let (Some(c), Some(contract), Some(t)) =
            (&self.rules.contract, &self.view.contract, trump)
        {
            let first = self
                .view
                .tricks
                .first()
                .or(self.view.current_trick.as_ref());
            if let Some(first) =
                first.filter(|f| c.trump_first_lead && f.leader == contract.declarer)
            {
                if first.cards.first().is_some_and(|lead| lead.suit() != t) {
                    k.show_out(contract.declarer, t);
                }
            }
        }
        k.ducks = read_play::ducks(self.me(), &done, trump);
        k.unseen = k.unseen.minus(played);
        k.counts = BySeat(self.view.cards_left.map(u32::from));
        k.counts[self.me()] = 0;
        k
    }

    fn trump(&self) -> Option<Strain> {
        let t = self.view.trump.as_deref()?;
        match Move::parse(DecisionKind::Trump, t) {
            Ok(Move::Trump(s)) => Some(s),
            _ => None,
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn out_of_time(&self, samples: usize) -> bool {
        samples >= self.max_samples
            || self.cancelled()
            || (samples > 0 && Instant::now() >= self.deadline)
    }

    /// Solves batches of sampled deals until the time (or sample cap) is up, giving each
    /// deal's positions (from `make`) to `add` with their solved values.
    fn sample_loop(
        &self,
        k: &Knowledge,
        rng: &mut impl Rng,
        want: Want,
        make: &dyn Fn(&BySeat<CardSet>) -> Vec<Position>,
        add: &mut dyn FnMut(&[Position], &[crate::analysis::CardValues]),
    ) -> Effort {
        self.sample_until(k, rng, want, make, add, &mut |_| false, &mut Mix::default())
    }

    /// [`Table::sample_loop`], stopping early too once `settled` says so: it is asked after
    /// each batch with the number of deals that could still be solved in time (judged by the
    /// time the deals so far took, and the sample cap). The deals come from `mix`: carried
    /// ones in turn with fresh draws from `k`.
    #[allow(clippy::too_many_arguments)]
    fn sample_until(
        &self,
        k: &Knowledge,
        rng: &mut impl Rng,
        want: Want,
        make: &dyn Fn(&BySeat<CardSet>) -> Vec<Position>,
        add: &mut dyn FnMut(&[Position], &[crate::analysis::CardValues]),
        settled: &mut dyn FnMut(usize) -> bool,
        mix: &mut Mix,
    ) -> Effort {
        let begun = Instant::now();
        let mut samples = 0;
        let mut drawing = std::time::Duration::ZERO;
        // A batch that would end past the deadline is not started: the last one's time is the
        // guess (the first batch is always solved).
        let mut last = std::time::Duration::ZERO;
        let sampler = k.sampler();
        while !self.out_of_time(samples) && (samples == 0 || Instant::now() + last < self.deadline)
        {
            let started = Instant::now();
            let mut positions = Vec::new();
            let mut per = 0;
            while positions.len() < BATCH {
                let Some(hands) = mix.next(|| {
                    let t = Instant::now();
                    let d = sampler.fitting(rng);
                    drawing += t.elapsed();
                    d
                }) else {
                    break;
                };
                let ps = make(&hands);
                per = ps.len();
                if per == 0 {
                    break;
                }
                positions.extend(ps);
            }
            if positions.is_empty() || per == 0 {
                break;
            }
            let solved: Vec<_> = solve_many(&positions, want);
            if solved.iter().any(Result::is_err) {
                break;
            }
            let solved: Vec<_> = solved.into_iter().map(Result::unwrap).collect();
            for (ps, vs) in positions.chunks(per).zip(solved.chunks(per)) {
                add(ps, vs);
                samples += 1;
            }
            last = started.elapsed();
            let per_deal = begun.elapsed().as_secs_f64() / samples.max(1) as f64;
            let left = self.deadline.saturating_duration_since(Instant::now());
            let in_time = (left.as_secs_f64() / per_deal.max(1e-9)).ceil();
            let more = (in_time.min(1e9) as usize).min(self.max_samples.saturating_sub(samples));
            if settled(more) {
                break;
            }
        }
        Effort {
            samples,
            fused: false,
            carried: mix.carried_used(),
            drawing,
        }
    }

    /// The card with the best total score over the sampled deals, each deal's double-dummy
    /// tricks counted as the points they bring my side ([`play_value`]), then the most tricks.
    /// The deals come from `mix` (deals carried from the previous decision, with fresh ones
    /// drawn under `k`, [`Table::knowledge`], which the caller needs too for the carrying).
    pub fn play(
        &self,
        legal: &[Card],
        k: &Knowledge,
        mix: &mut Mix,
        rng: &mut impl Rng,
    ) -> (Card, Effort) {
        let first = legal[0];
        if legal.len() == 1 {
            return (first, Effort::default());
        }
        let table = self.view.current_trick.as_ref();
        let leader = table.map_or(self.me(), |t| t.leader);
        let trump = self.trump();
        let mut must_lead = None;
        if let (Some(c), Some(contract)) = (&self.rules.contract, &self.view.contract) {
            let first_lead =
                self.view.tricks.is_empty() && table.is_none_or(|t| t.cards.is_empty());
            if c.trump_first_lead && first_lead && contract.declarer == self.me() {
                must_lead = trump.and_then(Strain::trump);
            }
        }
        let mut trick = Trick::new(leader);
        for &c in table.map_or(&[][..], |t| &t.cards[..]) {
            trick.push(c);
        }
        // The cards on the table are out of their players' hands (and so of the samples).
        let make = |hands: &BySeat<CardSet>| {
            vec![Position {
                held: *hands,
                trump,
                table: trick,
                must_lead,
            }]
        };
        let won = self.view.tricks_won;
        let me = self.me();
        let worth = if self.score_play {
            play_value::worth(self.rules, self.view, self.cap_equity)
        } else {
            None
        };
        let tally = Tally::new(
            worth,
            won[me.index()] + won[me.partner().index()],
            legal.len(),
        );
        if self.fusion == Fusion::Endgame {
            if let Some(done) = self.endgame_play(k, legal, &make, &tally, mix, rng) {
                return done;
            }
        }
        // Deals stop once the card to play is settled (see [`Tally::settled`]): time is not
        // spent on a choice more deals would not change.
        let tally = std::cell::RefCell::new(tally);
        let effort = self.sample_until(
            k,
            rng,
            Want::Values,
            &make,
            &mut |_, vs| {
                let values = legal.iter().map(|&c| vs[0].value_of(c).unwrap_or(0));
                tally.borrow_mut().add(values);
            },
            &mut |more| tally.borrow().settled(more),
            mix,
        );
        let tally = tally.into_inner();
        (tally.best().map_or(first, |i| legal[i]), effort)
    }

    /// The last tricks: [`fusion::WORLDS`] sampled deals searched as one strategy of mine
    /// ([`fusion`]); `None` (plain pimc then plays) before the endgame or if the search gives up.
    /// The worlds come from `mix` like plain pimc's deals: carried ones in turn with fresh
    /// ones, and all of them are carried on to the next card.
    fn endgame_play(
        &self,
        k: &Knowledge,
        legal: &[Card],
        make: &dyn Fn(&BySeat<CardSet>) -> Vec<Position>,
        tally: &Tally,
        mix: &mut Mix,
        rng: &mut impl Rng,
    ) -> Option<(Card, Effort)> {
        let sampler = k.sampler();
        let mut drawing = std::time::Duration::ZERO;
        let mut worlds = Vec::with_capacity(fusion::WORLDS);
        while worlds.len() < fusion::WORLDS.min(self.max_samples) && !self.cancelled() {
            let hands = mix.next(|| {
                let t = Instant::now();
                let d = sampler.fitting(rng);
                drawing += t.elapsed();
                d
            })?;
            let p = make(&hands).into_iter().next()?;
            if !fusion::applies(&p, legal) {
                return None;
            }
            worlds.push(p);
        }
        let value = |v: u8| tally.value(v);
        let choice = fusion::choose(&worlds, self.me(), legal, &value, Some(self.deadline))?;
        let effort = Effort {
            samples: worlds.len(),
            fused: true,
            carried: mix.carried_used(),
            drawing,
        };
        Some((legal[choice.best], effort))
    }

    /// My side's double-dummy tricks with each strain in each sampled deal, me declaring
    /// and leading.
    fn strain_tricks(&self, strains: &[Strain], rng: &mut impl Rng) -> (Samples, Effort) {
        let k = self.blind_for(true);
        let (solved, effort) = self.solved_strains(&k, strains, rng);
        (self.estimated(&k, strains, &solved, rng, false), effort)
    }

    /// The deals sampled from `k` and solved in time, each with my side's double-dummy tricks
    /// in each strain, me declaring and leading.
    #[allow(clippy::type_complexity)]
    fn solved_strains(
        &self,
        k: &Knowledge,
        strains: &[Strain],
        rng: &mut impl Rng,
    ) -> (Vec<(BySeat<CardSet>, Vec<f64>)>, Effort) {
        let me = self.me();
        let Some(rules) = self.rules.contract.as_ref() else {
            return (Vec::new(), Effort::default());
        };
        // Each strain as the rules let it arise: under `trump: first-lead` my lead is forced
        // into the trump, and a suit I lack (never in `strains`) could not be trump.
        let make = |hands: &BySeat<CardSet>| {
            strains
                .iter()
                .filter_map(|&s| Position::declaring(*hands, s, me, rules))
                .collect()
        };
        let mut solved: Vec<(BySeat<CardSet>, Vec<f64>)> = Vec::new();
        let effort = self.sample_loop(k, rng, Want::Best, &make, &mut |ps, vs| {
            let tricks = vs.iter().map(|v| f64::from(v.best())).collect();
            solved.push((ps[0].held, tricks));
        });
        (solved, effort)
    }

    /// My side's estimated tricks in [`ESTIMATED`] more deals, each its hands' estimate (my
    /// hand's and my partner's, [`infer::estimate`]) corrected by how far the estimate fell
    /// from the solved tricks in the `solved` deals (or by [`ESTIMATE_BIAS`] when none was
    /// solved) with a spread of [`ESTIMATE_SPREAD`]; with the solved deals themselves. A
    /// partner's unseen hand is most of a call's uncertainty, and the estimate follows it (see
    /// `examples/pimc_estimate_error.rs`) at a thousandth of a solve's cost: a handful of
    /// solved deals alone are too few to tell a made contract from a failed one.
    fn estimated(
        &self,
        k: &Knowledge,
        strains: &[Strain],
        solved: &[(BySeat<CardSet>, Vec<f64>)],
        rng: &mut impl Rng,
        by_deadline: bool,
    ) -> Samples {
        let (me, partner) = (self.me(), self.me().partner());
        let side = |hands: &BySeat<CardSet>, s: Strain| {
            infer::estimate(hands[me], s) + infer::estimate(hands[partner], s)
        };
        // The estimate's error in each strain: the solved deals' mean, drawn towards the
        // usual bias by [`BIAS_WEIGHT`] deals' worth (one solved deal alone is noisy).
        let n = solved.len() as f64;
        let bias: Vec<f64> = strains
            .iter()
            .enumerate()
            .map(|(j, &s)| {
                let sum: f64 = solved.iter().map(|(h, t)| t[j] - side(h, s)).sum();
                (sum + BIAS_WEIGHT * ESTIMATE_BIAS) / (n + BIAS_WEIGHT)
            })
            .collect();
        let team = me.team();
        let mut samples = Samples {
            strains: strains.to_vec(),
            tricks: solved.iter().map(|(_, t)| t.clone()).collect(),
            game: self.view.team_scores.map(|s| MatchState {
                target: self.rules.target,
                ours: s[team.index()],
                theirs: s[team.other().index()],
                horizon: Horizon::new(self.rules, self.view.hand_number, self.cap_equity),
            }),
        };
        let sampler = k.sampler();
        for i in 0..ESTIMATED {
            // Cancelled, or (`by_deadline`: a fallback answer) past the deadline with some
            // deals estimated.
            let late = by_deadline && i >= 8 && Instant::now() >= self.deadline;
            if self.cancelled() || late {
                break;
            }
            let Some(hands) = sampler.fitting(rng) else {
                break;
            };
            // What the estimate leaves unexplained, as a bell of its measured spread.
            let noise: f64 = (0..4).map(|_| rng.gen_range(-1.0..1.0)).sum::<f64>();
            let noise = noise * ESTIMATE_SPREAD / (4.0f64 / 3.0).sqrt();
            let row = strains
                .iter()
                .zip(&bias)
                .map(|(&s, &b)| (side(&hands, s) + b + noise).clamp(0.0, 13.0))
                .collect();
            samples.tricks.push(row);
        }
        samples
    }

    /// The strains the declarer could play in: the four suits, and No Trump where allowed.
    fn strains(&self) -> Vec<Strain> {
        let nt = self
            .rules
            .contract
            .as_ref()
            .is_some_and(|c| c.no_trump || c.bids == BidForm::Strains);
        let mine = BySeat([self.mine(); 4]);
        Strain::ALL
            .into_iter()
            .filter(|&s| s != Strain::NoTrump || nt)
            .filter(|&s| {
                // `trump: first-lead`: a suit I lack cannot become trump if I declare.
                self.rules
                    .contract
                    .as_ref()
                    .is_none_or(|c| Position::declaring(mine, s, self.me(), c).is_some())
            })
            .collect()
    }

    /// The trump with the most tricks over the samples.
    pub fn trump_choice(&self, legal: &[Move], rng: &mut impl Rng) -> (Move, Effort) {
        let strains: Vec<Strain> = legal
            .iter()
            .filter_map(|m| match m {
                Move::Trump(s) => Some(*s),
                _ => None,
            })
            .collect();
        let (samples, effort) = self.strain_tricks(&strains, rng);
        let avg = samples.means();
        let best = (0..strains.len()).max_by(|&a, &b| avg[a].total_cmp(&avg[b]).then(b.cmp(&a)));
        (best.map_or(legal[0], |i| Move::Trump(strains[i])), effort)
    }

    /// Contract games: the call with the best expected score for my side over the sampled
    /// deals (see [`bid_value`]), against passing and so leaving the standing bid to play.
    pub fn contract_call(&self, legal: &[Move], rng: &mut impl Rng) -> (Move, Effort) {
        let Some(rules) = self.rules.contract.as_ref() else {
            return (legal[0], Effort::default());
        };
        let strains = self.strains();
        let (samples, effort) = self.strain_tricks(&strains, rng);
        let choice = bid_value::best_call(rules, &samples, self.standing(), legal, DECLARER_EDGE);
        (choice.unwrap_or(legal[0]), effort)
    }

    /// A contract call from estimated deals alone, for when solving runs out of time: as many
    /// of [`ESTIMATED`] deals as the deadline allows (8 at least).
    pub fn estimated_call(&self, legal: &[Move], rng: &mut impl Rng) -> Option<Move> {
        let rules = self.rules.contract.as_ref()?;
        let strains = self.strains();
        let samples = self.estimated(&self.blind_for(true), &strains, &[], rng, true);
        bid_value::best_call(rules, &samples, self.standing(), legal, DECLARER_EDGE)
    }

    /// The standing bid of the auction so far, whose it is and how doubled.
    fn standing(&self) -> Option<Standing> {
        let mut standing = None;
        for c in &self.view.auction {
            match Move::parse(DecisionKind::Call, &c.call) {
                Ok(Move::Call(Call::Bid(b))) => {
                    standing = Some(Standing {
                        level: b.level,
                        strain: b.strain,
                        ours: c.seat.team() == self.me().team(),
                        multiplier: 1,
                    });
                }
                Ok(Move::Call(Call::Double)) => {
                    if let Some(s) = standing.as_mut() {
                        s.multiplier = 2;
                    }
                }
                Ok(Move::Call(Call::Redouble)) => {
                    if let Some(s) = standing.as_mut() {
                        s.multiplier = 4;
                    }
                }
                _ => {}
            }
        }
        standing
    }

    /// 400 and Forty-One: the bids made so far and the players' scores (which set the total
    /// the hand needs and the minimum of the bids to come), for the chance that it is played.
    fn bidding(&self) -> Option<Bidding> {
        let mut bids = BySeat([None; 4]);
        for c in &self.view.auction {
            if let Ok(Move::Call(Call::Bid(b))) = Move::parse(DecisionKind::Call, &c.call) {
                bids[c.seat] = Some(b.level);
            }
        }
        Some(Bidding {
            bids,
            scores: BySeat(self.view.seat_scores?),
        })
    }

    /// 400 and Forty-One: my share of my side's double-dummy tricks with the fixed trump in
    /// each sampled deal (shared by strength: high-card points plus trumps), and the legal
    /// bid with the best expected score over them under the points table.
    pub fn individual_bid(&self, legal: &[Move], rng: &mut impl Rng) -> (Move, Effort) {
        let Some(trump) = self.rules.individual.as_ref().map(|i| i.trump) else {
            return (legal[0], Effort::default());
        };
        let k = self.blind();
        let leader = self.view.dealer.next();
        let me = self.me();
        let make = |hands: &BySeat<CardSet>| {
            vec![Position::new(*hands, Some(Strain::Trump(trump)), leader)]
        };
        let strength = |h: CardSet| {
            f64::from(h.high_card_points()) + 1.5 * f64::from(h.count_suit(trump)) + 1.0
        };
        let mut shares = Vec::new();
        let effort = self.sample_loop(&k, rng, Want::Best, &make, &mut |ps, vs| {
            let p = &ps[0];
            let left = f64::from(p.tricks_left());
            let leaders = f64::from(vs[0].best());
            let side = if leader.team() == me.team() {
                leaders
            } else {
                left - leaders
            };
            let (a, b) = (strength(p.held[me]), strength(p.held[me.partner()]));
            shares.push(side * a / (a + b));
        });
        let Some(ind) = self.rules.individual.as_ref() else {
            return (legal[0], effort);
        };
        // The match as it stands: a bid that ends it is worth the game (see `bid_value`).
        let game = self.view.seat_scores.map(|s| SeatScores {
            target: self.rules.target,
            scores: BySeat(s),
            horizon: Horizon::new(self.rules, self.view.hand_number, self.cap_equity),
        });
        let choice = bid_value::best_individual(
            ind,
            me,
            legal,
            &shares,
            DECLARER_EDGE.ours,
            game.as_ref(),
            self.bidding().as_ref(),
        );
        (choice.unwrap_or(legal[0]), effort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::DdSolver;
    use crate::rules::{Suit, TrumpChoice};
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn first_lead_strains_are_the_suits_i_hold_led_first() {
        // docs/rules.md#contract-trump (first-lead): no naming; the suit of the declarer's first
        // lead becomes trump. Declaring, I make with clubs as trump what my club lead makes, and
        // spades or diamonds (I hold none) cannot become trump.
        let mut rules = Rules::classic();
        rules.contract.as_mut().unwrap().trump = TrumpChoice::FirstLead;
        let hand = r#"["AH","KH","QH","JH","TH","9H","8H","7H","6H","5H","4H","3H","2C"]"#;
        let view: ViewIn = serde_json::from_str(&format!(
            r#"{{"seat":0,"dealer":3,"hand":{hand},"cards_left":[13,13,13,13]}}"#
        ))
        .unwrap();
        let table = Table {
            rules: &rules,
            view: &view,
            deadline: Instant::now() + std::time::Duration::from_secs(600),
            max_samples: 8,
            read_bids: true,
            score_play: true,
            cancel: None,
            fusion: Fusion::Off,
            cap_equity: false,
        };
        let clubs = Strain::Trump(Suit::Clubs);
        let strains = table.strains();
        assert_eq!(strains, [clubs, Strain::Trump(Suit::Hearts)]);
        let mut rng = Pcg64::seed_from_u64(7);
        let (solved, effort) = table.solved_strains(&table.blind_for(true), &strains, &mut rng);
        assert_eq!(effort.samples, solved.len());
        assert!(solved.len() >= 2, "{} deals solved", solved.len());
        let two_c: Card = "2C".parse().unwrap();
        let mut dd = DdSolver::new();
        let mut free_lead_more = 0;
        for (hands, tricks) in &solved {
            // The game's own way: no trump until my lead names it.
            let by_lead = dd
                .card_values(&Position::new(*hands, None, Seat::S0))
                .unwrap();
            assert_eq!(tricks[0], f64::from(by_lead.value_of(two_c).unwrap()));
            let hearts = by_lead
                .values
                .iter()
                .filter(|(c, _)| c.suit() == Suit::Hearts);
            assert_eq!(tricks[1], f64::from(hearts.map(|&(_, v)| v).max().unwrap()));
            let free = Position::new(*hands, Some(clubs), Seat::S0);
            free_lead_more += usize::from(f64::from(dd.tricks(&free).unwrap()) > tricks[0]);
        }
        // The forced lead matters in these deals (a free lead cashes hearts first).
        assert!(free_lead_more > 0);
    }
}
