//! A hand's play valued card by card with DDS's play analyser (`AnalysePlayBin`): one full
//! search at the start, then for each card played a null-window search bounded by the value
//! before it, on a transposition table kept warm from card to card. Far cheaper than solving
//! every position afresh, and the same values (tests compare both on recorded games).

use dds_bridge::PlayTrace;

use super::dds_map::card_to_dds;
use super::position::{Position, PositionError};
use super::solver::{board, needs_per_lead, DdSolver};
use crate::rules::{Card, Team};

/// `side`'s double-dummy total of the tricks from `start` on, before each card of `cards` and
/// after the last: the tricks it won since `start` plus its share of the rest with best play.
/// `cards` must be the whole play from `start` to the end of the hand.
pub fn play_totals(start: &Position, cards: &[Card], side: Team) -> Result<Vec<u8>, PositionError> {
    let left = start.tricks_left();
    if cards.len() != start.held.0.iter().map(|h| h.len() as usize).sum::<usize>() {
        return Err(PositionError::Rejected(format!(
            "the play of {} cards does not finish the hand",
            cards.len()
        )));
    }
    let mut totals = Vec::with_capacity(cards.len() + 1);
    let mut won = 0u8;
    let mut p = start.clone();
    let mut rest = cards;
    // DDS knows neither a trump named by the first lead nor a lead restricted to trumps: the
    // first position is solved lead by lead, the analyser starts after its card.
    if needs_per_lead(start) {
        let v = DdSolver::new().tricks(start)?;
        totals.push(if start.to_play().team() == side {
            v
        } else {
            left - v
        });
        let Some((&c, tail)) = cards.split_first() else {
            return Err(PositionError::HandOver);
        };
        if p.play(c)?.is_some_and(|w| w.team() == side) {
            won += 1;
        }
        rest = tail;
    }
    let mut end = p.clone();
    let mut won_end = won;
    for &c in rest {
        if end.play(c)?.is_some_and(|w| w.team() == side) {
            won_end += 1;
        }
    }
    if p.tricks_left() > 1 {
        let trace = PlayTrace {
            board: board(&p)?,
            cards: rest.iter().map(|&c| card_to_dds(c)).collect(),
        };
        let solved = dds_bridge::analyse_play(&trace);
        // DDS counts the tricks of the side not leading the trick its board starts in: won
        // from there on plus its share of the rest.
        let theirs = p.table.leader.team().other();
        let left = p.tricks_left();
        for t in &solved.tricks {
            let t = t.get();
            totals.push(won + if theirs == side { t } else { left - t });
        }
    }
    // The analyser stops before the last trick, whose cards are forced: the totals along it
    // are the tricks the side took.
    totals.resize(cards.len() + 1, won_end);
    Ok(totals)
}
