//! The JSON of the three messages sent on every move (`request`, `move`, `trick`), written by
//! hand. A request carries the seat's whole view (about 850 bytes, a hundred-odd strings);
//! through serde it cost the referee more than the rest of a move put together (the pipes,
//! the rules and the record), and the referee's overhead per move is what a bot author's
//! clock and a tournament's running time pay for.
//!
//! The serde `Serialize` impls of these types stay the definition of the wire format: the tests
//! below check, over every message of many games of every preset, that this writer's bytes are
//! exactly serde_json's. A field added to `View` or `ToBot` without being added here fails them.
//!
//! Every string written here comes from a fixed vocabulary (cards, moves, phases, kinds), none
//! of which needs escaping.

use crate::rules::view::{SeatCall, TrickView};
use crate::rules::{Card, CardSet, DecisionKind, Move, Seat, Strain, View};

use super::TurnClock;

/// The JSON of the lists a request repeats while they only grow: the finished tricks of the
/// hand and the auction. Every request carries them whole, so without this a request in the
/// last trick wrote all twelve finished tricks again; with it, each trick and call is written
/// once and then copied. The cache checks the list it is given against the items it wrote,
/// so it can never put out JSON of anything but that list: a list that is not an extension
/// of the cached one (a new hand) just starts the cache over.
#[derive(Debug, Default)]
pub struct ViewCache {
    tricks: ListCache<TrickView>,
    auction: ListCache<SeatCall>,
}

#[derive(Debug)]
struct ListCache<T> {
    items: Vec<T>,
    /// The items' JSON, comma-separated, without the brackets.
    json: Vec<u8>,
}

impl<T> Default for ListCache<T> {
    fn default() -> Self {
        ListCache {
            items: Vec::new(),
            json: Vec::new(),
        }
    }
}

impl<T: Copy + PartialEq> ListCache<T> {
    fn write(&mut self, out: &mut Vec<u8>, items: &[T], write_item: fn(&mut Vec<u8>, &T)) {
        if !items.starts_with(&self.items) {
            self.items.clear();
            self.json.clear();
        }
        for item in &items[self.items.len()..] {
            comma(&mut self.json, self.items.len());
            write_item(&mut self.json, item);
            self.items.push(*item);
        }
        out.extend_from_slice(&self.json);
    }
}

/// `{"type":"request",...}`: the same bytes as serde_json gives for `ToBot::Request`.
#[allow(clippy::too_many_arguments)]
pub(super) fn request(
    out: &mut Vec<u8>,
    cache: &mut ViewCache,
    id: u64,
    decision: DecisionKind,
    legal: &[Move],
    view: &View,
    time: &TurnClock,
) {
    raw(out, "{\"type\":\"request\",\"id\":");
    uint(out, id);
    raw(out, ",\"decision\":");
    string(out, decision.as_str());
    raw(out, ",\"legal\":[");
    for (i, m) in legal.iter().enumerate() {
        comma(out, i);
        match m {
            // Most requests are card plays: their text is a table lookup.
            Move::Play(c) => card(out, *c),
            _ => string_bytes(out, m.text().as_bytes()),
        }
    }
    raw(out, "],\"view\":");
    write_view(out, view, cache);
    raw(out, ",\"time\":{\"limit_ms\":");
    uint(out, time.limit_ms);
    raw(out, ",\"bank_ms\":");
    match time.bank_ms {
        Some(ms) => uint(out, ms),
        None => raw(out, "null"),
    }
    raw(out, "}}");
}

/// `{"type":"move",...}`: the same bytes as serde_json gives for `ToBot::Move`. The record's
/// move line starts with the same fields (`record::RecordWriter::write_move`).
pub(crate) fn move_event(
    out: &mut Vec<u8>,
    hand_number: u32,
    seat: Seat,
    decision: DecisionKind,
    mv: Move,
) {
    raw(out, "{\"type\":\"move\",\"hand_number\":");
    uint(out, hand_number.into());
    raw(out, ",\"seat\":");
    write_seat(out, seat);
    raw(out, ",\"decision\":");
    string(out, decision.as_str());
    raw(out, ",\"move\":");
    string_bytes(out, mv.text().as_bytes());
    raw(out, "}");
}

/// `{"type":"trick",...}`: the same bytes as serde_json gives for `ToBot::Trick`.
pub(super) fn trick_event(
    out: &mut Vec<u8>,
    hand_number: u32,
    number: u8,
    leader: Seat,
    cards: &[Card],
    winner: Seat,
) {
    raw(out, "{\"type\":\"trick\",\"hand_number\":");
    uint(out, hand_number.into());
    raw(out, ",\"number\":");
    uint(out, number.into());
    raw(out, ",\"leader\":");
    write_seat(out, leader);
    raw(out, ",\"cards\":");
    write_cards(out, cards.iter().copied());
    raw(out, ",\"winner\":");
    write_seat(out, winner);
    raw(out, "}");
}

fn write_view(out: &mut Vec<u8>, v: &View, cache: &mut ViewCache) {
    raw(out, "{\"seat\":");
    write_seat(out, v.seat);
    raw(out, ",\"hand_number\":");
    uint(out, v.hand_number.into());
    raw(out, ",\"dealer\":");
    write_seat(out, v.dealer);
    raw(out, ",\"phase\":");
    string(out, v.phase);
    raw(out, ",\"team_scores\":");
    write_ints(out, &v.team_scores.0);
    if let Some(scores) = &v.seat_scores {
        raw(out, ",\"seat_scores\":");
        write_ints(out, &scores.0);
    }
    raw(out, ",\"hand\":");
    write_card_set(out, v.hand);
    raw(out, ",\"announcements\":[");
    for (i, a) in v.announcements.iter().enumerate() {
        comma(out, i);
        raw(out, "{\"seat\":");
        write_seat(out, a.seat);
        raw(out, ",\"kind\":");
        string(out, a.kind);
        raw(out, "}");
    }
    raw(out, "],\"auction\":[");
    cache.auction.write(out, &v.auction, write_seat_call);
    raw(out, "]");
    if let Some(bids) = &v.bids {
        raw(out, ",\"bids\":[");
        for (i, bid) in bids.0.iter().enumerate() {
            comma(out, i);
            match bid {
                Some(level) => uint(out, level.get().into()),
                None => raw(out, "null"),
            }
        }
        raw(out, "]");
    }
    raw(out, ",\"contract\":");
    match &v.contract {
        Some(c) => {
            raw(out, "{\"declarer\":");
            write_seat(out, c.declarer);
            raw(out, ",\"bid\":");
            string_bytes(out, c.bid.as_bytes());
            raw(out, ",\"multiplier\":");
            uint(out, c.multiplier.into());
            raw(out, "}");
        }
        None => raw(out, "null"),
    }
    raw(out, ",\"trump\":");
    match v.trump {
        Some(s) => string(out, Strain::as_str(s)),
        None => raw(out, "null"),
    }
    raw(out, ",\"tricks\":[");
    cache.tricks.write(out, &v.tricks, write_trick);
    raw(out, "],\"current_trick\":");
    write_trick(out, &v.current_trick);
    raw(out, ",\"tricks_won\":");
    write_uints(out, v.tricks_won.0.map(u64::from));
    raw(out, ",\"strikes\":");
    write_uints(out, v.strikes.0.map(u64::from));
    raw(out, ",\"cards_left\":");
    write_uints(out, v.cards_left.0.map(u64::from));
    raw(out, "}");
}

fn write_seat_call(out: &mut Vec<u8>, c: &SeatCall) {
    raw(out, "{\"seat\":");
    write_seat(out, c.seat);
    raw(out, ",\"call\":");
    string_bytes(out, c.call.as_bytes());
    raw(out, "}");
}

fn write_trick(out: &mut Vec<u8>, t: &TrickView) {
    raw(out, "{\"leader\":");
    write_seat(out, t.leader);
    raw(out, ",\"cards\":");
    write_cards(out, t.cards.iter().copied());
    if let Some(w) = t.winner {
        raw(out, ",\"winner\":");
        write_seat(out, w);
    }
    raw(out, "}");
}

/// A set in display order (spades to clubs, ace first), as its serde form.
fn write_card_set(out: &mut Vec<u8>, set: CardSet) {
    let mut bits = set.bits();
    write_cards(
        out,
        std::iter::from_fn(|| {
            let top = 63u32.checked_sub(bits.leading_zeros())?;
            bits &= !(1u64 << top);
            Card::from_index(top as u8)
        }),
    );
}

/// A card's JSON string: a fixed-size copy, cheaper than a call to memcpy for two bytes.
fn card(out: &mut Vec<u8>, c: Card) {
    let [r, s] = *c.as_str().as_bytes() else {
        unreachable!("card text is two bytes")
    };
    out.extend_from_slice(&[b'"', r, s, b'"']);
}

fn write_cards(out: &mut Vec<u8>, cards: impl Iterator<Item = Card>) {
    raw(out, "[");
    for (i, c) in cards.enumerate() {
        comma(out, i);
        card(out, c);
    }
    raw(out, "]");
}

fn write_ints<const N: usize>(out: &mut Vec<u8>, values: &[i32; N]) {
    raw(out, "[");
    for (i, v) in values.iter().enumerate() {
        comma(out, i);
        out.extend_from_slice(itoa::Buffer::new().format(*v).as_bytes());
    }
    raw(out, "]");
}

fn write_uints<const N: usize>(out: &mut Vec<u8>, values: [u64; N]) {
    raw(out, "[");
    for (i, v) in values.into_iter().enumerate() {
        comma(out, i);
        uint(out, v);
    }
    raw(out, "]");
}

fn write_seat(out: &mut Vec<u8>, s: Seat) {
    out.push(b'0' + s.index() as u8);
}

fn uint(out: &mut Vec<u8>, n: u64) {
    // Most numbers in a view are trick and card counts: one digit.
    if n < 10 {
        out.push(b'0' + n as u8);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }
}

fn comma(out: &mut Vec<u8>, i: usize) {
    if i > 0 {
        out.push(b',');
    }
}

fn raw(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
}

/// A string that needs no escaping (checked in debug builds and by the tests' byte
/// comparison with serde_json).
fn string(out: &mut Vec<u8>, s: &str) {
    string_bytes(out, s.as_bytes());
}

fn string_bytes(out: &mut Vec<u8>, s: &[u8]) {
    debug_assert!(
        s.iter()
            .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\'),
        "{s:?} would need escaping"
    );
    out.push(b'"');
    out.extend_from_slice(s);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::super::{MessageWriter, ToBot, TurnClock};
    use crate::players::{Player, PlayerKind};
    use crate::rules::{DealSource, Game, Rules, Seat};

    /// Every request (for every seat's view, not only the seat on turn), move and trick message
    /// of whole games: the hand-written bytes must be serde_json's, byte for byte.
    fn check_games(rules: &Rules, kind: PlayerKind, games: u64) -> usize {
        let mut checked = 0;
        let mut out = Vec::new();
        // One writer for all the games, as the referee keeps one per game: its cache sees
        // lists grow, new hands and new games.
        let mut writer = MessageWriter::default();
        let mut compare = |msg: &ToBot<'_>| {
            out.clear();
            writer.write(&mut out, msg);
            let expect = serde_json::to_vec(msg).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&expect)
            );
            checked += 1;
        };
        for seed in 0..games {
            let mut deals = DealSource::from_seed(seed);
            let mut game = Game::new(rules.clone(), deals.first_dealer());
            let mut players: Vec<Player> =
                (0..4).map(|i| Player::new(kind, seed * 4 + i)).collect();
            let mut id = 0;
            while !game.is_over() {
                if game.needs_deal() {
                    game.deal(deals.next_deal());
                    continue;
                }
                let Some(d) = game.decision() else { break };
                let legal = game.legal_moves();
                for seat in Seat::ALL {
                    id += 1;
                    let bank_ms = (id % 2 == 0).then_some(id * 7);
                    compare(&ToBot::Request {
                        id,
                        decision: d.kind,
                        legal: legal.as_slice(),
                        view: &game.view(seat),
                        time: TurnClock {
                            limit_ms: 30_000,
                            bank_ms,
                        },
                    });
                }
                let mv = players[d.seat.index()].choose(&game);
                let hand_number = game.hand().number;
                let applied = game.apply(d.seat, mv).unwrap();
                compare(&ToBot::Move {
                    hand_number,
                    seat: d.seat,
                    decision: d.kind,
                    mv,
                });
                if let Some((trick, winner)) = applied.trick {
                    compare(&ToBot::Trick {
                        hand_number,
                        number: game.hand().tricks.len() as u8,
                        leader: trick.leader,
                        cards: trick.plays().map(|(_, c)| c).collect(),
                        winner,
                    });
                }
            }
        }
        checked
    }

    #[test]
    fn every_preset_writes_exactly_what_serde_writes() {
        for name in ["classic", "egyptian", "400", "41"] {
            let rules = Rules::preset(name).unwrap();
            let n = check_games(&rules, PlayerKind::Greedy, 3)
                + check_games(&rules, PlayerKind::Random, 2);
            assert!(n > 1000, "{name}: only {n} messages checked");
        }
    }

    #[test]
    fn the_list_cache_writes_exactly_the_list_it_is_given() {
        fn digit(out: &mut Vec<u8>, d: &u8) {
            out.push(b'0' + d);
        }
        let mut cache = super::ListCache::default();
        let mut write = |items: &[u8]| {
            let mut out = Vec::new();
            cache.write(&mut out, items, digit);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(write(&[1, 2]), "1,2");
        assert_eq!(write(&[1, 2, 3]), "1,2,3", "grown");
        assert_eq!(write(&[1, 2, 3]), "1,2,3", "unchanged");
        assert_eq!(write(&[1, 5, 3, 4]), "1,5,3,4", "changed inside and longer");
        assert_eq!(write(&[7, 5, 3, 4]), "7,5,3,4", "changed, same length");
        assert_eq!(write(&[7]), "7", "shorter");
        assert_eq!(write(&[]), "", "empty");
        assert_eq!(write(&[2]), "2");
    }

    #[test]
    fn house_rules_that_add_fields_write_exactly_what_serde_writes() {
        // Announcements (Dakak, Out of Call) and throw-ins only appear under house rules.
        let mut rules = Rules::classic();
        let c = rules.contract.as_mut().unwrap();
        c.dakak = true;
        c.out_of_call = true;
        c.throw_in_weak_hand = true;
        c.throw_in_long_suit = true;
        let n = check_games(&rules, PlayerKind::Greedy, 3);
        assert!(n > 1000, "only {n} messages checked");
    }
}
