//! The games check-bot plays: plain games of every preset, then one game per rare situation,
//! forced by the rules options, the first deal, the first dealer, the scores and the moves the
//! scripted seats prefer. Each forced game is kept short with `max-hands`, so its last hand is
//! also a game's last hand.

use serde_json::{json, Value};

use super::Scenario;
use crate::rules::{BySeat, CardSet, Deal, Rules, Seat, StartScores};
use crate::rules_file;

fn rules(changes: Value) -> Rules {
    rules_file::from_value(changes, "check-bot").expect("check-bot's own rules are valid")
}

fn seat(i: usize) -> Seat {
    Seat::from_index(i)
}

/// Each seat holds one whole suit: every seat may throw in for a long suit, and a seat that
/// keeps such a hand may only pass or bid 13.
fn one_suit_each() -> Deal {
    let hands: [CardSet; 4] = std::array::from_fn(|i| {
        let suit = ["S", "H", "D", "C"][i];
        let cards: Vec<String> = "AKQJT98765432"
            .chars()
            .map(|r| format!("{r}{suit}"))
            .collect();
        serde_json::from_value(json!(cards)).expect("cards read")
    });
    Deal::new(BySeat(hands)).expect("a whole pack")
}

fn prefer(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The most hands a plain game is played to. Against the built-in seats (random legal moves
/// or the bot's own) a game of 41 or egyptian rarely reaches its target and ran to the rules'
/// cap of 200 hands, thousands of requests, which looked like a hang; a dozen hands ask every
/// kind of decision many times over, and the forced games below reach a game's end.
pub const PLAIN_GAME_HANDS: u32 = 12;

/// `games` plain games of each of `presets` (the bot's seat turning), each cut at
/// [`PLAIN_GAME_HANDS`] (its name says so), then the forced situations of the games among
/// `presets`.
pub fn scenarios(presets: &[(String, Rules)], games: u64) -> Vec<Scenario> {
    let mut out = Vec::new();
    for (name, r) in presets {
        let mut rules = r.clone();
        let cap = match rules.max_hands > PLAIN_GAME_HANDS {
            true => format!(", at most {PLAIN_GAME_HANDS} hands"),
            false => String::new(),
        };
        rules.max_hands = rules.max_hands.min(PLAIN_GAME_HANDS);
        for g in 0..games {
            out.push(Scenario {
                name: format!("{name}: game {} (seat {}{cap})", g + 1, g % 4),
                rules: rules.clone(),
                seat: seat((g % 4) as usize),
                seed: 1000 + g,
                first_dealer: None,
                deals: Vec::new(),
                prefer: Vec::new(),
                start_scores: None,
                reach: Vec::new(),
            });
        }
    }
    let has = |p: &str| presets.iter().any(|(n, _)| n == p);
    let me = seat(0);
    let base = |name: &str, r: Rules| Scenario {
        name: name.to_string(),
        rules: r,
        seat: me,
        seed: 7,
        first_dealer: None,
        deals: Vec::new(),
        prefer: Vec::new(),
        start_scores: None,
        reach: Vec::new(),
    };
    if has("classic") {
        out.push(Scenario {
            first_dealer: Some(seat(3)),
            deals: vec![one_suit_each()],
            prefer: prefer(&["keep", "pass"]),
            reach: vec![r#""seat":0,"decision":"throw-in""#.into()],
            ..base(
                "classic: throw-in offer (13 of a suit), keep means pass or 13",
                rules(json!({"preset": "classic", "max-hands": 2,
                    "contract": {"throw-in-long-suit": true, "throw-in-weak-hand": true}})),
            )
        });
        out.push(Scenario {
            first_dealer: Some(seat(0)),
            prefer: prefer(&["pass"]),
            reach: vec![r#""seat":0,"decision":"trump""#.into()],
            ..base(
                "classic: dealer forced to bid 7, then names trump (No Trump allowed)",
                rules(json!({"preset": "classic", "max-hands": 1,
                    "contract": {"dealer-forced-7": true, "no-trump": true}})),
            )
        });
        out.push(Scenario {
            first_dealer: Some(seat(0)),
            // A scripted seat bids 13 at once, so it is declarer whatever the bot bids.
            prefer: prefer(&["NT", "13", "pass"]),
            reach: vec![r#""decision":"trump","move":"NT""#.into()],
            ..base(
                "classic: a No Trump contract",
                rules(json!({"preset": "classic", "max-hands": 1, "contract": {"no-trump": true}})),
            )
        });
        out.push(Scenario {
            start_scores: Some(StartScores::Teams([25, 28])),
            ..base(
                "classic: from 25:28 (target 31), the last hands of a game",
                rules(json!({"preset": "classic", "max-hands": 3})),
            )
        });
    }
    if has("egyptian") {
        out.push(Scenario {
            first_dealer: Some(seat(0)),
            prefer: prefer(&["redouble", "double", "7S", "pass"]),
            reach: vec![r#""move":"double""#.into(), r#""move":"redouble""#.into()],
            ..base(
                "egyptian: double and redouble",
                rules(json!({"preset": "egyptian", "max-hands": 2,
                    "contract": {"doubling": "redouble"}})),
            )
        });
    }
    if has("400") {
        out.push(Scenario {
            first_dealer: Some(seat(3)),
            prefer: prefer(&["13"]),
            reach: vec![r#""move":"13""#.into()],
            ..base(
                "400: a bid of 13 (the game ends on it)",
                rules(json!({"preset": "400", "max-hands": 3})),
            )
        });
        out.push(Scenario {
            start_scores: Some(StartScores::Seats([35, 0, 35, 0])),
            reach: vec![r#""seat":0,"decision":"call""#.into()],
            ..base(
                "400: the minimum bid by score (35 points: bid 3 or more)",
                rules(json!({"preset": "400", "max-hands": 2})),
            )
        });
    }
    if has("41") {
        out.push(Scenario {
            start_scores: Some(StartScores::Seats([38, 20, 30, 10])),
            ..base(
                "41: from 38,20,30,10, the end of a game",
                rules(json!({"preset": "41", "max-hands": 3})),
            )
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_has_valid_rules_and_deals() {
        let presets: Vec<(String, Rules)> = crate::rules::PRESETS
            .iter()
            .map(|p| (p.to_string(), Rules::preset(p).unwrap()))
            .collect();
        let all = scenarios(&presets, 1);
        assert!(all.len() >= 12, "{}", all.len());
        for s in &all {
            let mut g = crate::rules::Game::new(s.rules.clone(), seat(0));
            if let Some(scores) = s.start_scores {
                g = g.with_scores(scores).unwrap();
            }
        }
    }
}
