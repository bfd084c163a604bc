//! Where remote connections wait for games: each authenticated connection is idle here until
//! a game takes it, and comes back after a game it finished fit to play another.
//!
//! A game takes all its remote seats at once ([`Lobby::reserve`]): taken one by one, two games
//! each holding one entrant's only connection and waiting for the other's would wait forever.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::bot::{Bot, RemoteInfo};

use super::Control;

/// Idle connections per entrant, and whether the tournament is over.
#[derive(Default)]
struct State {
    idle: HashMap<usize, Vec<Bot>>,
    closed: bool,
    /// Connections games took, and those they gave back: the difference were hung up during
    /// a game (a fault), and their relays are likely connecting again.
    taken: usize,
    returned: usize,
    /// Connections told `over` after the lobby closed.
    late: usize,
    /// How long a game waits for an entrant's idle connection before its seat is absent
    /// (`--absent-timeout`); `None`: for ever (`play`).
    absent_after: Option<Duration>,
    /// Entrants found absent whose relays have not connected since: their next games do not
    /// wait for them again (an entrant that never comes would otherwise cost every one of
    /// its games the whole timeout).
    absent: HashSet<usize>,
    /// Entrant names by key (for the waiting note and absent seats).
    names: Vec<String>,
}

/// The remote connections of one run.
pub struct Lobby {
    state: Mutex<State>,
    changed: Condvar,
}

impl Lobby {
    pub fn new(names: Vec<String>) -> Lobby {
        Lobby {
            state: Mutex::new(State {
                names,
                ..State::default()
            }),
            changed: Condvar::new(),
        }
    }

    /// The entrants' names by key from now on: a league's lobby outlives its rosters, and
    /// an entrant added while it runs is named by the key it was given.
    pub fn set_names(&self, names: Vec<String>) {
        self.lock().names = names;
    }

    /// From now on a game waits at most `limit` for an entrant's idle connection; then its
    /// seat is absent ([`Bot::absent`]): the referee forfeits the game for it as `absent` and
    /// the tournament goes on (`tournament --absent-timeout`).
    pub fn set_absent_timeout(&self, limit: Duration) {
        self.lock().absent_after = Some(limit);
    }

    /// An authenticated connection of `entrant` joins the idle ones. After [`Lobby::close`] it
    /// is told the tournament is over instead.
    pub fn admit(&self, entrant: usize, bot: Bot) {
        let mut s = self.lock();
        if s.closed {
            s.late += 1;
            drop(s);
            self.changed.notify_all();
            tell_over(bot);
            return;
        }
        s.absent.remove(&entrant);
        s.idle.entry(entrant).or_default().push(bot);
        drop(s);
        self.changed.notify_all();
    }

    /// Idle connections of `entrant` now.
    pub fn idle(&self, entrant: usize) -> usize {
        self.lock().idle.get(&entrant).map_or(0, Vec::len)
    }

    /// Takes one idle connection for each seat whose entrant is given, all at once, waiting
    /// until there are enough (connections that closed or spoke while idle are dropped).
    /// After the absent timeout ([`Lobby::set_absent_timeout`]; at once for an entrant found
    /// absent before whose relay has not connected since) each seat left without a connection
    /// gets an absent one ([`Bot::absent`]) instead.
    /// `None` when `stop` is set or the lobby is closed first.
    pub fn reserve(
        &self,
        seats: [Option<usize>; 4],
        stop: &AtomicBool,
    ) -> Option<[Option<Bot>; 4]> {
        let mut need: HashMap<usize, usize> = HashMap::new();
        for e in seats.iter().flatten() {
            *need.entry(*e).or_default() += 1;
        }
        let started = Instant::now();
        let mut noted = started;
        let mut s = self.lock();
        loop {
            if stop.load(Ordering::SeqCst) || s.closed {
                return None;
            }
            // Between games a connection must be silent and open (protocol.md 4.4).
            for bots in s.idle.values_mut() {
                let mut i = 0;
                while i < bots.len() {
                    if bots[i].is_quiet() {
                        i += 1;
                    } else {
                        let mut gone = bots.swap_remove(i);
                        gone.stop(Duration::ZERO);
                    }
                }
            }
            let ready = need
                .iter()
                .all(|(e, n)| s.idle.get(e).map_or(0, Vec::len) >= *n);
            if ready {
                let mut out: [Option<Bot>; 4] = Default::default();
                for (slot, e) in out.iter_mut().zip(seats) {
                    if let Some(e) = e {
                        *slot = s.idle.get_mut(&e).and_then(Vec::pop);
                        s.taken += 1;
                    }
                }
                return Some(out);
            }
            if let Some(limit) = s.absent_after {
                let short: Vec<usize> = need
                    .iter()
                    .filter(|(e, n)| s.idle.get(e).map_or(0, Vec::len) < **n)
                    .map(|(e, _)| *e)
                    .collect();
                let known = short.iter().all(|e| s.absent.contains(e));
                if known || started.elapsed() >= limit {
                    return Some(self.take_or_absent(&mut s, seats, &short, limit, known));
                }
            }
            if noted.elapsed() >= Duration::from_secs(30)
                || (noted == started && started.elapsed() >= Duration::from_secs(5))
            {
                noted = Instant::now();
                let waiting: Vec<String> = need
                    .iter()
                    .filter(|(e, n)| s.idle.get(e).map_or(0, Vec::len) < **n)
                    .map(|(e, n)| {
                        let name = s.names.get(*e).map_or("?", String::as_str);
                        format!("{name} ({n} needed)")
                    })
                    .collect();
                eprintln!(
                    "waiting for idle connections of remote entrants: {} (start their relays with `tarneeb connect`)",
                    waiting.join(", ")
                );
            }
            s = self
                .changed
                .wait_timeout(s, Duration::from_millis(200))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The connections there are for `seats`, and absent seats for the rest (`short`: the
    /// entrants without enough, now marked absent).
    fn take_or_absent(
        &self,
        s: &mut State,
        seats: [Option<usize>; 4],
        short: &[usize],
        limit: Duration,
        known: bool,
    ) -> [Option<Bot>; 4] {
        let mut out: [Option<Bot>; 4] = Default::default();
        for (slot, e) in out.iter_mut().zip(seats) {
            let Some(e) = e else { continue };
            *slot = match s.idle.get_mut(&e).and_then(Vec::pop) {
                Some(bot) => {
                    s.taken += 1;
                    Some(bot)
                }
                None => {
                    let name = s.names.get(e).map_or("?", String::as_str);
                    let detail = format!(
                        "remote entrant {name} had no idle connection within --absent-timeout {}{}",
                        duration_text(limit),
                        if known {
                            " (nor since it was last found absent)"
                        } else {
                            ""
                        }
                    );
                    let info = RemoteInfo {
                        entrant: name.to_string(),
                        peer: "absent".to_string(),
                        allowance: Duration::ZERO,
                    };
                    match Bot::absent(info, detail) {
                        Ok(bot) => Some(bot),
                        // No socket pair (descriptors exhausted): the seat is left to the
                        // game's own start, which names the error.
                        Err(err) => {
                            eprintln!("tarneeb: cannot make an absent seat for {name}: {err}");
                            None
                        }
                    }
                }
            };
        }
        for &e in short {
            if s.absent.insert(e) {
                let name = s.names.get(e).map_or("?", String::as_str);
                eprintln!(
                    "remote entrant {name} had no idle connection within --absent-timeout {}: its seats forfeit as absent until one of its connections arrives",
                    duration_text(limit)
                );
            }
        }
        out
    }

    /// A connection that finished a game fit to play another.
    pub fn give_back(&self, entrant: usize, bot: Bot) {
        self.lock().returned += 1;
        self.admit(entrant, bot);
    }

    /// After [`Lobby::close`]: waits (at most `limit`) for the relays whose connections were
    /// hung up during a game to connect again and hear `over`, so that they end instead of
    /// trying a server that has gone. A relay that was killed never comes back: the wait is
    /// bounded.
    pub fn wait_for_stragglers(&self, limit: Duration) {
        let until = std::time::Instant::now() + limit;
        let mut s = self.lock();
        while s.late < s.taken.saturating_sub(s.returned) {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return;
            }
            s = self
                .changed
                .wait_timeout(s, left.min(Duration::from_millis(200)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The tournament is over: every idle connection is told so and closed, and connections
    /// that arrive later are told the same.
    pub fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        let idle: Vec<Bot> = s.idle.drain().flat_map(|(_, v)| v).collect();
        drop(s);
        self.changed.notify_all();
        for bot in idle {
            tell_over(bot);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A duration as the flags take it: `3m`, `10s` or `250ms`.
fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms > 0 && ms.is_multiple_of(60_000) {
        format!("{}m", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// Tells a connection the tournament is over and hangs up.
fn tell_over(mut bot: Bot) {
    bot.send(&Control::Over.line(), None);
    let _ = bot.try_recv();
    bot.stop(Duration::ZERO);
}
