//! The verdict in plain words, and only as far as the evidence goes (issue 40).
//!
//! The rule:
//! - A run that has not played every game of its schedule names a **leader**, marked
//!   provisional with the games played and scheduled ("Leader (provisional, 416 of 1200 games
//!   played): ..."), never a winner.
//! - When the leader has not played an entrant (a `-` in the crosstable), or an entrant has
//!   played no game at all, there is no winner either: the line says who has not met and what
//!   the margin is inferred through (the entrants both have played), because the rating fit
//!   then compares them only through third parties.
//! - Otherwise the line of [`super::places::winner`] stands ("Winner: ..." or "No clear
//!   winner: ...").
//!
//! How sure, in words: "clearly ahead" when the leader's fitted margin over its closest rival
//! is beyond chance among all the entrants (see [`super::pairwise::leader_note`]), "probably
//! ahead" when the fit gives it at least a 90% chance of being the stronger of the two (read
//! from Student's t with the fit's degrees of freedom, the law of the interval printed beside
//! it, so an interval across 0 never reads 97.5% sure or more), "too
//! close to call" below that, "level" when the margin rounds to +0.0 Elo.
//!
//! A knockout's or Swiss's line (set by `tournament::schedule::bracket` from the schedule) is left as
//! it is: the bracket says what was decided.

use super::places::{self, and_list, Winner};
pub use super::places::{not_met_text, NotMet, Verdict};
use super::small_sample::t975;
use super::stats::{normal_cdf, t_cdf};

/// The normal quantile of a two-sided 95% interval (a leader note without degrees of freedom).
const Z95: f64 = 1.959_963_984_540_054;
use super::table::Standings;

/// A signed figure with one decimal, never `-0.0` (as `report::signed`, which this module,
/// below the report, does not import).
fn elo(x: f64) -> String {
    let text = format!("{x:+.1}");
    if text == "-0.0" {
        "+0.0".into()
    } else {
        text
    }
}

/// Which entrants (standings order) any chain of games links to `from`.
fn linked_from(s: &Standings, from: usize) -> Vec<bool> {
    let n = s.crosstable.names.len();
    let mut seen = vec![false; n];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for (j, cell) in s.crosstable.cells[i].iter().enumerate() {
            if !seen[j] && cell.games > 0 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// The verdict of `s` when `played` of `scheduled` games are in it (`scheduled` `None`: the
/// schedule is not known, and the run is taken as complete).
pub fn verdict(s: &Standings, scheduled: Option<u64>) -> Verdict {
    let played = s.games;
    let mut v = Verdict {
        games_played: played,
        games_scheduled: scheduled,
        provisional: scheduled.is_some_and(|m| played < m),
        ..Verdict::default()
    };
    let names = &s.crosstable.names;
    v.unplayed = s
        .entrants
        .iter()
        .filter(|e| e.games == 0)
        .map(|e| e.name.clone())
        .collect();
    let shared = s.entrants.len() > 1 && s.entrants[1].place == 1;
    if s.entrants.is_empty() || played == 0 {
        v.sureness = "no games".into();
    } else if shared {
        v.sureness = "shared first place".into();
    } else if s.entrants.len() == 1 {
        v.leader = Some(s.entrants[0].name.clone());
        v.sureness = "the only entrant".into();
    } else {
        let first = &s.entrants[0];
        v.leader = Some(first.name.clone());
        if let Some(l) = &s.leader {
            v.closest = Some(l.closest.clone());
            v.margin = Some(l.margin);
            let se = if l.z.is_finite() && l.z != 0.0 {
                Some(l.margin / l.z)
            } else {
                None
            };
            let h2h = s.head_to_head.iter().find(|h| {
                (h.a == l.leader && h.b == l.closest) || (h.a == l.closest && h.b == l.leader)
            });
            match (h2h, se) {
                (Some(h), _) if h.a == l.leader => {
                    v.margin_low = Some(h.rating_diff_low);
                    v.margin_high = Some(h.rating_diff_high);
                }
                (Some(h), _) => {
                    v.margin_low = Some(-h.rating_diff_high);
                    v.margin_high = Some(-h.rating_diff_low);
                }
                (None, Some(se)) => {
                    let q = l.df.map_or(Z95, t975);
                    v.margin_low = Some(l.margin - q * se);
                    v.margin_high = Some(l.margin + q * se);
                }
                (None, None) => {}
            }
            // The same law as the interval beside it: Student's t with the fit's degrees of
            // freedom, so the interval holds 0 exactly when this is under 97.5% (the normal
            // law read "97% sure" beside an interval across 0 on a few pairs).
            v.chance_stronger = Some(match (l.z.is_finite(), l.df) {
                (false, _) => 1.0,
                (true, Some(df)) => t_cdf(l.z, df),
                (true, None) => normal_cdf(l.z),
            });
            v.sureness = if elo(l.margin) == "+0.0" {
                "level"
            } else if l.clear {
                "clearly ahead"
            } else if v.chance_stronger.unwrap_or(0.0) >= 0.9 {
                "probably ahead"
            } else {
                "too close to call"
            }
            .into();
        }
        // The leader against every entrant it has not played.
        let top = 0;
        let linked = linked_from(s, top);
        for (j, name) in names.iter().enumerate().skip(1) {
            if s.crosstable.cells[top][j].games > 0 {
                continue;
            }
            let through = (1..names.len())
                .filter(|&z| {
                    z != j
                        && s.crosstable.cells[top][z].games > 0
                        && s.crosstable.cells[z][j].games > 0
                })
                .map(|z| names[z].clone())
                .collect();
            v.not_met.push(NotMet {
                a: names[top].clone(),
                b: name.clone(),
                through,
                linked: linked[j],
            });
        }
    }
    v.sentence = sentence(s, &v);
    v
}

/// What stands between the leader and a verdict: entrants without games, rivals not met.
fn caveats(v: &Verdict) -> Vec<String> {
    let mut out = Vec::new();
    if !v.unplayed.is_empty() {
        let names: Vec<&str> = v.unplayed.iter().map(String::as_str).collect();
        let verb = if names.len() == 1 { "has" } else { "have" };
        out.push(format!(
            "not met: {} {verb} played no games yet, so nothing is known of {}",
            and_list(&names),
            if names.len() == 1 {
                "its strength"
            } else {
                "their strength"
            }
        ));
    }
    for m in v.not_met.iter().filter(|m| !v.unplayed.contains(&m.b)) {
        out.push(not_met_text(m));
    }
    out
}

fn sentence(s: &Standings, v: &Verdict) -> String {
    let mut parts = Vec::new();
    match (&v.leader, &v.closest, v.margin) {
        (Some(leader), Some(closest), Some(margin)) => {
            let interval = match (v.margin_low, v.margin_high) {
                (Some(lo), Some(hi)) => format!(" [{}, {}]", elo(lo), elo(hi)),
                _ => String::new(),
            };
            let score = |name: &str| {
                s.entrants
                    .iter()
                    .find(|e| e.name == name)
                    .map_or(0.0, |e| 100.0 * e.score)
            };
            let sure = match v.chance_stronger {
                Some(p) => format!(
                    "{}% sure it is the stronger of the two",
                    (100.0 * p).floor().min(99.0)
                ),
                None => String::new(),
            };
            let why = match v.sureness.as_str() {
                "clearly ahead" => "clearly ahead: more than chance gives the top of this field",
                "probably ahead" => "probably ahead, but not yet beyond chance",
                "level" => "level",
                _ => "too close to call",
            };
            parts.push(format!(
                "{leader} leads {closest} by {} Elo{interval} and has scored {:.1}% of its games ({closest} {:.1}%); {why}{}",
                elo(margin),
                score(leader),
                score(closest),
                if sure.is_empty() || v.sureness == "level" {
                    String::new()
                } else {
                    format!(" ({sure})")
                }
            ));
        }
        (Some(leader), _, _) => parts.push(format!("{leader} is the only entrant")),
        _ if v.sureness == "shared first place" => {
            let tied: Vec<&str> = s
                .entrants
                .iter()
                .filter(|e| e.place == 1)
                .map(|e| e.name.as_str())
                .collect();
            parts.push(format!("{} share first place", and_list(&tied)));
        }
        _ => parts.push("no games played yet".into()),
    }
    parts.extend(caveats(v));
    match (v.provisional, v.games_scheduled) {
        (true, Some(m)) => parts.push(format!(
            "{} of {m} games played, so this is provisional",
            v.games_played
        )),
        (false, Some(m)) => parts.push(format!("all {m} games played")),
        _ => {}
    }
    let mut text = parts.join("; ");
    text.push('.');
    text
}

/// The first line for `v`: the winner line of [`places::winner`] when the evidence is in,
/// otherwise a leader line that says what is missing.
pub fn headline(s: &Standings, v: &Verdict) -> Option<Winner> {
    let named: Vec<(&str, u64)> = s
        .entrants
        .iter()
        .map(|e| (e.name.as_str(), e.place))
        .collect();
    let base = places::winner(&named, s.leader.as_ref())?;
    let caveats = caveats(v);
    if !v.provisional && caveats.is_empty() {
        return Some(base);
    }
    let prefix = match (v.provisional, v.games_scheduled) {
        (true, Some(m)) => format!(
            "Leader (provisional, {} of {m} games played)",
            v.games_played
        ),
        _ => "Leader".to_string(),
    };
    let line = match &v.leader {
        // (Its own full stop dropped: the line gets one below; it read "score)..".)
        None => format!(
            "{prefix}: none yet: {}",
            lower_first(base.line.trim_end_matches('.'))
        ),
        Some(leader) => {
            let how = match v.sureness.as_str() {
                "the only entrant" => "the only entrant".to_string(),
                "level" => format!(
                    "level with {}",
                    v.closest.as_deref().unwrap_or("the next entrant")
                ),
                other if v.provisional => format!("{other} so far"),
                other => other.to_string(),
            };
            let mut line = format!("{prefix}: {leader}, {how}");
            for c in &caveats {
                line.push_str("; ");
                line.push_str(c);
            }
            line
        }
    };
    Some(Winner {
        champion: None,
        clear: false,
        line: line + ".",
    })
}

fn lower_first(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Sets the verdict of `s` for a schedule of `scheduled` games, and its first line (left as
/// it is for a knockout, king of the hill or Swiss, whose bracket decides it).
pub fn apply(s: &mut Standings, scheduled: Option<u64>) {
    let v = verdict(s, scheduled);
    if s.bracket.is_empty() {
        s.winner = headline(s, &v);
    }
    s.verdict = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::row::GameRow;
    use crate::standings::table::Standings;

    /// The standings of `rows` with the verdict of a run taken as complete.
    fn standings(rows: &[GameRow]) -> Standings {
        let mut s = crate::standings::table::standings(rows);
        apply(&mut s, None);
        s
    }

    /// `n` single games of `x` against `y`, `x` winning the first `wins`; games numbered from
    /// `from`.
    fn games(from: u64, x: &str, y: &str, n: u64, wins: u64) -> Vec<GameRow> {
        (0..n)
            .map(|k| {
                let g = from + k;
                GameRow::sample(g, None, 1000 + g, [x, y, x, y], Some(u8::from(k >= wins)))
            })
            .collect()
    }

    /// A beats B and C 18 games of 20, B and C split: A clearly leads a complete round robin.
    fn round_robin() -> Vec<GameRow> {
        let mut rows = games(0, "A", "B", 20, 18);
        rows.extend(games(20, "A", "C", 20, 18));
        rows.extend(games(40, "B", "C", 20, 10));
        rows
    }

    #[test]
    fn a_complete_run_with_every_pair_met_keeps_its_winner() {
        let mut s = standings(&round_robin());
        apply(&mut s, Some(60));
        let w = s.winner.as_ref().unwrap();
        assert_eq!(
            w.line,
            "Winner: A, ahead of every other entrant beyond chance."
        );
        assert!(w.clear && w.champion.as_deref() == Some("A"));
        let v = &s.verdict;
        assert_eq!(v.leader.as_deref(), Some("A"));
        assert_eq!(v.sureness, "clearly ahead");
        assert!(!v.provisional && v.not_met.is_empty() && v.unplayed.is_empty());
        assert!(v.sentence.starts_with("A leads "), "{}", v.sentence);
        assert!(
            v.sentence.ends_with("; all 60 games played."),
            "{}",
            v.sentence
        );
        // The margin's interval is finite and holds the margin.
        let (lo, m, hi) = (
            v.margin_low.unwrap(),
            v.margin.unwrap(),
            v.margin_high.unwrap(),
        );
        assert!(
            lo.is_finite() && hi.is_finite() && lo < m && m < hi,
            "{v:?}"
        );
    }

    #[test]
    fn a_partial_run_names_a_provisional_leader_not_a_winner() {
        // Issue 40: "on a partial run 'leader' and 'provisional'": the same games, out of a
        // schedule of 1200.
        let mut s = standings(&round_robin());
        apply(&mut s, Some(1200));
        let w = s.winner.as_ref().unwrap();
        assert_eq!(
            w.line,
            "Leader (provisional, 60 of 1200 games played): A, clearly ahead so far."
        );
        assert!(!w.clear && w.champion.is_none());
        assert!(s.verdict.provisional);
        assert!(
            s.verdict
                .sentence
                .ends_with("; 60 of 1200 games played, so this is provisional."),
            "{}",
            s.verdict.sentence
        );
        // Applied again (as the live page does on every game): the same line.
        let before = s.winner.clone();
        apply(&mut s, Some(1200));
        assert_eq!(s.winner, before);
    }

    #[test]
    fn entrants_that_never_met_get_no_verdict_without_saying_so() {
        // Issue 40: "never for a pair that has not met without saying 'not met, inferred
        // through X'". A and C never played; B played both.
        let mut rows = games(0, "A", "B", 20, 18);
        rows.extend(games(20, "B", "C", 20, 18));
        let s = standings(&rows);
        let line = &s.winner.as_ref().unwrap().line;
        assert!(!line.contains("Winner"), "{line}");
        assert!(
            line.starts_with("Leader: A, ")
                && line.ends_with(
                    "; not met: A and C have not played each other; the margin is inferred through B."
                ),
            "{line}"
        );
        assert_eq!(
            s.verdict.not_met,
            vec![NotMet {
                a: "A".into(),
                b: "C".into(),
                through: vec!["B".into()],
                linked: true
            }]
        );
        assert!(
            s.verdict.sentence.contains("not met: A and C"),
            "{}",
            s.verdict.sentence
        );
        // Partial as well: both said.
        let mut s = s;
        apply(&mut s, Some(60));
        let line = &s.winner.as_ref().unwrap().line;
        assert!(
            line.starts_with("Leader (provisional, 40 of 60 games played): A, ")
                && line.contains("; not met: A and C"),
            "{line}"
        );
    }

    #[test]
    fn entrants_linked_by_no_game_are_said_to_be_unmeasured() {
        let mut rows = games(0, "A", "B", 10, 9);
        rows.extend(games(10, "C", "D", 10, 5));
        let s = standings(&rows);
        let v = &s.verdict;
        assert_eq!(v.leader.as_deref(), Some("A"));
        assert!(v.not_met.iter().all(|m| !m.linked && m.through.is_empty()));
        assert!(
            s.winner.as_ref().unwrap().line.contains(
                "not met: A and C have not played each other; no chain of games links them, so their difference is not measured"
            ),
            "{:?}",
            s.winner
        );
    }

    #[test]
    fn the_interval_and_how_sure_come_from_one_law() {
        // Issue 40: "an interval that crosses 0 with '97% sure'": the interval was Student's t
        // and the sureness the normal law. On a few games the two read apart (the normal law
        // says 97.5% or more where the t interval still holds 0); now the interval holds 0
        // exactly when the chance is under 97.5%, and the sentence never prints 98% or more
        // beside such an interval.
        let mut apart = Vec::new();
        for n in 3..=16u64 {
            for wins in n / 2 + 1..=n {
                let v = verdict(&standings(&games(0, "A", "B", n, wins)), None);
                let (Some(lo), Some(hi), Some(p)) =
                    (v.margin_low, v.margin_high, v.chance_stronger)
                else {
                    continue;
                };
                let s = standings(&games(0, "A", "B", n, wins));
                let l = s.leader.as_ref().expect("a leader");
                if normal_cdf(l.z) >= 0.975 && lo <= 0.0 {
                    apart.push((n, wins));
                }
                let holds_zero = lo <= 0.0 && hi >= 0.0;
                assert_eq!(
                    holds_zero,
                    p < 0.975,
                    "{wins} of {n}: [{lo}, {hi}] and {p}: {}",
                    v.sentence
                );
                if holds_zero {
                    for sure in ["98% sure", "99% sure"] {
                        assert!(!v.sentence.contains(sure), "{}", v.sentence);
                    }
                }
            }
        }
        // The cases that read apart under the normal law are in this sweep (so the test
        // checks them): e.g. a handful of games all but one won.
        assert!(!apart.is_empty(), "no case where the two laws read apart");
    }

    #[test]
    fn sureness_in_words_follows_the_evidence() {
        // 11 of 20: too close to call; 15 of 20 between two entrants: probably ahead (not
        // beyond chance among two, more than 90% by the fit); 18 of 20: clearly ahead.
        let word = |wins| verdict(&standings(&games(0, "A", "B", 20, wins)), None).sureness;
        assert_eq!(word(11), "too close to call");
        assert_eq!(word(18), "clearly ahead");
        let level = verdict(&standings(&games(0, "A", "B", 20, 10)), None);
        assert!(
            level.leader.is_none() && level.sureness == "shared first place",
            "{level:?}"
        );
        let probably = (11..18).map(word).collect::<Vec<_>>();
        assert!(
            probably.iter().any(|w| w == "probably ahead"),
            "{probably:?}"
        );
        let v = verdict(&standings(&games(0, "A", "B", 20, 11)), None);
        assert!(
            v.sentence.contains("too close to call")
                && v.sentence.contains("% sure it is the stronger"),
            "{}",
            v.sentence
        );
    }

    #[test]
    fn no_games_and_a_shared_top_are_said_plainly() {
        let v = verdict(&standings(&[]), Some(12));
        assert_eq!(v.sureness, "no games");
        assert_eq!(
            v.sentence,
            "no games played yet; 0 of 12 games played, so this is provisional."
        );
        let mut s = standings(&games(0, "A", "B", 2, 1));
        apply(&mut s, Some(10));
        let line = &s.winner.as_ref().unwrap().line;
        assert!(
            line.starts_with("Leader (provisional, 2 of 10 games played): none yet: no clear winner: A and B share first place"),
            "{line}"
        );
        // One full stop (the live page showed "equal score)..").
        assert!(line.ends_with(").") && !line.ends_with(".."), "{line}");
    }
}
