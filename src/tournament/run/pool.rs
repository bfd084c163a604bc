//! The bot processes one game worker keeps between games (bots that declared `multi_game`,
//! see protocol.md): most of a game's fixed cost is starting four processes, several hundred
//! milliseconds for interpreted bots, and a kept process pays it once.
//!
//! Integrity rules, each kept here:
//! - a process never plays two games on the same deals: each remembers the deals it has played
//!   ([`DealKey`]), so the two games of a duplicate pair (same deals, sides swapped) go to
//!   different processes of the entrant, and one that has seen the deals is never offered them;
//! - a process that faulted, died, or said anything between games is not reused: the referee
//!   gives back only fit processes, and [`Bot::is_quiet`] is checked again before reuse, so
//!   the next game gets a fresh process instead;
//! - each game's record stays complete on its own: kept or fresh, a game starts with a
//!   handshake whose reply is recorded, and its time limits and faults are its own.
//!
//! Memory stays bounded: at most `cap` idle processes (the least recently used is stopped),
//! and a process retires after [`MAX_GAMES`] games, which bounds the deals it remembers.

use std::collections::HashSet;
use std::time::Duration;

use crate::bot::{stop_all, Bot, BotError, BotSpec};
use crate::referee::{Processes, SeatProcess};
use crate::rules::Seat;

/// Games one process plays before it is replaced by a fresh one.
pub const MAX_GAMES: usize = 1000;

/// What identifies the deals of a game: games with a key in common may share deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DealKey {
    /// Deals drawn from this seed (every deal after the given ones).
    Seed(u64),
    /// The deal set of this index in the `--deals-from` file.
    Given(usize),
}

/// Starts one bot process: the one place the pool creates processes, so a wrapper (a sandbox)
/// has one call to wrap.
pub type Spawn = fn(&BotSpec) -> Result<Bot, BotError>;

struct Idle {
    entrant: usize,
    bot: Bot,
    played: HashSet<DealKey>,
    last_used: u64,
}

/// One worker's kept processes.
pub struct BotPool {
    idle: Vec<Idle>,
    cap: usize,
    clock: u64,
    spawn: Spawn,
    grace: Duration,
    /// Processes started and processes reused, for tests and reports.
    pub started: u64,
    pub reused: u64,
}

impl BotPool {
    /// A pool keeping at most `cap` idle processes, starting new ones with `spawn`, giving a
    /// process it stops `grace` to exit.
    pub fn new(cap: usize, spawn: Spawn, grace: Duration) -> BotPool {
        BotPool {
            idle: Vec::new(),
            cap,
            clock: 0,
            spawn,
            grace,
            started: 0,
            reused: 0,
        }
    }

    /// The processes for one game: `entrants[seat]` plays each seat, on deals `keys` names.
    pub fn game(&mut self, entrants: [usize; 4], keys: Vec<DealKey>) -> GameProcesses<'_> {
        self.clock += 1;
        GameProcesses {
            pool: self,
            entrants,
            keys,
            played: Default::default(),
        }
    }

    /// Stops every idle process, all at once.
    pub fn shutdown(&mut self) {
        let mut idle: Vec<Idle> = std::mem::take(&mut self.idle);
        let mut bots: Vec<&mut Bot> = idle.iter_mut().map(|i| &mut i.bot).collect();
        stop_all(&mut bots, self.grace);
    }

    /// Idle processes now (for tests).
    pub fn idle(&self) -> usize {
        self.idle.len()
    }

    /// A kept process of `entrant` that has not played any of `keys`, fit to play.
    fn take_idle(&mut self, entrant: usize, keys: &[DealKey]) -> Option<Idle> {
        let mut unfit = Vec::new();
        let mut found = None;
        let mut i = 0;
        while i < self.idle.len() {
            let p = &self.idle[i];
            if p.entrant != entrant || keys.iter().any(|k| p.played.contains(k)) {
                i += 1;
                continue;
            }
            let mut p = self.idle.swap_remove(i);
            p.bot.thaw();
            if p.bot.is_quiet() {
                found = Some(p);
                break;
            }
            unfit.push(p);
        }
        let mut bots: Vec<&mut Bot> = unfit.iter_mut().map(|i| &mut i.bot).collect();
        stop_all(&mut bots, self.grace);
        found
    }

    fn put(&mut self, mut idle: Idle) {
        // Idle, it must take no CPU from the games being played (a kept-up bot that spins
        // between its games slowed an unrelated game's replies from 5 to 831 ms).
        idle.bot.freeze();
        self.idle.push(idle);
        if self.idle.len() > self.cap {
            let oldest = (0..self.idle.len())
                .min_by_key(|&i| self.idle[i].last_used)
                .expect("the pool is not empty");
            let mut p = self.idle.swap_remove(oldest);
            p.bot.stop(self.grace);
        }
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The pool as one game sees it (see [`BotPool::game`]).
pub struct GameProcesses<'a> {
    pool: &'a mut BotPool,
    entrants: [usize; 4],
    keys: Vec<DealKey>,
    /// The deals each seat's process had played before this game.
    played: [HashSet<DealKey>; 4],
}

impl Processes for GameProcesses<'_> {
    fn take(&mut self, seat: Seat, spec: &BotSpec) -> Result<SeatProcess, BotError> {
        let entrant = self.entrants[seat.index()];
        if let Some(p) = self.pool.take_idle(entrant, &self.keys) {
            self.pool.reused += 1;
            self.played[seat.index()] = p.played;
            return Ok(SeatProcess {
                bot: p.bot,
                kept: true,
            });
        }
        let bot = (self.pool.spawn)(spec)?;
        self.pool.started += 1;
        self.played[seat.index()] = HashSet::new();
        Ok(SeatProcess { bot, kept: false })
    }

    fn give_back(&mut self, seat: Seat, bot: Bot) -> Option<Bot> {
        let mut played = std::mem::take(&mut self.played[seat.index()]);
        played.extend(self.keys.iter().copied());
        if played.len() >= MAX_GAMES || self.pool.cap == 0 {
            return Some(bot);
        }
        self.pool.put(Idle {
            entrant: self.entrants[seat.index()],
            bot,
            played,
            last_used: self.pool.clock,
        });
        None
    }
}
