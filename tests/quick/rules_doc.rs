//! One or more tests for every rule of docs/rules.md, each citing the anchor of the rule it
//! checks (`docs/rules.md#contract-kaboot`); tests/quick/rule_citations.rs checks that every
//! anchor has one.
//!
//! Whole hands are played from given deals (`Deal::new`). Most use [`split_deal`], a deal whose
//! trick split is forced whatever the players choose, so the scores can be asserted exactly.

use tarneeb_referee::rules::auction::{individual_legal, individual_sum, SeatFlags};
use tarneeb_referee::rules::options::PointsTable;
use tarneeb_referee::rules::score::{
    contract_score, contract_winner, individual_score, individual_winner, leader_at_cap,
};
use tarneeb_referee::rules::view::Announcement;
use tarneeb_referee::rules::Seat::{S0, S1, S2, S3};
use tarneeb_referee::rules::Team::{T0, T1};
use tarneeb_referee::rules::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Space-separated cards ("AS KS 2C") as a set; panics on bad or repeated cards.
fn cards(text: &str) -> CardSet {
    let mut set = CardSet::EMPTY;
    for t in text.split_whitespace() {
        let c: Card = t.parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(!set.contains(c), "card {c} twice in {text:?}");
        set.insert(c);
    }
    set
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn deal(hands: [&str; 4]) -> Deal {
    Deal::new(BySeat(hands.map(cards))).expect("a valid deal")
}

/// `a` holds the top `w` cards of `t` and the low `13 - w` of `x`; `b` holds the low `13 - w`
/// of `t` and the top `w` of `x`; the two other seats hold the two remaining suits whole.
///
/// With `t` trump and `a` or `b` on lead, `a` wins exactly `w` tricks and `b` the other
/// `13 - w`, whatever anyone plays: the other two seats can never follow or trump, and `a` wins
/// a trick exactly when it plays a card of `t` in it (its trumps beat `b`'s; `b`'s cards of `x`
/// beat `a`'s), which it does `w` times.
fn split_deal(a: Seat, b: Seat, t: Suit, x: Suit, w: usize) -> Deal {
    assert!(w <= 13 && a != b && t != x);
    let mut hands = BySeat([CardSet::EMPTY; 4]);
    for (i, &rank) in Rank::ALL.iter().enumerate() {
        let top = i >= 13 - w;
        hands[if top { a } else { b }].insert(Card::new(rank, t));
        hands[if top { b } else { a }].insert(Card::new(rank, x));
    }
    let suits = Suit::ALL.into_iter().filter(|&s| s != t && s != x);
    let seats = Seat::ALL.into_iter().filter(|&s| s != a && s != b);
    for (seat, suit) in seats.zip(suits) {
        hands[seat] = CardSet::suit(suit);
    }
    Deal::new(hands).expect("a valid split deal")
}

/// Seat 0 all spades, seat 1 all hearts, seat 2 all diamonds, seat 3 all clubs.
fn suit_per_seat() -> Deal {
    Deal::new(BySeat([
        CardSet::suit(Suit::Spades),
        CardSet::suit(Suit::Hearts),
        CardSet::suit(Suit::Diamonds),
        CardSet::suit(Suit::Clubs),
    ]))
    .unwrap()
}

/// A hand-made deal: seat 1 is weak (docs/rules.md#contract-throw-in-weak-hand) and Dakak (0
/// points); seat 2 holds 9 diamonds (Out of Call); seat 3 holds 12 clubs (long suit and Out of
/// Call); seat 0 is none of these.
const DEAL_W: [&str; 4] = [
    "AS KS QS JS TS 4S 3S 2S AH KH QH JH TH",
    "9S 8S 7S 6S 5S 9H 8H 7H 6H 9D 8D 7D 9C",
    "5H 4H 3H 2H AD KD QD JD TD 6D 5D 4D 3D",
    "2D AC KC QC JC TC 8C 7C 6C 5C 4C 3C 2C",
];

fn contract_rules(mut r: Rules, f: impl FnOnce(&mut ContractRules)) -> Rules {
    f(r.contract.as_mut().expect("a contract game"));
    r.validate().expect("valid rules");
    r
}

fn individual_rules(mut r: Rules, f: impl FnOnce(&mut IndividualRules)) -> Rules {
    f(r.individual.as_mut().expect("an individual game"));
    r.validate().expect("valid rules");
    r
}

fn lv(n: u8) -> Level {
    Level::new(n).unwrap()
}

/// Applies `text` (read as the answer to the pending decision) for `seat`, which must be to act.
fn act(g: &mut Game, seat: Seat, text: &str) -> Applied {
    let d = g
        .decision()
        .unwrap_or_else(|| panic!("no decision pending for seat {seat} {text:?}"));
    assert_eq!(
        d.seat, seat,
        "seat {seat} wants to {text:?} on seat {}'s turn",
        d.seat
    );
    let m = Move::parse(d.kind, text).unwrap_or_else(|e| panic!("{e}"));
    g.apply(seat, m).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a script like "0:7 1:pass 2:8"; returns what the last move caused.
fn script(g: &mut Game, steps: &str) -> Applied {
    let mut last = Applied::default();
    for step in steps.split_whitespace() {
        let (seat, text) = step.split_once(':').expect("seat:move");
        let seat = Seat::new(seat.parse().unwrap()).unwrap();
        last = act(g, seat, text);
    }
    last
}

/// Tries an illegal move; checks it changes nothing and returns why it was refused.
fn reject(g: &mut Game, seat: Seat, m: Move) -> IllegalReason {
    let before = (g.decision(), g.phase(), g.legal_moves().as_slice().to_vec());
    let e = g.apply(seat, m).expect_err("the move should be illegal");
    assert_eq!(e.seat, seat);
    let after = (g.decision(), g.phase(), g.legal_moves().as_slice().to_vec());
    assert_eq!(after, before, "an illegal move changed the game");
    e.reason
}

/// As [`reject`], the move read as the answer to the pending decision.
fn reject_text(g: &mut Game, seat: Seat, text: &str) -> IllegalReason {
    let kind = g.decision().expect("a decision").kind;
    reject(g, seat, Move::parse(kind, text).unwrap())
}

fn legal(g: &Game) -> Vec<String> {
    g.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn is_not_legal(r: IllegalReason) -> bool {
    matches!(r, IllegalReason::NotLegal(_))
}

/// Plays the rest of the hand, every seat playing its lowest legal card; returns the result.
fn play_out(g: &mut Game) -> HandResult {
    loop {
        let d = g.decision().expect("a decision while playing");
        assert_eq!(d.kind, DecisionKind::Play);
        let c = g.legal_cards().lowest().expect("a legal card");
        if let Some(h) = g.apply(d.seat, Move::Play(c)).unwrap().hand {
            return h;
        }
    }
}

/// Runs a contract auction in which `declarer` bids `bid` once and everyone else passes.
fn auction_won_by(g: &mut Game, declarer: Seat, bid: &str) {
    let mut bid_made = false;
    while g.phase() == Phase::Auction {
        let d = g.decision().unwrap();
        let text = if d.seat == declarer && !bid_made {
            bid_made = true;
            bid
        } else {
            "pass"
        };
        act(g, d.seat, text);
    }
    assert!(bid_made, "the auction ended before seat {declarer} bid");
    assert_eq!(g.hand().contract.map(|c| c.declarer), Some(declarer));
}

/// Deals `d`, lets `declarer` win the auction with `bid`, names `trump` if the rules ask for it,
/// and plays the hand out.
fn contract_hand(
    g: &mut Game,
    d: Deal,
    declarer: Seat,
    bid: &str,
    trump: Option<&str>,
) -> HandResult {
    g.deal(d);
    auction_won_by(g, declarer, bid);
    if let Some(t) = trump {
        act(g, declarer, t);
    }
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.decision().unwrap().seat, declarer, "the declarer leads");
    play_out(g)
}

/// Deals `d` in a 400 / Forty-One game, makes the bids of `bids` ("0:6 1:5 ...") and plays the
/// hand out unless the bids threw it in.
fn individual_hand(g: &mut Game, d: Deal, bids: &str) -> HandResult {
    g.deal(d);
    let a = script(g, bids);
    match a.hand {
        Some(h) => h,
        None => play_out(g),
    }
}

/// One Egyptian hand: seat 0 (dealer 3) bids `bid`, seat 1 doubles (and seat 2 redoubles if
/// `redouble`), all pass; seat 0's side takes `w` tricks in hearts.
fn egyptian_doubled(g: &mut Game, bid: &str, redouble: bool, w: usize) -> HandResult {
    g.deal(split_deal(S0, S1, Suit::Hearts, Suit::Spades, w));
    if redouble {
        script(g, &format!("0:{bid} 1:double 2:redouble 3:pass 0:pass"));
    } else {
        script(g, &format!("0:{bid} 1:double 2:pass 3:pass 0:pass"));
    }
    assert_eq!(g.phase(), Phase::Play, "the auction is over");
    play_out(g)
}

fn no_renege() -> BySeat<bool> {
    BySeat([false; 4])
}

// ---------------------------------------------------------------------------------------------
// Common to all
// ---------------------------------------------------------------------------------------------

#[test]
fn common_split_deal_gives_the_promised_trick_split() {
    // The helper every scoring test relies on: check it against the engine for all w.
    for w in 0..=13 {
        let mut g = Game::new(Rules::classic(), S3);
        let h = contract_hand(
            &mut g,
            split_deal(S0, S1, Suit::Spades, Suit::Hearts, w),
            S0,
            "7",
            Some("S"),
        );
        assert_eq!(h.end, HandEnd::Played);
        assert_eq!(
            g.hand().tricks_won,
            BySeat([w as u8, 13 - w as u8, 0, 0]),
            "w = {w}"
        );
    }
}

#[test]
fn common_seats_in_playing_order_and_partners_opposite() {
    // docs/rules.md#seats, docs/rules.md#partnerships: seats in playing order 0 -> 1 -> 2 -> 3;
    // partners opposite, 0 & 2 and 1 & 3.
    let mut g = Game::new(Rules::classic(), S3);
    // Seat 0 takes 6 tricks and its partner seat 2 the other 7: together the 13 of a bid of 13.
    g.deal(split_deal(S0, S2, Suit::Spades, Suit::Hearts, 6));
    auction_won_by(&mut g, S0, "13");
    act(&mut g, S0, "S");
    let mut order = Vec::new();
    for _ in 0..4 {
        let d = g.decision().unwrap();
        order.push(d.seat);
        let c = g.legal_cards().lowest().unwrap();
        g.apply(d.seat, Move::Play(c)).unwrap();
    }
    assert_eq!(order, vec![S0, S1, S2, S3]);
    let h = play_out(&mut g);
    assert_eq!(g.hand().tricks_won, BySeat([6, 0, 7, 0]));
    assert_eq!(
        h.team_delta,
        ByTeam([26, 0]),
        "partners' tricks count together"
    );
}

#[test]
fn common_52_cards_13_each_ace_high() {
    // docs/rules.md#cards: 52 cards, A high to 2 low in every suit, 13 each.
    let mut hands = suit_per_seat().hands();
    hands.0[0].remove(card("2S"));
    assert_eq!(
        Deal::new(hands),
        Err(DealError::WrongCount {
            seat: S0,
            count: 12
        })
    );
    hands.0[0].insert(card("2H"));
    assert_eq!(
        Deal::new(hands),
        Err(DealError::Duplicate { card: card("2H") })
    );
    let mut t = Trick::new(S0);
    for c in ["KD", "AD", "2D", "QD"] {
        t.push(card(c));
    }
    assert_eq!(t.winner(None), Some(S1), "the ace beats the king");
}

#[test]
fn common_first_dealer_given_or_from_seed_and_deal_passes_on() {
    // docs/rules.md#dealer: the first dealer is given or drawn from the seed; then dealer + 1.
    let a = DealSource::from_seed(11).first_dealer();
    assert_eq!(DealSource::from_seed(11).first_dealer(), a);
    let mut g = Game::new(Rules::classic(), S2);
    assert_eq!(g.dealer(), S2);
    assert_eq!(g.first_dealer(), S2);
    let h = contract_hand(
        &mut g,
        split_deal(S3, S0, Suit::Spades, Suit::Hearts, 8),
        S3,
        "8",
        Some("S"),
    );
    assert_eq!(h.dealer, S2);
    assert_eq!(g.dealer(), S3, "the next seat deals");
    assert!(g.needs_deal());
}

#[test]
fn common_dealer_plus_one_speaks_first() {
    // docs/rules.md#first-to-speak: dealer + 1 speaks first.
    for (preset, dealer) in [("classic", S0), ("egyptian", S1), ("400", S2), ("41", S3)] {
        let mut g = Game::new(Rules::preset(preset).unwrap(), dealer);
        g.deal(suit_per_seat());
        assert_eq!(
            g.decision(),
            Some(Decision {
                seat: dealer.next(),
                kind: DecisionKind::Call
            }),
            "{preset}"
        );
    }
}

#[test]
fn common_follow_suit_else_any_card_and_illegal_plays() {
    // docs/rules.md#follow-suit: follow suit if able, otherwise any card.
    let mut g = Game::new(Rules::classic(), S3);
    assert_eq!(
        reject(&mut g, S0, Move::Play(card("AS"))),
        IllegalReason::NeedsDeal
    );
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    assert_eq!(
        reject(&mut g, S0, Move::Play(card("AS"))),
        IllegalReason::WrongDecision(DecisionKind::Trump)
    );
    act(&mut g, S0, "C");
    assert_eq!(
        reject(&mut g, S0, Move::Call(Call::Pass)),
        IllegalReason::WrongDecision(DecisionKind::Play)
    );
    act(&mut g, S0, "AS");
    assert_eq!(g.legal_cards(), cards("9S 8S 7S 6S 5S"));
    assert_eq!(legal(&g).len(), 5);
    assert_eq!(
        reject_text(&mut g, S1, "9H"),
        IllegalReason::MustFollow(Suit::Spades)
    );
    assert_eq!(reject_text(&mut g, S1, "AH"), IllegalReason::NotHeld);
    assert_eq!(
        reject(&mut g, S2, Move::Play(card("5H"))),
        IllegalReason::NotYourTurn(S1)
    );
    act(&mut g, S1, "5S");
    // Seat 2 has no spade: any of its 13 cards.
    assert_eq!(g.legal_cards(), cards(DEAL_W[2]));
    act(&mut g, S2, "5H");
    assert_eq!(g.legal_cards(), cards(DEAL_W[3]));
    let a = act(&mut g, S3, "2D");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S0));
}

#[test]
fn common_trick_winner_trump_then_suit_led_and_winner_leads() {
    // docs/rules.md#trick-winner: the highest trump, else the highest card of the suit led; the
    // winner leads the next trick.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    act(&mut g, S0, "C");
    // No trump in the trick: the ace of the suit led wins, the off-suit 2D does nothing.
    let a = script(&mut g, "0:AS 1:5S 2:5H 3:2D");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S0));
    assert_eq!(g.decision().unwrap().seat, S0);
    // A void seat trumps with its lowest club and beats the ace led.
    let a = script(&mut g, "0:AH 1:6H 2:2H 3:2C");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S3));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S3,
            kind: DecisionKind::Play
        }),
        "the winner leads"
    );
    // Pure trick rules: the higher of two trumps; no trump at all.
    let mut t = Trick::new(S1);
    for c in ["KH", "3S", "AH", "4S"] {
        t.push(card(c));
    }
    assert_eq!(t.winner(Some(Suit::Spades)), Some(S0));
    assert_eq!(t.winner(Some(Suit::Hearts)), Some(S3));
    assert_eq!(t.winner(Some(Suit::Clubs)), Some(S3));
}

#[test]
fn common_card_notation() {
    // docs/rules.md#card-notation: rank then suit, `AS KH QD JC TS 9H ... 2C`.
    let set = cards("AS KH QD JC TS 9H 2C");
    assert_eq!(set.to_string(), "AS TS KH 9H QD JC 2C");
    assert_eq!(card("TS"), Card::new(Rank::Ten, Suit::Spades));
    assert_eq!(card("2C").to_string(), "2C");
    assert!("10S".parse::<Card>().is_err());
    assert_eq!(
        Move::parse(DecisionKind::Play, "9H").unwrap(),
        Move::Play(Card::new(Rank::Nine, Suit::Hearts))
    );
}

#[test]
fn common_max_hands_default_200() {
    // docs/rules.md#max-hands: default 200 deals, redeals and throw-ins included.
    for name in PRESETS {
        assert_eq!(Rules::preset(name).unwrap().max_hands, 200, "{name}");
    }
}

#[test]
fn common_max_hands_cap_higher_score_wins_redeals_count() {
    // docs/rules.md#max-hands: at the cap the higher score wins, equal scores draw, and the
    // result says the cap ended it.
    let mut r = Rules::classic();
    r.max_hands = 2;
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    let a = script(&mut g, "0:pass 1:pass 2:pass 3:pass");
    assert!(a.game.is_none(), "a redeal is one deal of two");
    assert_eq!(g.hands_dealt(), 1);
    let h = contract_hand(
        &mut g,
        split_deal(S1, S2, Suit::Spades, Suit::Hearts, 9),
        S1,
        "8",
        Some("S"),
    );
    assert_eq!(h.team_delta, ByTeam([0, 9]));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T1),
            reason: EndReason::HandCap,
            hands: 2
        })
    );
    assert!(g.is_over());
    assert_eq!(
        reject(&mut g, S0, Move::Call(Call::Pass)),
        IllegalReason::GameOver
    );
}

#[test]
fn common_max_hands_cap_equal_scores_draw() {
    // docs/rules.md#max-hands: equal scores are a draw, and the result says the cap ended it.
    let mut r = Rules::egyptian();
    r.max_hands = 1;
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    let a = script(&mut g, "0:pass 1:pass 2:pass 3:pass");
    assert_eq!(
        a.game,
        Some(GameResult {
            winner: None,
            reason: EndReason::HandCap,
            hands: 1
        })
    );
    assert_eq!(leader_at_cap(ByTeam([-3, -3])), None);
    assert_eq!(leader_at_cap(ByTeam([-3, -4])), Some(T0));
}

#[test]
fn common_max_hands_cap_uses_totals_in_400() {
    // docs/rules.md#max-hands: in 400/41 the higher partnership total wins at the cap.
    let mut r = Rules::four_hundred();
    r.max_hands = 1;
    let mut g = Game::new(r, S1);
    // Dealer 1: seat 2 leads; seats 2 and 0 (partners) take 8 and 5.
    let h = individual_hand(
        &mut g,
        split_deal(S2, S0, Suit::Hearts, Suit::Spades, 8),
        "2:8 3:2 0:5 1:2",
    );
    assert_eq!(h.seat_delta, BySeat([10, -2, 16, -2]));
    assert_eq!(g.team_totals(), ByTeam([26, -4]));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::HandCap,
            hands: 1
        })
    );
    // Equal totals at the cap: a draw.
    let mut r = Rules::forty_one();
    r.max_hands = 1;
    let mut g = Game::new(r, S3);
    let h = individual_hand(&mut g, suit_per_seat(), "0:1 1:1 2:1 3:1");
    assert_eq!(h.end, HandEnd::BidSumTooLow { sum: 4, needed: 11 });
    assert_eq!(g.result().unwrap().winner, None);
    assert_eq!(g.result().unwrap().reason, EndReason::HandCap);
}

#[test]
fn common_defenders_all_13_score_13_or_26() {
    // docs/rules.md#thirteen-tricks-declarers-only: defenders taking all 13 tricks of a failed
    // contract score 13 (double that when the bid was 13).
    let mut g = Game::new(Rules::classic(), S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 0),
        S0,
        "7",
        Some("S"),
    );
    assert_eq!(h.team_delta, ByTeam([-7, 13]));
    let h = contract_hand(
        &mut g,
        split_deal(S1, S0, Suit::Spades, Suit::Hearts, 0),
        S1,
        "13",
        Some("S"),
    );
    // docs/rules.md#contract-kaboot (bonus): a failed 13 gives the defenders double their tricks.
    assert_eq!(h.team_delta, ByTeam([26, -16]));
    assert_eq!(h.instant_winner, None);
}

// ---------------------------------------------------------------------------------------------
// Classic Tarneeb: auction
// ---------------------------------------------------------------------------------------------

#[test]
fn classic_bids_are_7_to_13_each_higher() {
    // docs/rules.md#contract-bids: number bids 7..13, each higher than the last.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    assert_eq!(legal(&g), words("pass 7 8 9 10 11 12 13"));
    assert!(is_not_legal(reject_text(&mut g, S0, "6")));
    assert!(is_not_legal(reject_text(&mut g, S0, "7S")), "no strains");
    act(&mut g, S0, "9");
    assert_eq!(legal(&g), words("pass 10 11 12 13"));
    assert!(is_not_legal(reject_text(&mut g, S1, "9")));
    assert!(is_not_legal(reject_text(&mut g, S1, "8")));
    assert!(is_not_legal(reject(&mut g, S1, Move::Call(Call::Double))));
}

#[test]
fn classic_elimination_pass_puts_out_ends_when_all_but_high_passed() {
    // docs/rules.md#contract-auction (elimination): a pass puts the player out; the auction ends
    // when all but the high bidder have passed.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:pass 2:8 3:pass");
    // A second round: seat 0 speaks again; seat 1 and seat 3 are out.
    act(&mut g, S0, "9");
    assert_eq!(
        g.decision().unwrap().seat,
        S2,
        "seat 1 passed and is skipped"
    );
    assert_eq!(
        reject(
            &mut g,
            S1,
            Move::Call(Call::Bid(Bid {
                level: lv(10),
                strain: None
            }))
        ),
        IllegalReason::NotYourTurn(S2)
    );
    act(&mut g, S2, "pass");
    assert_eq!(g.phase(), Phase::Trump);
    assert_eq!(
        g.hand().contract,
        Some(Contract {
            declarer: S0,
            bid: Bid {
                level: lv(9),
                strain: None
            },
            multiplier: 1
        })
    );
    // The same start, but the high bidder is outbid and passes in the second round.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:8 2:pass 3:pass 0:9 1:10 0:pass");
    assert_eq!(g.hand().contract.unwrap().declarer, S1);
    assert_eq!(g.hand().contract.unwrap().bid.level, lv(10));
    assert_eq!(
        g.decision().unwrap(),
        Decision {
            seat: S1,
            kind: DecisionKind::Trump
        }
    );
}

#[test]
fn classic_single_round_each_speaks_once_dealer_may_equal() {
    // docs/rules.md#contract-auction (single-round): each player speaks once; the dealer, last,
    // may equal the high bid to take the contract.
    let r = contract_rules(Rules::classic(), |c| c.auction = AuctionForm::SingleRound);
    let mut g = Game::new(r.clone(), S3);
    g.deal(suit_per_seat());
    act(&mut g, S0, "8");
    assert!(
        is_not_legal(reject_text(&mut g, S1, "8")),
        "only the dealer may equal"
    );
    script(&mut g, "1:pass 2:9");
    assert_eq!(legal(&g), words("pass 9 10 11 12 13"));
    act(&mut g, S3, "9");
    assert_eq!(g.phase(), Phase::Trump);
    assert_eq!(g.hand().contract.unwrap().declarer, S3);
    assert_eq!(g.hand().contract.unwrap().bid.level, lv(9));

    // Seat 0 is outbid but never speaks again: the auction ends after four calls.
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:8 2:pass 3:pass");
    assert_eq!(g.phase(), Phase::Trump);
    assert_eq!(g.hand().contract.unwrap().declarer, S1);
}

#[test]
fn classic_dealer_forced_7() {
    // docs/rules.md#contract-dealer-forced-7: if the first three pass, the dealer must bid.
    let r = contract_rules(Rules::classic(), |c| c.dealer_forced_7 = true);
    let mut g = Game::new(r.clone(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:pass 1:pass 2:pass");
    assert_eq!(legal(&g), words("7 8 9 10 11 12 13"));
    assert!(is_not_legal(reject_text(&mut g, S3, "pass")));
    act(&mut g, S3, "7");
    assert_eq!(g.hand().contract.unwrap().declarer, S3);
    // With a bid standing the dealer may pass as usual.
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:pass 2:pass");
    assert!(legal(&g).contains(&"pass".to_string()));
}

#[test]
fn classic_all_pass_same_dealer_redeals() {
    // docs/rules.md#contract-all-pass: all four pass, the same dealer redeals.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    let a = script(&mut g, "0:pass 1:pass 2:pass 3:pass");
    let h = a.hand.unwrap();
    assert_eq!(h.end, HandEnd::AllPassed { same_dealer: true });
    assert_eq!(h.team_delta, ByTeam([0, 0]));
    assert!(g.needs_deal());
    assert_eq!(g.dealer(), S3);
    g.deal(suit_per_seat());
    assert_eq!(g.hand().dealer, S3);
    assert_eq!(g.decision().unwrap().seat, S0);
}

#[test]
fn classic_all_pass_next_dealer_option() {
    // docs/rules.md#contract-all-pass: the next-dealer option.
    let r = contract_rules(Rules::classic(), |c| c.all_pass = Redeal::NextDealer);
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    let a = script(&mut g, "0:pass 1:pass 2:pass 3:pass");
    assert_eq!(
        a.hand.unwrap().end,
        HandEnd::AllPassed { same_dealer: false }
    );
    assert_eq!(g.dealer(), S0);
}

// ---------------------------------------------------------------------------------------------
// Classic Tarneeb: trump and the first lead
// ---------------------------------------------------------------------------------------------

#[test]
fn classic_declarer_names_trump_and_leads() {
    // docs/rules.md#declarer: the final high bidder names the trump after the auction and leads
    // the first trick.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:pass 1:pass 2:8 3:pass");
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S2,
            kind: DecisionKind::Trump
        })
    );
    assert_eq!(legal(&g), words("C D H S"));
    assert!(
        is_not_legal(reject_text(&mut g, S2, "NT")),
        "no-trump is off"
    );
    assert_eq!(
        reject(&mut g, S0, Move::Trump(Strain::Trump(Suit::Clubs))),
        IllegalReason::NotYourTurn(S2)
    );
    act(&mut g, S2, "D");
    assert_eq!(g.hand().trump, Some(Strain::Trump(Suit::Diamonds)));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S2,
            kind: DecisionKind::Play
        })
    );
    // Seat 2 holds every diamond, the trump: it wins all 13 tricks (kaboot).
    let h = play_out(&mut g);
    assert_eq!(h.team_delta, ByTeam([16, 0]));
}

#[test]
fn classic_no_trump_option() {
    // docs/rules.md#contract-no-trump: the declarer may name No Trump (off by default); then
    // only the suit led counts (docs/rules.md#trick-winner).
    let r = contract_rules(Rules::classic(), |c| c.no_trump = true);
    assert!(!Rules::classic().contract.unwrap().no_trump, "default off");
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    auction_won_by(&mut g, S0, "7");
    assert_eq!(legal(&g), words("C D H S NT"));
    act(&mut g, S0, "NT");
    assert_eq!(g.hand().trump, Some(Strain::NoTrump));
    // Nobody can follow seat 0's spades and nothing is trump: the 2S beats the aces of the other
    // suits, trick after trick.
    let a = script(&mut g, "0:2S 1:AH 2:AD 3:AC");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S0));
    let h = play_out(&mut g);
    assert_eq!(g.hand().tricks_won, BySeat([13, 0, 0, 0]));
    assert_eq!(h.team_delta, ByTeam([16, 0]));
}

#[test]
fn classic_trump_beats_suit_led_in_a_whole_hand() {
    // docs/rules.md#trick-winner: the highest trump wins, else the highest card of the suit led.
    // Same deal as the No Trump test, hearts named: seat 1's hearts win every trick.
    let mut g = Game::new(Rules::classic(), S3);
    let h = contract_hand(&mut g, suit_per_seat(), S0, "7", Some("H"));
    assert_eq!(g.hand().tricks_won, BySeat([0, 13, 0, 0]));
    assert_eq!(h.team_delta, ByTeam([-7, 13]));
}

#[test]
fn classic_trump_first_lead_option() {
    // docs/rules.md#contract-trump-first-lead: the declarer's first lead must be a trump if they
    // hold one.
    let r = contract_rules(Rules::classic(), |c| c.trump_first_lead = true);
    let mut g = Game::new(r.clone(), S3);
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    act(&mut g, S0, "H");
    assert_eq!(g.legal_cards(), cards("AH KH QH JH TH"));
    assert_eq!(reject_text(&mut g, S0, "AS"), IllegalReason::MustLeadTrump);
    let a = script(&mut g, "0:AH 1:6H 2:2H 3:2C");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S0));
    // Only the first lead is restricted.
    assert_eq!(g.legal_cards(), g.hand().held[S0]);
    assert_eq!(g.legal_cards().len(), 12);

    // A declarer without a trump may lead anything.
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    act(&mut g, S0, "C");
    assert_eq!(g.legal_cards(), cards(DEAL_W[0]));
    // Default: no restriction.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    act(&mut g, S0, "H");
    assert_eq!(g.legal_cards(), cards(DEAL_W[0]));
}

#[test]
fn classic_trump_by_first_lead_option() {
    // docs/rules.md#contract-trump (first-lead): no naming; the suit of the declarer's first lead
    // becomes trump.
    let r = contract_rules(Rules::classic(), |c| c.trump = TrumpChoice::FirstLead);
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    auction_won_by(&mut g, S0, "7");
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S0,
            kind: DecisionKind::Play
        }),
        "no trump decision; the declarer leads"
    );
    assert_eq!(g.hand().trump, None);
    assert_eq!(g.legal_cards(), cards(DEAL_W[0]));
    act(&mut g, S0, "4S");
    assert_eq!(g.hand().trump, Some(Strain::Trump(Suit::Spades)));
    let a = script(&mut g, "1:5S 2:AD 3:AC");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S1));
    // Seat 0 is void in diamonds: its 2S (now trump) beats the king of the suit led.
    let a = script(&mut g, "1:9D 2:KD 3:2D 0:2S");
    assert_eq!(a.trick.map(|(_, w)| w), Some(S0));
}

// ---------------------------------------------------------------------------------------------
// Classic Tarneeb: scoring
// ---------------------------------------------------------------------------------------------

fn classic_c() -> ContractRules {
    Rules::classic().contract.unwrap()
}

#[test]
fn classic_score_function_every_case() {
    // docs/rules.md#contract-scoring and docs/rules.md#contract-kaboot (bonus), every case.
    let c = classic_c();
    let s = |level, tricks| {
        let r = contract_score(&c, lv(level), 1, tricks, 0);
        assert!(!r.instant_win);
        (r.declarers, r.defenders)
    };
    // Made under 13: the tricks won, defenders nothing (docs/rules.md#contract-scoring).
    assert_eq!(s(8, 8), (8, 0));
    assert_eq!(s(8, 10), (10, 0));
    assert_eq!(s(12, 12), (12, 0));
    // Failed: minus the bid, defenders their tricks (docs/rules.md#contract-scoring).
    assert_eq!(s(10, 8), (-10, 5));
    assert_eq!(s(7, 6), (-7, 7));
    // All 13 on a bid under 13: 16 (docs/rules.md#contract-kaboot).
    assert_eq!(s(7, 13), (16, 0));
    assert_eq!(s(12, 13), (16, 0));
    // Bid 13 made: 26 (docs/rules.md#contract-kaboot).
    assert_eq!(s(13, 13), (26, 0));
    // Bid 13 failed: -16, defenders double their tricks (docs/rules.md#contract-kaboot).
    assert_eq!(s(13, 12), (-16, 2));
    assert_eq!(s(13, 10), (-16, 6));
    // docs/rules.md#thirteen-tricks-declarers-only: defenders' 13 tricks score 13 (26 on a
    // failed 13).
    assert_eq!(s(9, 0), (-9, 13));
    assert_eq!(s(13, 0), (-16, 26));
}

#[test]
fn classic_made_contract_in_play() {
    // docs/rules.md#contract-scoring: made, the declarers score the tricks they won.
    let mut g = Game::new(Rules::classic(), S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 10),
        S0,
        "8",
        Some("S"),
    );
    assert_eq!(h.end, HandEnd::Played);
    assert_eq!(h.team_delta, ByTeam([10, 0]));
    assert_eq!(g.team_scores(), ByTeam([10, 0]));
}

#[test]
fn classic_failed_contract_in_play_declarer_on_team_1() {
    // docs/rules.md#contract-scoring: failed, the declarers lose their bid and the defenders
    // score their tricks.
    let mut g = Game::new(Rules::classic(), S0);
    let h = contract_hand(
        &mut g,
        split_deal(S1, S2, Suit::Clubs, Suit::Diamonds, 8),
        S1,
        "10",
        Some("C"),
    );
    assert_eq!(h.team_delta, ByTeam([5, -10]));
    assert_eq!(g.team_scores(), ByTeam([5, -10]));
}

#[test]
fn classic_kaboot_and_13_in_play() {
    // docs/rules.md#contract-kaboot (bonus): all 13 on a bid under 13 score 16; a made 13 scores
    // 26, a failed one -16 with the defenders' tricks doubled.
    let mut r = Rules::classic();
    r.target = 100;
    let mut g = Game::new(r, S3);
    let sd = |a, b, w| split_deal(a, b, Suit::Spades, Suit::Hearts, w);
    let h = contract_hand(&mut g, sd(S0, S1, 13), S0, "9", Some("S"));
    assert_eq!(h.team_delta, ByTeam([16, 0]));
    assert_eq!(h.instant_winner, None);
    // Dealer 0 now; seat 2 declares.
    let h = contract_hand(&mut g, sd(S2, S3, 13), S2, "13", Some("S"));
    assert_eq!(h.team_delta, ByTeam([26, 0]));
    // Dealer 1; seat 2 declares 13 and takes 10.
    let h = contract_hand(&mut g, sd(S2, S3, 10), S2, "13", Some("S"));
    assert_eq!(h.team_delta, ByTeam([-16, 6]));
    assert_eq!(g.team_scores(), ByTeam([26, 6]));
    assert!(!g.is_over());
}

#[test]
fn classic_kaboot_instant_win() {
    // docs/rules.md#contract-kaboot (instant-win): all 13 tricks win the game at once.
    let r = contract_rules(Rules::classic(), |c| c.kaboot = Kaboot::InstantWin);
    let c = r.contract.clone().unwrap();
    let s = contract_score(&c, lv(9), 1, 13, 0);
    assert_eq!((s.declarers, s.defenders, s.instant_win), (13, 0, true));
    let s = contract_score(&c, lv(9), 1, 12, 0);
    assert_eq!((s.declarers, s.defenders, s.instant_win), (12, 0, false));
    let mut g = Game::new(r, S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 13),
        S0,
        "9",
        Some("S"),
    );
    assert_eq!(h.instant_winner, Some(T0));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Instant,
            hands: 1
        })
    );
    assert_eq!(g.team_scores(), ByTeam([13, 0]));
}

#[test]
fn classic_kaboot_instant_win_only_when_13_bid() {
    // docs/rules.md#contract-instant-win-only-bid-13: the instant win only when 13 was bid.
    let r = contract_rules(Rules::classic(), |c| {
        c.kaboot = Kaboot::InstantWin;
        c.instant_win_only_bid_13 = true;
    });
    let c = r.contract.clone().unwrap();
    assert!(!contract_score(&c, lv(12), 1, 13, 0).instant_win);
    assert!(contract_score(&c, lv(13), 1, 13, 0).instant_win);
    let mut g = Game::new(r, S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 13),
        S0,
        "9",
        Some("S"),
    );
    assert_eq!(h.instant_winner, None);
    assert_eq!(h.team_delta, ByTeam([13, 0]));
    assert!(!g.is_over());
    let h = contract_hand(
        &mut g,
        split_deal(S2, S3, Suit::Spades, Suit::Hearts, 13),
        S2,
        "13",
        Some("S"),
    );
    assert_eq!(h.instant_winner, Some(T0));
    assert_eq!(g.result().unwrap().reason, EndReason::Instant);
}

#[test]
fn classic_kaboot_instant_win_never_when_negative() {
    // docs/rules.md#contract-instant-win-not-when-negative: no instant win while the team's score
    // is negative; the 13 tricks score 13.
    let r = contract_rules(Rules::classic(), |c| {
        c.kaboot = Kaboot::InstantWin;
        c.instant_win_not_when_negative = true;
    });
    let c = r.contract.clone().unwrap();
    assert!(!contract_score(&c, lv(9), 1, 13, -1).instant_win);
    assert!(contract_score(&c, lv(9), 1, 13, 0).instant_win);
    let mut g = Game::new(r, S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 8),
        S0,
        "10",
        Some("S"),
    );
    assert_eq!(h.team_delta, ByTeam([-10, 5]));
    let h = contract_hand(
        &mut g,
        split_deal(S2, S3, Suit::Spades, Suit::Hearts, 13),
        S2,
        "9",
        Some("S"),
    );
    assert_eq!(h.instant_winner, None);
    assert_eq!(h.team_delta, ByTeam([13, 0]));
    assert_eq!(g.team_scores(), ByTeam([3, 5]));
    assert!(!g.is_over());
}

#[test]
fn classic_kaboot_none() {
    // docs/rules.md#contract-kaboot (none): 13 tricks score 13. A failed 13 under it is scored
    // like any failed bid (-13, defenders their tricks), which this test pins down.
    let r = contract_rules(Rules::classic(), |c| c.kaboot = Kaboot::None);
    let c = r.contract.clone().unwrap();
    let s = |level, tricks| {
        let r = contract_score(&c, lv(level), 1, tricks, 0);
        (r.declarers, r.defenders, r.instant_win)
    };
    assert_eq!(s(9, 13), (13, 0, false));
    assert_eq!(s(13, 13), (13, 0, false));
    assert_eq!(s(13, 10), (-13, 3, false));
    let mut g = Game::new(r, S3);
    let h = contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 13),
        S0,
        "10",
        Some("S"),
    );
    assert_eq!(h.team_delta, ByTeam([13, 0]));
}

#[test]
fn classic_target_31_checked_at_end_of_hand() {
    // docs/rules.md#target (classic 31), docs/rules.md#target-check: checked at the end of a
    // hand.
    assert_eq!(Rules::classic().target, 31);
    let mut g = Game::new(Rules::classic(), S3);
    contract_hand(
        &mut g,
        split_deal(S0, S1, Suit::Spades, Suit::Hearts, 13),
        S0,
        "10",
        Some("S"),
    );
    assert_eq!(g.team_scores(), ByTeam([16, 0]));
    g.deal(split_deal(S2, S3, Suit::Spades, Suit::Hearts, 13));
    auction_won_by(&mut g, S2, "13");
    act(&mut g, S2, "S");
    // Seat 2 has every trick it needs long before the end; nothing is scored mid-hand.
    for n in 1..=13 {
        let d = g.decision().unwrap();
        let c = g.legal_cards().lowest().unwrap();
        let mut a = g.apply(d.seat, Move::Play(c)).unwrap();
        while a.trick.is_none() {
            let d = g.decision().unwrap();
            let c = g.legal_cards().lowest().unwrap();
            a = g.apply(d.seat, Move::Play(c)).unwrap();
        }
        if n < 13 {
            assert!(!g.is_over(), "over after trick {n}");
            assert_eq!(g.team_scores(), ByTeam([16, 0]));
        } else {
            assert_eq!(a.hand.unwrap().team_delta, ByTeam([26, 0]));
        }
    }
    assert_eq!(g.team_scores(), ByTeam([42, 0]));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Target,
            hands: 2
        })
    );
}

#[test]
fn classic_target_options() {
    // docs/rules.md#target: classic 31, or 41, 51, 61 or any number.
    for (target, over) in [(41, true), (42, true), (43, false), (61, false)] {
        let mut r = Rules::classic();
        r.target = target;
        let mut g = Game::new(r, S3);
        contract_hand(
            &mut g,
            split_deal(S0, S1, Suit::Spades, Suit::Hearts, 13),
            S0,
            "10",
            Some("S"),
        );
        contract_hand(
            &mut g,
            split_deal(S2, S3, Suit::Spades, Suit::Hearts, 13),
            S2,
            "13",
            Some("S"),
        );
        assert_eq!(g.is_over(), over, "target {target} at 42");
    }
    assert_eq!(contract_winner(31, ByTeam([31, 30])), Some(T0));
    assert_eq!(contract_winner(31, ByTeam([-5, 33])), Some(T1));
    assert_eq!(contract_winner(31, ByTeam([30, 30])), None);
}

// ---------------------------------------------------------------------------------------------
// Classic Tarneeb: throw-ins
// ---------------------------------------------------------------------------------------------

#[test]
fn throw_in_hand_flags() {
    // docs/rules.md#contract-throw-in-weak-hand, docs/rules.md#contract-throw-in-long-suit,
    // docs/rules.md#contract-dakak, docs/rules.md#contract-out-of-call: the hands that qualify.
    let f = |s: &str| SeatFlags::of(cards(s));
    let flags = DEAL_W.map(f);
    let w = |weak, long_suit, dakak, out_of_call| SeatFlags {
        weak,
        long_suit,
        dakak,
        out_of_call,
    };
    assert_eq!(flags[0], w(false, false, false, false));
    assert_eq!(flags[1], w(true, false, true, false));
    assert_eq!(flags[2], w(false, false, false, true));
    assert_eq!(flags[3], w(false, true, false, true));
    // A singleton king, a doubleton queen and a jack in a 3-card suit still make a weak hand.
    assert!(f("KS QH 2H JD 3D 2D 9C 8C 7C 6C 5C 4C 3C").weak);
    assert!(!f("KS 2S QH 2H JD 3D 2D 9C 8C 7C 6C 5C 4C").weak);
    assert!(!f("QH 3H 2H 5S 4S 3S 2S 4D 3D 2D 4C 3C 2C").weak);
    assert!(!f("JC 9C 8C 7C 5S 4S 3S 2S 4D 3D 2D 3H 2H").weak);
    // 9 cards: out of call but not long; exactly 4 points: Dakak.
    let nine = f("AS 9S 8S 7S 6S 5S 4S 3S 2S 5H 4H 3H 2H");
    assert!(nine.out_of_call && !nine.long_suit && nine.dakak);
    assert!(!f("AS JS 8S 7S 6S 5S 4S 3S 2S 5H 4H 3H 2H").dakak);
}

#[test]
fn throw_in_weak_hand_next_dealer() {
    // docs/rules.md#contract-throw-in-weak-hand: a weak hand may be thrown in, offered as a
    // legal move; the next dealer deals.
    let r = contract_rules(Rules::classic(), |c| c.throw_in_weak_hand = true);
    let mut g = Game::new(r.clone(), S3);
    g.deal(deal(DEAL_W));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S1,
            kind: DecisionKind::ThrowIn
        })
    );
    assert_eq!(legal(&g), words("throw-in keep"));
    assert_eq!(
        reject(&mut g, S0, Move::ThrowIn),
        IllegalReason::NotYourTurn(S1)
    );
    let a = act(&mut g, S1, "throw-in");
    let h = a.hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::ThrownIn {
            seat: S1,
            reason: ThrowInReason::WeakHand
        }
    );
    assert_eq!(h.team_delta, ByTeam([0, 0]));
    assert!(g.needs_deal());
    assert_eq!(g.dealer(), S0, "the next dealer deals");
    // Keeping the hand opens the auction at dealer + 1.
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    act(&mut g, S1, "keep");
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S0,
            kind: DecisionKind::Call
        })
    );
    // Off by default: no throw-in decision.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(deal(DEAL_W));
    assert_eq!(g.decision().unwrap().kind, DecisionKind::Call);
}

#[test]
fn throw_in_long_suit_same_dealer_pass_or_13() {
    // docs/rules.md#contract-throw-in-long-suit: 10+ cards in a suit: pass, bid 13 or throw in;
    // the same dealer redeals.
    let r = contract_rules(Rules::classic(), |c| c.throw_in_long_suit = true);
    let mut g = Game::new(r.clone(), S3);
    g.deal(deal(DEAL_W));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S3,
            kind: DecisionKind::ThrowIn
        })
    );
    let h = act(&mut g, S3, "throw-in").hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::ThrownIn {
            seat: S3,
            reason: ThrowInReason::LongSuit
        }
    );
    assert_eq!(g.dealer(), S3, "the same dealer redeals");

    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    act(&mut g, S3, "keep");
    script(&mut g, "0:7 1:pass 2:pass");
    assert_eq!(legal(&g), words("pass 13"));
    assert!(is_not_legal(reject_text(&mut g, S3, "8")));
    act(&mut g, S3, "13");
    act(&mut g, S0, "pass");
    assert_eq!(g.hand().contract.unwrap().declarer, S3);
    assert_eq!(g.hand().contract.unwrap().bid.level, lv(13));
}

#[test]
fn throw_in_both_options_asked_from_dealer_plus_one() {
    // docs/rules.md#throw-in-asking: with both throw-in options on, each entitled seat is asked,
    // in speaking order from dealer + 1.
    let r = contract_rules(Rules::classic(), |c| {
        c.throw_in_weak_hand = true;
        c.throw_in_long_suit = true;
    });
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    act(&mut g, S1, "keep");
    assert_eq!(g.decision().unwrap().seat, S3);
    assert_eq!(g.decision().unwrap().kind, DecisionKind::ThrowIn);
    act(&mut g, S3, "keep");
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S0,
            kind: DecisionKind::Call
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Egyptian Tarneeb: auction
// ---------------------------------------------------------------------------------------------

#[test]
fn egyptian_strain_order_c_d_h_s_nt() {
    // docs/rules.md#contract-strain-order: C < D < H < S < NT; docs/rules.md#contract-bids:
    // higher level, or the same level and a higher strain.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    let l = legal(&g);
    assert_eq!(l.len(), 1 + 7 * 5);
    assert_eq!(l[..7], words("pass 7C 7D 7H 7S 7NT 8C")[..]);
    assert_eq!(l.last().unwrap(), "13NT");
    assert!(
        is_not_legal(reject_text(&mut g, S0, "7")),
        "a bid names a strain"
    );
    assert!(is_not_legal(reject_text(&mut g, S0, "6NT")));
    act(&mut g, S0, "7H");
    let l = legal(&g);
    assert_eq!(l[..4], words("pass 7S 7NT 8C")[..]);
    for low in ["7C", "7D", "7H"] {
        assert!(is_not_legal(reject_text(&mut g, S1, low)), "{low}");
    }
    act(&mut g, S1, "7NT");
    assert_eq!(legal(&g)[..3], words("pass 8C 8D")[..]);
}

#[test]
fn egyptian_strain_order_option_c_s_h_d() {
    // docs/rules.md#contract-strain-order: the option C < S < H < D, no No Trump.
    let r = contract_rules(Rules::egyptian(), |c| c.strain_order = StrainOrder::Cshd);
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    let l = legal(&g);
    assert_eq!(l.len(), 1 + 7 * 4);
    assert_eq!(l[..6], words("pass 7C 7S 7H 7D 8C")[..]);
    assert!(is_not_legal(reject_text(&mut g, S0, "7NT")));
    act(&mut g, S0, "7S");
    assert_eq!(legal(&g)[..4], words("pass 7H 7D 8C")[..]);
    assert!(is_not_legal(reject_text(&mut g, S1, "7C")));
}

#[test]
fn egyptian_open_auction_pass_does_not_put_out() {
    // docs/rules.md#contract-auction (open): a pass does not put a player out; the auction ends
    // after four calls in a row that are not bids, once a bid exists.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:pass 1:8H 2:pass 3:pass 0:pass");
    assert_eq!(g.phase(), Phase::Auction, "three passes do not end it");
    assert_eq!(g.decision().unwrap().seat, S1);
    let l = legal(&g);
    assert!(l.contains(&"8S".to_string()) && l.contains(&"9D".to_string()));
    script(&mut g, "1:8S 2:pass 3:pass 0:9C");
    assert_eq!(g.phase(), Phase::Auction);
    script(&mut g, "1:pass 2:pass 3:pass");
    assert_eq!(g.phase(), Phase::Auction);
    act(&mut g, S0, "pass");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        g.hand().contract,
        Some(Contract {
            declarer: S0,
            bid: Bid {
                level: lv(9),
                strain: Some(Strain::Trump(Suit::Clubs))
            },
            multiplier: 1
        })
    );
}

#[test]
fn egyptian_four_passes_no_bid_same_dealer() {
    // docs/rules.md#contract-all-pass: four passes with no bid, the same dealer redeals.
    let mut g = Game::new(Rules::egyptian(), S1);
    g.deal(suit_per_seat());
    let h = script(&mut g, "2:pass 3:pass 0:pass 1:pass").hand.unwrap();
    assert_eq!(h.end, HandEnd::AllPassed { same_dealer: true });
    assert_eq!(g.dealer(), S1);
    assert_eq!(g.team_scores(), ByTeam([0, 0]));
}

#[test]
fn egyptian_double_only_opponents_undoubled_bid() {
    // docs/rules.md#contract-doubling: double only an opponent's undoubled standing bid; a double
    // is not a bid.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    assert!(
        !legal(&g).contains(&"double".to_string()),
        "nothing to double"
    );
    assert!(is_not_legal(reject(&mut g, S0, Move::Call(Call::Double))));
    act(&mut g, S0, "9S");
    assert!(legal(&g).contains(&"double".to_string()));
    act(&mut g, S1, "pass");
    assert!(!legal(&g).contains(&"double".to_string()), "partner's bid");
    assert!(is_not_legal(reject(&mut g, S2, Move::Call(Call::Double))));
    act(&mut g, S2, "pass");
    act(&mut g, S3, "double");
    assert_eq!(g.hand().auction.multiplier, 2);
    assert!(
        !legal(&g).contains(&"redouble".to_string()),
        "redouble is off"
    );
    let a = act(&mut g, S0, "pass");
    assert!(a.contract_made);
    assert_eq!(
        g.hand().contract,
        Some(Contract {
            declarer: S0,
            bid: Bid {
                level: lv(9),
                strain: Some(Strain::Trump(Suit::Spades))
            },
            multiplier: 2
        })
    );
    // Not twice: an opponent may not double a doubled bid.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:9S 1:double 2:pass");
    assert!(!legal(&g).contains(&"double".to_string()));
    assert!(is_not_legal(reject(&mut g, S3, Move::Call(Call::Double))));
}

#[test]
fn egyptian_redouble_option() {
    // docs/rules.md#contract-doubling (redouble): only the doubled side, only once, x4.
    let r = contract_rules(Rules::egyptian(), |c| c.doubling = Doubling::Redouble);
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    act(&mut g, S0, "9S");
    assert!(
        !legal(&g).contains(&"redouble".to_string()),
        "not doubled yet"
    );
    act(&mut g, S1, "double");
    assert!(
        legal(&g).contains(&"redouble".to_string()),
        "bidder's partner"
    );
    act(&mut g, S2, "pass");
    assert!(
        !legal(&g).contains(&"redouble".to_string()),
        "the doubling side"
    );
    assert!(is_not_legal(reject(&mut g, S3, Move::Call(Call::Redouble))));
    act(&mut g, S3, "pass");
    assert!(legal(&g).contains(&"redouble".to_string()), "the bidder");
    // The redouble is the fourth call in a row that is not a bid: it ends the auction.
    act(&mut g, S0, "redouble");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand().contract.unwrap().multiplier, 4);

    // Only once, and the opponents may not double again.
    let r = contract_rules(Rules::egyptian(), |c| c.doubling = Doubling::Redouble);
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:9S 1:double 2:redouble");
    assert_eq!(g.hand().auction.multiplier, 4);
    assert_eq!(legal(&g)[..2], words("pass 9NT")[..]);
    assert!(!legal(&g).contains(&"double".to_string()));
    assert!(is_not_legal(reject(&mut g, S3, Move::Call(Call::Double))));
    act(&mut g, S3, "pass");
    assert!(!legal(&g).contains(&"redouble".to_string()), "only once");
    assert!(is_not_legal(reject(&mut g, S0, Move::Call(Call::Redouble))));
    act(&mut g, S0, "pass");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand().contract.unwrap().multiplier, 4);
}

#[test]
fn egyptian_new_bid_clears_double() {
    // docs/rules.md#contract-doubling: a new bid clears any double.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:9S 1:double");
    assert_eq!(g.hand().auction.multiplier, 2);
    act(&mut g, S2, "9NT");
    assert_eq!(g.hand().auction.multiplier, 1);
    assert!(
        legal(&g).contains(&"double".to_string()),
        "the new bid can be doubled"
    );
    script(&mut g, "3:pass 0:pass 1:pass 2:pass");
    assert_eq!(
        g.hand().contract,
        Some(Contract {
            declarer: S2,
            bid: Bid {
                level: lv(9),
                strain: Some(Strain::NoTrump)
            },
            multiplier: 1
        })
    );
}

#[test]
fn egyptian_declarer_trump_is_strain_and_declarer_leads() {
    // docs/rules.md#declarer: with strain bids the trump is the final bid's strain; the declarer
    // leads.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:pass 1:pass 2:8S 3:pass 0:pass 1:pass 2:pass");
    assert_eq!(g.hand().trump, Some(Strain::Trump(Suit::Spades)));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S2,
            kind: DecisionKind::Play
        })
    );
    // No Trump bid: the leader's suit wins every trick when nobody can follow.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7NT 1:pass 2:pass 3:pass 0:pass");
    assert_eq!(g.hand().trump, Some(Strain::NoTrump));
    let h = play_out(&mut g);
    assert_eq!(g.hand().tricks_won, BySeat([13, 0, 0, 0]));
    assert_eq!(h.team_delta, ByTeam([16, 0]));
}

// ---------------------------------------------------------------------------------------------
// Egyptian Tarneeb: scoring and target
// ---------------------------------------------------------------------------------------------

#[test]
fn egyptian_doubled_score_function_002_examples() {
    // docs/rules.md#doubled-scoring: the declaring side's score x2 or x4, made or failed; the
    // worked example (10H doubled: 11 tricks +22; 8 tricks -20, defenders +5; 13 tricks +32).
    let c = Rules::egyptian().contract.unwrap();
    let s = |level, m, tricks| {
        let r = contract_score(&c, lv(level), m, tricks, 0);
        (r.declarers, r.defenders)
    };
    assert_eq!(s(10, 2, 11), (22, 0));
    assert_eq!(s(10, 2, 8), (-20, 5));
    assert_eq!(s(10, 2, 13), (32, 0));
    assert_eq!(s(10, 4, 11), (44, 0));
    assert_eq!(s(10, 4, 8), (-40, 5));
    assert_eq!(s(13, 2, 13), (52, 0));
    assert_eq!(s(13, 2, 11), (-32, 4));
    assert_eq!(s(10, 1, 11), (11, 0));
}

#[test]
fn egyptian_10h_doubled_in_play() {
    // docs/rules.md#doubled-scoring: 10H doubled, 11 tricks +22; 8 tricks -20 and the
    // defenders +5, not doubled; 13 tricks +32.
    for (w, delta) in [(11, [22, 0]), (8, [-20, 5]), (13, [32, 0])] {
        let mut g = Game::new(Rules::egyptian(), S3);
        let h = egyptian_doubled(&mut g, "10H", false, w);
        assert_eq!(g.hand().contract.unwrap().multiplier, 2);
        assert_eq!(h.team_delta, ByTeam(delta), "{w} tricks");
        assert!(!g.is_over());
    }
}

#[test]
fn egyptian_redoubled_in_play() {
    // docs/rules.md#doubled-scoring: redoubled, x4.
    let r = contract_rules(Rules::egyptian(), |c| c.doubling = Doubling::Redouble);
    let mut g = Game::new(r.clone(), S3);
    let h = egyptian_doubled(&mut g, "10H", true, 11);
    assert_eq!(h.team_delta, ByTeam([44, 0]));
    let mut g = Game::new(r, S3);
    let h = egyptian_doubled(&mut g, "10H", true, 8);
    assert_eq!(h.team_delta, ByTeam([-40, 5]));
}

#[test]
fn egyptian_defenders_multiplied_option() {
    // docs/rules.md#contract-defenders-multiplied: the option that multiplies the defenders'
    // points too.
    let r = contract_rules(Rules::egyptian(), |c| {
        c.doubling = Doubling::Redouble;
        c.defenders_multiplied = true;
    });
    let c = r.contract.clone().unwrap();
    let s = contract_score(&c, lv(10), 2, 8, 0);
    assert_eq!((s.declarers, s.defenders), (-20, 10));
    let s = contract_score(&c, lv(13), 2, 0, 0);
    assert_eq!((s.declarers, s.defenders), (-32, 52));
    let mut g = Game::new(r.clone(), S3);
    let h = egyptian_doubled(&mut g, "10H", false, 8);
    assert_eq!(h.team_delta, ByTeam([-20, 10]));
    let mut g = Game::new(r, S3);
    let h = egyptian_doubled(&mut g, "10H", true, 8);
    assert_eq!(h.team_delta, ByTeam([-40, 20]));
}

#[test]
fn egyptian_target_41_option_31() {
    // docs/rules.md#target: Egyptian 41, or 31.
    assert_eq!(Rules::egyptian().target, 41);
    let mut g = Game::new(Rules::egyptian(), S3);
    egyptian_doubled(&mut g, "10H", false, 13);
    assert_eq!(g.team_scores(), ByTeam([32, 0]));
    assert!(!g.is_over());
    let mut r = Rules::egyptian();
    r.target = 31;
    let mut g = Game::new(r, S3);
    egyptian_doubled(&mut g, "10H", false, 13);
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Target,
            hands: 1
        })
    );
}

#[test]
fn egyptian_dakak_option() {
    // docs/rules.md#contract-dakak: announced publicly before the auction; a Dakak team bids
    // from 8, its opponents from 5 in the lowest strain or 6 (docs/rules.md#dakak-reading).
    // Engine reading (auction.rs `min_level`): the Dakak team opens at 8 tricks; its opponents
    // at 5 tricks in the lowest strain (5C) or 6 tricks in any strain.
    let r = contract_rules(Rules::egyptian(), |c| c.dakak = true);
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    assert_eq!(
        g.view(S2).announcements,
        vec![Announcement {
            seat: S1,
            kind: "dakak"
        }]
    );
    let l = legal(&g);
    assert_eq!(l[..4], words("pass 5C 6C 6D")[..]);
    assert_eq!(l.len(), 1 + 1 + 8 * 5);
    assert!(is_not_legal(reject_text(&mut g, S0, "5D")));
    assert!(is_not_legal(reject_text(&mut g, S0, "4C")));
    act(&mut g, S0, "5C");
    // Seat 1 is the Dakak player: its team bids from 8.
    let l = legal(&g);
    assert_eq!(l[..3], words("pass 8C 8D")[..]);
    assert!(l.contains(&"double".to_string()));
    assert!(is_not_legal(reject_text(&mut g, S1, "7NT")));
    act(&mut g, S1, "pass");
    // Only 5C opens at 5: seat 2 outbids it at 6.
    assert_eq!(legal(&g)[..3], words("pass 6C 6D")[..]);
    assert!(is_not_legal(reject_text(&mut g, S2, "5D")));
    // Off by default: no announcement, 7C is the lowest bid.
    let mut g = Game::new(Rules::egyptian(), S3);
    g.deal(deal(DEAL_W));
    assert!(g.view(S0).announcements.is_empty());
    assert_eq!(legal(&g)[1], "7C");
}

#[test]
fn egyptian_out_of_call_option() {
    // docs/rules.md#contract-out-of-call: 9+ cards in a suit, announced publicly before the
    // auction; that player may not bid.
    // Engine reading: an Out of Call player may still pass and double (a double is not a bid).
    let r = contract_rules(Rules::egyptian(), |c| c.out_of_call = true);
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    assert_eq!(
        g.view(S0).announcements,
        vec![
            Announcement {
                seat: S2,
                kind: "out-of-call"
            },
            Announcement {
                seat: S3,
                kind: "out-of-call"
            }
        ]
    );
    script(&mut g, "0:7C 1:pass");
    assert_eq!(legal(&g), words("pass"));
    assert!(is_not_legal(reject_text(&mut g, S2, "8D")));
    act(&mut g, S2, "pass");
    assert_eq!(legal(&g), words("pass double"));
    assert!(is_not_legal(reject_text(&mut g, S3, "13C")));
    act(&mut g, S3, "double");
    assert_eq!(g.hand().auction.multiplier, 2);
}

// ---------------------------------------------------------------------------------------------
// 400
// ---------------------------------------------------------------------------------------------

fn ind_400() -> IndividualRules {
    Rules::four_hundred().individual.unwrap()
}

fn ind_41() -> IndividualRules {
    Rules::forty_one().individual.unwrap()
}

#[test]
fn four_hundred_bids_once_openly_no_pass_hearts_trump_dealer_plus_one_leads() {
    // docs/rules.md#individual-auction: each bids once from dealer + 1, openly, no pass, a bid
    // need not beat the others; dealer + 1 leads. docs/rules.md#individual-trump: hearts.
    let mut g = Game::new(Rules::four_hundred(), S1);
    g.deal(suit_per_seat());
    assert_eq!(g.decision().unwrap().seat, S2);
    assert_eq!(legal(&g), words("2 3 4 5 6 7 8 9 10 11 12 13"));
    assert!(is_not_legal(reject_text(&mut g, S2, "pass")));
    act(&mut g, S2, "6");
    assert_eq!(
        g.view(S3).bids,
        Some(BySeat([None, None, Some(lv(6)), None]))
    );
    act(&mut g, S3, "2");
    assert!(
        legal(&g).contains(&"2".to_string()),
        "lower than earlier bids"
    );
    act(&mut g, S0, "2");
    assert_eq!(g.phase(), Phase::Auction);
    act(&mut g, S1, "3");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.hand().trump, Some(Strain::Trump(Suit::Hearts)));
    assert_eq!(
        g.decision(),
        Some(Decision {
            seat: S2,
            kind: DecisionKind::Play
        })
    );
    assert_eq!(
        g.hand().bids,
        BySeat([Some(lv(2)), Some(lv(3)), Some(lv(6)), Some(lv(2))])
    );
    // Hearts win even when led by nobody: seat 1 (all hearts) takes every trick.
    play_out(&mut g);
    assert_eq!(g.hand().tricks_won, BySeat([0, 13, 0, 0]));
}

#[test]
fn four_hundred_min_bid_by_own_score() {
    // docs/rules.md#individual-min-bid (400): 2 below 30, 3 from 30, 4 from 40, 5 from 50;
    // maximum 13.
    let i = ind_400();
    for (score, min) in [
        (-40, 2),
        (0, 2),
        (29, 2),
        (30, 3),
        (39, 3),
        (40, 4),
        (49, 4),
        (50, 5),
        (120, 5),
    ] {
        let mut out = MoveList::new();
        individual_legal(&i, score, &mut out);
        let first = out.iter().next().unwrap().to_string();
        let last = out.iter().last().unwrap().to_string();
        assert_eq!(
            (first, last),
            (min.to_string(), "13".to_string()),
            "{score}"
        );
        assert_eq!(out.len(), 14 - min, "{score}");
    }
}

#[test]
fn four_hundred_bid_sum_thresholds() {
    // docs/rules.md#individual-bid-sum (400): 11, 12, 13 or 14 by the highest score at the
    // table (below 30, from 30, 40, 50).
    let i = ind_400();
    let bids = BySeat([lv(2), lv(3), lv(4), lv(2)]);
    for (highest, needed) in [
        (0, 11),
        (29, 11),
        (30, 12),
        (39, 12),
        (40, 13),
        (49, 13),
        (50, 14),
        (77, 14),
    ] {
        assert_eq!(individual_sum(&i, bids, highest), (11, needed), "{highest}");
    }
}

#[test]
fn four_hundred_bid_sum_too_low_next_dealer_no_score() {
    // docs/rules.md#individual-bid-sum: too low a total, the hand is thrown in unscored and the
    // next dealer deals.
    let mut g = Game::new(Rules::four_hundred(), S3);
    g.deal(suit_per_seat());
    let h = script(&mut g, "0:2 1:2 2:2 3:4").hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::BidSumTooLow {
            sum: 10,
            needed: 11
        }
    );
    assert_eq!(h.seat_delta, BySeat([0; 4]));
    assert_eq!(g.seat_scores(), BySeat([0; 4]));
    assert!(g.needs_deal());
    assert_eq!(g.dealer(), S0, "the next dealer deals");
    // A total of exactly 11 is played.
    g.deal(suit_per_seat());
    script(&mut g, "1:2 2:2 3:2 0:5");
    assert_eq!(g.phase(), Phase::Play);
}

#[test]
fn four_hundred_bid_sum_option_big_bids_double() {
    // docs/rules.md#individual-sum-counts-big-bids-double: bids of 7+ count double.
    let mut i = ind_400();
    let bids = BySeat([lv(7), lv(2), lv(2), lv(2)]);
    assert_eq!(individual_sum(&i, bids, 55), (13, 14));
    i.sum_counts_big_bids_double = true;
    assert_eq!(individual_sum(&i, bids, 55), (20, 14));
    assert_eq!(individual_sum(&i, BySeat([lv(6); 4]), 55), (24, 14));
    // In a game (Forty-One, where 7 1 1 1 is short of 11 unless the 7 counts double).
    let mut g = Game::new(Rules::forty_one(), S3);
    g.deal(suit_per_seat());
    let h = script(&mut g, "0:7 1:1 2:1 3:1").hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::BidSumTooLow {
            sum: 10,
            needed: 11
        }
    );
    let r = individual_rules(Rules::forty_one(), |i| i.sum_counts_big_bids_double = true);
    let mut g = Game::new(r, S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:1 2:1 3:1");
    assert_eq!(g.phase(), Phase::Play);
}

#[test]
fn four_hundred_points_table() {
    // docs/rules.md#individual-points (400 table), docs/rules.md#individual-scoring: made, plus
    // the table value; failed, minus it.
    let i = ind_400();
    for (bid, points) in [
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 10),
        (6, 12),
        (7, 14),
        (8, 16),
        (9, 27),
        (10, 30),
        (11, 33),
        (12, 36),
    ] {
        let bids = BySeat([lv(bid), lv(2), lv(2), lv(2)]);
        let made = individual_score(&i, bids, BySeat([bid, 13 - bid, 0, 0]), no_renege());
        assert_eq!(made.delta[S0], points, "bid {bid} made");
        let over = individual_score(&i, bids, BySeat([13, 0, 0, 0]), no_renege());
        assert_eq!(over.delta[S0], points, "bid {bid} with overtricks");
        let failed = individual_score(&i, bids, BySeat([bid - 1, 14 - bid, 0, 0]), no_renege());
        assert_eq!(failed.delta[S0], -points, "bid {bid} failed");
        assert_eq!(made.instant_winner, None);
    }
}

#[test]
fn four_hundred_points_in_play() {
    // docs/rules.md#individual-scoring: made, plus the table value of the bid; failed, minus it.
    let mut g = Game::new(Rules::four_hundred(), S3);
    let h = individual_hand(
        &mut g,
        split_deal(S0, S1, Suit::Hearts, Suit::Spades, 7),
        "0:6 1:5 2:2 3:2",
    );
    assert_eq!(h.end, HandEnd::Played);
    assert_eq!(g.hand().tricks_won, BySeat([7, 6, 0, 0]));
    assert_eq!(h.seat_delta, BySeat([12, 10, -2, -2]));
    assert_eq!(g.seat_scores(), BySeat([12, 10, -2, -2]));
    assert_eq!(g.team_totals(), ByTeam([10, 8]));
    assert_eq!(g.dealer(), S0);
}

#[test]
fn four_hundred_other_points_table_option() {
    // docs/rules.md#individual-points: other published tables (x1 for 2-4, x2 for 5-8, x3 for
    // 9-10, x4 for 11-13).
    let mut table = [None; 14];
    for (b, slot) in table.iter_mut().enumerate().skip(2) {
        let m = match b {
            2..=4 => 1,
            5..=8 => 2,
            9..=10 => 3,
            _ => 4,
        };
        *slot = Some(m * b as i32);
    }
    let r = individual_rules(Rules::four_hundred(), |i| {
        i.points = PointsTable(table);
        i.thirteen = Thirteen::Points;
    });
    let i = r.individual.unwrap();
    for (bid, points) in [
        (4, 4),
        (5, 10),
        (8, 16),
        (9, 27),
        (10, 30),
        (11, 44),
        (13, 52),
    ] {
        let bids = BySeat([lv(bid), lv(2), lv(2), lv(2)]);
        let s = individual_score(&i, bids, BySeat([bid, 13 - bid, 0, 0]), no_renege());
        assert_eq!(s.delta[S0], points, "bid {bid}");
        assert_eq!(s.instant_winner, None);
    }
}

#[test]
fn four_hundred_bid_13_made_wins_at_once() {
    // docs/rules.md#individual-thirteen (instant): a made 13 wins the game at once.
    let s = individual_score(
        &ind_400(),
        BySeat([lv(2), lv(13), lv(2), lv(2)]),
        BySeat([0, 13, 0, 0]),
        no_renege(),
    );
    assert_eq!(s.instant_winner, Some(T1));
    let mut g = Game::new(Rules::four_hundred(), S3);
    let h = individual_hand(
        &mut g,
        split_deal(S0, S1, Suit::Hearts, Suit::Spades, 13),
        "0:13 1:2 2:2 3:2",
    );
    assert_eq!(h.instant_winner, Some(T0));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Instant,
            hands: 1
        })
    );
}

#[test]
fn four_hundred_bid_13_failed_opponents_win() {
    // docs/rules.md#individual-thirteen (instant): a failed 13, the opponents win.
    let mut g = Game::new(Rules::four_hundred(), S3);
    let h = individual_hand(
        &mut g,
        split_deal(S0, S1, Suit::Hearts, Suit::Spades, 12),
        "0:13 1:2 2:2 3:2",
    );
    assert_eq!(h.instant_winner, Some(T1));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T1),
            reason: EndReason::Instant,
            hands: 1
        })
    );
}

#[test]
fn four_hundred_failed_13s_of_both_partnerships_cancel() {
    // docs/rules.md#several-thirteens: failed 13s of both partnerships cancel.
    let mut g = Game::new(Rules::four_hundred(), S3);
    let h = individual_hand(
        &mut g,
        split_deal(S0, S1, Suit::Hearts, Suit::Spades, 7),
        "0:13 1:13 2:2 3:2",
    );
    assert_eq!(h.instant_winner, None);
    assert_eq!(h.seat_delta, BySeat([0, 0, -2, -2]));
    assert!(!g.is_over());
    // Two failed 13s in one partnership do not cancel: the other partnership wins.
    let s = individual_score(
        &ind_400(),
        BySeat([lv(13), lv(2), lv(13), lv(2)]),
        BySeat([6, 0, 7, 0]),
        no_renege(),
    );
    assert_eq!(s.instant_winner, Some(T1));
}

#[test]
fn four_hundred_partner_positive_min_bids_and_sums_over_a_game() {
    // docs/rules.md#individual-partner: 41+ wins only with a positive partner; the minimum bid
    // (docs/rules.md#individual-min-bid) and the bid total (docs/rules.md#individual-bid-sum)
    // follow the scores over a game.
    let mut g = Game::new(Rules::four_hundred(), S3);
    let hearts = |a, b, w| split_deal(a, b, Suit::Hearts, Suit::Spades, w);
    // Hand 1, dealer 3.
    individual_hand(&mut g, hearts(S0, S1, 12), "0:12 1:2 2:2 3:2");
    assert_eq!(g.seat_scores(), BySeat([36, -2, -2, -2]));
    // Hand 2, dealer 0: seat 0 (36) must bid 3+; the total must reach 12.
    g.deal(suit_per_seat());
    script(&mut g, "1:2 2:2 3:2");
    assert_eq!(legal(&g)[0], "3");
    assert!(is_not_legal(reject_text(&mut g, S0, "2")));
    let h = act(&mut g, S0, "5").hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::BidSumTooLow {
            sum: 11,
            needed: 12
        }
    );
    assert_eq!(g.dealer(), S1);
    // Hand 3, dealer 1: seat 0 reaches 46, but its partner is negative.
    let h = individual_hand(&mut g, hearts(S0, S2, 5), "2:9 3:2 0:5 1:2");
    assert_eq!(h.seat_delta, BySeat([10, -2, -27, -2]));
    assert_eq!(g.seat_scores(), BySeat([46, -4, -29, -4]));
    assert!(!g.is_over(), "partner at -29");
    // Hand 4, dealer 2: seat 0 (46) must bid 4+ and fails; seat 2 climbs to 1.
    g.deal(hearts(S2, S3, 10));
    act(&mut g, S3, "2");
    assert_eq!(legal(&g)[0], "4");
    script(&mut g, "0:4 1:2 2:10");
    let h = play_out(&mut g);
    assert_eq!(h.seat_delta, BySeat([-4, -2, 30, 2]));
    assert_eq!(g.seat_scores(), BySeat([42, -6, 1, -2]));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Target,
            hands: 4
        })
    );
}

#[test]
fn four_hundred_partner_rule_and_non_negative_option() {
    // docs/rules.md#individual-partner: a partner above 0, or the option 0 or more.
    let i = ind_400();
    let w = |s: [i32; 4]| individual_winner(&i, 41, BySeat(s));
    assert_eq!(w([41, 0, 5, 0]), Some(T0));
    assert_eq!(w([40, 0, 5, 0]), None);
    assert_eq!(w([41, 0, 0, 0]), None, "partner at 0");
    assert_eq!(w([60, 0, -3, 0]), None, "partner negative");
    assert_eq!(w([3, 1, 2, 44]), Some(T1));
    let mut nn = ind_400();
    nn.partner = PartnerRule::NonNegative;
    assert_eq!(individual_winner(&nn, 41, BySeat([41, 0, 0, 0])), Some(T0));
    assert_eq!(individual_winner(&nn, 41, BySeat([41, 0, -1, 0])), None);
    // In a game: seat 0 reaches 41 exactly with its partner at 0.
    for (partner, over) in [
        (PartnerRule::Positive, false),
        (PartnerRule::NonNegative, true),
    ] {
        let r = individual_rules(Rules::four_hundred(), |i| i.partner = partner);
        let mut g = Game::new(r, S3);
        // Hand 1: seats 0 and 2 take 12 and 1 tricks; seat 2 bids 2 and fails (-2).
        individual_hand(
            &mut g,
            split_deal(S0, S2, Suit::Hearts, Suit::Spades, 12),
            "0:12 1:2 2:2 3:2",
        );
        assert_eq!(g.seat_scores(), BySeat([36, -2, -2, -2]));
        // Hand 2, dealer 0: thrown in (11 < 12).
        g.deal(suit_per_seat());
        script(&mut g, "1:2 2:2 3:2 0:5");
        assert_eq!(g.dealer(), S1, "11 < 12: thrown in");
        // Hand 3, dealer 1, seat 2 leads: seat 2 takes 2 (+2 = 0), seat 0 takes 11 (+33 = 69).
        individual_hand(
            &mut g,
            split_deal(S2, S0, Suit::Hearts, Suit::Spades, 2),
            "2:2 3:2 0:11 1:2",
        );
        assert_eq!(g.seat_scores(), BySeat([69, -4, 0, -4]));
        assert_eq!(g.is_over(), over, "{partner}");
        if over {
            assert_eq!(g.result().unwrap().winner, Some(T0));
        }
    }
}

#[test]
fn four_hundred_both_partnerships_play_on_to_51() {
    // docs/rules.md#individual-both-reach-target (play-on) and
    // docs/rules.md#individual-play-on-target: both partnerships qualify, play on to 51 or until
    // one drops below 41; both at 51, the higher individual score; a tie plays on.
    let i = ind_400();
    assert_eq!(i.play_on_target, 51);
    let w = |s: [i32; 4]| individual_winner(&i, 41, BySeat(s));
    assert_eq!(w([45, 44, 1, 1]), None, "both qualify: play on");
    assert_eq!(w([50, 50, 1, 1]), None);
    assert_eq!(w([50, 45, 1, 1]), None, "50 is not 51");
    assert_eq!(w([41, 50, 1, 1]), None);
    assert_eq!(w([51, 44, 1, 1]), Some(T0), "a player reaches 51");
    assert_eq!(w([48, 1, 1, 53]), Some(T1));
    assert_eq!(w([52, 51, 1, 1]), Some(T0), "both at 51: higher individual");
    assert_eq!(w([51, 55, 1, 1]), Some(T1));
    assert_eq!(w([51, 51, 1, 1]), None, "a tie plays on");
    assert_eq!(w([45, 40, 1, 1]), Some(T0), "one drops below 41");
    assert_eq!(w([30, 47, 1, 1]), Some(T1));
    // 51 needs a positive partner too.
    assert_eq!(w([55, 45, 3, -1]), Some(T0));
}

/// Plays out a 400 hand after `bids`, seat 0 taking two strikes (a renege), seat 1 one, seat 2
/// playing at the limit exactly (no strike); `s0_tricks` tricks for seat 0, the rest for seat 1.
fn renege_hand(rules: Rules, bids: &str, s0_tricks: usize) -> (Game, HandResult) {
    let mut g = Game::new(rules, S3);
    g.deal(split_deal(S0, S1, Suit::Hearts, Suit::Spades, s0_tricks));
    script(&mut g, bids);
    let mut plays = BySeat([0u32; 4]);
    let h = loop {
        let d = g.decision().unwrap();
        let c = g.legal_cards().lowest().unwrap();
        let n = plays[d.seat];
        plays[d.seat] += 1;
        let millis = match d.seat {
            S0 if n < 2 => 10_001,  // two strikes
            S1 if n == 0 => 60_000, // one strike only
            S2 => 10_000,           // at the limit: no strike
            _ => 0,
        };
        if let Some(h) = g.apply_timed(d.seat, Move::Play(c), millis).unwrap().hand {
            break h;
        }
    };
    (g, h)
}

fn literal_renege() -> Rules {
    individual_rules(Rules::four_hundred(), |i| {
        i.slow_play.as_mut().expect("400 has the rule").renege = Renege::ScoresZero;
    })
}

#[test]
fn four_hundred_ten_second_rule_two_strikes_renege() {
    // docs/rules.md#individual-slow-play: over 10 s is a strike; 2 strikes in one hand make a
    // renege.
    assert_eq!(
        Rules::four_hundred().individual.unwrap().slow_play,
        Some(SlowPlay {
            limit_ms: 10_000,
            strikes: 2,
            renege: Renege::Penalty,
        })
    );
    // Seat 0 makes a bid of 6 with 7 tricks: +12 if it counted, 0 after the renege.
    let (g, h) = renege_hand(Rules::four_hundred(), "0:6 1:5 2:2 3:2", 7);
    assert_eq!(g.hand().strikes, BySeat([2, 1, 0, 0]));
    assert_eq!(h.reneged, BySeat([true, false, false, false]));
    assert_eq!(h.seat_delta, BySeat([0, 10, -2, -2]));
}

#[test]
fn four_hundred_renege_never_helps_a_failing_bid() {
    // docs/rules.md#individual-slow-play: a renege never helps; a made bid scores nothing, a
    // failed bid still costs its value.
    // Seat 0 bids 8 and takes 7: failed, -16, reneged or not (stalling does not dodge it).
    let (_, h) = renege_hand(Rules::four_hundred(), "0:8 1:5 2:2 3:2", 7);
    assert_eq!(h.reneged, BySeat([true, false, false, false]));
    assert_eq!(h.seat_delta, BySeat([-16, 10, -2, -2]));
    // Forty-One too: 8 failed costs 16 ("7-13 double it"; seat 1's 5 made is worth its face).
    let (_, h) = renege_hand(Rules::forty_one(), "0:8 1:5 2:2 3:2", 7);
    assert_eq!(h.reneged, BySeat([true, false, false, false]));
    assert_eq!(h.seat_delta, BySeat([-16, 5, -2, -2]));
    // docs/rules.md#individual-slow-play: the literal reading, a renege scores 0 whatever happened.
    let (_, h) = renege_hand(literal_renege(), "0:8 1:5 2:2 3:2", 7);
    assert_eq!(h.seat_delta, BySeat([0, 10, -2, -2]));
}

#[test]
fn four_hundred_renege_on_a_thirteen() {
    // docs/rules.md#individual-slow-play: a failed 13 still loses the game (a made 13 by a player
    // who reneged wins nothing).
    // Seat 0 bids 13 and takes 12: the failed 13 loses the game for team 0 (seats 0 and 2).
    let (g, h) = renege_hand(Rules::four_hundred(), "0:13 1:2 2:2 3:2", 12);
    assert_eq!(h.reneged, BySeat([true, false, false, false]));
    assert_eq!(h.instant_winner, Some(T1));
    let over = g.result().expect("the failed 13 ends the game");
    assert_eq!(over.winner, Some(T1));
    // Seat 0 bids 13 and takes all 13: made, but after a renege it wins nothing.
    let (g, h) = renege_hand(Rules::four_hundred(), "0:13 1:2 2:2 3:2", 13);
    assert_eq!(h.reneged, BySeat([true, false, false, false]));
    assert_eq!(h.instant_winner, None);
    assert_eq!(h.seat_delta[S0], 0);
    assert!(g.result().is_none(), "a reneged 13 decides nothing");
    // The literal reading: the reneged 13 decides nothing, made or failed.
    let (g, h) = renege_hand(literal_renege(), "0:13 1:2 2:2 3:2", 12);
    assert_eq!(h.instant_winner, None);
    assert_eq!(h.seat_delta[S0], 0);
    assert!(g.result().is_none());
}

#[test]
fn four_hundred_ten_second_rule_options_and_separate_from_bids() {
    // docs/rules.md#individual-slow-play: the limit and the strike count are options.
    let r = individual_rules(Rules::four_hundred(), |i| {
        i.slow_play = Some(SlowPlay {
            limit_ms: 5_000,
            strikes: 1,
            renege: Renege::Penalty,
        })
    });
    let mut g = Game::new(r, S3);
    g.deal(split_deal(S0, S1, Suit::Hearts, Suit::Spades, 7));
    script(&mut g, "0:6 1:5 2:2 3:2");
    let mut first = true;
    let h = loop {
        let d = g.decision().unwrap();
        let c = g.legal_cards().lowest().unwrap();
        let millis = if d.seat == S1 && first {
            first = false;
            5_001
        } else {
            4_999
        };
        if let Some(h) = g.apply_timed(d.seat, Move::Play(c), millis).unwrap().hand {
            break h;
        }
    };
    assert_eq!(h.reneged, BySeat([false, true, false, false]));
    assert_eq!(h.seat_delta, BySeat([12, 0, -2, -2]));
    // Without slow-play (classic) time is ignored.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(split_deal(S0, S1, Suit::Spades, Suit::Hearts, 8));
    auction_won_by(&mut g, S0, "8");
    act(&mut g, S0, "S");
    let c = g.legal_cards().lowest().unwrap();
    g.apply_timed(S0, Move::Play(c), 1_000_000).unwrap();
    assert_eq!(g.hand().strikes, BySeat([0; 4]));
}

// ---------------------------------------------------------------------------------------------
// Forty-One
// ---------------------------------------------------------------------------------------------

#[test]
fn forty_one_min_bid_1_and_sum_11_whatever_the_scores() {
    // docs/rules.md#individual-min-bid, docs/rules.md#individual-bid-sum (Forty-One): bids from 1,
    // a total of 11 or more whatever the scores.
    let i = ind_41();
    for score in [-10, 0, 35, 45, 60] {
        let mut out = MoveList::new();
        individual_legal(&i, score, &mut out);
        assert_eq!(out.len(), 13, "{score}");
        assert_eq!(out.iter().next().unwrap().to_string(), "1");
        let bids = BySeat([lv(4), lv(4), lv(2), lv(1)]);
        assert_eq!(individual_sum(&i, bids, score), (11, 11), "{score}");
    }
    let mut g = Game::new(Rules::forty_one(), S2);
    g.deal(suit_per_seat());
    assert_eq!(legal(&g)[0], "1");
    let h = script(&mut g, "3:1 0:4 1:4 2:1").hand.unwrap();
    assert_eq!(
        h.end,
        HandEnd::BidSumTooLow {
            sum: 10,
            needed: 11
        }
    );
    assert_eq!(g.dealer(), S3);
}

#[test]
fn forty_one_points_table_no_instant_win() {
    // docs/rules.md#individual-points (Forty-One): 1-6 face value, 7-13 double;
    // docs/rules.md#individual-thirteen: no instant win.
    let i = ind_41();
    for bid in 1..=13u8 {
        let points = if bid <= 6 { bid as i32 } else { 2 * bid as i32 };
        let bids = BySeat([lv(bid), lv(1), lv(1), lv(1)]);
        let made = individual_score(&i, bids, BySeat([bid, 13 - bid, 0, 0]), no_renege());
        assert_eq!(made.delta[S0], points, "bid {bid}");
        assert_eq!(made.instant_winner, None);
        let failed = individual_score(&i, bids, BySeat([bid - 1, 14 - bid, 0, 0]), no_renege());
        assert_eq!(failed.delta[S0], -points, "bid {bid} failed");
        assert_eq!(failed.instant_winner, None);
    }
}

#[test]
fn forty_one_both_reach_higher_total_wins_tie_plays_on() {
    // docs/rules.md#individual-both-reach-target (higher-total): the higher partnership total
    // wins; a tie plays on.
    let i = ind_41();
    let w = |s: [i32; 4]| individual_winner(&i, 41, BySeat(s));
    assert_eq!(w([45, 44, 1, 1]), Some(T0));
    assert_eq!(w([41, 60, 30, 1]), Some(T0), "total, not the best player");
    assert_eq!(w([44, 45, 2, 1]), None, "equal totals play on");
    assert_eq!(
        w([44, 45, 2, 0]),
        Some(T0),
        "seat 1's partner is not positive"
    );
}

#[test]
fn forty_one_game_both_reach_on_one_hand() {
    // docs/rules.md#individual-both-reach-target (higher-total), docs/rules.md#individual-thirteen
    // (points): no instant win.
    let mut g = Game::new(Rules::forty_one(), S1);
    let hearts = |a, b, w| split_deal(a, b, Suit::Hearts, Suit::Spades, w);
    individual_hand(&mut g, hearts(S2, S3, 7), "2:7 3:6 0:1 1:1");
    assert_eq!(g.seat_scores(), BySeat([-1, -1, 14, 6]));
    individual_hand(&mut g, suit_per_seat(), "3:1 0:1 1:1 2:1");
    let h = individual_hand(&mut g, hearts(S0, S1, 13), "0:13 1:1 2:1 3:1");
    assert_eq!(h.instant_winner, None, "13 is just 26 points");
    assert_eq!(g.seat_scores(), BySeat([25, -2, 13, 5]));
    individual_hand(&mut g, hearts(S1, S0, 13), "1:13 2:1 3:1 0:1");
    assert_eq!(g.seat_scores(), BySeat([24, 24, 12, 4]));
    individual_hand(&mut g, suit_per_seat(), "2:1 3:1 0:1 1:1");
    individual_hand(&mut g, suit_per_seat(), "3:1 0:1 1:1 2:1");
    individual_hand(&mut g, hearts(S0, S1, 7), "0:7 1:6 2:1 3:1");
    assert_eq!(g.seat_scores(), BySeat([38, 30, 11, 3]));
    assert!(!g.is_over());
    individual_hand(&mut g, hearts(S1, S0, 7), "1:7 2:1 3:1 0:6");
    assert_eq!(g.seat_scores(), BySeat([44, 44, 10, 2]));
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Some(T0),
            reason: EndReason::Target,
            hands: 8
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Further edge cases
// ---------------------------------------------------------------------------------------------

#[test]
fn classic_single_round_all_pass_same_dealer() {
    // docs/rules.md#contract-all-pass: all four pass, the same dealer redeals (single-round too).
    let r = contract_rules(Rules::classic(), |c| c.auction = AuctionForm::SingleRound);
    let mut g = Game::new(r, S0);
    g.deal(suit_per_seat());
    let h = script(&mut g, "1:pass 2:pass 3:pass 0:pass").hand.unwrap();
    assert_eq!(h.end, HandEnd::AllPassed { same_dealer: true });
    assert_eq!(g.dealer(), S0);
}

#[test]
fn classic_elimination_last_bidder_after_three_passes() {
    // docs/rules.md#contract-auction (elimination): it ends when all but the high bidder have
    // passed.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:pass 1:pass 2:pass");
    assert_eq!(g.phase(), Phase::Auction, "the dealer has not spoken");
    act(&mut g, S3, "7");
    assert_eq!(g.phase(), Phase::Trump, "everyone else is out");
    assert_eq!(g.hand().contract.unwrap().declarer, S3);
    // Bid, outbid, and the first bidder passes out in the second round.
    let mut g = Game::new(Rules::classic(), S3);
    g.deal(suit_per_seat());
    script(&mut g, "0:7 1:pass 2:pass 3:8");
    assert_eq!(g.decision().unwrap().seat, S0);
    act(&mut g, S0, "pass");
    assert_eq!(g.hand().contract.unwrap().declarer, S3);
    assert_eq!(g.hand().contract.unwrap().bid.level, lv(8));
}

#[test]
fn max_hands_counts_throw_ins() {
    // docs/rules.md#max-hands: redeals and throw-ins count.
    let mut r = contract_rules(Rules::classic(), |c| c.throw_in_weak_hand = true);
    r.max_hands = 1;
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    let a = act(&mut g, S1, "throw-in");
    assert_eq!(
        a.game,
        Some(GameResult {
            winner: None,
            reason: EndReason::HandCap,
            hands: 1
        })
    );
}

#[test]
fn egyptian_dakak_in_both_teams_everyone_from_8() {
    // docs/rules.md#dakak-reading: with a Dakak player in each team, both bid from 8.
    let r = contract_rules(Rules::egyptian(), |c| c.dakak = true);
    let mut g = Game::new(r, S3);
    g.deal(deal([
        "AC 9S 8S 7S 6S 5S 9H 8H 7H 6H 9D 8D 7D",
        "4S 3S 2S 5H 4H 3H 2H 6D 5D 4D 3D 2D 9C",
        "AS KS QS JS TS AH KH QH JH TH AD KD QD",
        "JD TD KC QC JC TC 8C 7C 6C 5C 4C 3C 2C",
    ]));
    assert_eq!(
        g.view(S3).announcements,
        vec![
            Announcement {
                seat: S0,
                kind: "dakak"
            },
            Announcement {
                seat: S1,
                kind: "dakak"
            }
        ]
    );
    assert_eq!(legal(&g)[..3], words("pass 8C 8D")[..]);
    act(&mut g, S0, "pass");
    assert_eq!(legal(&g)[..3], words("pass 8C 8D")[..]);
    assert!(is_not_legal(reject_text(&mut g, S1, "7NT")));
}

#[test]
fn dealer_forced_7_out_of_call_dealer_may_pass() {
    // docs/rules.md#dealer-forced-7-reading: a dealer with no legal bid (Out of Call,
    // docs/rules.md#contract-out-of-call) may pass, and the all-pass rule applies.
    let r = contract_rules(Rules::egyptian(), |c| {
        c.out_of_call = true;
        c.dealer_forced_7 = true;
    });
    let mut g = Game::new(r, S3);
    g.deal(deal(DEAL_W));
    script(&mut g, "0:pass 1:pass 2:pass");
    assert_eq!(legal(&g), words("pass"));
    let h = act(&mut g, S3, "pass").hand.unwrap();
    assert_eq!(h.end, HandEnd::AllPassed { same_dealer: true });
    // An ordinary dealer is forced.
    let r = contract_rules(Rules::egyptian(), |c| c.dealer_forced_7 = true);
    let mut g = Game::new(r, S2);
    g.deal(deal(DEAL_W));
    script(&mut g, "3:pass 0:pass 1:pass");
    assert_eq!(legal(&g)[0], "7C");
    assert!(is_not_legal(reject_text(&mut g, S2, "pass")));
}
