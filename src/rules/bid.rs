//! Bids, calls, strains and every kind of move a player can make, with their text forms.
//!
//! Move text depends on the decision being made ("7C" is a card when playing and a bid when
//! calling), so moves are parsed against a [`DecisionKind`].

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize, Serializer};

use super::card::{Card, Suit};

/// A number of tricks that can be bid, 1..=13 (classic uses 7..13, 400 from 2, Forty-One from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(13);

    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 13 {
            Some(Level(n))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Level {
    type Error = String;
    fn try_from(n: u8) -> Result<Level, String> {
        Level::new(n).ok_or_else(|| format!("{n} is not a bid level: levels are 1 to 13 tricks"))
    }
}

impl From<Level> for u8 {
    fn from(l: Level) -> u8 {
        l.0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&MoveText::level(*self))
    }
}

/// The text of a move, call or bid, built in place: moves are written into every request (the
/// legal list and the auction), where formatting machinery and a `String` per move cost more
/// than the rest of the message. The longest move text is 8 bytes (`redouble`, `throw-in`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveText {
    bytes: [u8; 8],
    len: u8,
}

impl MoveText {
    fn new() -> MoveText {
        MoveText {
            bytes: [0; 8],
            len: 0,
        }
    }

    fn of(text: &str) -> MoveText {
        let mut t = MoveText::new();
        t.push(text);
        t
    }

    fn push(&mut self, text: &str) {
        let at = self.len as usize;
        self.bytes[at..at + text.len()].copy_from_slice(text.as_bytes());
        self.len += text.len() as u8;
    }

    fn level(l: Level) -> MoveText {
        let n = l.get();
        let mut t = MoveText::new();
        if n >= 10 {
            t.bytes[0] = b'1';
            t.len = 1;
        }
        t.bytes[t.len as usize] = b'0' + n % 10;
        t.len += 1;
        t
    }

    /// The text's bytes (ASCII), for writers that need no `str`.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII pieces are ever pushed.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or_default()
    }
}

impl Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for MoveText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// What a contract is played in: a trump suit or No Trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Strain {
    Trump(Suit),
    NoTrump,
}

impl Strain {
    /// The four suits (clubs to spades), then No Trump.
    pub const ALL: [Strain; 5] = [
        Strain::Trump(Suit::Clubs),
        Strain::Trump(Suit::Diamonds),
        Strain::Trump(Suit::Hearts),
        Strain::Trump(Suit::Spades),
        Strain::NoTrump,
    ];

    pub const fn trump(self) -> Option<Suit> {
        match self {
            Strain::Trump(s) => Some(s),
            Strain::NoTrump => None,
        }
    }

    fn parse(s: &str) -> Option<Strain> {
        if s.eq_ignore_ascii_case("NT") {
            return Some(Strain::NoTrump);
        }
        let mut c = s.chars();
        match (c.next().and_then(Suit::from_letter), c.next()) {
            (Some(suit), None) => Some(Strain::Trump(suit)),
            _ => None,
        }
    }
}

impl Strain {
    pub const fn as_str(self) -> &'static str {
        match self {
            Strain::Trump(Suit::Clubs) => "C",
            Strain::Trump(Suit::Diamonds) => "D",
            Strain::Trump(Suit::Hearts) => "H",
            Strain::Trump(Suit::Spades) => "S",
            Strain::NoTrump => "NT",
        }
    }
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Strain> for String {
    fn from(s: Strain) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Strain {
    type Error = String;
    fn try_from(s: String) -> Result<Strain, String> {
        Strain::parse(&s).ok_or_else(|| format!("'{s}' is not a strain: write C, D, H, S or NT"))
    }
}

/// A bid: a level, and in suit-bid auctions (Egyptian) the strain it proposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bid {
    pub level: Level,
    pub strain: Option<Strain>,
}

impl Bid {
    pub fn text(self) -> MoveText {
        let mut t = MoveText::level(self.level);
        if let Some(s) = self.strain {
            t.push(s.as_str());
        }
        t
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// One call in an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    Pass,
    Bid(Bid),
    Double,
    Redouble,
}

impl Call {
    pub fn text(self) -> MoveText {
        match self {
            Call::Pass => MoveText::of("pass"),
            Call::Bid(b) => b.text(),
            Call::Double => MoveText::of("double"),
            Call::Redouble => MoveText::of("redouble"),
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// The kinds of decision a player is asked to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// Throw the hand in or keep it (throw-in house rules, before the auction).
    ThrowIn,
    /// A call in the auction (in 400 and Forty-One: the player's one bid).
    Call,
    /// The declarer names the trump (classic).
    Trump,
    /// Play a card to the trick.
    Play,
}

impl DecisionKind {
    /// Its name in messages and records.
    pub const fn as_str(self) -> &'static str {
        match self {
            DecisionKind::ThrowIn => "throw-in",
            DecisionKind::Call => "call",
            DecisionKind::Trump => "trump",
            DecisionKind::Play => "play",
        }
    }
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Anything a player can do on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    ThrowIn,
    Keep,
    Call(Call),
    Trump(Strain),
    Play(Card),
}

impl Move {
    pub const fn kind(self) -> DecisionKind {
        match self {
            Move::ThrowIn | Move::Keep => DecisionKind::ThrowIn,
            Move::Call(_) => DecisionKind::Call,
            Move::Trump(_) => DecisionKind::Trump,
            Move::Play(_) => DecisionKind::Play,
        }
    }

    /// Reads a move's text as the answer to a decision of `kind`. Only the form is checked here;
    /// whether the move is legal is the game's business.
    pub fn parse(kind: DecisionKind, text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        let err = || ParseMoveError {
            kind,
            text: text.to_string(),
        };
        match kind {
            DecisionKind::ThrowIn => match t {
                "throw-in" => Ok(Move::ThrowIn),
                "keep" => Ok(Move::Keep),
                _ => Err(err()),
            },
            DecisionKind::Trump => Strain::parse(t).map(Move::Trump).ok_or_else(err),
            DecisionKind::Play => t.parse::<Card>().map(Move::Play).map_err(|_| err()),
            DecisionKind::Call => {
                let lower = t.to_ascii_lowercase();
                match lower.as_str() {
                    "pass" => return Ok(Move::Call(Call::Pass)),
                    "double" => return Ok(Move::Call(Call::Double)),
                    "redouble" => return Ok(Move::Call(Call::Redouble)),
                    _ => {}
                }
                let digits = t.bytes().take_while(u8::is_ascii_digit).count();
                let level = t[..digits]
                    .parse::<u8>()
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(err)?;
                let rest = &t[digits..];
                let strain = if rest.is_empty() {
                    None
                } else {
                    Some(Strain::parse(rest).ok_or_else(err)?)
                };
                Ok(Move::Call(Call::Bid(Bid { level, strain })))
            }
        }
    }
}

impl Move {
    /// Every move of every kind, whether or not any rules allow it: throw-in answers, calls
    /// (each level alone and with each strain), trump choices, cards. Tests draw illegal moves
    /// from it.
    pub fn all() -> impl Iterator<Item = Move> {
        let bids = (Level::MIN.get()..=Level::MAX.get()).flat_map(|n| {
            let level = Level::new(n).expect("1..=13");
            std::iter::once(None)
                .chain(Strain::ALL.map(Some))
                .map(move |strain| Move::Call(Call::Bid(Bid { level, strain })))
        });
        [
            Move::ThrowIn,
            Move::Keep,
            Move::Call(Call::Pass),
            Move::Call(Call::Double),
            Move::Call(Call::Redouble),
        ]
        .into_iter()
        .chain(bids)
        .chain(Strain::ALL.map(Move::Trump))
        .chain(Card::all().map(Move::Play))
    }

    /// The move's text, as in a request's `legal` list and in records.
    pub fn text(self) -> MoveText {
        match self {
            Move::ThrowIn => MoveText::of("throw-in"),
            Move::Keep => MoveText::of("keep"),
            Move::Call(c) => c.text(),
            Move::Trump(s) => MoveText::of(s.as_str()),
            Move::Play(c) => MoveText::of(c.as_str()),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Why a move's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a {kind} move: {}", hint(*.kind))]
pub struct ParseMoveError {
    pub kind: DecisionKind,
    pub text: String,
}

fn hint(kind: DecisionKind) -> &'static str {
    match kind {
        DecisionKind::ThrowIn => "answer throw-in or keep",
        DecisionKind::Call => "answer pass, double, redouble, or a bid like 8 or 8H or 9NT",
        DecisionKind::Trump => "answer C, D, H, S or NT",
        DecisionKind::Play => "answer a card like AS, TH or 2C",
    }
}

/// The moves legal at one decision, in a fixed-size buffer so that listing them never allocates.
/// The largest list is an Egyptian auction turn: pass, 35 bids, double or redouble.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: u8,
}

impl MoveList {
    pub const CAPACITY: usize = 48;

    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::Keep; MoveList::CAPACITY],
            len: 0,
        }
    }

    pub fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// Removes the move at `i`, keeping the order of the others.
    pub fn remove(&mut self, i: usize) {
        let len = self.len as usize;
        self.moves.copy_within(i + 1..len, i);
        self.len -= 1;
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.as_slice().iter().map(|m| m.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_text_round_trips_per_kind() {
        let samples = [
            (DecisionKind::ThrowIn, "throw-in"),
            (DecisionKind::ThrowIn, "keep"),
            (DecisionKind::Call, "pass"),
            (DecisionKind::Call, "double"),
            (DecisionKind::Call, "redouble"),
            (DecisionKind::Call, "7"),
            (DecisionKind::Call, "13"),
            (DecisionKind::Call, "10H"),
            (DecisionKind::Call, "7NT"),
            (DecisionKind::Trump, "NT"),
            (DecisionKind::Trump, "S"),
            (DecisionKind::Play, "7C"),
        ];
        for (kind, text) in samples {
            let m = Move::parse(kind, text).unwrap();
            assert_eq!(m.to_string(), text);
            assert_eq!(m.kind(), kind);
        }
    }

    #[test]
    fn every_move_text_is_built_right_and_parses_back() {
        let strains = [
            None,
            Some(Strain::Trump(Suit::Clubs)),
            Some(Strain::Trump(Suit::Diamonds)),
            Some(Strain::Trump(Suit::Hearts)),
            Some(Strain::Trump(Suit::Spades)),
            Some(Strain::NoTrump),
        ];
        let mut moves = vec![
            (Move::ThrowIn, "throw-in".to_string()),
            (Move::Keep, "keep".to_string()),
            (Move::Call(Call::Pass), "pass".to_string()),
            (Move::Call(Call::Double), "double".to_string()),
            (Move::Call(Call::Redouble), "redouble".to_string()),
        ];
        for n in 1..=13u8 {
            for strain in strains {
                let level = Level::new(n).unwrap();
                let suffix = match strain {
                    None => String::new(),
                    Some(Strain::NoTrump) => "NT".to_string(),
                    Some(Strain::Trump(s)) => s.letter().to_string(),
                };
                let bid = Bid { level, strain };
                moves.push((Move::Call(Call::Bid(bid)), format!("{n}{suffix}")));
            }
        }
        for strain in strains.into_iter().flatten() {
            moves.push((Move::Trump(strain), strain.as_str().to_string()));
        }
        for c in Card::all() {
            moves.push((
                Move::Play(c),
                format!("{}{}", c.rank().letter(), c.suit().letter()),
            ));
        }
        let listed: Vec<Move> = moves.iter().map(|(m, _)| *m).collect();
        assert_eq!(listed, Move::all().collect::<Vec<_>>(), "Move::all");
        for (m, expect) in moves {
            assert_eq!(&*m.text(), expect);
            assert_eq!(m.to_string(), expect);
            assert_eq!(Move::parse(m.kind(), &expect), Ok(m));
        }
    }

    #[test]
    fn bad_move_text_names_the_input_and_the_fix() {
        for (kind, text) in [
            (DecisionKind::Call, "14"),
            (DecisionKind::Call, "0"),
            (DecisionKind::Call, "7X"),
            (DecisionKind::Call, ""),
            (DecisionKind::Play, "7"),
            (DecisionKind::Trump, "7H"),
            (DecisionKind::ThrowIn, "yes"),
        ] {
            let e = Move::parse(kind, text).unwrap_err().to_string();
            assert!(e.contains(&format!("'{text}'")), "{e}");
            assert!(e.contains("answer"), "{e}");
        }
    }
}
