//! The one rules configuration type. The four games are presets of it (see [`Rules::preset`]);
//! every disagreement between the rule texts is an option here, with its default. Each option
//! is stated, with its sources, under its anchor in docs/rules.md (`contract.kaboot` is
//! docs/rules.md#contract-kaboot).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::bid::{Bid, Level, Strain};
use super::card::Suit;

/// The complete rules of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Rules {
    /// Score that wins: a team's score (contract games) or a player's (400, Forty-One).
    pub target: i32,
    /// Deals after which the game ends on the scores (redeals and throw-ins count).
    pub max_hands: u32,
    /// Set for partnership contract games (classic, Egyptian); exactly one of the two is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<ContractRules>,
    /// Set for individual-bid games (400, Forty-One).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub individual: Option<IndividualRules>,
}

/// The rules of partnership contract games: one auction, one declarer, team scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ContractRules {
    pub bids: BidForm,
    pub strain_order: StrainOrder,
    pub auction: AuctionForm,
    pub dealer_forced_7: bool,
    pub all_pass: Redeal,
    pub trump: TrumpChoice,
    pub no_trump: bool,
    pub trump_first_lead: bool,
    pub doubling: Doubling,
    pub defenders_multiplied: bool,
    pub kaboot: Kaboot,
    pub instant_win_only_bid_13: bool,
    pub instant_win_not_when_negative: bool,
    pub throw_in_weak_hand: bool,
    pub throw_in_long_suit: bool,
    pub dakak: bool,
    pub out_of_call: bool,
}

/// The rules of the individual-bid games: everyone bids, fixed trump, scores per player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct IndividualRules {
    pub trump: Suit,
    pub min_bid: Steps,
    pub bid_sum: Steps,
    pub sum_counts_big_bids_double: bool,
    pub points: PointsTable,
    pub thirteen: Thirteen,
    pub partner: PartnerRule,
    pub both_reach_target: BothReach,
    pub play_on_target: i32,
    #[serde(default)]
    pub slow_play: Option<SlowPlay>,
}

macro_rules! kebab_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $($(#[$vm])* #[serde(rename = $s)] $v),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($s),+];
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($name::$v => $s),+ })
            }
        }
    };
}

kebab_enum!(
    /// What a bid names: a number of tricks (classic) or tricks and strain (Egyptian).
    BidForm { Numbers = "numbers", Strains = "strains" }
);
kebab_enum!(
    /// Strain order, low to high, for suit bids.
    StrainOrder { CdhsNt = "c-d-h-s-nt", Cshd = "c-s-h-d" }
);
kebab_enum!(
    /// How the auction runs.
    AuctionForm {
        /// A pass puts the player out; ends when all but the high bidder have passed.
        Elimination = "elimination",
        /// Everyone speaks once; the dealer may equal the high bid.
        SingleRound = "single-round",
        /// A pass does not put a player out; ends after four calls in a row that are not bids.
        Open = "open",
    }
);
kebab_enum!(
    /// Who deals after four passes.
    Redeal { SameDealer = "same-dealer", NextDealer = "next-dealer" }
);
kebab_enum!(
    /// How the trump is fixed in number-bid games.
    TrumpChoice { DeclarerNames = "declarer-names", FirstLead = "first-lead" }
);
kebab_enum!(
    /// Doubling in open auctions.
    Doubling { Off = "off", Double = "double", Redouble = "redouble" }
);
kebab_enum!(
    /// What all 13 tricks are worth to the declaring side.
    Kaboot { Bonus = "bonus", InstantWin = "instant-win", None = "none" }
);
kebab_enum!(
    /// What a bid of 13 means in individual games.
    Thirteen { Instant = "instant", Points = "points" }
);
kebab_enum!(
    /// What reneging under the ten-second rule costs (docs/rules.md#individual-slow-play): a
    /// renege is a penalty that never helps; the literal reading (the player scores nothing) is
    /// an option because it lets a player about to fail stall to avoid the loss.
    Renege {
        /// A made bid scores nothing (a made 13 wins nothing); a failed bid still costs its
        /// value and a failed 13 still loses the game.
        Penalty = "penalty",
        /// The reneging player scores 0 whatever happened, and their bid decides nothing.
        ScoresZero = "scores-zero",
    }
);

impl Renege {
    fn before_the_option() -> Renege {
        Renege::ScoresZero
    }
}

kebab_enum!(
    /// What the partner of a player at the target must have for the partnership to win.
    PartnerRule { Positive = "positive", NonNegative = "non-negative" }
);
kebab_enum!(
    /// When players of both partnerships qualify on the same hand.
    BothReach { PlayOn = "play-on", HigherTotal = "higher-total" }
);

/// A value that steps up with a score: `base` below the first threshold, then the value of the
/// highest threshold reached. Used for 400's minimum bids and bid-sum minimums.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Steps {
    pub base: u8,
    /// `[score, value]` pairs, thresholds strictly ascending.
    #[serde(default)]
    pub from: Vec<(i32, u8)>,
}

impl Steps {
    pub fn at(&self, score: i32) -> u8 {
        let mut v = self.base;
        for &(threshold, value) in &self.from {
            if score >= threshold {
                v = value;
            }
        }
        v
    }

    fn values(&self) -> impl Iterator<Item = u8> + '_ {
        std::iter::once(self.base).chain(self.from.iter().map(|&(_, v)| v))
    }
}

/// The ten-second rule of 400: a card played slower than `limit-ms` is a strike; `strikes`
/// strikes in one hand and the player reneges, with the penalty `renege` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct SlowPlay {
    pub limit_ms: u64,
    pub strikes: u8,
    /// Absent only in complete rules written before the option existed (records, saved
    /// `tarneeb rules` output): those games were scored the literal way, so absence reads as
    /// that and old records replay as they were played. A file built on a preset gets the
    /// preset's value.
    #[serde(default = "Renege::before_the_option")]
    pub renege: Renege,
}

/// Points won or lost per bid level in individual games; on the wire an object
/// `{"2": 2, "3": 3, ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointsTable(pub [Option<i32>; 14]);

impl PointsTable {
    pub fn get(&self, level: Level) -> Option<i32> {
        self.0[level.get() as usize]
    }

    fn from_fn(f: impl Fn(u8) -> Option<i32>) -> PointsTable {
        let mut t = [None; 14];
        for (i, slot) in t.iter_mut().enumerate().skip(1) {
            *slot = f(i as u8);
        }
        PointsTable(t)
    }
}

impl Serialize for PointsTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<String, i32> = (1..14)
            .filter_map(|i| self.0[i].map(|p| (i.to_string(), p)))
            .collect();
        // Keep numeric order in the output rather than string order.
        let mut entries: Vec<_> = map.into_iter().collect();
        entries.sort_by_key(|(k, _)| k.parse::<u8>().unwrap_or(0));
        s.collect_map(entries)
    }
}

impl<'de> Deserialize<'de> for PointsTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PointsTable, D::Error> {
        let map = BTreeMap::<String, i32>::deserialize(d)?;
        let mut t = [None; 14];
        for (k, v) in map {
            let level = k
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=13).contains(n))
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "points table key '{k}' is not a bid: keys are \"1\" to \"13\""
                    ))
                })?;
            t[level as usize] = Some(v);
        }
        Ok(PointsTable(t))
    }
}

/// A rules value that cannot be played, naming the option and the fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("option '{option}': {problem}")]
pub struct RulesError {
    pub option: String,
    pub problem: String,
}

fn bad(option: &str, problem: impl Into<String>) -> RulesError {
    RulesError {
        option: option.to_string(),
        problem: problem.into(),
    }
}

/// The names of the presets, for help texts and error messages.
pub const PRESETS: [&str; 4] = ["classic", "egyptian", "400", "41"];

impl Rules {
    /// A preset by name: `classic`, `egyptian`, `400` or `41` (also `forty-one`).
    pub fn preset(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "classic" | "tarneeb" => Some(Rules::classic()),
            "egyptian" => Some(Rules::egyptian()),
            "400" => Some(Rules::four_hundred()),
            "41" | "forty-one" => Some(Rules::forty_one()),
            _ => None,
        }
    }

    /// Classic (Lebanese/Syrian) Tarneeb: the `classic` column of docs/rules.md#contract.
    pub fn classic() -> Rules {
        Rules {
            target: 31,
            max_hands: 200,
            contract: Some(ContractRules {
                bids: BidForm::Numbers,
                strain_order: StrainOrder::CdhsNt,
                auction: AuctionForm::Elimination,
                dealer_forced_7: false,
                all_pass: Redeal::SameDealer,
                trump: TrumpChoice::DeclarerNames,
                no_trump: false,
                trump_first_lead: false,
                doubling: Doubling::Off,
                defenders_multiplied: false,
                kaboot: Kaboot::Bonus,
                instant_win_only_bid_13: false,
                instant_win_not_when_negative: false,
                throw_in_weak_hand: false,
                throw_in_long_suit: false,
                dakak: false,
                out_of_call: false,
            }),
            individual: None,
        }
    }

    /// Egyptian Tarneeb: the `egyptian` column of docs/rules.md#contract.
    pub fn egyptian() -> Rules {
        let mut r = Rules::classic();
        r.target = 41;
        let c = r.contract.as_mut().expect("classic is a contract game");
        c.bids = BidForm::Strains;
        c.auction = AuctionForm::Open;
        c.doubling = Doubling::Double;
        r
    }

    /// 400: the `400` column of docs/rules.md#individual.
    pub fn four_hundred() -> Rules {
        let table = [0, 0, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36];
        Rules {
            target: 41,
            max_hands: 200,
            contract: None,
            individual: Some(IndividualRules {
                trump: Suit::Hearts,
                min_bid: Steps {
                    base: 2,
                    from: vec![(30, 3), (40, 4), (50, 5)],
                },
                bid_sum: Steps {
                    base: 11,
                    from: vec![(30, 12), (40, 13), (50, 14)],
                },
                sum_counts_big_bids_double: false,
                points: PointsTable::from_fn(|b| (2..=12).contains(&b).then(|| table[b as usize])),
                thirteen: Thirteen::Instant,
                partner: PartnerRule::Positive,
                both_reach_target: BothReach::PlayOn,
                play_on_target: 51,
                slow_play: Some(SlowPlay {
                    limit_ms: 10_000,
                    strikes: 2,
                    renege: Renege::Penalty,
                }),
            }),
        }
    }

    /// Forty-One: 400 except the `41` column of docs/rules.md#individual.
    pub fn forty_one() -> Rules {
        let mut r = Rules::four_hundred();
        let i = r.individual.as_mut().expect("400 is an individual game");
        i.min_bid = Steps {
            base: 1,
            from: vec![],
        };
        i.bid_sum = Steps {
            base: 11,
            from: vec![],
        };
        i.points = PointsTable::from_fn(|b| Some(if b <= 6 { b as i32 } else { 2 * b as i32 }));
        i.thirteen = Thirteen::Points;
        i.both_reach_target = BothReach::HigherTotal;
        r
    }

    /// Checks every option against the others; the error names the first bad option.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.target < 1 {
            return Err(bad(
                "target",
                format!(
                    "{} cannot be reached: use a score of 1 or more, like 31 or 41",
                    self.target
                ),
            ));
        }
        if self.max_hands < 1 {
            return Err(bad(
                "max-hands",
                "0 would end every game before its first deal: use 1 or more (default 200)",
            ));
        }
        match (&self.contract, &self.individual) {
            (Some(c), None) => c.validate(),
            (None, Some(i)) => i.validate(self.target),
            (Some(_), Some(_)) => Err(bad(
                "contract",
                "a game has either 'contract' or 'individual' rules, not both: remove one",
            )),
            (None, None) => Err(bad(
                "contract",
                "the rules need a 'contract' or an 'individual' section: start from a preset",
            )),
        }
    }

    /// The form of the rules the engine branches on.
    pub fn kind(&self) -> RulesKind<'_> {
        match (&self.contract, &self.individual) {
            (Some(c), _) => RulesKind::Contract(c),
            (None, Some(i)) => RulesKind::Individual(i),
            (None, None) => panic!("Rules::kind on rules that failed validation"),
        }
    }
}

/// A view of validated rules by family.
#[derive(Clone, Copy, Debug)]
pub enum RulesKind<'a> {
    Contract(&'a ContractRules),
    Individual(&'a IndividualRules),
}

impl ContractRules {
    fn validate(&self) -> Result<(), RulesError> {
        let strains = self.bids == BidForm::Strains;
        if !strains && self.strain_order != StrainOrder::CdhsNt {
            return Err(bad(
                "contract.strain-order",
                "applies only with \"bids\": \"strains\": remove it or set bids to strains",
            ));
        }
        if strains && self.trump == TrumpChoice::FirstLead {
            return Err(bad("contract.trump", "\"first-lead\" needs number bids: with \"bids\": \"strains\" the trump is the bid's strain"));
        }
        if strains && self.no_trump {
            return Err(bad("contract.no-trump", "with \"bids\": \"strains\" No Trump comes from the strain order (c-d-h-s-nt has NT): set no-trump to false"));
        }
        if self.trump == TrumpChoice::FirstLead && (self.no_trump || self.trump_first_lead) {
            let opt = if self.no_trump {
                "contract.no-trump"
            } else {
                "contract.trump-first-lead"
            };
            return Err(bad(opt, "cannot be combined with \"trump\": \"first-lead\" (the first lead names the trump): set it to false"));
        }
        if self.doubling != Doubling::Off && self.auction != AuctionForm::Open {
            return Err(bad(
                "contract.doubling",
                "doubling needs \"auction\": \"open\" (Egyptian); set doubling to \"off\"",
            ));
        }
        if self.defenders_multiplied && self.doubling == Doubling::Off {
            return Err(bad("contract.defenders-multiplied", "there is no multiplier without doubling: set doubling to \"double\" or this option to false"));
        }
        if self.kaboot != Kaboot::InstantWin
            && (self.instant_win_only_bid_13 || self.instant_win_not_when_negative)
        {
            let opt = if self.instant_win_only_bid_13 {
                "contract.instant-win-only-bid-13"
            } else {
                "contract.instant-win-not-when-negative"
            };
            return Err(bad(opt, "refines \"kaboot\": \"instant-win\" only: set kaboot to instant-win or this option to false"));
        }
        Ok(())
    }

    /// Whether `b` outranks `over` under this configuration.
    pub fn beats(&self, b: Bid, over: Bid) -> bool {
        if b.level != over.level {
            return b.level > over.level;
        }
        match (b.strain, over.strain) {
            (Some(x), Some(y)) => self.strain_rank(x) > self.strain_rank(y),
            _ => false,
        }
    }

    /// The strains that can be bid, low to high.
    pub fn strains(&self) -> &'static [Strain] {
        const CDHSNT: [Strain; 5] = [
            Strain::Trump(Suit::Clubs),
            Strain::Trump(Suit::Diamonds),
            Strain::Trump(Suit::Hearts),
            Strain::Trump(Suit::Spades),
            Strain::NoTrump,
        ];
        const CSHD: [Strain; 4] = [
            Strain::Trump(Suit::Clubs),
            Strain::Trump(Suit::Spades),
            Strain::Trump(Suit::Hearts),
            Strain::Trump(Suit::Diamonds),
        ];
        match self.strain_order {
            StrainOrder::CdhsNt => &CDHSNT,
            StrainOrder::Cshd => &CSHD,
        }
    }

    fn strain_rank(&self, s: Strain) -> usize {
        self.strains().iter().position(|&x| x == s).unwrap_or(0)
    }
}

impl IndividualRules {
    fn validate(&self, target: i32) -> Result<(), RulesError> {
        for (name, steps, lo, hi) in [
            ("individual.min-bid", &self.min_bid, 1, 13),
            ("individual.bid-sum", &self.bid_sum, 0, 52),
        ] {
            if let Some(v) = steps.values().find(|v| !(lo..=hi).contains(v)) {
                return Err(bad(
                    name,
                    format!("value {v} is out of range: use {lo} to {hi}"),
                ));
            }
            if steps.from.windows(2).any(|w| w[0].0 >= w[1].0) {
                return Err(bad(
                    name,
                    "thresholds in \"from\" must be strictly ascending, like [[30, 3], [40, 4]]",
                ));
            }
        }
        let lowest = self.min_bid.values().min().unwrap_or(1);
        for level in lowest..=13 {
            let instant = level == 13 && self.thirteen == Thirteen::Instant;
            if !instant && self.points.0[level as usize].is_none() {
                return Err(bad("individual.points", format!(
                    "the table has a hole at bid {level}, which can be bid: give every bid from {lowest} to {} a value",
                    if self.thirteen == Thirteen::Instant { 12 } else { 13 }
                )));
            }
        }
        if let Some(p) = (1..14).find_map(|i| self.points.0[i].filter(|&p| p < 0)) {
            return Err(bad(
                "individual.points",
                format!(
                    "{p} is negative: give the points a made bid wins (a failed bid loses them)"
                ),
            ));
        }
        if self.both_reach_target == BothReach::PlayOn && self.play_on_target <= target {
            return Err(bad(
                "individual.play-on-target",
                format!(
                    "{} must be above the target {target} (400 plays on to 51)",
                    self.play_on_target
                ),
            ));
        }
        if let Some(sp) = self.slow_play {
            if sp.strikes == 0 {
                return Err(bad("individual.slow-play.strikes", "0 would make every player renege: use 1 or more (400 uses 2), or set slow-play to null"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for name in PRESETS {
            Rules::preset(name).unwrap().validate().unwrap();
        }
    }

    #[test]
    fn a_game_has_exactly_one_of_contract_and_individual() {
        // docs/rules.md#contract, docs/rules.md#individual: exactly one of the two is present.
        let mut both = Rules::classic();
        both.individual = Rules::four_hundred().individual;
        let e = both.validate().unwrap_err();
        assert_eq!(e.option, "contract");
        assert!(e.problem.contains("not both"), "{e}");
        let mut neither = Rules::classic();
        neither.contract = None;
        assert_eq!(neither.validate().unwrap_err().option, "contract");
        assert!(matches!(Rules::egyptian().kind(), RulesKind::Contract(_)));
        assert!(matches!(
            Rules::forty_one().kind(),
            RulesKind::Individual(_)
        ));
    }

    #[test]
    fn impossible_values_name_the_option() {
        let mut r = Rules::classic();
        r.target = 0;
        assert_eq!(r.validate().unwrap_err().option, "target");

        let mut r = Rules::four_hundred();
        r.individual.as_mut().unwrap().points.0[7] = None;
        let e = r.validate().unwrap_err();
        assert_eq!(e.option, "individual.points");
        assert!(e.problem.contains("hole at bid 7"), "{e}");

        let mut r = Rules::classic();
        r.contract.as_mut().unwrap().doubling = Doubling::Double;
        assert_eq!(r.validate().unwrap_err().option, "contract.doubling");
    }

    #[test]
    fn steps_follow_400_minimum_bid_table() {
        // docs/rules.md#individual-min-bid (400): 2 below 30, 3 from 30, 4 from 40, 5 from 50.
        let r = Rules::four_hundred();
        let m = &r.individual.as_ref().unwrap().min_bid;
        for (score, min) in [
            (-20, 2),
            (29, 2),
            (30, 3),
            (39, 3),
            (40, 4),
            (49, 4),
            (50, 5),
            (90, 5),
        ] {
            assert_eq!(m.at(score), min, "score {score}");
        }
    }

    #[test]
    fn egyptian_strain_order_is_c_d_h_s_nt() {
        // docs/rules.md#contract-strain-order: C < D < H < S < NT.
        let r = Rules::egyptian();
        let c = r.contract.as_ref().unwrap();
        let bid = |l, s| Bid {
            level: Level::new(l).unwrap(),
            strain: Some(s),
        };
        assert!(c.beats(bid(7, Strain::NoTrump), bid(7, Strain::Trump(Suit::Spades))));
        assert!(c.beats(
            bid(7, Strain::Trump(Suit::Spades)),
            bid(7, Strain::Trump(Suit::Hearts))
        ));
        assert!(c.beats(
            bid(7, Strain::Trump(Suit::Diamonds)),
            bid(7, Strain::Trump(Suit::Clubs))
        ));
        assert!(c.beats(bid(8, Strain::Trump(Suit::Clubs)), bid(7, Strain::NoTrump)));
        assert!(!c.beats(
            bid(7, Strain::Trump(Suit::Clubs)),
            bid(7, Strain::Trump(Suit::Clubs))
        ));
    }

    #[test]
    fn option_strain_order_c_s_h_d() {
        // docs/rules.md#contract-strain-order: the option C < S < H < D, no No Trump.
        let mut r = Rules::egyptian();
        let c = r.contract.as_mut().unwrap();
        c.strain_order = StrainOrder::Cshd;
        let bid = |l, s| Bid {
            level: Level::new(l).unwrap(),
            strain: Some(Strain::Trump(s)),
        };
        assert!(c.beats(bid(7, Suit::Diamonds), bid(7, Suit::Hearts)));
        assert!(c.beats(bid(7, Suit::Hearts), bid(7, Suit::Spades)));
        assert!(c.beats(bid(7, Suit::Spades), bid(7, Suit::Clubs)));
        assert!(!c.strains().contains(&Strain::NoTrump));
    }
}
