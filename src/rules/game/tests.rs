//! The game's fast legality check against its legal-move lists, over every preset.

use super::*;
use crate::rules::{AuctionForm, DealSource, Doubling, StrainOrder, TrumpChoice};

/// The presets, and contract variants with the options that change what is legal.
fn rule_sets() -> Vec<Rules> {
    let mut sets: Vec<Rules> = super::super::PRESETS
        .iter()
        .map(|p| Rules::preset(p).unwrap())
        .collect();
    let classic = Rules::classic;
    let mut variants = Vec::new();
    for i in 0..6 {
        let mut r = if i % 2 == 0 {
            classic()
        } else {
            Rules::egyptian()
        };
        let c = r.contract.as_mut().unwrap();
        c.dealer_forced_7 = true;
        c.throw_in_weak_hand = i >= 2;
        c.throw_in_long_suit = i >= 2;
        c.dakak = i >= 4;
        c.out_of_call = i >= 4;
        if i % 2 == 0 {
            c.no_trump = i == 2;
            c.trump_first_lead = i == 4;
            c.auction = [AuctionForm::Elimination, AuctionForm::SingleRound][i / 2 % 2];
            if i == 0 {
                c.trump = TrumpChoice::FirstLead;
            }
        } else {
            c.doubling = Doubling::Redouble;
            if i == 3 {
                c.strain_order = StrainOrder::Cshd;
            }
        }
        variants.push(r);
    }
    sets.extend(variants);
    for r in &sets {
        r.validate().unwrap();
    }
    sets
}

#[test]
fn is_legal_agrees_with_legal_moves_for_every_move() {
    let universe: Vec<Move> = Move::all().collect();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for rules in rule_sets() {
        for seed in 0..12 {
            let mut deals = DealSource::from_seed(seed);
            let mut rules = rules.clone();
            rules.max_hands = 6;
            let mut game = Game::new(rules, deals.first_dealer());
            loop {
                if game.needs_deal() {
                    game.deal(deals.next_deal());
                    continue;
                }
                let legal = game.legal_moves();
                let to_act = game.decision().map(|d| d.seat);
                for &mv in &universe {
                    for seat in Seat::ALL {
                        let listed = Some(seat) == to_act && legal.contains(&mv);
                        assert_eq!(
                            game.is_legal(seat, mv),
                            listed,
                            "seat {seat} move {mv:?}; legal {legal:?}, {:?}",
                            game.rules()
                        );
                    }
                }
                let Some(d) = game.decision() else { break };
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mv = legal.as_slice()[(x % legal.len() as u64) as usize];
                game.apply(d.seat, mv).unwrap();
            }
        }
    }
}
