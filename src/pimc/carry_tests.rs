//! Issue 28, "What to build" 2: "samples carried from move to move and re-weighted by what was
//! seen". docs/rules.md#follow-suit: a player must follow suit if able, else may play any card;
//! docs/rules.md#trick-winner: the highest trump wins, else the highest card of the suit led.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use super::*;
use crate::pimc::decide::Table;
use crate::pimc::read_play::{ducks, DUCK};
use crate::rules::{Rules, Trick};

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

/// A deal of the whole deck at random, 13 cards a seat.
fn random_deal(rng: &mut Pcg64) -> Deal {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    BySeat(Seat::ALL.map(|s| deck[s.index() * 13..][..13].iter().copied().collect()))
}

/// Plays `n` cards at random, legally, from `dealt` (the tricks, the last maybe unfinished).
fn random_play(
    dealt: &Deal,
    leader: Seat,
    trump: Option<Suit>,
    n: usize,
    rng: &mut Pcg64,
) -> Vec<(Seat, Vec<Card>)> {
    let mut held = *dealt;
    let mut tricks: Vec<(Seat, Vec<Card>)> = vec![(leader, Vec::new())];
    let mut trick = Trick::new(leader);
    for _ in 0..n {
        if trick.is_complete() {
            let next = trick.winner(trump).unwrap();
            trick = Trick::new(next);
            tricks.push((next, Vec::new()));
        }
        let seat = trick.to_play();
        let follow = trick
            .led()
            .map_or(CardSet::EMPTY, |s| held[seat].of_suit(s));
        let legal: Vec<Card> = if follow.is_empty() {
            held[seat]
        } else {
            follow
        }
        .iter()
        .collect();
        let c = *legal.choose(rng).unwrap();
        held[seat].remove(c);
        trick.push(c);
        tricks.last_mut().unwrap().1.push(c);
    }
    tricks
}

/// Seat `me`'s view after `tricks` (the last one on the table unless it has four cards).
fn view_of(me: Seat, dealt: &Deal, tricks: &[(Seat, Vec<Card>)], trump: Suit) -> ViewIn {
    let mut held = *dealt;
    for (leader, cs) in tricks {
        for (i, &c) in cs.iter().enumerate() {
            held[leader.plus(i)].remove(c);
        }
    }
    let trick = |(l, cs): &(Seat, Vec<Card>)| {
        let cs: Vec<String> = cs.iter().map(|c| c.to_string()).collect();
        serde_json::json!({"leader": l, "cards": cs})
    };
    let (done, current) = match tricks.split_last() {
        Some((last, rest)) if last.1.len() < 4 => (rest, Some(trick(last))),
        _ => (tricks, None),
    };
    let hand: Vec<String> = held[me].iter().map(|c| c.to_string()).collect();
    let v = serde_json::json!({
        "seat": me, "dealer": Seat::S3, "hand": hand, "trump": trump,
        "tricks": done.iter().map(trick).collect::<Vec<_>>(), "current_trick": current,
        "cards_left": Seat::ALL.map(|s| held[s].len()),
    });
    serde_json::from_value(v).unwrap()
}

fn knowledge_of(view: &ViewIn) -> Knowledge {
    let rules = Rules::classic();
    let table = Table {
        rules: &rules,
        view,
        deadline: std::time::Instant::now(),
        max_samples: 0,
        read_bids: true,
        score_play: true,
        cancel: None,
        fusion: crate::pimc::fusion::Fusion::Off,
        cap_equity: false,
    };
    table.knowledge()
}

#[test]
fn carried_deals_agree_with_everything_played_since() {
    // Random deals played at random to a random point, deals drawn there, more cards played:
    // every carried deal holds what the seats now hold in some deal (my hand, the counts, the
    // unseen cards, no card of a suit a seat showed out of) and was one of the drawn deals; the
    // true deal is never found inconsistent.
    let mut rng = Pcg64::seed_from_u64(28);
    let (mut drawn, mut carried) = (0, 0);
    for _ in 0..300 {
        let dealt = random_deal(&mut rng);
        let me = Seat::ALL[rng.gen_range(0..4)];
        let trump = Suit::ALL[rng.gen_range(0..4)];
        let (t1, t2) = {
            let a = rng.gen_range(4..44);
            (a, a + rng.gen_range(1..=8))
        };
        let play = random_play(&dealt, Seat::S0, Some(trump), t2, &mut rng);
        let upto = |n: usize| -> Vec<(Seat, Vec<Card>)> {
            let mut left = n;
            let mut out = Vec::new();
            for (l, cs) in &play {
                let take = cs.len().min(left);
                out.push((*l, cs[..take].to_vec()));
                left -= take;
                if left == 0 {
                    break;
                }
            }
            out
        };
        let (v1, v2) = (
            view_of(me, &dealt, &upto(t1), trump),
            view_of(me, &dealt, &play, trump),
        );
        let (k1, k2) = (knowledge_of(&v1), knowledge_of(&v2));
        let sampler = k1.sampler();
        let deals: Vec<Deal> = (0..64)
            .map(|_| sampler.fitting(&mut rng).unwrap())
            .collect();
        let particles = Particles::keep(Moment::of(&v1), &k1, &deals);
        assert!(held_now(&dealt, &k2).is_some(), "the true deal must agree");
        let now = particles.carry(&Moment::of(&v2), &k2, &mut rng);
        drawn += deals.len();
        carried += now.len();
        for h in &now {
            assert_eq!(h[me], k2.mine);
            for s in Seat::ALL.into_iter().filter(|&s| s != me) {
                assert!(h[s].minus(k2.unseen).is_empty());
                assert_eq!(h[s].len(), k2.counts[s]);
                for x in Suit::ALL {
                    if k2.void[s] & (1 << x.index()) != 0 {
                        assert!(h[s].of_suit(x).is_empty(), "{s:?} showed out of {x:?}");
                    }
                }
            }
            let was = BySeat(Seat::ALL.map(|s| h[s].union(k2.played[s].minus(k1.played[s]))));
            assert!(deals.contains(&was), "a carried deal that was not drawn");
        }
    }
    // Some deals survive and most do not (each card played was in its player's hand in about
    // a third of the deals).
    assert!(carried > 0 && carried < drawn / 2, "{carried} of {drawn}");
}

/// Spades trump, I am seat 0. Before: 9 unseen cards, three each for seats 1 to 3. Then seat 2
/// leads KH, seat 3 plays 2H, I play 3H, and seat 1, last, discards 4D (out of hearts, it
/// would have won with a spade: a duck). After: 6 unseen cards, two each.
fn ending() -> (Knowledge, Moment, Knowledge, Moment) {
    let played = [
        (Seat::S2, "KH"),
        (Seat::S3, "2H"),
        (Seat::S0, "3H"),
        (Seat::S1, "4D"),
    ];
    let before = Knowledge {
        me: Seat::S0,
        mine: set("3H 9D 9C"),
        unseen: set("KH 2H 4D AS 2S 5C 6C 7C AH"),
        counts: BySeat([0, 3, 3, 3]),
        void: BySeat([0; 4]),
        played: BySeat([CardSet::EMPTY; 4]),
        clues: Vec::new(),
        ducks: Vec::new(),
    };
    let mut after = before.clone();
    after.mine = set("9D 9C");
    after.unseen = set("AS 2S 5C 6C 7C AH");
    after.counts = BySeat([0, 2, 2, 2]);
    for (s, c) in played {
        after.played[s].insert(c.parse().unwrap());
    }
    after.show_out(Seat::S1, Suit::Hearts);
    after.ducks = ducks(
        Seat::S0,
        &[(Seat::S2, cards("KH 2H 3H 4D"))],
        Some(Suit::Spades),
    );
    assert_eq!(after.ducks.len(), 1);
    let at = |play: &[(Seat, &str)]| Moment {
        seat: Seat::S0,
        dealer: Seat::S3,
        trump: Some("S".into()),
        dealt: set("3H 9D 9C"),
        play: play.iter().map(|&(s, c)| (s, c.parse().unwrap())).collect(),
    };
    (before, at(&[]), after, at(&played))
}

/// A deal of the ending before the trick: seats 1, 2, 3 hold these (I hold mine).
fn deal(s1: &str, s2: &str, s3: &str) -> Deal {
    BySeat([set("3H 9D 9C"), set(s1), set(s2), set(s3)])
}

#[test]
fn a_deal_a_card_played_contradicts_is_dropped() {
    let (before, t0, after, t1) = ending();
    let fits = deal("4D 5C 6C", "KH AS 2S", "2H 7C AH");
    // Seat 3, not seat 1, held 4D; seat 1 held AH but showed out of hearts.
    let wrong_seat = deal("5C 6C 7C", "KH AS 2S", "2H 4D AH");
    let void_shown = deal("4D AH 5C", "KH AS 2S", "2H 6C 7C");
    let p = Particles::keep(t0, &before, &[fits, wrong_seat, void_shown]);
    let mut rng = Pcg64::seed_from_u64(1);
    let kept = p.carry(&t1, &after, &mut rng);
    // Seat 1 holds no spade in `fits`: no duck to weigh, so it is kept for sure.
    let now = BySeat([set("9D 9C"), set("5C 6C"), set("AS 2S"), set("7C AH")]);
    assert_eq!(kept, vec![now]);
    assert!(held_now(&wrong_seat, &after).is_none());
    assert!(held_now(&void_shown, &after).is_none());
}

#[test]
fn a_new_hand_or_a_play_that_does_not_extend_the_last_one_resets() {
    let (before, t0, after, t1) = ending();
    let fits = deal("4D 5C 6C", "KH AS 2S", "2H 7C AH");
    let p = Particles::keep(t0.clone(), &before, &[fits; 5]);
    let mut rng = Pcg64::seed_from_u64(2);
    assert_eq!(p.carry(&t1, &after, &mut rng).len(), 5);
    let mut other = t1.clone();
    other.dealer = Seat::S0;
    assert!(
        p.carry(&other, &after, &mut rng).is_empty(),
        "another dealer"
    );
    let mut other = t1.clone();
    other.dealt = set("3H 9D 8C");
    assert!(
        p.carry(&other, &after, &mut rng).is_empty(),
        "another hand of mine"
    );
    let later = Particles::keep(t1.clone(), &after, &p.carry(&t1, &after, &mut rng));
    assert_eq!(later.carry(&t1, &after, &mut rng).len(), 5);
    let mut other = t1.clone();
    other.play[0].1 = "QH".parse().unwrap();
    assert!(
        later.carry(&other, &after, &mut rng).is_empty(),
        "another play"
    );
    assert!(
        later.carry(&t0, &before, &mut rng).is_empty(),
        "back in time"
    );
    let mut seat = t1;
    seat.seat = Seat::S2;
    assert!(p.carry(&seat, &after, &mut rng).is_empty(), "another seat");
}

#[test]
fn a_deal_where_the_seat_ducked_with_a_winner_is_kept_at_the_duck_likelihood() {
    // read_play: a last player who could have won and did not is unlikely to hold the winner.
    let (before, t0, after, t1) = ending();
    let no_spade = deal("4D 5C 6C", "KH AS 2S", "2H 7C AH");
    let spade = deal("4D AS 5C", "KH 6C 2S", "2H 7C AH");
    let n = 2000;
    let deals: Vec<Deal> = (0..2 * n)
        .map(|i| if i % 2 == 0 { no_spade } else { spade })
        .collect();
    let p = Particles::keep(t0, &before, &deals);
    assert_eq!(p.len(), KEEP.min(2 * n));
    let kept = p.carry(&t1, &after, &mut Pcg64::seed_from_u64(3));
    let with_spade = kept
        .iter()
        .filter(|h| !h[Seat::S1].of_suit(Suit::Spades).is_empty())
        .count();
    let half = p.len() / 2;
    assert_eq!(
        kept.len() - with_spade,
        half,
        "every spadeless deal is kept"
    );
    // Binomial(half, DUCK): within four standard deviations.
    let (mean, sd) = (
        half as f64 * DUCK,
        (half as f64 * DUCK * (1.0 - DUCK)).sqrt(),
    );
    assert!(
        (with_spade as f64 - mean).abs() < 4.0 * sd,
        "{with_spade} against {mean}"
    );
}

/// Every deal of the ending after the trick with its posterior probability (uniform times the
/// duck's likelihood), by trying each seat for each unseen card.
fn exact(k: &Knowledge) -> HashMap<Deal, f64> {
    let unseen: Vec<Card> = k.unseen.iter().collect();
    let mut out = HashMap::new();
    for code in 0..3usize.pow(unseen.len() as u32) {
        let mut h = BySeat([CardSet::EMPTY; 4]);
        h[k.me] = k.mine;
        let mut c = code;
        for &card in &unseen {
            h[Seat::ALL[1 + c % 3]].insert(card);
            c /= 3;
        }
        let dealt = BySeat(Seat::ALL.map(|s| h[s].union(k.played[s])));
        if held_now(&dealt, k).is_some() {
            out.insert(h, k.log_weight(&h).exp());
        }
    }
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|w| *w /= total);
    out
}

fn total_variation(seen: &[Deal], p: &HashMap<Deal, f64>) -> f64 {
    let mut count: HashMap<Deal, f64> = HashMap::new();
    for h in seen {
        assert!(p.contains_key(h), "a deal outside the posterior");
        *count.entry(*h).or_default() += 1.0 / seen.len() as f64;
    }
    p.iter()
        .map(|(h, &q)| (count.get(h).copied().unwrap_or(0.0) - q).abs())
        .sum::<f64>()
        / 2.0
}

#[test]
fn carried_and_fresh_deals_follow_the_exact_posterior_of_a_small_ending() {
    // Deals drawn before the trick, carried across it, and mixed with fresh draws after it,
    // against the exact posterior by enumeration (60 deals; seat 1 holds a spade in 7 of its
    // 10 possible pairs, each weighing DUCK): total variation within the sampling noise of
    // the counts (about 0.02 at these sizes), where carrying without the re-weighting is 0.3
    // away.
    let (before, t0, after, t1) = ending();
    let posterior = exact(&after);
    assert_eq!(posterior.len(), 60);
    let mut rng = Pcg64::seed_from_u64(4);
    let (old, new) = (before.sampler(), after.sampler());
    let (mut carried, mut unweighted, mut mixed) = (Vec::new(), Vec::new(), Vec::new());
    while carried.len() < 20_000 {
        let deals: Vec<Deal> = (0..64).map(|_| old.fitting(&mut rng).unwrap()).collect();
        let p = Particles::keep(t0.clone(), &before, &deals);
        unweighted.extend(p.deals.iter().filter_map(|(d, _)| held_now(d, &after)));
        let kept = p.carry(&t1, &after, &mut rng);
        carried.extend(kept.iter().copied());
        let mut mix = Mix::new(kept);
        mixed.extend((0..4).filter_map(|_| mix.next(|| new.fitting(&mut rng))));
    }
    let tv = total_variation(&carried, &posterior);
    assert!(tv < 0.04, "carried: total variation {tv:.3}");
    let tv = total_variation(&mixed, &posterior);
    assert!(tv < 0.04, "carried and fresh: total variation {tv:.3}");
    let tv = total_variation(&unweighted, &posterior);
    assert!(tv > 0.2, "without re-weighting: total variation {tv:.3}");
}

#[test]
fn a_decision_takes_carried_and_fresh_deals_in_turn_and_keeps_them_all() {
    let d = |s: &str| BySeat([set(s), CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY]);
    let mut fresh = vec![d("2C"), d("3C"), d("4C"), d("5C")].into_iter();
    let mut mix = Mix::new(vec![d("AS"), d("KS")]);
    let got: Vec<Deal> = (0..6).filter_map(|_| mix.next(|| fresh.next())).collect();
    let want = ["AS", "2C", "KS", "3C", "4C", "5C"].map(d);
    assert_eq!(got, want);
    assert_eq!(mix.carried_used(), 2);
    assert_eq!(mix.deals(), ["AS", "KS", "2C", "3C", "4C", "5C"].map(d));
    // Fresh draws that run dry end the stream.
    assert_eq!(mix.next(|| None), None);
    // Unused carried deals are kept for the next decision.
    let mut mix = Mix::new(vec![d("AS"), d("KS"), d("QS")]);
    mix.next(|| None);
    assert_eq!(mix.deals().len(), 3);
}

#[test]
fn the_endgame_search_takes_carried_deals_and_leaves_its_worlds_to_carry() {
    // With `--fusion endgame`, the last tricks' worlds come from the same stream as plain
    // pimc's deals: the carried ones are searched (in turn with fresh draws) and every world
    // is kept for the next card. Random deals played at random to the last 3 tricks, me on
    // lead; the carried deals are draws of this moment's posterior.
    let mut rng = Pcg64::seed_from_u64(41);
    let rules = Rules::classic();
    let mut fused = 0;
    for _ in 0..20 {
        let dealt = random_deal(&mut rng);
        let trump = Suit::ALL[rng.gen_range(0..4)];
        let mut play = random_play(&dealt, Seat::S0, Some(trump), 41, &mut rng);
        // The 41st card opened trick 11: its player is on lead there.
        let (me, _) = play.pop().unwrap();
        let view = view_of(me, &dealt, &play, trump);
        let table = Table {
            rules: &rules,
            view: &view,
            deadline: std::time::Instant::now() + std::time::Duration::from_secs(60),
            max_samples: 64,
            read_bids: true,
            score_play: true,
            cancel: None,
            fusion: crate::pimc::fusion::Fusion::Endgame,
            cap_equity: false,
        };
        let k = table.knowledge();
        let legal: Vec<Card> = k.mine.iter().collect();
        assert_eq!(legal.len(), 3);
        let sampler = k.sampler();
        let carried: Vec<Deal> = (0..4).map(|_| sampler.fitting(&mut rng).unwrap()).collect();
        let mut mix = Mix::new(carried.clone());
        let (card, effort) = table.play(&legal, &k, &mut mix, &mut rng);
        assert!(legal.contains(&card));
        if !effort.fused {
            continue;
        }
        fused += 1;
        assert_eq!(
            effort.carried,
            carried.len(),
            "every carried deal was searched"
        );
        let kept = mix.deals();
        assert_eq!(kept.len(), effort.samples, "every world is kept to carry");
        assert_eq!(kept[..carried.len()], carried[..]);
    }
    // The search gives up only past its work cap or deadline (an hour away here).
    assert!(fused >= 15, "{fused} of 20 decisions were searched");
}

#[test]
fn a_declarer_who_led_a_side_suit_to_trick_one_under_trump_first_lead_holds_no_trump() {
    // docs/rules.md#contract-trump-first-lead: the declarer's lead to the first trick must be a
    // trump if they hold one: a declarer (seat 0, spades trump) who led 2H held no spade.
    let clubs: Vec<String> = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
        .split(' ')
        .map(str::to_string)
        .collect();
    let v = serde_json::json!({
        "seat": Seat::S1, "dealer": Seat::S3, "hand": clubs, "trump": "S",
        "contract": {"declarer": Seat::S0, "bid": "7"},
        "tricks": [], "current_trick": {"leader": Seat::S0, "cards": ["2H"]},
        "cards_left": [12, 13, 13, 13],
    });
    let view: ViewIn = serde_json::from_value(v).unwrap();
    let mut rng = Pcg64::seed_from_u64(3);
    for on in [true, false] {
        let mut rules = Rules::classic();
        rules.contract.as_mut().unwrap().trump_first_lead = on;
        let table = Table {
            rules: &rules,
            view: &view,
            deadline: std::time::Instant::now(),
            max_samples: 0,
            read_bids: false,
            score_play: false,
            cancel: None,
            fusion: crate::pimc::fusion::Fusion::Off,
            cap_equity: false,
        };
        let k = table.knowledge();
        assert_eq!(k.void[Seat::S0] & (1 << Suit::Spades.index()) != 0, on);
        // 12 of the 38 unseen cards with 13 spades among them: without the rule, a deal
        // without a spade for seat 0 is rare; with it, every deal has none.
        let spadeless = (0..200)
            .filter(|_| {
                let hands = k.sample(&mut rng).unwrap();
                hands[Seat::S0].of_suit(Suit::Spades).is_empty()
            })
            .count();
        assert_eq!(spadeless == 200, on, "{spadeless} of 200 deals (rule {on})");
    }
}
