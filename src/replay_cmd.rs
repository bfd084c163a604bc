//! `tarneeb replay RECORD`: verifies a game record against the rules in its header and prints a
//! readable transcript (or, with `--json`, the verified game for other tools; with `--html`, a
//! self-contained page that steps through the game: see [`crate::replay_html`]).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use crate::protocol::{FaultAction, GameEndMsg, HandEndMsg};
use crate::record::reader::{read_record, ReadError};
use crate::record::replay::{
    recorded_deals, replay_file, result_text, FaultEntry, RecordedDeals, VerifiedGame, VerifiedHand,
};
use crate::record::ReplayError;
use crate::rules::{CardSet, Rules, Seat, Suit, PRESETS};

/// Why `tarneeb replay` failed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayCmdError {
    /// Bad usage or an unreadable path: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// The record does not replay: exit code 1, the message names the line.
    #[error("{path}: {error}")]
    Invalid { path: String, error: ReplayError },
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
}

impl ReplayCmdError {
    pub fn is_usage(&self) -> bool {
        matches!(self, ReplayCmdError::Usage(_))
    }
}

/// Verifies the record at `path` and prints it: one hand with `hand`, JSON with `json`; with
/// `html`, writes the replay page there instead (and prints one line saying so).
pub fn run(
    path: &Path,
    hand: Option<u32>,
    json: bool,
    html: Option<&Path>,
) -> Result<(), ReplayCmdError> {
    let game = replay_file(path).map_err(|e| match e {
        ReadError::Io { .. } => ReplayCmdError::Usage(e.to_string()),
        ReadError::Line(error) => ReplayCmdError::Invalid {
            path: path.display().to_string(),
            error,
        },
    })?;
    let one = match hand {
        Some(n) => Some(game.hands.iter().find(|h| h.number == n).ok_or_else(|| {
            ReplayCmdError::Usage(match game.hands.len() {
                0 => format!("--hand {n}: the record holds no hand"),
                len => format!("--hand {n}: the record holds hands 1 to {len}"),
            })
        })?),
        None => None,
    };
    if let Some(out) = html {
        std::fs::write(out, crate::replay_html::render(&game)).map_err(|e| {
            ReplayCmdError::Usage(format!("--html {}: cannot write it: {e}", out.display()))
        })?;
        let moves: usize = game.hands.iter().map(|h| h.moves.len()).sum();
        crate::outln!(
            "wrote {}: {} hands, {moves} moves, verified",
            out.display(),
            game.hands.len()
        )
        .or_else(ignore_broken_pipe)
        .map_err(ReplayCmdError::Output)?;
        return Ok(());
    }
    let text = match (json, one) {
        (true, Some(h)) => serde_json::to_string(h).expect("a verified hand serializes") + "\n",
        (true, None) => serde_json::to_string(&game).expect("a verified game serializes") + "\n",
        (false, Some(h)) => hand_text(&game, h),
        (false, None) => transcript(&game),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A reader that stopped early (`| head`) is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(ReplayCmdError::Output(e)),
        Ok(()) => Ok(()),
    }
}

/// `play --deals-from RECORD`: the record's deals in order and its first dealer. The record must
/// read (every line a record line, every deal valid) but is not replayed. Refuses to write the
/// new game's record over `RECORD`, and notes on stderr when the record's rules differ from the
/// new game's.
pub fn deals_from(
    path: &Path,
    new_record: &Path,
    rules: Option<&Rules>,
) -> Result<RecordedDeals, String> {
    let lines = read_record(path).map_err(|e| match e {
        ReadError::Io { .. } => e.to_string(),
        ReadError::Line(l) => format!("--deals-from {}: {l}", path.display()),
    })?;
    let d = recorded_deals(&lines).map_err(|e| format!("--deals-from {}: {e}", path.display()))?;
    let same = match (path.canonicalize(), new_record.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(format!(
            "--record {} is the record the deals come from: give another --record path",
            new_record.display()
        ));
    }
    if let Some(rules) = rules.filter(|r| **r != d.rules) {
        eprintln!(
            "note: {} was played under other rules ({}); this game uses --rules ({})",
            path.display(),
            rules_text(&d.rules),
            rules_text(rules)
        );
    }
    Ok(d)
}

/// The whole game as text: the header, every hand, the result.
pub fn transcript(g: &VerifiedGame) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}, record format {}, seed {}, first dealer {}",
        g.referee, g.format, g.seed, g.first_dealer
    );
    let _ = writeln!(s, "rules: {}", rules_text(&g.rules));
    for b in &g.bots {
        let name = match (&b.name, &b.version) {
            (Some(n), Some(v)) => format!("{n} {v}"),
            (Some(n), None) => n.clone(),
            (None, _) => "(no hello)".to_string(),
        };
        let _ = writeln!(s, "seat {}: {name} ({})", b.seat, b.command.join(" "));
    }
    let bank = g.time.bank_ms.map_or(String::new(), |b| {
        format!(", bank {b} ms + {} ms", g.time.increment_ms)
    });
    let _ = writeln!(
        s,
        "time: {} ms per move{bank}; on fault: {}",
        g.time.move_ms, g.on_fault
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
                "unfinished: the game was aborted ({}) after {} hands",
                reason.as_deref().unwrap_or("no reason given"),
                g.hands.len()
            );
        }
    }
    let moves: usize = g.hands.iter().map(|h| h.moves.len()).sum();
    let _ = writeln!(
        s,
        "verified: {} hands, {moves} moves, every move legal and every score as the rules give it",
        g.hands.len()
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
    if let Some(r) = e.reneged.filter(|r| r.0.iter().any(|&x| x)) {
        let seats: Vec<String> = Seat::ALL
            .iter()
            .filter(|&&p| r[p])
            .map(|p| p.to_string())
            .collect();
        let limit = g
            .rules
            .individual
            .as_ref()
            .and_then(|i| i.slow_play)
            .map_or(String::new(), |sp| format!(" (over {} ms)", sp.limit_ms));
        let _ = writeln!(
            s,
            "  reneged under the slow-play rule{limit}: seat {}",
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
        let _ = writeln!(s, "forfeit: seat {} ({}): {}", f.seat, f.kind, f.detail);
    }
    s
}

fn fault_text(f: &FaultEntry) -> String {
    let action = match f.action {
        FaultAction::Forfeit => "forfeit",
        FaultAction::Substitute => "substitute",
    };
    format!("fault: seat {} {} ({action}): {}", f.seat, f.kind, f.detail)
}

/// Whether the play of `card` by `seat` was the referee's.
fn substituted_play(h: &VerifiedHand, seat: Seat, card: &str) -> bool {
    h.moves
        .iter()
        .any(|m| m.substituted && m.seat == seat && m.mv == card)
}

fn seat_moves(moves: &[crate::record::replay::SeatMove]) -> String {
    moves
        .iter()
        .map(|m| format!("{}: {}", m.seat, m.mv))
        .collect::<Vec<_>>()
        .join("  ")
}

/// `S: A K 7  H: Q 4  D: -  C: J 9 8 6 5 4 3 2`.
pub fn by_suit(cards: CardSet) -> String {
    [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
        .iter()
        .map(|&suit| {
            let ranks: Vec<String> = cards
                .display_order()
                .filter(|c| c.suit() == suit)
                .map(|c| c.rank().letter().to_string())
                .collect();
            let ranks = if ranks.is_empty() {
                "-".to_string()
            } else {
                ranks.join(" ")
            };
            format!("{suit}: {ranks}")
        })
        .collect::<Vec<_>>()
        .join("  ")
}

fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The preset the rules are, or what they change from it.
pub fn rules_text(r: &Rules) -> String {
    for name in PRESETS {
        if Rules::preset(name).as_ref() == Some(r) {
            return format!(
                "preset {name} (target {}, at most {} hands)",
                r.target, r.max_hands
            );
        }
    }
    let family = if r.contract.is_some() {
        "a contract game"
    } else {
        "an individual-bid game"
    };
    format!(
        "custom, {family} (target {}, at most {} hands); the header holds every option",
        r.target, r.max_hands
    )
}

/// A closed stdout (`| head`) ends the output, not the command.
fn ignore_broken_pipe(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_are_shown_by_suit() {
        let cards: CardSet =
            serde_json::from_str(r#"["AS","KS","7S","QH","4H","TC","2C"]"#).unwrap();
        assert_eq!(by_suit(cards), "S: A K 7  H: Q 4  D: -  C: T 2");
    }
}
