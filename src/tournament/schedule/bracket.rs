//! The bracket of a knockout and the ladder of a king of the hill: each match with its score
//! and what decided it, and the champion's line. A match goes to the side with more games won
//! (a draw half a game), then more team points, then the side whose first entrant comes first
//! in `--bot` order; the bracket says which of the three decided each match.
//!
//! `tarneeb tournament` prints it from its schedule; `tarneeb standings DIR` rebuilds the
//! schedule from `tournament.json` and the rows (the schedule depends only on them).

use std::collections::HashMap;

use serde_json::Value;

use crate::standings::places::Winner;
use crate::standings::table::Standings;
use crate::tournament::schedule::swiss_table;
use crate::tournament::schedule::{
    Format, GameScore, MatchOutcome, Partners, Plan, Schedule, Unit,
};

/// The schedule's plan as `tournament.json` states it, when it can be rebuilt.
pub fn plan_of(config: &Value) -> Option<Plan> {
    Some(Plan {
        entrants: config["entrants"].as_array()?.len(),
        format: Format::parse(config["format"].as_str()?).ok()?,
        partners: Partners::parse(config["partners"].as_str().unwrap_or("own")).ok()?,
        games: config["games"].as_u64()?,
        duplicate: config["duplicate"].as_bool().unwrap_or(true),
        seed: config["seed"].as_u64()?,
        rounds: config["rounds"].as_u64().unwrap_or(0),
    })
}

/// The entrants' names of `tournament.json`, in `--bot` order.
pub fn names_of(config: &Value) -> Vec<String> {
    config["entrants"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["name"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the format has a bracket, a ladder or a Swiss table.
pub fn has_bracket(config: &Value) -> bool {
    matches!(
        plan_of(config).map(|p| p.format),
        Some(Format::Knockout | Format::KingOfTheHill | Format::Swiss)
    )
}

/// The finished matches and the champion of the schedule of `config` fed `scores` (by game),
/// as far as they reach.
pub fn replay(
    config: &Value,
    scores: &HashMap<u64, GameScore>,
) -> Option<(Vec<MatchOutcome>, Option<Unit>)> {
    let mut s = Schedule::new(plan_of(config)?).ok()?;
    while let Some(spec) = s.next_game() {
        if let Some(score) = scores.get(&spec.game) {
            s.finished(spec.game, *score);
        }
    }
    Some((s.bracket(), s.champion()))
}

fn unit_name(names: &[String], u: Unit) -> String {
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    if u[0] == u[1] {
        name(u[0]).to_string()
    } else {
        format!("{}+{}", name(u[0]), name(u[1]))
    }
}

fn games(half: u32) -> String {
    if half.is_multiple_of(2) {
        (half / 2).to_string()
    } else {
        format!("{}.5", half / 2)
    }
}

/// One match: `alpha 2-2 gamma, 84-84 team points: alpha through by bot order`.
pub fn match_line(names: &[String], m: &MatchOutcome) -> String {
    let [a, b] = m.sides.map(|u| unit_name(names, u));
    let through = unit_name(names, m.sides[m.winner]);
    let mut line = format!(
        "{a} {}-{} {b}",
        games(m.half_points[0]),
        games(m.half_points[1])
    );
    match m.decided_by {
        "games" => line.push_str(&format!(": {through} through on games")),
        "team points" => line.push_str(&format!(
            ", team points {}-{}: {through} through on team points (games level)",
            m.points[0], m.points[1]
        )),
        _ => line.push_str(&format!(
            ", team points {}-{}: {through} through by --bot order (games and team points level)",
            m.points[0], m.points[1]
        )),
    }
    line
}

/// The bracket or ladder as text, one match a line.
pub fn render(names: &[String], format: Format, bracket: &[MatchOutcome]) -> String {
    let (title, step) = match format {
        Format::KingOfTheHill => ("King of the hill ladder", "match"),
        _ => ("Knockout bracket", "round"),
    };
    let mut out = format!(
        "{title} (a match goes to more games won, a draw a half, then more team points, then the entrant first in --bot order):\n"
    );
    for m in bracket {
        out.push_str(&format!("  {step} {}: {}\n", m.round, match_line(names, m)));
    }
    out
}

/// Puts the bracket (and the champion, once decided), or the Swiss table and its winner, into
/// `standings`.
pub fn apply(
    standings: &mut Standings,
    names: &[String],
    plan: &Plan,
    bracket: &[MatchOutcome],
    champion: Option<Unit>,
) {
    if bracket.is_empty() {
        return;
    }
    let text = if plan.format == Format::Swiss {
        // A bye scores half its round's games (the schedule's rule), in half points.
        let bye = plan.games * if plan.duplicate { 2 } else { 1 };
        let units = crate::tournament::schedule::units(plan.entrants, plan.partners);
        let lines = swiss_table::table(&units, bracket, bye as u32);
        standings.winner = swiss_table::winner(names, &lines).or(standings.winner.take());
        swiss_table::render(names, &lines)
    } else {
        if let Some(u) = champion {
            standings.winner = Some(champion_line(names, bracket, u));
        }
        render(names, plan.format, bracket)
    };
    standings.bracket = text.lines().map(String::from).collect();
}

/// The standings of the directory with `config`: its bracket replayed from the rows' `scores`.
pub fn apply_replayed(standings: &mut Standings, config: &Value, scores: &HashMap<u64, GameScore>) {
    if let (Some(plan), Some((bracket, champion))) = (plan_of(config), replay(config, scores)) {
        apply(standings, &names_of(config), &plan, &bracket, champion);
    }
}

/// The winner line of a decided bracket: the champion and how its last match was won.
pub fn champion_line(names: &[String], bracket: &[MatchOutcome], champion: Unit) -> Winner {
    let name = unit_name(names, champion);
    let last = bracket.last().map_or(String::new(), |m| {
        format!(" (final: {})", match_line(names, m))
    });
    Winner {
        champion: Some(name.clone()),
        clear: true,
        line: format!("Champion: {name}{last}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(format: &str, entrants: usize) -> Value {
        let all = ["alpha", "beta", "gamma", "delta"];
        let e: Vec<Value> = all[..entrants]
            .iter()
            .map(|n| serde_json::json!({ "name": n }))
            .collect();
        serde_json::json!({"entrants": e, "format": format, "partners": "own", "games": 2,
            "duplicate": false, "seed": 5})
    }

    #[test]
    fn a_two_all_final_names_how_it_was_broken() {
        // Knockout of 4, two games a match (no duplicate). Round 1: alpha beats beta 2-0,
        // gamma beats delta 1.5-0.5. Final alpha-gamma: 1-1 in games and 84-84 in team
        // points: alpha goes through by --bot order, and the bracket and the champion's line
        // say so.
        let cfg = config("knockout", 4);
        let names = names_of(&cfg);
        let mut s = Schedule::new(plan_of(&cfg).unwrap()).unwrap();
        let mut scores = HashMap::new();
        while let Some(spec) = s.next_game() {
            let [e0, e1] = [spec.seats[0], spec.seats[1]];
            let win_for = |e: usize| Some(if spec.seats[0] == e { 0 } else { 1 });
            let score = match (e0.min(e1), e0.max(e1)) {
                (0, 1) => GameScore {
                    winner: win_for(0),
                    team_scores: [41, 10],
                },
                (2, 3) if spec.game % 2 == 0 => GameScore {
                    winner: None,
                    team_scores: [20, 20],
                },
                (2, 3) => GameScore {
                    winner: win_for(2),
                    team_scores: [41, 10],
                },
                // The final, sides swapped between its two games: team 0 wins each 42-0, so
                // alpha and gamma win one each, 42-42 in team points.
                _ => GameScore {
                    winner: Some(0),
                    team_scores: [42, 0],
                },
            };
            scores.insert(spec.game, score);
            s.finished(spec.game, score);
        }
        let (bracket, champion) = replay(&cfg, &scores).unwrap();
        assert_eq!(bracket, s.bracket());
        assert_eq!(champion, Some([0, 0]));
        let text = render(&names, Format::Knockout, &bracket);
        assert!(
            text.contains("  round 1: alpha 2-0 beta: alpha through on games\n"),
            "{text}"
        );
        assert!(
            text.contains("  round 1: gamma 1.5-0.5 delta: gamma through on games\n"),
            "{text}"
        );
        let fin = bracket.last().unwrap();
        assert_eq!((fin.half_points, fin.decided_by), ([2, 2], "bot order"));
        assert!(
            text.contains("  round 2: alpha 1-1 gamma, team points 42-42: alpha through by --bot order (games and team points level)\n"),
            "{text}"
        );
        let w = champion_line(&names, &bracket, champion.unwrap());
        assert_eq!(w.champion.as_deref(), Some("alpha"));
        assert!(w.line.starts_with("Champion: alpha (final: alpha 1-1 gamma, team points 42-42: alpha through by --bot order"), "{}", w.line);
    }
}
