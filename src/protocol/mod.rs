//! The wire messages between the referee and a bot, version 1. `protocol.md` is the contract
//! with bot authors and `protocol/schema.json` its machine-readable form: every change here
//! changes both.
//!
//! Messages are one JSON object per line, with a `"type"`. The referee sends `hello` (or
//! `new_game` to a bot kept from an earlier game), `deal`, `request`, `move`, `trick`,
//! `hand_end`, `fault` and `game_end`; a bot answers `hello` or `new_game` with `hello`, and each
//! request with one `move`.

mod fault_policy;
mod game_name;
mod hot_json;
pub(crate) mod plain_reply;
mod printable;

pub use fault_policy::FaultPolicy;
pub use game_name::{game_name, GameName};
pub use printable::{has_controls, io_text, printable};

pub(crate) use hot_json::move_event as write_move_event;

use std::borrow::Cow;

use serde::{Deserialize, Serialize, Serializer};

use crate::rules::view::Announcement;
use crate::rules::{
    BySeat, ByTeam, Card, CardSet, DecisionKind, EndReason, Game, HandEnd, HandResult, Move, Rules,
    RulesKind, Seat, Team, View,
};

pub const PROTOCOL_VERSION: u32 = 1;

/// Time limits announced at the handshake (all in milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLimits {
    pub handshake_ms: u64,
    /// Hard limit for one reply; going over it is a `timeout` fault.
    pub move_ms: u64,
    /// A chess-clock bank per seat for the whole game, if any.
    pub bank_ms: Option<u64>,
    /// Added to the bank after each reply.
    pub increment_ms: u64,
}

/// The clock for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TurnClock {
    /// Time allowed for this reply: the move limit, or less when the bank is lower.
    pub limit_ms: u64,
    /// What is left in the seat's bank before this move (`null` without a bank).
    pub bank_ms: Option<u64>,
}

/// What a fault was (`fault` messages, records and results use these names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// No valid `hello` within the handshake timeout, or a `hello` that is not valid.
    Handshake,
    /// No reply within the limit.
    Timeout,
    /// The bot's output closed: it exited or crashed.
    Exited,
    /// A remote seat's connection closed or broke (a remote entrant, see `crate::remote`).
    Disconnected,
    /// A line that is not JSON (or not UTF-8).
    NotJson,
    /// JSON that is not a valid reply: wrong type, missing field, an id never issued.
    BadReply,
    /// A line longer than the referee's cap.
    LineTooLong,
    /// A move that is not among the legal moves.
    IllegalMove,
    /// Output when no request was outstanding.
    Unsolicited,
    /// More replies to earlier requests in one game than the referee discards.
    Flood,
    /// Went over its memory limit (killed by the out-of-memory killer).
    Memory,
    /// Tried to run more processes and threads than its limit.
    Processes,
    /// Wrote a file past the file size limit.
    FileSize,
    /// Used up its CPU time limit.
    CpuTime,
    /// Filled its working directory or /tmp.
    Disk,
    /// A remote seat whose entrant had no idle connection within `--absent-timeout` (the
    /// tournament's lobby): the game is forfeited without a handshake.
    Absent,
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = serde_json::to_value(self).expect("fault kinds serialize");
        f.write_str(v.as_str().unwrap_or("fault"))
    }
}

/// What the referee did about a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultAction {
    /// The seat's partnership lost the game.
    Forfeit,
    /// The referee played a random legal move for the seat.
    Substitute,
}

/// A message from the referee to one bot.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot<'a> {
    Hello {
        protocol: u32,
        seat: Seat,
        rules: &'a Rules,
        /// Which game the rules are (protocol.md 4.1; added within version 1).
        game: GameName,
        time: TimeLimits,
        /// A seed for the bot's own randomness, fresh per game and seat (protocol.md 4.1).
        seed: u64,
    },
    /// The next game for a bot kept from an earlier one (it declared `multi_game`): the same
    /// fields as `hello`, answered the same way.
    NewGame {
        protocol: u32,
        seat: Seat,
        rules: &'a Rules,
        game: GameName,
        time: TimeLimits,
        seed: u64,
    },
    Deal {
        hand_number: u32,
        dealer: Seat,
        /// The receiver's own 13 cards.
        hand: CardSet,
        announcements: Vec<Announcement>,
    },
    Request {
        id: u64,
        decision: DecisionKind,
        #[serde(serialize_with = "move_texts")]
        legal: &'a [Move],
        view: &'a View,
        time: TurnClock,
    },
    /// A move made at the table (a `keep` after a throw-in question is private and not sent).
    Move {
        hand_number: u32,
        seat: Seat,
        decision: DecisionKind,
        #[serde(rename = "move", serialize_with = "move_text")]
        mv: Move,
    },
    Trick {
        hand_number: u32,
        number: u8,
        leader: Seat,
        cards: Vec<Card>,
        winner: Seat,
    },
    HandEnd(HandEndMsg),
    Fault {
        seat: Seat,
        kind: FaultKind,
        action: FaultAction,
    },
    GameEnd(GameEndMsg),
}

/// Writes messages to bots. One per game: it remembers the JSON of what every request repeats
/// (the hand's finished tricks, the auction; see `hot_json::ViewCache`) so that is written once.
#[derive(Debug, Default)]
pub struct MessageWriter {
    cache: hot_json::ViewCache,
}

impl MessageWriter {
    /// Appends `msg` as one line of JSON, without its newline. The messages of every move are
    /// written by hand (see `hot_json`), the rest through serde; the bytes are the same either
    /// way.
    pub fn write(&mut self, out: &mut Vec<u8>, msg: &ToBot<'_>) {
        match msg {
            ToBot::Request {
                id,
                decision,
                legal,
                view,
                time,
            } => hot_json::request(out, &mut self.cache, *id, *decision, legal, view, time),
            ToBot::Move {
                hand_number,
                seat,
                decision,
                mv,
            } => hot_json::move_event(out, *hand_number, *seat, *decision, *mv),
            ToBot::Trick {
                hand_number,
                number,
                leader,
                cards,
                winner,
            } => hot_json::trick_event(out, *hand_number, *number, *leader, cards, *winner),
            other => serde_json::to_writer(out, other).expect("protocol messages serialize"),
        }
    }
}

/// Moves go on the wire as their text.
fn move_text<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&mv.text())
}

fn move_texts<S: Serializer>(moves: &&[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(|m| m.text()))
}

/// The end of a hand, as sent to bots and written to records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandEndMsg {
    pub hand_number: u32,
    pub dealer: Seat,
    /// `played`, `all-passed`, `thrown-in`, or `bid-sum-too-low`.
    pub end: String,
    /// The seat that threw the hand in, for `thrown-in`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thrown_in_by: Option<Seat>,
    pub team_delta: ByTeam<i32>,
    pub team_scores: ByTeam<i32>,
    /// 400 / Forty-One only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_delta: Option<BySeat<i32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_scores: Option<BySeat<i32>>,
    /// Seats penalised under the ten-second rule (400 / Forty-One): `strikes` moves slower
    /// than its limit in the hand. Not a failure to follow suit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow_play_penalty: Option<BySeat<bool>>,
    /// The same list under its first name, kept for bots written before `slow_play_penalty`
    /// (protocol.md 4.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reneged: Option<BySeat<bool>>,
    /// The hand decided the game by itself (kaboot instant win, a bid of 13 in 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instant_winner: Option<Team>,
}

/// The `hand_end` message for a hand that `game` has just scored: what the referee sends and
/// records, and what replay recomputes to check a record.
pub fn hand_end_msg(game: &Game, r: &HandResult) -> HandEndMsg {
    let individual = matches!(game.rules().kind(), RulesKind::Individual(_));
    let (end, thrown_in_by) = match r.end {
        HandEnd::Played => ("played", None),
        HandEnd::AllPassed { .. } => ("all-passed", None),
        HandEnd::ThrownIn { seat, .. } => ("thrown-in", Some(seat)),
        HandEnd::BidSumTooLow { .. } => ("bid-sum-too-low", None),
    };
    let team_delta = if individual {
        ByTeam(Team::ALL.map(|t| t.seats().iter().map(|&s| r.seat_delta[s]).sum()))
    } else {
        r.team_delta
    };
    HandEndMsg {
        hand_number: r.number,
        dealer: r.dealer,
        end: end.to_string(),
        thrown_in_by,
        team_delta,
        team_scores: game.team_totals(),
        seat_delta: individual.then_some(r.seat_delta),
        seat_scores: individual.then(|| game.seat_scores()),
        slow_play_penalty: individual.then_some(r.reneged),
        reneged: individual.then_some(r.reneged),
        instant_winner: r.instant_winner,
    }
}

/// The `game_end` message for a game that ended by the rules now (a forfeit replaces the
/// reason and adds its details): what the referee sends and records, and replay recomputes.
pub fn game_end_msg(game: &Game, winner: Option<Team>, reason: EndReason) -> GameEndMsg {
    let individual = matches!(game.rules().kind(), RulesKind::Individual(_));
    GameEndMsg {
        winner,
        reason: match reason {
            EndReason::Target => "target",
            EndReason::Instant => "instant",
            EndReason::HandCap => "hand-cap",
        }
        .to_string(),
        hands: game.hands_dealt(),
        team_scores: game.team_totals(),
        seat_scores: individual.then(|| game.seat_scores()),
        forfeit: None,
    }
}

/// The result of a game, as sent to bots, written to records and printed by `play --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEndMsg {
    /// The winning team, `null` for a draw.
    pub winner: Option<Team>,
    /// `target`, `instant`, `hand-cap` or `forfeit`.
    pub reason: String,
    pub hands: u32,
    pub team_scores: ByTeam<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_scores: Option<BySeat<i32>>,
    /// For a forfeit: the faulting seat, what it did and the detail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<ForfeitInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForfeitInfo {
    pub seat: Seat,
    pub kind: FaultKind,
    pub detail: String,
}

/// A bot's `hello` reply.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloReply {
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
    /// The bot plays several games in one process: after `game_end` it waits for `new_game`
    /// (or the end of its input) instead of exiting.
    #[serde(default)]
    pub multi_game: bool,
}

/// A bot's `move` reply.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveReply {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: u64,
    #[serde(rename = "move")]
    pub mv: String,
}

/// How a line from a bot reads as a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadReply<'a> {
    /// A `move` reply: the request id it names and the move's text (borrowed from the line
    /// unless the line escaped it).
    Move { id: u64, mv: Cow<'a, str> },
    /// Not JSON at all.
    NotJson(String),
    /// JSON, but not a `move` reply.
    Invalid(String),
}

/// The hint given with every line that is not JSON: the usual cause is debug output on stdout.
const STDOUT_IS_PROTOCOL: &str = "stdout carries protocol lines only: write diagnostics to stderr";

/// Reads one line as a `move` reply, telling bad JSON from JSON of the wrong shape.
pub fn read_move(line: &str) -> ReadReply<'_> {
    // Fast path: the reply of a well-behaved bot, read in place. Anything else, valid or not,
    // takes the slow path, which alone decides how a line that is not a plain reply is read,
    // so the two paths cannot disagree on an accepted reply.
    match plain_reply::read(line) {
        Some((id, mv)) => ReadReply::Move {
            id,
            mv: Cow::Borrowed(mv),
        },
        None => read_move_slow(line),
    }
}

/// What to do about a line that is not JSON: a message cut short (a JSON object that ends
/// before it closes: pretty-printed over several lines, or a newline written inside it) is told
/// as that, not as debug output (issue 41 point 4); anything else is most likely debug text.
pub fn not_json_fix(line: &str, e: &serde_json::Error) -> &'static str {
    if e.is_eof() && line.trim_start().starts_with('{') {
        CUT_SHORT
    } else {
        STDOUT_IS_PROTOCOL
    }
}

/// The fix for a JSON message cut short at the end of its line.
pub const CUT_SHORT: &str = "the JSON message ends before it closes (cut short): write each message whole on one line, with no newline inside it (no pretty-printing; a newline in a string is written \\n), and end the line only after the whole message";

/// Reads any line as a `move` reply through a JSON tree, to say exactly what is wrong.
pub(crate) fn read_move_slow(line: &str) -> ReadReply<'static> {
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return ReadReply::NotJson(format!(
                "not JSON ({e}): {}; {}",
                excerpt(line),
                not_json_fix(line, &e)
            ))
        }
    };
    if value.get("type").and_then(|t| t.as_str()) != Some("move") {
        return ReadReply::Invalid(format!(
            "expected {{\"type\": \"move\", \"id\": N, \"move\": \"...\"}}, got {}",
            excerpt(line)
        ));
    }
    match serde_json::from_value::<MoveReply>(value) {
        Ok(m) => ReadReply::Move {
            id: m.id,
            mv: Cow::Owned(m.mv),
        },
        Err(e) => ReadReply::Invalid(format!("not a valid move reply ({e}): {}", excerpt(line))),
    }
}

/// Reads the `hello` reply of the handshake; the error says what is wrong.
pub fn read_hello(line: &str) -> Result<HelloReply, String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        format!(
            "hello reply is not JSON ({e}): {}; {}",
            excerpt(line),
            not_json_fix(line, &e)
        )
    })?;
    if value.get("type").and_then(|t| t.as_str()) != Some("hello") {
        return Err(format!(
            "expected {{\"type\": \"hello\", \"name\": \"...\"}}, got {}",
            excerpt(line)
        ));
    }
    let h: HelloReply = serde_json::from_value(value)
        .map_err(|e| format!("not a valid hello reply ({e}): {}", excerpt(line)))?;
    // Characters, not bytes (protocol.md 4.1, the schema's maxLength): a name in Arabic
    // takes two bytes a letter.
    if h.name.trim().is_empty() || h.name.chars().count() > 100 {
        return Err(
            "the hello reply's name must be 1 to 100 characters, not all blank".to_string(),
        );
    }
    // A name is printed in results and standings: no escape sequences, no forged lines.
    for (what, text) in [("name", Some(&h.name)), ("version", h.version.as_ref())] {
        if let Some(text) = text.filter(|t| has_controls(t)) {
            return Err(format!(
                "the hello reply's {what} holds control characters ({}): use printable text",
                printable(text)
            ));
        }
    }
    Ok(h)
}

/// The start of a long line, for messages.
/// Control characters are escaped: the excerpt is printed (see [`printable`]).
pub fn excerpt(line: &str) -> String {
    const MAX: usize = 120;
    if line.len() <= MAX {
        return printable(line).into_owned();
    }
    let mut end = MAX;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", printable(&line[..end]), line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_classified() {
        assert!(
            matches!(read_move(r#"{"type":"move","id":3,"move":"AS"}"#), ReadReply::Move { id: 3, mv } if mv == "AS")
        );
        assert!(matches!(read_move("hello"), ReadReply::NotJson(_)));
        // Issue 41 point 4: a message cut short is not blamed on debug output.
        let ReadReply::NotJson(cut) = read_move(r#"{"type":"move","id":3,"#) else {
            panic!("a cut message is not JSON")
        };
        assert!(
            cut.contains("cut short") && !cut.contains("stderr"),
            "{cut}"
        );
        let ReadReply::NotJson(debug) = read_move("my hand: 5S 7H") else {
            panic!("text is not JSON")
        };
        assert!(
            debug.contains("stderr") && !debug.contains("cut short"),
            "{debug}"
        );
        let hello = read_hello("{").unwrap_err();
        assert!(hello.contains("cut short"), "{hello}");
        assert!(matches!(
            read_move(r#"{"type":"move","id":"x","move":"AS"}"#),
            ReadReply::Invalid(_)
        ));
        assert!(matches!(
            read_move(r#"{"type":"move","id":1,"move":"AS","extra":1}"#),
            ReadReply::Invalid(_)
        ));
        assert!(matches!(
            read_move(r#"{"type":"hello","name":"x"}"#),
            ReadReply::Invalid(_)
        ));
        assert!(read_hello(r#"{"type":"hello","name":"bot","version":"1"}"#).is_ok());
        assert!(read_hello(r#"{"type":"hello","name":""}"#).is_err());
        // protocol.md 4.4: multi_game is optional, false unless declared, and a boolean.
        assert!(
            !read_hello(r#"{"type":"hello","name":"b"}"#)
                .unwrap()
                .multi_game
        );
        let h = read_hello(r#"{"type":"hello","name":"b","multi_game":true}"#).unwrap();
        assert!(h.multi_game);
        assert!(read_hello(r#"{"type":"hello","name":"b","multi_game":1}"#).is_err());
        // protocol.md 4.1: a name is 1 to 100 characters (not bytes), not all blank.
        let hello = |name: &str| {
            read_hello(&serde_json::json!({"type": "hello", "name": name}).to_string())
        };
        assert!(
            hello(&"\u{637}".repeat(100)).is_ok(),
            "100 Arabic letters, 200 bytes"
        );
        assert!(hello(&"\u{637}".repeat(101)).is_err());
        assert!(hello(&"b".repeat(100)).is_ok());
        assert!(hello(&"b".repeat(101)).is_err());
        assert!(hello("   ").is_err());
    }

    #[test]
    fn the_fast_path_reads_every_line_as_the_slow_path_does() {
        let lines = [
            r#"{"type":"move","id":3,"move":"AS"}"#,
            r#" { "move" : "10H", "id" : 17 , "type" : "move" } "#,
            r#"{"type":"move","id":3,"move":"AS"}
"#,
            r#"{"type":"move","id":3,"move":"AS"}"#,
            r#"{"type":"move","id":3,"move":"AS"}"#,
            r#"{"type":"move","id":3,"move":"AS","id":4}"#,
            r#"{"type":"move","id":3,"move":"AS","type":"hello"}"#,
            r#"{"type":"move","id":-1,"move":"AS"}"#,
            r#"{"type":"move","id":3.0,"move":"AS"}"#,
            r#"{"type":"move","id":18446744073709551615,"move":"AS"}"#,
            r#"{"type":"move","id":18446744073709551616,"move":"AS"}"#,
            r#"{"type":"move","id":3,"move":null}"#,
            r#"{"type":"move","id":3}"#,
            r#"{"type":"move","id":3,"move":"AS"} x"#,
            r#"{"type":"move","id":3,"move":"AS"}{}"#,
            r#"{"type":"Move","id":3,"move":"AS"}"#,
            r#"{"type":"hello","id":3,"move":"AS"}"#,
            r#"["move",3,"AS"]"#,
            "",
        ];
        for line in lines {
            assert_eq!(read_move(line), read_move_slow(line), "{line}");
        }
    }

    /// Lines built from the pieces a reply is made of, right and wrong: keys (also escaped,
    /// misspelt, repeated, missing or extra), values of every JSON type and number form, every
    /// kind of whitespace (and form feed, which JSON does not allow), trailing text. Pairs are
    /// weighted towards a key with a value of its kind, so many lines are (nearly) replies.
    fn reply_like_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        // Form feed (not JSON whitespace) rarely: it spoils the whole line.
        let mut space = vec![""; 24];
        space.extend([" ", " ", "  ", "\t", "\r", "\n", "\u{c}"]);
        let space = prop::sample::select(space);
        let strings = vec![
            r#""move""#,
            r#""hello""#,
            r#""AS""#,
            r#""10H""#,
            r#""pass""#,
            r#""""#,
            r#""A\u0053""#,
            r#""7♠""#,
            "\"A\tS\"",
        ];
        let numbers = vec![
            "0",
            "3",
            "17",
            "03",
            "-1",
            "3.0",
            "3e0",
            "18446744073709551615",
            "18446744073709551616",
        ];
        let others = vec!["null", "true", "{}", "[]"];
        let any_value: Vec<&str> = [strings.clone(), numbers.clone(), others].concat();
        let any_key = prop::sample::select(vec![
            r#""type""#,
            r#""id""#,
            r#""move""#,
            r#""t\u0079pe""#,
            r#""Type""#,
            r#""x""#,
        ]);
        let pair = prop_oneof![
            3 => prop::sample::select(vec![r#""move""#, r#""move""#, r#""hello""#])
                .prop_map(|v| (r#""type""#, v)),
            3 => prop::sample::select([numbers.clone(), vec!["0", "3", "17"]].concat())
                .prop_map(|v| (r#""id""#, v)),
            3 => prop::sample::select(strings).prop_map(|v| (r#""move""#, v)),
            1 => (any_key, prop::sample::select(any_value)),
        ];
        let spaced_pair = (space.clone(), pair, space.clone(), space.clone());
        let pairs = prop_oneof![
            3 => prop::collection::vec(spaced_pair.clone(), 3..=3),
            1 => prop::collection::vec(spaced_pair, 0..5),
        ];
        let tail = prop::sample::select(vec!["", "", "", "", "", " ", "\r", "x", "{}", ","]);
        (space.clone(), pairs, space, tail, prop::bool::weighted(0.9)).prop_map(
            |(lead, pairs, close, tail, braces)| {
                let body: Vec<String> = pairs
                    .into_iter()
                    .map(|(a, (k, v), b, c)| format!("{a}{k}{b}:{c}{v}"))
                    .collect();
                let body = body.join(",");
                if braces {
                    format!("{lead}{{{body}{close}}}{tail}")
                } else {
                    format!("{lead}[{body}]{tail}")
                }
            },
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// The hand-written fast path never disagrees with serde_json.
        #[test]
        fn the_fast_path_agrees_with_serde_on_generated_lines(line in reply_like_line()) {
            proptest::prop_assert_eq!(read_move(&line), read_move_slow(&line));
        }
    }

    /// The generator above does reach the fast path (else the property would hold trivially).
    #[test]
    fn generated_lines_include_plain_replies() {
        use proptest::strategy::{Strategy, ValueTree};
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = reply_like_line();
        let plain = (0..20_000)
            .filter(|_| {
                let line = strategy.new_tree(&mut runner).unwrap().current();
                plain_reply::read(&line).is_some()
            })
            .count();
        // About 2% of lines: hundreds here, about 70 of the proptest's 4,000 cases.
        assert!(
            plain > 100,
            "only {plain} of 20,000 generated lines took the fast path"
        );
    }

    #[test]
    fn fault_kinds_print_as_on_the_wire() {
        assert_eq!(FaultKind::LineTooLong.to_string(), "line-too-long");
        assert_eq!(FaultKind::NotJson.to_string(), "not-json");
    }
}
