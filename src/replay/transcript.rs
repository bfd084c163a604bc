//! The verified game as text: the transcript `tarneeb replay` prints, whole or one hand.

use std::fmt::Write as _;

use super::text::{by_suit, rules_text, signed};
use crate::protocol::{printable, FaultAction, GameEndMsg, HandEndMsg};
use crate::record::verified::{result_text, FaultEntry, SeatMove, VerifiedGame, VerifiedHand};
use crate::rules::Seat;

/// The whole game as text: the header, every hand, the result.
pub fn transcript(g: &VerifiedGame) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}, record format {}, seed {}, first dealer {}",
        g.header.referee, g.header.format, g.header.seed, g.header.first_dealer
    );
    let _ = writeln!(s, "rules: {}", rules_text(&g.header.rules));
    if let Some(scores) = g.header.start_scores {
        let _ = writeln!(s, "started from scores {scores}");
    }
    for b in &g.header.bots {
        // A record may come from anywhere: what its bots chose to be called is shown, not
        // obeyed, by the terminal.
        let name = match (&b.name, &b.version) {
            (Some(n), Some(v)) => format!("{} {}", printable(n), printable(v)),
            (Some(n), None) => printable(n).into_owned(),
            (None, _) => "(no hello)".to_string(),
        };
        let _ = writeln!(s, "seat {}: {name} ({})", b.seat, b.command.join(" "));
    }
    let bank = g.header.time.bank_ms.map_or(String::new(), |b| {
        format!(", bank {b} ms + {} ms", g.header.time.increment_ms)
    });
    let _ = writeln!(
        s,
        "time: {} ms per move{bank}; on fault: {}",
        g.header.time.move_ms, g.header.on_fault
    );
    for f in &g.faults {
        let _ = writeln!(s, "{}", fault_text(f));
    }
    for h in &g.hands {
        s.push('\n');
        s.push_str(&hand_text(g, h));
    }
    s.push('\n');
    match (&g.result, &g.aborted) {
        (Some(r), _) => s.push_str(&result_lines(r)),
        (None, reason) => {
            let _ = writeln!(
                s,
                "unfinished: the game was aborted ({}) after {}",
                reason.as_deref().unwrap_or("no reason given"),
                crate::hands(g.hands.len() as u64)
            );
        }
    }
    let moves: usize = g.hands.iter().map(|h| h.moves.len()).sum();
    let _ = writeln!(
        s,
        "verified: {}, {moves} moves, every move legal and every score as the rules give it",
        crate::hands(g.hands.len() as u64)
    );
    s
}

/// One hand: dealer, the four hands, throw-ins, auction, contract, tricks, faults and scores.
pub fn hand_text(g: &VerifiedGame, h: &VerifiedHand) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Hand {}, dealer {}", h.number, h.dealer);
    for seat in Seat::ALL {
        let _ = writeln!(s, "  seat {seat}: {}", by_suit(h.hands[seat]));
    }
    if !h.throw_in.is_empty() {
        let _ = writeln!(s, "  throw-in: {}", seat_moves(&h.throw_in));
    }
    if !h.auction.is_empty() {
        let label = if h.bids.is_some() { "bids" } else { "auction" };
        let _ = writeln!(s, "  {label}: {}", seat_moves(&h.auction));
    }
    let trump = h.trump.map(|t| t.to_string());
    if let Some(c) = &h.contract {
        let mult = match c.multiplier {
            1 => String::new(),
            2 => " doubled".to_string(),
            4 => " redoubled".to_string(),
            m => format!(" x{m}"),
        };
        let _ = writeln!(
            s,
            "  contract: {}{mult} by seat {} (team {}), trump {}",
            c.bid,
            c.declarer,
            c.declarer.team(),
            trump.as_deref().unwrap_or("not named yet")
        );
    } else if h.bids.is_some_and(|b| b.0.iter().all(Option::is_some)) {
        let sum: u32 = h
            .bids
            .iter()
            .flat_map(|b| b.0)
            .flatten()
            .map(|l| u32::from(l.get()))
            .sum();
        let _ = writeln!(
            s,
            "  bids total {sum}, trump {}",
            trump.as_deref().unwrap_or("none")
        );
    }
    for t in &h.tricks {
        let plays: Vec<String> = t
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let seat = t.leader.plus(i);
                let mark = if substituted_play(h, seat, &c.to_string()) {
                    "*"
                } else {
                    ""
                };
                format!("{seat} {c}{mark}")
            })
            .collect();
        let _ = writeln!(
            s,
            "  trick {}: {} -> {}",
            t.number,
            plays.join(", "),
            t.winner
        );
    }
    if let Some(t) = &h.unfinished_trick {
        let plays: Vec<String> = t
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} {c}", t.leader.plus(i)))
            .collect();
        let _ = writeln!(s, "  trick {}: {} (unfinished)", t.number, plays.join(", "));
    }
    if h.moves.iter().any(|m| m.substituted) {
        let _ = writeln!(
            s,
            "  (* a move the referee chose for a faulty seat; substituted moves: {})",
            h.moves.iter().filter(|m| m.substituted).count()
        );
    }
    for f in &h.faults {
        let _ = writeln!(s, "  {}", fault_text(f));
    }
    match &h.end {
        Some(e) => s.push_str(&end_text(g, h, e)),
        None => {
            let _ = writeln!(s, "  (the hand did not finish)");
        }
    }
    s
}

fn end_text(g: &VerifiedGame, h: &VerifiedHand, e: &HandEndMsg) -> String {
    let mut s = String::new();
    let how = match (e.end.as_str(), e.thrown_in_by) {
        ("played", _) => "played".to_string(),
        ("all-passed", _) => "all passed: no score".to_string(),
        ("thrown-in", Some(seat)) => format!("thrown in by seat {seat}: no score"),
        ("bid-sum-too-low", _) => "the bids were too low in total: no score".to_string(),
        (other, _) => other.to_string(),
    };
    let mut won = [0u8; 4];
    for t in &h.tricks {
        won[t.winner.index()] += 1;
    }
    let _ = write!(s, "  end: {how}");
    if !h.tricks.is_empty() {
        if e.seat_delta.is_some() {
            let _ = write!(
                s,
                "; tricks seat 0: {}, 1: {}, 2: {}, 3: {}",
                won[0], won[1], won[2], won[3]
            );
        } else {
            let _ = write!(
                s,
                "; tricks team 0: {}, team 1: {}",
                won[0] + won[2],
                won[1] + won[3]
            );
        }
    }
    s.push('\n');
    if let (Some(d), Some(t)) = (&e.seat_delta, &e.seat_scores) {
        let _ = writeln!(
            s,
            "  players: {}",
            Seat::ALL
                .iter()
                .map(|&p| format!("{p}: {} -> {}", signed(d[p]), t[p]))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        s,
        "  teams: {} : {} -> scores {} : {}",
        signed(e.team_delta.0[0]),
        signed(e.team_delta.0[1]),
        e.team_scores.0[0],
        e.team_scores.0[1]
    );
    let penalised = e.slow_play_penalty.or(e.reneged);
    if let Some(r) = penalised.filter(|r| r.0.iter().any(|&x| x)) {
        let seats: Vec<String> = Seat::ALL
            .iter()
            .filter(|&&p| r[p])
            .map(|p| p.to_string())
            .collect();
        let limit = g
            .header
            .rules
            .individual
            .as_ref()
            .and_then(|i| i.slow_play)
            .map_or(String::new(), |sp| format!(" (over {} ms)", sp.limit_ms));
        let _ = writeln!(
            s,
            "  penalised for slow play{limit}: seat {}",
            seats.join(", ")
        );
    }
    if let Some(t) = e.instant_winner {
        let _ = writeln!(s, "  this hand wins the game for team {t}");
    }
    s
}

fn result_lines(r: &GameEndMsg) -> String {
    let mut s = format!("result: {}", result_text(r));
    if let Some(t) = r.winner {
        let [a, b] = t.seats();
        let _ = write!(s, " (seats {a} and {b})");
    }
    let _ = write!(
        s,
        "; scores team 0: {}, team 1: {}",
        r.team_scores.0[0], r.team_scores.0[1]
    );
    if let Some(p) = &r.seat_scores {
        let _ = write!(s, "; players {} {} {} {}", p.0[0], p.0[1], p.0[2], p.0[3]);
    }
    s.push('\n');
    if let Some(f) = &r.forfeit {
        let _ = writeln!(
            s,
            "forfeit: seat {} ({}): {}",
            f.seat,
            f.kind,
            printable(&f.detail)
        );
    }
    s
}

fn fault_text(f: &FaultEntry) -> String {
    let action = match f.action {
        FaultAction::Forfeit => "forfeit",
        FaultAction::Substitute => "substitute",
    };
    format!(
        "fault: seat {} {} ({action}): {}",
        f.seat,
        f.kind,
        printable(&f.detail)
    )
}

/// Whether the play of `card` by `seat` was the referee's.
fn substituted_play(h: &VerifiedHand, seat: Seat, card: &str) -> bool {
    h.moves
        .iter()
        .any(|m| m.substituted && m.seat == seat && m.mv == card)
}

fn seat_moves(moves: &[SeatMove]) -> String {
    moves
        .iter()
        .map(|m| format!("{}: {}", m.seat, m.mv))
        .collect::<Vec<_>>()
        .join("  ")
}
