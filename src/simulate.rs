//! `tarneeb simulate`: whole games in process with built-in players, as a rules check under
//! load and the engine's speed benchmark.

use std::time::Instant;

use crate::players::{Player, PlayerKind};
use crate::rules::{DealSource, EndReason, Game, HandEnd, Rules, Seat, Team};

/// What a batch of simulated games came to.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Summary {
    pub games: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    pub decisions: u64,
    pub decisions_per_second: f64,
    pub hands: u64,
    pub hands_per_game: f64,
    pub played_hands: u64,
    /// Contract games: contracts made; individual games: bids made.
    pub contracts: u64,
    pub contracts_made: u64,
    pub made_rate: f64,
    pub wins: [u64; 2],
    pub draws: u64,
    pub win_rate: [f64; 2],
    pub ended_by_cap: u64,
    pub ended_instantly: u64,
}

/// Plays `games` games with seeds `seed, seed+1, ...`, seats using `players` in seat order.
pub fn run(rules: &Rules, games: u64, seed: u64, players: [PlayerKind; 4]) -> Summary {
    run_until(rules, games, seed, players, || false).expect("never stopped")
}

/// [`run`], asking `stop` before each game; `None` once it says stop (the Python package
/// honours Ctrl-C this way).
pub fn run_until(
    rules: &Rules,
    games: u64,
    seed: u64,
    players: [PlayerKind; 4],
    mut stop: impl FnMut() -> bool,
) -> Option<Summary> {
    let mut s = Summary {
        games,
        ..Summary::default()
    };
    let start = Instant::now();
    for g in 0..games {
        if stop() {
            return None;
        }
        let game_seed = seed.wrapping_add(g);
        let mut deals = DealSource::from_seed(game_seed);
        let mut game = Game::new(rules.clone(), deals.first_dealer());
        let mut seats: [Player; 4] = std::array::from_fn(|i| {
            Player::new(
                players[i],
                game_seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            )
        });
        loop {
            if game.needs_deal() {
                game.deal(deals.next_deal());
                continue;
            }
            let Some(d) = game.decision() else { break };
            let mv = seats[d.seat.index()].choose(&game);
            s.decisions += 1;
            let applied = game
                .apply(d.seat, mv)
                .expect("built-in players only make legal moves");
            if let Some(hand) = applied.hand {
                s.hands += 1;
                if hand.end == HandEnd::Played {
                    s.played_hands += 1;
                    count_contracts(&game, &hand, &mut s);
                }
            }
        }
        let r = game
            .result()
            .expect("the loop ends only when the game is over");
        match r.winner {
            Some(t) => s.wins[t.index()] += 1,
            None => s.draws += 1,
        }
        match r.reason {
            EndReason::HandCap => s.ended_by_cap += 1,
            EndReason::Instant => s.ended_instantly += 1,
            EndReason::Target => {}
        }
    }
    s.seconds = start.elapsed().as_secs_f64();
    let per = |n: f64| if s.seconds > 0.0 { n / s.seconds } else { 0.0 };
    s.games_per_second = per(s.games as f64);
    s.decisions_per_second = per(s.decisions as f64);
    s.hands_per_game = if games > 0 {
        s.hands as f64 / games as f64
    } else {
        0.0
    };
    s.made_rate = if s.contracts > 0 {
        s.contracts_made as f64 / s.contracts as f64
    } else {
        0.0
    };
    for t in Team::ALL {
        s.win_rate[t.index()] = if games > 0 {
            s.wins[t.index()] as f64 / games as f64
        } else {
            0.0
        };
    }
    Some(s)
}

fn count_contracts(game: &Game, hand: &crate::rules::HandResult, s: &mut Summary) {
    let h = game.hand();
    if let Some(c) = h.contract {
        s.contracts += 1;
        let team = c.declarer.team();
        let tricks: u8 = team.seats().iter().map(|&x| h.tricks_won[x]).sum();
        if tricks >= c.bid.level.get() {
            s.contracts_made += 1;
        }
    } else {
        for seat in Seat::ALL {
            if let Some(b) = h.bids[seat] {
                s.contracts += 1;
                if h.tricks_won[seat] >= b.get() && !hand.reneged[seat] {
                    s.contracts_made += 1;
                }
            }
        }
    }
}
