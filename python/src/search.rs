//! Search helpers: a full game rebuilt from a view and a guess of the hidden hands, deals of
//! the unseen cards that agree with a view (the `pimc` bot's own sampler), and double-dummy
//! values through the project's DDS binding.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::Value;

use tarneeb_referee::analysis::position::Position;
use tarneeb_referee::analysis::solver::DdSolver;
use tarneeb_referee::pimc::decide::Table;
use tarneeb_referee::pimc::wire::ViewIn;
use tarneeb_referee::rules::{
    BySeat, CardSet, DecisionKind, Move, Rules, Seat, Strain, Suit, Trick,
};

use crate::game::Game;
use crate::view::{bad, card_of, cards_py, field, hands_of, rebuild, seat_field, seat_of};
use crate::{json_dumps, load_rules, to_py, TarneebError};

/// One deal of the cards `view`'s seat cannot see, consistent with everything public.
#[pyfunction]
#[pyo3(signature = (view, rng_seed, constraints = None, rules = None))]
pub fn sample_hidden(
    view: &Bound<'_, PyAny>,
    rng_seed: &Bound<'_, PyAny>,
    constraints: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<&'static str>>> {
    let rules = match rules {
        Some(r) => load_rules(r)?,
        None => Rules::classic(),
    };
    let rng_seed = crate::seed_arg(rng_seed, "rng_seed")?;
    let text = json_dumps(view)?;
    let vin: ViewIn = serde_json::from_str(&text)
        .map_err(|e| bad(format!("the view does not read as a request's view: {e}")))?;
    let c: Value = match constraints {
        Some(c) if !c.is_none() => {
            serde_json::from_str(&json_dumps(c)?).map_err(|e| bad(format!("constraints: {e}")))?
        }
        _ => Value::Null,
    };
    if let Some(o) = c.as_object() {
        for k in o.keys() {
            if !["void", "holds", "use_auction"].contains(&k.as_str()) {
                return Err(bad(format!(
                    "constraints has an unknown key '{k}': the keys are void, holds and use_auction"
                )));
            }
        }
    } else if !c.is_null() {
        return Err(bad("constraints must be a dict like {\"void\": {\"1\": \"H\"}, \"holds\": {\"2\": [\"AS\"]}, \"use_auction\": true}"));
    }
    let table = Table {
        rules: &rules,
        view: &vin,
        deadline: Instant::now(),
        max_samples: 1,
        read_bids: match c.get("use_auction") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(bad(format!(
                    "constraints: use_auction is {other}: give true or false"
                )))
            }
        },
        score_play: false,
        // Nothing to cancel: sampling only, no solving.
        cancel: None,
        // Sampling only: the endgame search is a card choice, not used here.
        fusion: tarneeb_referee::pimc::fusion::Fusion::Off,
        cap_equity: false,
    };
    let mut k = table.knowledge();
    let seat_key = |key: &str| -> PyResult<Seat> {
        let n: i64 = key
            .parse()
            .map_err(|_| bad(format!("constraints: '{key}' is not a seat (0-3)")))?;
        seat_of(n)
    };
    let void_example = "like {\"void\": {\"1\": \"HS\"}} (seat 1 has no hearts and no spades)";
    match c.get("void") {
        None => {}
        Some(Value::Object(voids)) => {
            for (s, suits) in voids {
                let seat = seat_key(s)?;
                let Some(suits) = suits.as_str() else {
                    return Err(bad(format!(
                        "constraints: the voids of seat {seat} are {suits}: give a string of suit letters, {void_example}"
                    )));
                };
                for ch in suits.chars() {
                    let suit = Suit::from_letter(ch).ok_or_else(|| {
                        bad(format!("constraints: '{ch}' is not a suit (C, D, H, S)"))
                    })?;
                    if seat == k.me && !k.mine.of_suit(suit).is_empty() {
                        return Err(bad(format!(
                            "constraints: seat {seat} is yours and holds {suit}: it is not void in them"
                        )));
                    }
                    k.show_out(seat, suit);
                }
            }
        }
        Some(other) => {
            return Err(bad(format!(
                "constraints: void is {other}: give a dict of seat to suits, {void_example}"
            )))
        }
    }
    let mut fixed = BySeat([CardSet::EMPTY; 4]);
    let holds_example = "like {\"holds\": {\"2\": [\"AS\", \"QH\"]}}";
    let holds = match c.get("holds") {
        None => None,
        Some(Value::Object(h)) => Some(h),
        Some(other) => {
            return Err(bad(format!(
                "constraints: holds is {other}: give a dict of seat to a list of cards, {holds_example}"
            )))
        }
    };
    if let Some(holds) = holds {
        for (s, cards) in holds {
            let seat = seat_key(s)?;
            let Some(cards) = cards.as_array() else {
                return Err(bad(format!(
                    "constraints: the cards seat {seat} holds are {cards}: give a list of cards, {holds_example}"
                )));
            };
            for card in cards {
                let Some(card) = card.as_str() else {
                    return Err(bad(format!(
                        "constraints: {card} (held by seat {seat}) is not a card string like \"QS\""
                    )));
                };
                let card = card_of(card)?;
                if k.void[seat] & (1 << card.suit().index()) != 0 {
                    return Err(bad(format!(
                        "constraints: seat {seat} cannot hold {card}: it is void in {} (by the play or the void constraint)",
                        card.suit()
                    )));
                }
                if !k.unseen.contains(card) || seat == k.me {
                    return Err(bad(format!(
                        "constraints: seat {seat} cannot hold {card}: it is played, in your hand, or the seat is yours"
                    )));
                }
                if k.counts[seat] == 0 {
                    return Err(bad(format!(
                        "constraints: seat {seat} holds no more unseen cards than given"
                    )));
                }
                fixed[seat].insert(card);
                k.unseen.remove(card);
                k.counts[seat] -= 1;
            }
        }
    }
    let mut rng = Pcg64::seed_from_u64(rng_seed);
    // Dakak and Out of Call announce a kind of hand (and not announcing one says the hand is
    // not of that kind): deals are drawn until the rebuilt game makes the same view.
    let announced = rules
        .contract
        .as_ref()
        .is_some_and(|c| c.dakak || c.out_of_call);
    let view_value: Value = if announced {
        serde_json::from_str(&text).map_err(|e| bad(format!("the view is not JSON: {e}")))?
    } else {
        Value::Null
    };
    for tries in 0..ANNOUNCED_TRIES {
        // Ctrl-C: 20,000 rebuilt games can take seconds.
        if tries % 256 == 255 {
            view.py().check_signals()?;
        }
        let hands = if table.read_bids {
            k.sample_fitting(&mut rng)
        } else {
            k.sample(&mut rng)
        }
        .ok_or_else(|| {
            bad("no deal agrees with the view and the constraints: they contradict each other")
        })?;
        let hands = BySeat(Seat::ALL.map(|s| hands[s].union(fixed[s])));
        if announced && rebuild(&rules, &view_value, hands).is_err() {
            continue;
        }
        return Ok(hands.0.iter().map(|&h| cards_py(h)).collect());
    }
    Err(bad(format!(
        "no deal in {ANNOUNCED_TRIES} tries agreed with the view's announcements (dakak, out-of-call) and the constraints"
    )))
}

/// Deals drawn for one that makes the view's announcements before giving up.
const ANNOUNCED_TRIES: usize = 20_000;

/// A double-dummy position: from a Game in its play, or from a dict.
fn position_of(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(g) = obj.downcast::<Game>() {
        let g = g.borrow();
        let game = &g.game;
        if game.decision().map(|d| d.kind) != Some(DecisionKind::Play) {
            return Err(bad(
                "dd_solve needs a game in its card play (the decision now is not 'play')",
            ));
        }
        let h = game.hand();
        let mut p = Position::new(h.held, h.trump, h.trick.leader);
        p.table = h.trick;
        if let Some(c) = game.contract_rules() {
            if c.trump_first_lead && h.tricks.is_empty() && h.trick.is_empty() {
                p.must_lead = h.trump.and_then(Strain::trump);
            }
        }
        return Ok(p);
    }
    if !obj.is_instance_of::<pyo3::types::PyDict>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "dd_solve takes a Game in its card play or a dict {\"hands\", \"trump\", \"leader\", \"table\"}",
        ));
    }
    let v: Value = serde_json::from_str(&json_dumps(obj)?)
        .map_err(|e| bad(format!("the position is not JSON: {e}")))?;
    for k in v.as_object().into_iter().flat_map(|o| o.keys()) {
        if !["hands", "trump", "leader", "table", "must_lead"].contains(&k.as_str()) {
            return Err(bad(format!(
                "the position has an unknown key '{k}': the keys are hands, trump, leader, table and must_lead"
            )));
        }
    }
    let hands: Vec<Vec<String>> =
        serde_json::from_value(field(&v, "hands")?.clone()).map_err(|e| {
            bad(format!(
                "the position's hands: {e} (four lists of card strings)"
            ))
        })?;
    let held = hands_of(hands, "the position")?;
    const TRUMPS: &str =
        "give \"C\", \"D\", \"H\", \"S\", \"NT\", or \"first-lead\" (no trump yet: the first card led names it)";
    // "first-lead" is None: the trump the first lead will name.
    let trump = match v.get("trump") {
        Some(Value::String(t)) if t == "first-lead" => None,
        Some(Value::String(t)) => match Move::parse(DecisionKind::Trump, t) {
            Ok(Move::Trump(s)) => Some(s),
            _ => {
                return Err(bad(format!(
                    "the position's trump '{t}' is not a trump: {TRUMPS}"
                )))
            }
        },
        Some(other) => return Err(bad(format!("the position's trump is {other}: {TRUMPS}"))),
        None => return Err(bad(format!("the position has no 'trump': {TRUMPS}"))),
    };
    let leader = seat_field(&v, "leader")?;
    let mut table = Trick::new(leader);
    let cards = match v.get("table") {
        None => &[][..],
        Some(Value::Array(a)) => &a[..],
        Some(other) => {
            return Err(bad(format!(
                "the position's table is {other}: give a list of the cards on the table in play order (at most 3), like [\"2C\", \"KC\"]"
            )))
        }
    };
    if cards.len() > 3 {
        return Err(bad(format!(
            "the position's table has {} cards: a trick on the table has at most 3 (a fourth completes it)",
            cards.len()
        )));
    }
    if trump.is_none() && !cards.is_empty() {
        return Err(bad(
            "the position's trump is \"first-lead\" with cards on the table: the first card led names trump, so give that suit as trump",
        ));
    }
    for c in cards {
        let c = c.as_str().ok_or_else(|| {
            bad(format!(
                "the position's table card {c} is not a card string like \"QS\""
            ))
        })?;
        table.push(card_of(c)?);
    }
    let mut p = Position::new(held, trump, leader);
    p.table = table;
    match v.get("must_lead") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if s.len() == 1 => {
            p.must_lead = Some(
                s.chars()
                    .next()
                    .and_then(Suit::from_letter)
                    .ok_or_else(|| {
                        bad(format!(
                            "the position's must_lead '{s}' is not a suit (C, D, H, S)"
                        ))
                    })?,
            );
        }
        Some(other) => {
            return Err(bad(format!(
            "the position's must_lead is {other}: give a suit letter (C, D, H, S) or leave it out"
        )))
        }
    }
    Ok(p)
}

/// Positions with at most this many tricks left are solved on the caller's thread (Ctrl-C
/// is seen when they return): DDS takes milliseconds on them (random classic positions at a
/// trick's start, load average 8: 10 tricks left median 12 ms, at most 57 ms of 40), and
/// handing a solve to a thread of its own cost 1 to 3 ms a call on that loaded machine (the
/// waiting thread's wake-up), which would halve the calls per second late in a hand.
const INLINE_TRICKS: u8 = 10;

/// How often a wait in [`interruptible`] asks Python for a pending signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own and waits for it without the GIL, taking the GIL every
/// [`SIGNAL_POLL`] to ask whether a signal (Ctrl-C) came: then its exception
/// (`KeyboardInterrupt`) is raised at once. DDS's search is one C++ call with no way to stop
/// it, so an interrupted solve finishes on its thread (its own DDS context, nothing shared)
/// and its answer is dropped. A panic in `work` is a `TarneebError`, never a crash.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("tarneeb-dd-solve".into())
        .spawn(move || {
            // The receiver is gone only after an interrupt: nobody wants the answer then.
            let _ = tx.send(work());
        })
        .map_err(|e| TarneebError::new_err(format!("could not start the solver's thread: {e}")))?;
    py.allow_threads(move || loop {
        match rx.recv_timeout(SIGNAL_POLL) {
            Ok(answer) => return Ok(answer),
            Err(RecvTimeoutError::Timeout) => Python::with_gil(|py| py.check_signals())?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(TarneebError::new_err(
                    "the solver stopped without an answer (a bug in tarneeb: please report it with the position)",
                ))
            }
        }
    })
}

#[derive(serde::Serialize)]
struct Solved {
    seat: Seat,
    /// Tricks the side on turn takes of the tricks left (the one on the table included).
    tricks: u8,
    values: std::collections::BTreeMap<String, u8>,
    best: Vec<&'static str>,
}

/// The double-dummy value of each legal card for the player on turn (DDS).
#[pyfunction]
pub fn dd_solve(py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let p = position_of(position)?;
    p.validate()
        .map_err(|e| bad(format!("the position is not valid: {e}")))?;
    let inline = p.tricks_left() <= INLINE_TRICKS;
    let solve = move || DdSolver::new().card_values(&p);
    let cv = if inline {
        py.allow_threads(solve)
    } else {
        interruptible(py, solve)?
    }
    .map_err(|e| bad(format!("the position: {e}")))?;
    let solved = Solved {
        seat: cv.seat,
        tricks: cv.best(),
        values: cv
            .values
            .iter()
            .map(|&(c, v)| (c.as_str().to_string(), v))
            .collect(),
        best: cards_py(cv.best_cards()),
    };
    to_py(py, &solved)
}
