//! The text form of a game's double-dummy analysis, for `tarneeb replay --analyze`.

use std::fmt::Write as _;

use super::game::{Accuracy, GameAnalysis, HandAnalysis};
use crate::rules::Seat;

/// The analysis of every hand (or only hand `only`), then each seat's accuracy.
pub fn text(a: &GameAnalysis, only: Option<u32>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Double-dummy analysis (DDS): par = the declaring side's tricks with best play from \
         the first lead; (-N) = tricks a card gave away, with the best cards"
    );
    for h in a
        .hands
        .iter()
        .filter(|h| only.is_none_or(|n| n == h.number))
    {
        hand_text(&mut s, h);
    }
    if only.is_none() {
        let _ = writeln!(s, "Card play accuracy:");
        for seat in Seat::ALL {
            accuracy_line(&mut s, &format!("seat {seat}"), &a.seats[seat]);
        }
        accuracy_line(&mut s, "game", &a.game);
    }
    s
}

fn hand_text(s: &mut String, h: &HandAnalysis) {
    let _ = writeln!(
        s,
        "Hand {}: team {} par {}, took {} ({:+})",
        h.number,
        h.side,
        h.par,
        h.taken,
        i32::from(h.taken) - i32::from(h.par)
    );
    if !h.strains.is_empty() {
        let table: Vec<String> = h
            .strains
            .iter()
            .map(|t| format!("{} {}", t.strain, t.tricks))
            .collect();
        let _ = writeln!(s, "  declarer's tricks by trump: {}", table.join("  "));
    }
    for trick in h.cards.chunks(4) {
        let cards: Vec<String> = trick
            .iter()
            .map(|v| {
                if v.cost == 0 {
                    format!("{} {}", v.seat, v.card)
                } else {
                    format!("{} {} (-{}, best {})", v.seat, v.card, v.cost, v.best)
                }
            })
            .collect();
        let _ = writeln!(s, "  trick {:>2}: {}", trick[0].trick, cards.join(", "));
    }
}

fn accuracy_line(s: &mut String, who: &str, a: &Accuracy) {
    let _ = writeln!(
        s,
        "  {who}: {} cards, {} best ({:.1}%), {} tricks lost ({:.2} per hand)",
        a.cards,
        a.best,
        100.0 * a.best_share,
        a.tricks_lost,
        a.lost_per_hand
    );
}
