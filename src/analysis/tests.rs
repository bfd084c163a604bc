//! DDS against hands whose answers are obvious, and against an independent brute-force search
//! of our own on small endings.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::*;
use crate::rules::{BySeat, Card, CardSet, Seat, Strain, Suit};

fn set(cards: &str) -> CardSet {
    cards
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

fn card(c: &str) -> Card {
    c.parse().unwrap()
}

fn whole_suits() -> BySeat<CardSet> {
    BySeat([
        CardSet::suit(Suit::Spades),
        CardSet::suit(Suit::Hearts),
        CardSet::suit(Suit::Diamonds),
        CardSet::suit(Suit::Clubs),
    ])
}

#[test]
fn all_the_trumps_take_every_trick_whoever_leads() {
    let mut dd = DdSolver::new();
    for leader in Seat::ALL {
        let p = Position::new(whole_suits(), Some(Strain::Trump(Suit::Spades)), leader);
        let side_of_leader = dd.tricks(&p).unwrap();
        let expected = if leader.team() == Seat::S0.team() {
            13
        } else {
            0
        };
        assert_eq!(side_of_leader, expected, "leader {leader}");
    }
}

#[test]
fn at_no_trump_a_whole_suit_lets_its_holder_run_it_from_the_lead() {
    let mut dd = DdSolver::new();
    for leader in Seat::ALL {
        let p = Position::new(whole_suits(), Some(Strain::NoTrump), leader);
        assert_eq!(dd.tricks(&p).unwrap(), 13, "leader {leader}");
        let v = dd.card_values(&p).unwrap();
        assert_eq!(v.seat, leader);
        assert_eq!(v.values.len(), 13);
        assert!(v.values.iter().all(|&(_, t)| t == 13));
    }
}

#[test]
fn card_values_in_a_two_card_ending_with_a_trick_on_the_table() {
    // Hearts trump. Seat 0 led the KS, seat 1 played the 3S; seat 2 holds AS and 2H and must
    // follow with the ace, which wins; then its 2H is the only trump left: both tricks.
    let held = BySeat([set("QD"), set("4D"), set("AS 2H"), set("5S 3C")]);
    let mut p = Position::new(held, Some(Strain::Trump(Suit::Hearts)), Seat::S0);
    p.held[Seat::S0].insert(card("KS"));
    p.held[Seat::S1].insert(card("3S"));
    p.play(card("KS")).unwrap();
    p.play(card("3S")).unwrap();
    p.validate().unwrap();
    let v = DdSolver::new().card_values(&p).unwrap();
    assert_eq!(v.seat, Seat::S2);
    assert_eq!(v.value_of(card("AS")), Some(2));
    assert_eq!(v.value_of(card("2H")), None, "must follow spades");
    assert_eq!(v.best(), 2);
    assert_eq!(v.cost_of(card("AS")), Some(0));
}

#[test]
fn a_trump_named_by_the_first_lead_is_chosen_best() {
    // Seat 0 holds the top five spades and five small hearts; by first lead the leader picks
    // the trump with his lead. Leading a spade makes spades trump and takes all five tricks.
    let held = BySeat([
        set("AS KS QS JS TS"),
        set("2H 3H 4H 5H 6H"),
        set("2C 3C 4C 5C 6C"),
        set("7H 8H 9H TH JH"),
    ]);
    let p = Position::new(held, None, Seat::S0);
    let v = DdSolver::new().card_values(&p).unwrap();
    assert_eq!(v.best(), 5);
    assert_eq!(v.best_cards(), held[Seat::S0]);
}

#[test]
fn trump_first_lead_restricts_the_leader_to_trumps() {
    // Hearts trump; the leader holds one small trump and three side aces. Forced, he may lead
    // only the 2H; the value must be that card's value in the free position.
    let held = BySeat([
        set("2H AS AD AC"),
        set("3C 4C 5C 6C"),
        set("KH QH JH TH"),
        set("7C 8C 9C TC"),
    ]);
    let mut p = Position::new(held, Some(Strain::Trump(Suit::Hearts)), Seat::S0);
    let free = DdSolver::new().card_values(&p).unwrap();
    p.must_lead = Some(Suit::Hearts);
    let forced = DdSolver::new().card_values(&p).unwrap();
    assert_eq!(forced.values.len(), 1, "only the 2H may be led");
    assert_eq!(forced.values[0].0, card("2H"));
    assert_eq!(free.value_of(card("2H")), Some(forced.best()));
    assert_eq!(brute(&p, &mut HashMap::new()), forced.best());
}

type Key = ([u64; 4], u32, u8, u8);

/// A position's identity for the memo: hands, table cards (index + 1 per byte), leader,
/// trump and lead restriction.
fn key(p: &Position) -> Key {
    let table = p
        .table
        .plays()
        .fold(0u32, |k, (_, c)| (k << 8) | (u32::from(c.index()) + 1));
    let trump = match p.trump {
        None => 0,
        Some(Strain::NoTrump) => 1,
        Some(Strain::Trump(s)) => 2 + s.index() as u8,
    };
    let must = p.must_lead.map_or(0, |s| 1 + s.index() as u8);
    (
        Seat::ALL.map(|s| p.held[s].bits()),
        table,
        p.table.leader.index() as u8,
        trump * 8 + must,
    )
}

/// The tricks the side on turn takes with best play, by trying every card (memoized).
fn brute(p: &Position, memo: &mut HashMap<Key, u8>) -> u8 {
    if p.tricks_left() == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&key(p)) {
        return v;
    }
    let best = p
        .legal_cards()
        .iter()
        .map(|c| brute_value_of(p, c, memo))
        .max()
        .expect("a player on turn holds a card");
    memo.insert(key(p), best);
    best
}

/// The tricks the side on turn takes after playing `c`, with best play afterwards.
fn brute_value_of(p: &Position, c: Card, memo: &mut HashMap<Key, u8>) -> u8 {
    let me = p.to_play();
    let mut next = p.clone();
    let won = next.play(c).unwrap();
    let now = u8::from(won.is_some_and(|w| w.team() == me.team()));
    let left = next.tricks_left();
    let v = brute(&next, memo);
    now + if left == 0 || next.to_play().team() == me.team() {
        v
    } else {
        left - v
    }
}

/// The brute force's value of each legal card, sorted like [`CardValues`].
fn brute_values(p: &Position, memo: &mut HashMap<Key, u8>) -> Vec<(Card, u8)> {
    let mut out: Vec<(Card, u8)> = p
        .legal_cards()
        .iter()
        .map(|c| (c, brute_value_of(p, c, memo)))
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// A random ending: `n` cards each from a shuffled deck, a random trump (or none yet, or
/// trump-first-lead), then 0 to 3 random legal cards on the table.
fn random_ending(rng: &mut Pcg64, n: usize) -> Position {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    let held = BySeat([0, 1, 2, 3].map(|i| deck[i * n..(i + 1) * n].iter().copied().collect()));
    let trump = match rng.gen_range(0..7) {
        0 => None,
        1 => Some(Strain::NoTrump),
        k => Some(Strain::Trump(Suit::from_index(k - 2))),
    };
    let mut p = Position::new(held, trump, Seat::from_index(rng.gen_range(0..4)));
    if rng.gen_range(0..4) == 0 {
        p.must_lead = Some(Suit::from_index(rng.gen_range(0..4)));
        return p;
    }
    if trump.is_some() {
        for _ in 0..rng.gen_range(0..4) {
            let legal: Vec<Card> = p.legal_cards().iter().collect();
            p.play(*legal.choose(rng).unwrap()).unwrap();
        }
    }
    p
}

#[test]
fn dds_agrees_with_brute_force_on_random_endings_of_three_to_five_cards() {
    let mut rng = Pcg64::seed_from_u64(15);
    let mut dd = DdSolver::new();
    let mut batch = Vec::new();
    for i in 0..150 {
        let n = 3 + i % 3;
        let p = random_ending(&mut rng, n);
        let mut memo = HashMap::new();
        let want = brute_values(&p, &mut memo);
        let got = dd.card_values(&p).unwrap();
        assert_eq!(got.values, want, "position {p:?}");
        assert_eq!(
            dd.tricks(&p).unwrap(),
            brute(&p, &mut memo),
            "position {p:?}"
        );
        batch.push((p, want));
    }
    let positions: Vec<Position> = batch.iter().map(|(p, _)| p.clone()).collect();
    for (got, (p, want)) in card_values_many(&positions).into_iter().zip(&batch) {
        assert_eq!(&got.unwrap().values, want, "batched, position {p:?}");
    }
    let best = |want: &[(Card, u8)]| -> (u8, CardSet) {
        let top = want[0].1;
        (
            top,
            want.iter().filter(|w| w.1 == top).map(|w| w.0).collect(),
        )
    };
    for (got, (p, want)) in solve_many(&positions, Want::BestCards)
        .into_iter()
        .zip(&batch)
    {
        let got = got.unwrap();
        assert_eq!(
            (got.best(), got.best_cards()),
            best(want),
            "best cards, {p:?}"
        );
    }
    // With the value known, as the whole-game analysis asks for the cards that cost nothing.
    let known: Vec<(Position, u8)> = batch.iter().map(|(p, w)| (p.clone(), w[0].1)).collect();
    for (got, (p, want)) in best_cards_many(&known).into_iter().zip(&batch) {
        let got = got.unwrap();
        assert_eq!(
            (got.best(), got.best_cards()),
            best(want),
            "best cards at a known value, {p:?}"
        );
    }
    for (got, (p, want)) in solve_many(&positions, Want::Best).into_iter().zip(&batch) {
        let got = got.unwrap();
        assert_eq!(got.best(), best(want).0, "best value, {p:?}");
        assert!(best(want).1.contains(got.values[0].0), "{p:?}");
    }
}

#[test]
fn bad_positions_are_errors_not_panics() {
    let mut p = Position::new(whole_suits(), Some(Strain::NoTrump), Seat::S0);
    p.held[Seat::S1].remove(card("2H"));
    assert!(DdSolver::new().card_values(&p).is_err());
    let empty = Position::new(BySeat([CardSet::EMPTY; 4]), Some(Strain::NoTrump), Seat::S0);
    assert_eq!(DdSolver::new().tricks(&empty), Ok(0));
    assert!(card_values_many(&[empty, p]).iter().all(Result::is_err));
}

/// A deal whose strain table is solved by hand. Seat 0 declares with twelve hearts (ace to
/// three) and the 2C; his partner, seat 2, holds the twelve top clubs and the 2D; seat 1 all
/// thirteen spades; seat 3 the 2H and the twelve top diamonds.
fn first_lead_deal() -> BySeat<CardSet> {
    let suit = |s: Suit| CardSet::suit(s);
    let (two_c, two_d, two_h) = (set("2C"), set("2D"), set("2H"));
    BySeat([
        suit(Suit::Hearts).minus(two_h).union(two_c),
        suit(Suit::Spades),
        suit(Suit::Clubs).minus(two_c).union(two_d),
        suit(Suit::Diamonds).minus(two_d).union(two_h),
    ])
}

#[test]
fn the_first_lead_strain_table_forces_the_lead_into_the_trump_and_skips_missing_suits() {
    // docs/rules.md#contract-trump (first-lead): no naming; the suit of the declarer's first lead
    // becomes trump. So "declarer's tricks with clubs as trump" is what he makes leading a club,
    // and a suit he does not hold cannot be trump at all. Solved by hand:
    // - hearts: he leads hearts, seat 3's 2H falls, the twelve hearts win (seat 2 throws the
    //   2D), then the 2C goes to partner's club: 13.
    // - clubs: he must lead the 2C; partner wins and runs eleven clubs, but the 2D loses and
    //   seat 0 never regains the lead for his hearts: 12. (A free lead, the old table's, runs
    //   the hearts first, partner throwing the 2D: 13, more than the rules allow.)
    // - spades and diamonds: he holds none, so they are not in the table.
    let hands = first_lead_deal();
    let mut rules = crate::rules::Rules::classic().contract.unwrap();
    rules.trump = crate::rules::TrumpChoice::FirstLead;
    let table = strain_table(hands, Seat::S0, &rules);
    let strains: Vec<Strain> = table.iter().map(|(s, _)| *s).collect();
    let hearts = Strain::Trump(Suit::Hearts);
    let clubs = Strain::Trump(Suit::Clubs);
    assert_eq!(strains, [clubs, hearts], "only the suits seat 0 holds");
    let positions: Vec<Position> = table.iter().map(|(_, p)| p.clone()).collect();
    let tricks: Vec<u8> = solve_many(&positions, Want::Best)
        .into_iter()
        .map(|r| r.unwrap().best())
        .collect();
    assert_eq!(tricks, [12, 13]);
    // The clubs entry is the value of the 2C lead with the trump left to the lead (the par's
    // own position), and the par is the table's best entry.
    let par = Position::new(hands, None, Seat::S0);
    let values = DdSolver::new().card_values(&par).unwrap();
    assert_eq!(values.value_of(card("2C")), Some(12));
    assert_eq!(values.best(), *tricks.iter().max().unwrap());
    // With the trump named by the declarer instead, clubs is solved with a free lead (13)
    // and every suit is listed.
    rules.trump = crate::rules::TrumpChoice::DeclarerNames;
    let named = strain_table(hands, Seat::S0, &rules);
    assert_eq!(named.len(), 4);
    let free = &named.iter().find(|(s, _)| *s == clubs).unwrap().1;
    assert_eq!(DdSolver::new().tricks(free), Ok(13));
}
