//! A heuristic tarneeb bot (protocol.md, version 1). It relies on nothing but the protocol:
//! every decision is made from the request alone (its `legal` moves and its `view`, which holds
//! the whole public history of the hand), so the bot keeps no state between requests.
//!
//! Strategy, in short: estimate tricks from high cards, suit length and trump length; bid that
//! estimate (plus a partner share in the partnership games); name the best suit as trump; in
//! play let a winning partner have the trick, otherwise win as cheaply as possible, else throw
//! the least useful card; count the cards (and trumps) already played.

use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

const NAME: &str = "rust-heuristic";
const VERSION: &str = "1.0";

type Card = u8; // suit * 13 + rank; rank 0 = '2' .. 12 = 'A'; suit 0..3 = C D H S

const RANKS: &[u8] = b"23456789TJQKA";
const SUITS: &[u8] = b"CDHS";

fn suit(c: Card) -> usize {
    (c / 13) as usize
}
fn rank(c: Card) -> u8 {
    c % 13
}

fn parse_card(s: &str) -> Option<Card> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let r = RANKS.iter().position(|&x| x == b[0].to_ascii_uppercase())?;
    let su = SUITS.iter().position(|&x| x == b[1].to_ascii_uppercase())?;
    Some((su * 13 + r) as Card)
}

fn parse_suit(s: &str) -> Option<usize> {
    match s {
        "C" => Some(0),
        "D" => Some(1),
        "H" => Some(2),
        "S" => Some(3),
        _ => None,
    }
}

fn cards_of(v: &Value) -> Vec<Card> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().and_then(parse_card))
                .collect()
        })
        .unwrap_or_default()
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Hand evaluation
// ---------------------------------------------------------------------------------------------

/// Estimated tricks this hand takes alone with `trump` (None: no trump).
fn estimate(hand: &[Card], trump: Option<usize>) -> f64 {
    let mut by_suit: [Vec<u8>; 4] = Default::default();
    for &c in hand {
        by_suit[suit(c)].push(rank(c));
    }
    for s in by_suit.iter_mut() {
        s.sort_unstable_by(|a, b| b.cmp(a));
    }
    let trump_len = trump.map(|t| by_suit[t].len()).unwrap_or(0);
    let mut total = 0.0;
    let mut shortness: f64 = 0.0;
    for (s, ranks) in by_suit.iter().enumerate() {
        let len = ranks.len();
        let has = |r: u8| ranks.contains(&r);
        let (a, k, q, j) = (has(12), has(11), has(10), has(9));
        let is_trump = trump == Some(s);
        let mut t = 0.0;
        if a {
            t += 1.0;
        }
        if k {
            t += if a {
                1.0
            } else if len >= 2 {
                if is_trump {
                    0.8
                } else {
                    0.6
                }
            } else {
                0.15
            };
        }
        if q {
            t += if a && k {
                if len >= 3 || is_trump {
                    1.0
                } else {
                    0.5
                }
            } else if (a || k) && len >= 3 {
                0.5
            } else if len >= 3 {
                if is_trump {
                    0.4
                } else {
                    0.25
                }
            } else {
                0.1
            };
        }
        if j && len >= 4 && (a as u8 + k as u8 + q as u8) >= 2 {
            t += 0.4;
        }
        if is_trump {
            // Trumps beyond the third win tricks by length (or by ruffing).
            if len > 3 {
                t += (len - 3) as f64 * 0.9;
            }
        } else if trump.is_some() {
            if len >= 5 {
                t += (len - 4) as f64 * 0.3;
            }
            if trump_len >= 3 {
                shortness += match len {
                    0 => 1.0,
                    1 => 0.5,
                    2 => 0.2,
                    _ => 0.0,
                };
            }
        } else if len >= 5 && (a as u8 + k as u8 + q as u8) >= 2 {
            t += (len - 4) as f64;
        }
        total += t;
    }
    if trump.is_some() {
        let cap = (trump_len as f64 - 1.0).clamp(0.0, 2.0);
        total += shortness.min(cap);
    }
    total
}

/// The best trump suit and its estimate.
fn best_suit(hand: &[Card]) -> (usize, f64) {
    let mut best = (0, f64::MIN);
    for s in 0..4 {
        let len = hand.iter().filter(|&&c| suit(c) == s).count() as f64;
        let e = estimate(hand, Some(s)) + len * 0.01; // ties: the longer suit
        if e > best.1 {
            best = (s, e);
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Decisions
// ---------------------------------------------------------------------------------------------

struct Req<'a> {
    rules: &'a Value,
    legal: Vec<String>,
    view: &'a Value,
    seat: usize,
    hand: Vec<Card>,
}

impl Req<'_> {
    fn has(&self, m: &str) -> bool {
        self.legal.iter().any(|x| x == m)
    }
}

fn decide(req: &Value, rules: &Value) -> String {
    let legal: Vec<String> = req["legal"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let view = &req["view"];
    let r = Req {
        rules,
        seat: int(&view["seat"]).clamp(0, 3) as usize,
        hand: cards_of(&view["hand"]),
        legal,
        view,
    };
    if r.legal.is_empty() {
        return String::new();
    }
    let choice = match req["decision"].as_str().unwrap_or("") {
        "throw-in" => throw_in(&r),
        "call" => call(&r),
        "trump" => trump(&r),
        "play" => play(&r),
        _ => None,
    };
    match choice {
        Some(m) if r.has(&m) => m,
        _ => r.legal[0].clone(),
    }
}

fn throw_in(r: &Req) -> Option<String> {
    let longest = (0..4)
        .map(|s| r.hand.iter().filter(|&&c| suit(c) == s).count())
        .max()
        .unwrap_or(0);
    let (_, e) = best_suit(&r.hand);
    // A kept long suit may only pass or bid 13: keep it only when 13 tricks look likely.
    // A weak hand (no ace, few honours) is thrown in: a fresh deal is worth more.
    if longest >= 10 && e >= 12.0 {
        Some("keep".into())
    } else {
        Some("throw-in".into())
    }
}

/// Parse a contract bid: (level, strain) with strain 0..3 = C D H S, 4 = NT, None = number bid.
fn parse_bid(s: &str) -> Option<(i64, Option<usize>)> {
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let level: i64 = digits.parse().ok()?;
    let rest = &s[digits.len()..];
    let strain = match rest {
        "" => None,
        "NT" => Some(4),
        x => Some(parse_suit(x)?),
    };
    Some((level, strain))
}

fn call(r: &Req) -> Option<String> {
    if r.view.get("bids").map(|b| !b.is_null()).unwrap_or(false) || r.view["seat_scores"].is_array()
    {
        return individual_bid(r);
    }
    let seat = r.seat;
    let partner = (seat + 2) % 4;
    let auction = r.view["auction"].as_array().cloned().unwrap_or_default();
    // The standing bid and who made it; what partner has said.
    let mut high_seat: Option<usize> = None;
    let mut partner_level = 0;
    let mut partner_passed = false;
    let mut doubled = false;
    for a in &auction {
        let s = int(&a["seat"]) as usize;
        let c = a["call"].as_str().unwrap_or("");
        if let Some((lvl, _)) = parse_bid(c) {
            high_seat = Some(s);
            doubled = false;
            if s == partner {
                partner_level = partner_level.max(lvl);
            }
        } else if c == "double" || c == "redouble" {
            doubled = true;
        } else if c == "pass" && s == partner && partner_level == 0 {
            partner_passed = true;
        }
    }
    let _ = doubled;
    // Partner's share of the tricks.
    let partner_share = if partner_level > 0 {
        (partner_level as f64 - 3.5).max(3.0)
    } else if partner_passed {
        2.5
    } else {
        3.0
    };
    let bids: Vec<(i64, Option<usize>, &String)> = r
        .legal
        .iter()
        .filter_map(|m| parse_bid(m).map(|(l, s)| (l, s, m)))
        .collect();
    let can_pass = r.has("pass");
    let fallback = || {
        if can_pass {
            Some("pass".to_string())
        } else {
            // Forced to bid: the cheapest bid in our best strain, else the cheapest bid.
            let (bs, _) = best_suit(&r.hand);
            bids.iter()
                .filter(|b| b.1.is_none() || b.1 == Some(bs))
                .min_by_key(|b| b.0)
                .or_else(|| bids.iter().min_by_key(|b| b.0))
                .map(|b| b.2.clone())
                .or_else(|| r.legal.first().cloned())
        }
    };
    // Partner holds the contract: let it stand.
    if high_seat == Some(partner) && can_pass {
        return Some("pass".into());
    }
    if bids.is_empty() {
        // Only pass / double / redouble: double an opponent's contract we expect to beat.
        if r.has("double") {
            if let Some(d) = maybe_double(r, &auction) {
                return Some(d);
            }
        }
        return fallback();
    }
    let strains = bids.iter().any(|b| b.1.is_some());
    // Outbidding an opponent: only with something to spare.
    let contested = if high_seat.is_some() { 0.5 } else { 0.0 };
    if !strains {
        let (_, e) = best_suit(&r.hand);
        let min = bids.iter().map(|b| b.0).min().unwrap();
        // (No contested margin here: the elimination auction lets a pass end our say.)
        let team = e + partner_share - if min >= 10 { 0.5 } else { 0.0 };
        // A bid of 13 needs every trick: only with a near-certain hand.
        if min >= 13 && team < 12.6 {
            return fallback();
        }
        if team >= min as f64 {
            return Some(min.to_string());
        }
        if r.has("double") {
            if let Some(d) = maybe_double(r, &auction) {
                return Some(d);
            }
        }
        return fallback();
    }
    // Strain bids: the best strain (No Trump only when clearly better).
    let mut best: Option<(f64, &String)> = None;
    for st in 0..5usize {
        let e = if st == 4 {
            estimate(&r.hand, None) - 1.0
        } else {
            estimate(&r.hand, Some(st))
        };
        if let Some(b) = bids.iter().filter(|b| b.1 == Some(st)).min_by_key(|b| b.0) {
            let team = e + partner_share - contested - if b.0 >= 10 { 0.5 } else { 0.0 };
            if b.0 >= 13 && team < 12.6 {
                continue;
            }
            let margin = team - b.0 as f64;
            if margin >= 0.0 && best.map(|x| margin > x.0).unwrap_or(true) {
                best = Some((margin, b.2));
            }
        }
    }
    if let Some((_, m)) = best {
        return Some(m.clone());
    }
    if r.has("double") {
        if let Some(d) = maybe_double(r, &auction) {
            return Some(d);
        }
    }
    fallback()
}

/// Double an opponent's standing contract when our side should beat it.
fn maybe_double(r: &Req, auction: &[Value]) -> Option<String> {
    let last = auction
        .iter()
        .rev()
        .find(|a| parse_bid(a["call"].as_str().unwrap_or("")).is_some())?;
    let (level, strain) = parse_bid(last["call"].as_str()?)?;
    let trump = match strain {
        Some(4) | None => None,
        s => s,
    };
    // Defensive tricks: high cards count, our own trump length is a nuisance for them.
    let mine = estimate(&r.hand, trump);
    let needed = (14 - level) as f64; // tricks we need to beat them
    if mine + 3.0 >= needed + 1.5 {
        Some("double".into())
    } else {
        None
    }
}

/// The standard normal distribution function (a logistic approximation, good to about 0.01).
fn phi(x: f64) -> f64 {
    1.0 / (1.0 + (-1.702 * x).exp())
}

/// A value from a steps object of the rules (`{"base": 2, "from": [[30, 3], ...]}`).
fn steps(spec: &Value, score: i64, default: i64) -> i64 {
    let mut v = spec["base"].as_i64().unwrap_or(default);
    if let Some(a) = spec["from"].as_array() {
        for st in a {
            if score >= int(&st[0]) {
                v = int(&st[1]);
            }
        }
    }
    v
}

fn individual_bid(r: &Req) -> Option<String> {
    let ind = &r.rules["individual"];
    let trump = r.view["trump"]
        .as_str()
        .or(ind["trump"].as_str())
        .and_then(parse_suit)
        .unwrap_or(2);
    let e = estimate(&r.hand, Some(trump));
    let instant13 = ind["thirteen"].as_str().unwrap_or("instant") == "instant";
    let points = |b: i64| ind["points"][b.to_string()].as_i64();
    // Expected score of each legal bid: made with probability P(tricks >= b), tricks ~ N(e, 1.1).
    let mut best: Option<(f64, i64)> = None;
    for m in &r.legal {
        let Ok(b) = m.parse::<i64>() else { continue };
        let ev = if b == 13 && (instant13 || points(13).is_none()) {
            if e >= 12.5 {
                1000.0
            } else {
                -1000.0
            }
        } else {
            let pts = points(b).unwrap_or(b) as f64;
            let p = phi((e - (b as f64 - 0.5)) / 1.1);
            p * pts - (1.0 - p) * pts * 1.1
        };
        if best
            .map(|x| ev > x.0 || (ev == x.0 && b < x.1))
            .unwrap_or(true)
        {
            best = Some((ev, b));
        }
    }
    let (_, mut b) = best?;
    // The last bidder raises to the bid total rather than see the hand thrown in, when that
    // costs at most about a trick over the estimate.
    if let Some(bids) = r.view["bids"].as_array() {
        if bids.len() == 4 && bids.iter().filter(|x| x.is_null()).count() == 1 {
            let top = r.view["seat_scores"]
                .as_array()
                .map(|a| a.iter().map(int).max().unwrap_or(0))
                .unwrap_or(0);
            let others: i64 = bids.iter().map(int).sum();
            let need = steps(&ind["bid-sum"], top, 11) - others;
            if b < need && need as f64 <= e + 1.0 && need < 13 && r.has(&need.to_string()) {
                b = need;
            }
        }
    }
    Some(b.to_string())
}

fn trump(r: &Req) -> Option<String> {
    let (s, e) = best_suit(&r.hand);
    if r.has("NT") && estimate(&r.hand, None) >= e + 1.0 {
        return Some("NT".into());
    }
    Some((SUITS[s] as char).to_string())
}

// ---------------------------------------------------------------------------------------------
// Card play
// ---------------------------------------------------------------------------------------------

struct Table {
    me: usize,
    trump: Option<usize>,
    hand: Vec<Card>,
    /// Cards that can no longer be in anyone's hand (played) or are in mine.
    seen: [bool; 52],
    /// void[seat][suit]: the seat showed out of the suit.
    void: [[bool; 4]; 4],
    leader: usize,
    trick: Vec<Card>,
    /// Does my side want tricks for me rather than for partner? (400/41: each bids alone.)
    individual: bool,
    my_need: i64,
    partner_need: i64,
    declaring_side: bool,
}

impl Table {
    fn outstanding(&self, c: Card) -> bool {
        !self.seen[c as usize]
    }
    /// No unseen card of the same suit is higher.
    fn master(&self, c: Card) -> bool {
        let s = suit(c) as u8;
        (rank(c) + 1..13).all(|r| !self.outstanding(s * 13 + r))
    }
    fn outstanding_in(&self, s: usize) -> usize {
        (0..13)
            .filter(|&r| self.outstanding((s * 13 + r) as u8))
            .count()
    }
    fn beats(&self, a: Card, b: Card, led: usize) -> bool {
        // does a beat b (b currently winning)?
        let t = self.trump;
        if suit(a) == suit(b) {
            return rank(a) > rank(b);
        }
        if Some(suit(a)) == t {
            return true;
        }
        let _ = led;
        false
    }
    fn winning(&self) -> Option<(usize, Card)> {
        let first = *self.trick.first()?;
        let led = suit(first);
        let mut best = (0, first);
        for (i, &c) in self.trick.iter().enumerate().skip(1) {
            if self.beats(c, best.1, led) {
                best = (i, c);
            }
        }
        Some(((self.leader + best.0) % 4, best.1))
    }
    /// Might a seat that plays after me beat `card` in this trick (led suit `led`)?
    fn may_be_beaten(&self, card: Card, led: usize, after: &[usize]) -> bool {
        let t = self.trump;
        for &p in after {
            if p % 2 == self.me % 2 {
                continue; // partner
            }
            let trump_out = t
                .map(|t| self.outstanding_in(t) > 0 && !self.void[p][t])
                .unwrap_or(false);
            if Some(suit(card)) == t {
                let higher =
                    (rank(card) + 1..13).any(|r| self.outstanding((suit(card) * 13) as u8 + r));
                if higher && !self.void[p][suit(card)] {
                    return true;
                }
                continue;
            }
            if !self.void[p][led] {
                let higher = (rank(card) + 1..13).any(|r| self.outstanding((led * 13) as u8 + r));
                if higher {
                    return true;
                }
                // Few cards of the suit left out: the seat may well be void and ruff.
                if trump_out && self.outstanding_in(led) <= 1 {
                    return true;
                }
            } else if trump_out {
                return true;
            }
        }
        false
    }
}

fn lowest(cards: &[Card]) -> Card {
    *cards.iter().min_by_key(|&&c| (rank(c), suit(c))).unwrap()
}

fn play(r: &Req) -> Option<String> {
    let v = r.view;
    let mut legal: Vec<Card> = r.legal.iter().filter_map(|m| parse_card(m)).collect();
    if legal.is_empty() {
        return None;
    }
    legal.sort_unstable();
    let trump = v["trump"].as_str().and_then(parse_suit);
    let mut t = Table {
        me: r.seat,
        trump,
        hand: r.hand.clone(),
        seen: [false; 52],
        void: [[false; 4]; 4],
        leader: int(&v["current_trick"]["leader"]).clamp(0, 3) as usize,
        trick: cards_of(&v["current_trick"]["cards"]),
        individual: v["seat_scores"].is_array(),
        my_need: 0,
        partner_need: 0,
        declaring_side: false,
    };
    for &c in &t.hand {
        t.seen[c as usize] = true;
    }
    let mut tricks: Vec<(usize, Vec<Card>)> = Vec::new();
    if let Some(a) = v["tricks"].as_array() {
        for tr in a {
            tricks.push((
                int(&tr["leader"]).clamp(0, 3) as usize,
                cards_of(&tr["cards"]),
            ));
        }
    }
    tricks.push((t.leader, t.trick.clone()));
    for (leader, cards) in &tricks {
        if let Some(&first) = cards.first() {
            let led = suit(first);
            for (i, &c) in cards.iter().enumerate() {
                t.seen[c as usize] = true;
                if suit(c) != led {
                    t.void[(leader + i) % 4][led] = true;
                }
            }
        }
    }
    let partner = (t.me + 2) % 4;
    let won = |s: usize| int(&v["tricks_won"][s]);
    if t.individual {
        let bid = |s: usize| int(&v["bids"][s]);
        t.my_need = bid(t.me) - won(t.me);
        t.partner_need = bid(partner) - won(partner);
    } else if let Some(d) = v["contract"]["declarer"].as_u64() {
        t.declaring_side = d as usize % 2 == t.me % 2;
    }
    let c = if t.trick.is_empty() {
        lead(&t, &legal)
    } else {
        follow(&t, &legal)
    };
    Some(format!(
        "{}{}",
        RANKS[rank(c) as usize] as char,
        SUITS[suit(c)] as char
    ))
}

fn lead(t: &Table, legal: &[Card]) -> Card {
    let by = |s: usize| -> Vec<Card> { legal.iter().copied().filter(|&c| suit(c) == s).collect() };
    let Some(tr) = t.trump else {
        if t.hand.len() == 13 && t.declaring_side {
            // Trump set by the first lead (or unknown): lead the top of the best suit.
            let (s, _) = best_suit(&t.hand);
            if let Some(&c) = by(s).iter().max() {
                return c;
            }
        }
        return lead_plain(t, legal, None);
    };
    let my_trumps = by(tr);
    let opps = [(t.me + 1) % 4, (t.me + 3) % 4];
    let opp_trumps = t.outstanding_in(tr) > 0 && opps.iter().any(|&p| !t.void[p][tr]);
    let trump_side = if t.individual {
        my_trumps.len() >= 4
    } else {
        t.declaring_side
    };
    if !my_trumps.is_empty() && opp_trumps && trump_side {
        // Draw trumps with a master trump; or with length when we hold more than are left out.
        if let Some(&c) = my_trumps.iter().filter(|&&c| t.master(c)).min() {
            return c;
        }
        if my_trumps.len() > t.outstanding_in(tr) + 1 {
            return lowest(&my_trumps);
        }
    }
    lead_plain(t, legal, Some(tr))
}

fn lead_plain(t: &Table, legal: &[Card], tr: Option<usize>) -> Card {
    let opps = [(t.me + 1) % 4, (t.me + 3) % 4];
    let partner = (t.me + 2) % 4;
    let opp_trumps = tr
        .map(|tr| t.outstanding_in(tr) > 0 && opps.iter().any(|&p| !t.void[p][tr]))
        .unwrap_or(false);
    let side: Vec<Card> = legal
        .iter()
        .copied()
        .filter(|&c| Some(suit(c)) != tr)
        .collect();
    if side.is_empty() {
        // Only trumps: the best one if it is master, else the lowest.
        let top = *legal.iter().max_by_key(|&&c| rank(c)).unwrap();
        return if t.master(top) { top } else { lowest(legal) };
    }
    // 1. A master card in a side suit no opponent can ruff.
    let mut best: Option<(i64, Card)> = None;
    for &c in &side {
        let s = suit(c);
        if !t.master(c) {
            continue;
        }
        let ruff_risk = opp_trumps && opps.iter().any(|&p| t.void[p][s]);
        let thin = opp_trumps && t.outstanding_in(s) <= 2;
        if ruff_risk || thin {
            continue;
        }
        let len = side.iter().filter(|&&x| suit(x) == s).count() as i64;
        let score = len * 10 - rank(c) as i64; // the longest suit, the cheapest master
        if best.map(|b| score > b.0).unwrap_or(true) {
            best = Some((score, c));
        }
    }
    if let Some((_, c)) = best {
        return c;
    }
    // 2. A suit partner is void in (and may ruff), when opponents are not.
    if let Some(tr) = tr {
        if !t.void[partner][tr] && t.outstanding_in(tr) > 0 {
            for &c in &side {
                let s = suit(c);
                if t.void[partner][s] && opps.iter().all(|&p| !t.void[p][s]) {
                    return lowest(
                        &side
                            .iter()
                            .copied()
                            .filter(|&x| suit(x) == s)
                            .collect::<Vec<_>>(),
                    );
                }
            }
        }
    }
    // 3. Low from the best suit to lead from: long, and without an honour that needs a guard.
    let mut best: Option<(i64, Card)> = None;
    for s in 0..4 {
        let cs: Vec<Card> = side.iter().copied().filter(|&c| suit(c) == s).collect();
        if cs.is_empty() {
            continue;
        }
        let len = cs.len() as i64;
        let mut score = len * 3;
        // Leading away from a king or queen without the card above gives it away.
        let top = *cs.iter().max().unwrap();
        if !t.master(top) && rank(top) >= 9 {
            score -= 6;
        }
        // A singleton with trumps in hand: lead it to ruff the suit later.
        let my_trumps = tr
            .map(|tr| t.hand.iter().filter(|&&c| suit(c) == tr).count())
            .unwrap_or(0);
        if len == 1 && my_trumps >= 1 && !t.declaring_side && rank(top) < 9 {
            score += 4;
        }
        let c = lowest(&cs);
        if best.map(|b| score > b.0).unwrap_or(true) {
            best = Some((score, c));
        }
    }
    best.map(|b| b.1).unwrap_or_else(|| lowest(&side))
}

fn follow(t: &Table, legal: &[Card]) -> Card {
    let led = suit(t.trick[0]);
    let pos = t.trick.len(); // my position in the trick, 1..3
    let after: Vec<usize> = (pos + 1..4).map(|i| (t.leader + i) % 4).collect();
    let (win_seat, win_card) = t.winning().unwrap();
    let partner = (t.me + 2) % 4;
    let partner_winning = win_seat == partner;
    // In 400/41 my tricks are mine: take over partner's trick when partner needs no more
    // and I still do.
    let partner_counts = !t.individual || t.partner_need > 0 || t.my_need <= 0;
    let partner_safe = partner_winning && !t.may_be_beaten(win_card, led, &after);
    let following = legal.iter().all(|&c| suit(c) == led);
    let winners: Vec<Card> = legal
        .iter()
        .copied()
        .filter(|&c| t.beats(c, win_card, led))
        .collect();
    if partner_winning && partner_counts && (partner_safe || winners.is_empty() || pos == 3) {
        return discard_or_low(t, legal, following);
    }
    if winners.is_empty() {
        return discard_or_low(t, legal, following);
    }
    let safe: Vec<Card> = winners
        .iter()
        .copied()
        .filter(|&c| !t.may_be_beaten(c, led, &after))
        .collect();
    if !safe.is_empty() {
        return cheapest(t, &safe);
    }
    if partner_winning && partner_counts {
        return discard_or_low(t, legal, following);
    }
    // No sure winner. Second hand plays low when following; otherwise make them pay.
    if following && pos == 1 {
        return lowest(legal);
    }
    if !following {
        // Ruff as low as possible: it may still stand.
        return cheapest(t, &winners);
    }
    cheapest(t, &winners)
}

/// The cheapest of some winning cards: a non-trump before a trump, then the lowest.
fn cheapest(t: &Table, cards: &[Card]) -> Card {
    *cards
        .iter()
        .min_by_key(|&&c| (Some(suit(c)) == t.trump, rank(c)))
        .unwrap()
}

fn discard_or_low(t: &Table, legal: &[Card], following: bool) -> Card {
    if following {
        return lowest(legal);
    }
    // Throw the least useful card: not a trump, not a master, not a guard of an honour;
    // prefer short suits (a void may let us ruff later).
    let mut best: Option<(i64, Card)> = None;
    for &c in legal {
        let s = suit(c);
        let len = t.hand.iter().filter(|&&x| suit(x) == s).count() as i64;
        let mut score = rank(c) as i64 * 2 + len;
        if Some(s) == t.trump {
            score += 100;
        }
        if t.master(c) {
            score += 30;
        }
        // A card guarding a king (Kx) or queen (Qxx).
        let top = t
            .hand
            .iter()
            .copied()
            .filter(|&x| suit(x) == s)
            .max()
            .unwrap_or(c);
        if top != c
            && !t.master(top)
            && ((rank(top) == 11 && len <= 2) || (rank(top) == 10 && len <= 3))
        {
            score += 12;
        }
        if best.map(|b| score < b.0).unwrap_or(true) {
            best = Some((score, c));
        }
    }
    best.unwrap().1
}

// ---------------------------------------------------------------------------------------------
// Protocol loop
// ---------------------------------------------------------------------------------------------

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut rules = Value::Null;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            eprintln!("unreadable line: {line}");
            continue;
        };
        let reply = match msg["type"].as_str() {
            // A new game in this process starts like the first one (multi_game).
            Some("hello" | "new_game") => {
                rules = msg["rules"].clone();
                json!({"type": "hello", "name": NAME, "version": VERSION, "multi_game": true})
            }
            Some("request") => {
                let m = decide(&msg, &rules);
                json!({"type": "move", "id": msg["id"], "move": m})
            }
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
