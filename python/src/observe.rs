//! `tarneeb.env`'s observations and action masks, built in Rust from the seat's `View` (the
//! protocol's view: the seat's own hand and public facts only), with no JSON and no Python
//! loop in between. The layout is documented in python/tarneeb/env.py and `OBS_LAYOUT`.

use std::collections::HashMap;
use std::sync::OnceLock;

use tarneeb_referee::rules::{Card, Game as RulesGame, Move, Seat, Strain};

/// (name, length) of each block of the observation, in order.
pub const OBS_LAYOUT: &[(&str, usize)] = &[
    ("hand", 52),
    ("played_by_seat", 4 * 52),
    ("table_by_seat", 4 * 52),
    ("trump", 6),
    ("decision", 4),
    ("contract_level", 14),
    ("declarer", 4),
    ("to_move", 4),
    ("multiplier", 3),
    ("last_call_by_seat", 4 * CALLS),
    ("bid_by_seat", 4 * 14),
    ("tricks_won_by_seat", 4 * 14),
    ("scores", 6),
    ("announced_by_seat", 4 * 2),
];

/// The calls of `Move::all()` (pass, double, redouble, every bid) plus "no call yet".
const CALLS: usize = 81 + 1;

pub const fn obs_size() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < OBS_LAYOUT.len() {
        n += OBS_LAYOUT[i].1;
        i += 1;
    }
    n
}

pub const OBS_SIZE: usize = obs_size();

/// Each move's index in `Move::all()` (the action space, `tarneeb.ALL_MOVES`).
pub fn action_index() -> &'static HashMap<Move, usize> {
    static INDEX: OnceLock<HashMap<Move, usize>> = OnceLock::new();
    INDEX.get_or_init(|| Move::all().enumerate().map(|(i, m)| (m, i)).collect())
}

pub fn action_count() -> usize {
    action_index().len()
}

/// The index of the first call in `Move::all()` (after throw-in and keep).
const FIRST_CALL: usize = 2;

fn card(c: Card) -> usize {
    c.index() as usize
}

/// Scores are given divided by this (a game's target is 31 to 61 points).
pub const SCORE_SCALE: f32 = 100.0;

/// The observation of `seat` (float32 values, see `OBS_LAYOUT`) and its action mask.
pub fn observe(game: &RulesGame, seat: Seat) -> (Vec<f32>, Vec<u8>) {
    let v = game.view(seat);
    let mut obs = vec![0f32; OBS_SIZE];
    let rel = |s: Seat| (s.index() + 4 - seat.index()) % 4;
    let mut base = 0;
    for c in v.hand.iter() {
        obs[card(c)] = 1.0;
    }
    base += 52;
    let table = base + 4 * 52;
    for t in v.tricks.iter().chain(std::iter::once(&v.current_trick)) {
        for (i, &c) in t.cards.iter().enumerate() {
            obs[base + rel(t.leader.plus(i)) * 52 + card(c)] = 1.0;
        }
    }
    for (i, &c) in v.current_trick.cards.iter().enumerate() {
        obs[table + rel(v.current_trick.leader.plus(i)) * 52 + card(c)] = 1.0;
    }
    base = table + 4 * 52;
    obs[base
        + match v.trump {
            Some(Strain::Trump(s)) => s.index(),
            Some(Strain::NoTrump) => 4,
            None => 5,
        }] = 1.0;
    base += 6;
    let decision = game.decision();
    if let Some(d) = decision {
        obs[base + d.kind as usize] = 1.0;
    }
    base += 4;
    let level = v
        .contract
        .as_ref()
        .map(|c| {
            c.bid
                .as_str()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse::<usize>()
                .unwrap_or(0)
        })
        .unwrap_or(0);
    obs[base + level.min(13)] = 1.0;
    base += 14;
    if let Some(c) = &v.contract {
        obs[base + rel(c.declarer)] = 1.0;
    }
    base += 4;
    if let Some(d) = decision {
        obs[base + rel(d.seat)] = 1.0;
    }
    base += 4;
    if let Some(c) = &v.contract {
        obs[base + c.multiplier.trailing_zeros().min(2) as usize] = 1.0;
    }
    base += 3;
    let mut last = [CALLS - 1; 4];
    for call in &v.auction {
        if let Ok(m) = Move::parse(
            tarneeb_referee::rules::DecisionKind::Call,
            call.call.as_str(),
        ) {
            last[rel(call.seat)] = action_index()[&m] - FIRST_CALL;
        }
    }
    for (r, &i) in last.iter().enumerate() {
        obs[base + r * CALLS + i] = 1.0;
    }
    base += 4 * CALLS;
    for s in Seat::ALL {
        let bid = v
            .bids
            .as_ref()
            .and_then(|b| b[s])
            .map_or(0, |l| l.get() as usize);
        obs[base + rel(s) * 14 + bid] = 1.0;
    }
    base += 4 * 14;
    for s in Seat::ALL {
        obs[base + rel(s) * 14 + (v.tricks_won[s] as usize).min(13)] = 1.0;
    }
    base += 4 * 14;
    let my_team = seat.index() % 2;
    obs[base] = v.team_scores.0[my_team] as f32 / SCORE_SCALE;
    obs[base + 1] = v.team_scores.0[1 - my_team] as f32 / SCORE_SCALE;
    if let Some(s) = &v.seat_scores {
        for x in Seat::ALL {
            obs[base + 2 + rel(x)] = s[x] as f32 / SCORE_SCALE;
        }
    }
    base += 6;
    for a in &v.announcements {
        obs[base + rel(a.seat) * 2 + usize::from(a.kind != "dakak")] = 1.0;
    }
    base += 8;
    debug_assert_eq!(base, OBS_SIZE);

    let mut mask = vec![0u8; action_count()];
    if decision.is_some_and(|d| d.seat == seat) {
        for m in game.legal_moves().iter() {
            mask[action_index()[m]] = 1;
        }
    }
    (obs, mask)
}
