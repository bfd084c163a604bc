//! A seat's view read back into a game: the conversions of seats, cards and hands that the
//! Python classes share, and `rebuild`, the full game a view and a guess of the hidden hands
//! describe. `game` and `search` both use it; it uses neither (issue 42: the two imported each
//! other).

use pyo3::prelude::*;
use serde_json::Value;

use tarneeb_referee::rules::{
    BySeat, Card, CardSet, Deal, DecisionKind, Game as RulesGame, Move, Rules, RulesKind, Seat,
    StartScores,
};

use crate::TarneebError;

pub(crate) fn seat_of(i: i64) -> PyResult<Seat> {
    u8::try_from(i)
        .ok()
        .and_then(Seat::new)
        .ok_or_else(|| TarneebError::new_err(format!("{i} is not a seat: seats are 0, 1, 2 and 3")))
}

pub(crate) fn card_of(text: &str) -> PyResult<Card> {
    text.parse::<Card>()
        .map_err(|e| TarneebError::new_err(format!("'{text}': {e}")))
}

/// Four hands (lists of card strings, seat order) as card sets.
pub(crate) fn hands_of(hands: Vec<Vec<String>>, what: &str) -> PyResult<BySeat<CardSet>> {
    if hands.len() != 4 {
        return Err(TarneebError::new_err(format!(
            "{what} has {} hands: give four lists of cards, one per seat in seat order",
            hands.len()
        )));
    }
    let mut out = BySeat([CardSet::EMPTY; 4]);
    for (i, h) in hands.iter().enumerate() {
        for c in h {
            out.0[i].insert(card_of(c)?);
        }
    }
    Ok(out)
}

pub(crate) fn cards_py(set: CardSet) -> Vec<&'static str> {
    set.display_order().map(Card::as_str).collect()
}

pub(crate) fn bad(msg: impl Into<String>) -> PyErr {
    TarneebError::new_err(msg.into())
}

pub(crate) fn field<'a>(v: &'a Value, key: &str) -> PyResult<&'a Value> {
    v.get(key).ok_or_else(|| {
        bad(format!(
            "the view has no '{key}': give a request's view as protocol.md describes it"
        ))
    })
}

fn int(v: &Value, key: &str) -> PyResult<i64> {
    field(v, key)?
        .as_i64()
        .ok_or_else(|| bad(format!("the view's '{key}' is not a number")))
}

pub(crate) fn seat_field(v: &Value, key: &str) -> PyResult<Seat> {
    seat_of(int(v, key)?)
}

/// The cards of the view's tricks in play order, each with its seat (done tricks, then the
/// trick on the table).
fn plays(v: &Value) -> PyResult<Vec<(Seat, String)>> {
    let mut out = Vec::new();
    let done = field(v, "tricks")?
        .as_array()
        .ok_or_else(|| bad("the view's 'tricks' is not a list"))?;
    for t in done
        .iter()
        .chain(std::iter::once(field(v, "current_trick")?))
    {
        if t.is_null() {
            continue;
        }
        let leader = seat_field(t, "leader")?;
        let cards = field(t, "cards")?
            .as_array()
            .ok_or_else(|| bad("a trick's 'cards' is not a list"))?;
        for (i, c) in cards.iter().enumerate() {
            let c = c
                .as_str()
                .ok_or_else(|| bad("a trick's card is not a string"))?;
            out.push((leader.plus(i), c.to_string()));
        }
    }
    Ok(out)
}

/// The game that `v` (a seat's view) describes, with `held` as every seat's cards now: the
/// hand is dealt as held plus played, and the view's auction, trump and cards are replayed
/// through the rules engine. The rebuilt game's view for the seat must equal `v`.
pub fn rebuild(rules: &Rules, v: &Value, held: BySeat<CardSet>) -> PyResult<RulesGame> {
    let me = seat_field(v, "seat")?;
    let dealer = seat_field(v, "dealer")?;
    let hand_number = field(v, "hand_number")?
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| {
            bad(format!(
                "the view's hand_number is {}: give the hand's number, from 1 to {}",
                v["hand_number"],
                u32::MAX
            ))
        })?;
    let plays = plays(v)?;
    let mut dealt = held;
    for (seat, c) in &plays {
        dealt[*seat].insert(card_of(c)?);
    }
    let deal = Deal::new(dealt).map_err(|e| {
        bad(format!(
            "the hands and the cards played do not make a deal: {e} (give each seat the cards it holds now, as the view's cards_left counts them)"
        ))
    })?;
    let scores = match rules.kind() {
        RulesKind::Contract(_) => {
            let t: [i32; 2] = serde_json::from_value(field(v, "team_scores")?.clone())
                .map_err(|e| bad(format!("the view's team_scores: {e}")))?;
            StartScores::Teams(t)
        }
        RulesKind::Individual(_) => {
            let s: [i32; 4] =
                serde_json::from_value(field(v, "seat_scores")?.clone()).map_err(|e| {
                    bad(format!(
                        "the view's seat_scores: {e} (are the rules those of the game?)"
                    ))
                })?;
            StartScores::Seats(s)
        }
    };
    let mut game = RulesGame::new(rules.clone(), dealer)
        .with_scores(scores)
        .map_err(bad)?
        .before_hand(hand_number);
    game.deal(deal);

    let calls: Vec<(Seat, String)> = field(v, "auction")?
        .as_array()
        .ok_or_else(|| bad("the view's 'auction' is not a list"))?
        .iter()
        .map(|c| {
            let call = c
                .get("call")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("an auction entry has no 'call'"))?;
            Ok((seat_field(c, "seat")?, call.to_string()))
        })
        .collect::<PyResult<_>>()?;
    let trump = v.get("trump").and_then(Value::as_str).map(str::to_string);
    let phase = field(v, "phase")?.as_str().unwrap_or("");
    let (mut next_call, mut next_play, mut trump_named) = (0, 0, false);
    while let Some(d) = game.decision() {
        let (seat, text) = match d.kind {
            DecisionKind::ThrowIn if phase == "throw-in" => {
                // The view is of the throw-in questions, and who is asked is not public: when
                // the view's seat is asked, the seats before it kept (keeping is not public
                // either); else the first seat asked is taken to be the one being asked.
                let mut probe = game.clone();
                while let Some(p) = probe.decision() {
                    if p.kind != DecisionKind::ThrowIn {
                        break;
                    }
                    if p.seat == me {
                        game = probe;
                        break;
                    }
                    if probe.apply(p.seat, Move::Keep).is_err() {
                        break;
                    }
                }
                break;
            }
            DecisionKind::ThrowIn => (d.seat, "keep".to_string()),
            DecisionKind::Call => match calls.get(next_call) {
                Some(c) => {
                    next_call += 1;
                    c.clone()
                }
                None => break,
            },
            DecisionKind::Trump => match (&trump, trump_named) {
                (Some(t), false) => {
                    trump_named = true;
                    (d.seat, t.clone())
                }
                _ => break,
            },
            DecisionKind::Play => match plays.get(next_play) {
                Some(p) => {
                    next_play += 1;
                    p.clone()
                }
                None => break,
            },
        };
        let mv = Move::parse(d.kind, &text)
            .map_err(|e| bad(format!("the view's move '{text}' of seat {seat}: {e}")))?;
        if seat != d.seat {
            return Err(bad(format!(
                "the view says seat {seat} made '{text}' where the rules ask seat {} (the view and the rules do not agree: are the rules those of the game?)",
                d.seat
            )));
        }
        game.apply(seat, mv).map_err(|e| {
            bad(format!(
                "the view's moves do not replay with these hands and rules: {e}"
            ))
        })?;
    }
    if next_call < calls.len() || next_play < plays.len() {
        return Err(bad(format!(
            "the view's moves do not replay: {} calls and {} cards were left when the rules asked no more (are the rules those of the game?)",
            calls.len() - next_call,
            plays.len() - next_play
        )));
    }
    let mut rebuilt = serde_json::to_value(game.view(me)).expect("a view serializes");
    let mut given = v.clone();
    // Ten-second strikes come from clocks, not moves: they are not rebuilt.
    for x in [&mut rebuilt, &mut given] {
        if let Some(o) = x.as_object_mut() {
            o.remove("strikes");
        }
    }
    if let (Some(r), Some(g)) = (rebuilt.as_object(), given.as_object()) {
        for (k, want) in g {
            let got = r.get(k).unwrap_or(&Value::Null);
            if got != want {
                return Err(bad(format!(
                    "the view and the hands do not make one game: rebuilt, '{k}' is {got}, the view says {want}"
                )));
            }
        }
    }
    Ok(game)
}
