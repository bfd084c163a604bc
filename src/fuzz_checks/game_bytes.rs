//! A game driven by the fuzzer's bytes: the rules, the deals' seed and every move are read from
//! the input, so the fuzzer steers into the corners of the rules (house rules, throw-ins,
//! doubling, 400's strikes) instead of only into the corners of a parser.

use crate::rules::{DealSource, Game, Move, Rules, Seat};

/// The input, read a byte at a time; reading past its end gives `None`, which ends the game:
/// the game's length grows with the input's, so no input runs long.
pub(super) struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub(super) fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    pub(super) fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |n, _| n << 8 | u64::from(self.byte().unwrap_or(0)))
    }
}

/// The rules a game starts from: a preset and, for the contract games, the house rules that add
/// messages and fields (announcements, throw-ins, doubling and trump rules).
pub(super) fn rules(b: &mut Bytes<'_>) -> Rules {
    let flags = b.byte().unwrap_or(0);
    let name = ["classic", "egyptian", "400", "41"][usize::from(flags & 3)];
    let mut rules = Rules::preset(name).expect("the presets exist");
    type Flag = fn(&mut crate::rules::ContractRules) -> &mut bool;
    let flags_of: [Flag; 6] = [
        |c| &mut c.dakak,
        |c| &mut c.out_of_call,
        |c| &mut c.throw_in_weak_hand,
        |c| &mut c.throw_in_long_suit,
        |c| &mut c.trump_first_lead,
        |c| &mut c.defenders_multiplied,
    ];
    for (bit, flag) in flags_of.iter().enumerate() {
        let Some(c) = rules.contract.as_mut() else {
            break;
        };
        let was = *flag(c);
        *flag(c) = flags & (4 << bit) != 0;
        // Only rules the validator accepts: `Game::new` trusts its caller (a flag that needs
        // another option, such as a multiplier without doubling, stays as the preset has it).
        if rules.validate().is_err() {
            *flag(rules.contract.as_mut().expect("set above")) = was;
        }
    }
    rules
}

/// One step of a game as the referee sees it.
pub(super) enum Step {
    Deal,
    Move {
        seat: Seat,
        mv: Move,
        ms: u64,
        applied: crate::rules::Applied,
    },
}

/// Plays `game` with moves read from `b`, calling `each` after every deal and move, until the
/// game ends or the bytes run out. Returns true when the game ended.
pub(super) fn play(
    game: &mut Game,
    deals: &mut DealSource,
    b: &mut Bytes<'_>,
    mut each: impl FnMut(&Game, &Step),
) -> bool {
    loop {
        if game.is_over() {
            return true;
        }
        if game.needs_deal() {
            game.deal(deals.next_deal());
            each(game, &Step::Deal);
            continue;
        }
        let Some(d) = game.decision() else {
            return game.is_over();
        };
        let legal = game.legal_moves();
        let Some(choice) = b.byte() else { return false };
        let mv = legal.as_slice()[usize::from(choice) % legal.len()];
        // Mostly quick moves, some over 400's ten seconds (its strikes come from the record).
        let ms = match b.byte() {
            Some(t) if t >= 240 => 10_000 + u64::from(t),
            Some(t) => u64::from(t),
            None => 0,
        };
        let applied = game
            .apply_timed(d.seat, mv, ms)
            .expect("a move from the legal list is legal");
        each(
            game,
            &Step::Move {
                seat: d.seat,
                mv,
                ms,
                applied,
            },
        );
    }
}

/// A new game from the input: its rules, its deals' seed and its first dealer.
pub(super) fn start(b: &mut Bytes<'_>) -> (Game, DealSource, u64) {
    let rules = rules(b);
    let seed = b.u64();
    let mut deals = DealSource::from_seed(seed);
    let game = Game::new(rules, deals.first_dealer());
    (game, deals, seed)
}
