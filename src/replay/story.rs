//! What the replay page says beside the cards that a verified game does not hold as such: the
//! scores each hand started from and, in 400 and Forty-One, each player's minimum bid and the bid
//! total the hand needed, from the rules and those scores (docs/rules.md#individual-min-bid, by the
//! bidder's own score; docs/rules.md#individual-bid-sum, by the highest score at the table), so the
//! page never re-derives a rule in JavaScript.

use serde::Serialize;

use crate::record::verified::VerifiedGame;
use crate::rules::auction::individual_sum;
use crate::rules::{BySeat, RulesKind, StartScores};

/// One hand's facts (see the module doc); `None` where the game has no such rule.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HandFacts {
    /// The players' scores when the hand was dealt (400 and Forty-One).
    pub seat_scores: Option<[i32; 4]>,
    /// Each player's minimum bid at those scores.
    pub min_bid: Option<[u8; 4]>,
    /// The bid total the hand needed to be played.
    pub bid_sum_needed: Option<u32>,
    /// The total the four bids made, once all four were made (bids of 7 and more counted
    /// double under `sum-counts-big-bids-double`).
    pub bid_sum: Option<u32>,
}

/// The facts of every hand of `game`, in order.
pub fn hand_facts(game: &VerifiedGame) -> Vec<HandFacts> {
    let RulesKind::Individual(rules) = game.header.rules.kind() else {
        return game
            .hands
            .iter()
            .map(|_| HandFacts {
                seat_scores: None,
                min_bid: None,
                bid_sum_needed: None,
                bid_sum: None,
            })
            .collect();
    };
    let mut scores = match game.header.start_scores {
        Some(StartScores::Seats(s)) => s,
        _ => [0; 4],
    };
    let mut out = Vec::with_capacity(game.hands.len());
    for h in &game.hands {
        let highest = scores.iter().copied().max().unwrap_or(0);
        let bids = h.bids.and_then(|b| {
            let all: Option<Vec<_>> = b.0.iter().copied().collect();
            all.map(|v| BySeat([v[0], v[1], v[2], v[3]]))
        });
        let (made, needed) = match bids {
            Some(b) => {
                let (sum, needed) = individual_sum(rules, b, highest);
                (Some(sum), needed)
            }
            None => (None, u32::from(rules.bid_sum.at(highest))),
        };
        out.push(HandFacts {
            seat_scores: Some(scores),
            min_bid: Some(scores.map(|s| rules.min_bid.at(s))),
            bid_sum_needed: Some(needed),
            bid_sum: made,
        });
        if let Some(s) = h.end.as_ref().and_then(|e| e.seat_scores) {
            scores = s.0;
        }
    }
    out
}
