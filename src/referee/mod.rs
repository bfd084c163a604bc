//! One game between four external bots: the rules say what is legal, the bots choose, the
//! referee enforces time and conduct, tells every seat what it may know, and writes the record.
//!
//! A bot's misbehaviour is a game event (recorded, penalised), never an error of this module:
//! errors here are the referee's own (a bot that cannot be started, a record that cannot be
//! written, an interrupt).

mod ask;
mod delivery;
mod faults;
mod processes;
mod seating;
pub mod spec;
mod trace;

pub use crate::protocol::FaultPolicy;
pub use delivery::EventDelivery;
pub use processes::{Fresh, Processes, SeatProcess};
pub use trace::trace_path;

use ask::Answer;
use delivery::trace_out;
use faults::Forfeit;

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_pcg::Pcg32;

use crate::bot::{wait_any, watchdog, Bot, BotError, BotEvent, BotSpec, Watchdog};
use crate::protocol::{
    read_hello, FaultKind, GameEndMsg, HandEndMsg, MessageWriter, TimeLimits, ToBot,
};
use crate::record::{BotInfo, Header, MoveLine, RecordLine, RecordWriter, RECORD_FORMAT};
use crate::rules::{Deal, DealSecret, DealSource, Decision, Game, Rules, Seat, StartScores, View};

/// Everything one game needs.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub rules: Rules,
    pub seed: u64,
    /// Overrides the first dealer drawn from the seed.
    pub first_dealer: Option<Seat>,
    /// Deals to play first, in order; after them deals come from the seed.
    pub deals: Vec<Deal>,
    pub bots: [BotSpec; 4],
    pub time: TimeLimits,
    pub on_fault: FaultPolicy,
    pub events: EventDelivery,
    pub record: PathBuf,
    /// `--trace DIR`: every line to and from each seat, one file per seat (see [`trace_path`]).
    pub trace: Option<PathBuf>,
    /// Test aid: every message with its direction, seat and the cards hidden from that seat.
    pub leak_trace: Option<PathBuf>,
    /// How long a bot gets to exit after the game before it is killed.
    pub grace: Duration,
    /// Scores the game starts from instead of zero (`play --scores`), kept in the record.
    pub start_scores: Option<StartScores>,
    /// With the seed, fixes the deals; `None` only for public deals (`--public-deals`), whose
    /// seed any bot may know or guess.
    pub deal_secret: Option<DealSecret>,
    /// A live page follows the record (`tournament --serve`): it is flushed after every trick
    /// and every call, not only at the end of each hand, so spectators see the table move.
    pub watched: bool,
    /// `--freeze-off-turn`: every seat's bot is frozen (its cgroup) except while it is asked,
    /// so no bot thinks, or spins, on another seat's time.
    pub freeze_off_turn: bool,
}

/// The referee's own failures.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    #[error("seat {seat}: {source}")]
    Spawn { seat: Seat, source: BotError },
    /// bwrap failed before the bot ran: a setup problem of the machine or the flags, not the
    /// bot's fault, so no forfeit is scored.
    #[error("seat {seat} ({command}): {message}; this is not the bot's fault: fix the sandbox flags or paths (--sandbox-ro, --sandbox-view, the bot's command), or try --sandbox none to rule the sandbox out; the record {record} ends with an 'aborted' line")]
    SandboxSetup {
        seat: Seat,
        command: String,
        message: String,
        record: String,
    },
    #[error("cannot write the game record {path}: {source}")]
    Record {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write the trace {path}: {source}")]
    Trace {
        path: String,
        source: std::io::Error,
    },
    #[error("--scores {scores}: {problem}")]
    StartScores {
        scores: StartScores,
        problem: String,
    },
    #[error("cannot start the referee's watchdog thread: {0}; the system is short of threads or memory, run fewer games at once")]
    Watchdog(std::io::Error),
    #[error(
        "interrupted: the bots were stopped and the record {record} ends with an 'aborted' line"
    )]
    Interrupted { record: String },
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub result: GameEndMsg,
    pub bots: Vec<BotInfo>,
    pub record: PathBuf,
}

/// Replies to earlier requests a seat may send in one game before it is a `flood` fault. A
/// late reply after a timeout is normal and discarded; thousands of them are a bot spending
/// the referee's time (each costs a parse) while its opponents wait.
pub const STALE_LINE_CAP: u32 = 100;

/// The seed a seat's bot gets in `hello` for its own randomness (protocol.md 4.1): a sandboxed
/// bot is PID 2 and starts at much the same time as the others, so bots that seeded from their
/// PID or the clock all drew the same numbers. Reproducible from the game's seed (and deal
/// secret); under a secret a keyed hash, so it tells nothing of the deals; below 2^53, so a
/// JavaScript number holds it exactly.
fn bot_seed(game_seed: u64, secret: Option<&DealSecret>, seat: Seat) -> u64 {
    let mut input = *b"tarneeb bot seed v1\0\0\0\0\0\0\0\0\0";
    input[19..27].copy_from_slice(&game_seed.to_le_bytes());
    input[27] = seat.index() as u8;
    let bytes = match secret {
        Some(secret) => *blake3::keyed_hash(secret.bytes(), &input).as_bytes(),
        None => *blake3::hash(&input).as_bytes(),
    };
    u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) & ((1 << 53) - 1)
}

/// Called after every hand with the hand's result (for progress output).
pub type HandHook<'a> = &'a mut dyn FnMut(&HandEndMsg);

struct Seated {
    bot: Bot,
    /// False once the bot exited or was stopped for a fault it cannot recover from.
    alive: bool,
    /// It faulted in this game: it is not kept for another one, whatever it declared.
    faulted: bool,
    /// Its `hello` reply declared `multi_game`.
    multi_game: bool,
    bank_ms: Option<u64>,
    /// Replies to earlier requests discarded this game (see [`STALE_LINE_CAP`]).
    stale: u32,
    /// Lines waiting to go to the bot, sent as one write (see [`EventDelivery`]): one wake-up
    /// per request instead of one per message.
    outbox: Vec<u8>,
    outbox_request: Option<u64>,
}

struct Table<'a, 's> {
    cfg: &'a GameConfig,
    game: Game,
    seats: Vec<Seated>,
    record: RecordWriter,
    leak_trace: Option<BufWriter<File>>,
    tracer: Option<trace::Tracer>,
    next_id: u64,
    /// When the request now outstanding reached its seat (None between requests): a move the
    /// referee plays after a fault is recorded with the time the seat had taken, so a timeout
    /// counts as a slow play under 400's ten-second rule.
    asked_at: Option<Instant>,
    rng: Pcg32,
    faults: [u32; 2],
    stop: &'a AtomicBool,
    /// Interrupts the wait for a reply at its deadline or on a stop signal.
    watchdog: &'a Watchdog<'s>,
    /// Reused to serialize messages, so sending one allocates nothing.
    scratch: Vec<u8>,
    writer: MessageWriter,
    /// The view of the last request, reused for the next one (its lists keep their memory).
    view: View,
}

/// Plays one game. Bots are started, the game is played to a result (a forfeit is a result),
/// and every bot's process tree is stopped and reaped before this returns, also on error.
pub fn play_game(
    cfg: &GameConfig,
    stop: &AtomicBool,
    on_hand: HandHook<'_>,
) -> Result<Outcome, RefereeError> {
    play_game_with(cfg, stop, on_hand, &mut Fresh)
}

/// Plays one game with bot processes from `processes`: each is given back after the game if
/// it may play another (see [`Processes::give_back`]); every other process tree is stopped and
/// reaped before this returns, also on error.
pub fn play_game_with(
    cfg: &GameConfig,
    stop: &AtomicBool,
    on_hand: HandHook<'_>,
    processes: &mut dyn Processes,
) -> Result<Outcome, RefereeError> {
    let shared = watchdog::Shared::for_this_thread();
    std::thread::scope(|scope| {
        let watchdog = Watchdog::start(scope, &shared, stop).map_err(RefereeError::Watchdog)?;
        play_game_watched(cfg, stop, &watchdog, on_hand, processes)
    })
}

/// [`play_game_with`] for a thread that plays game after game (a tournament worker): one
/// watchdog, started by the caller on this thread, serves them all, instead of a thread started
/// and joined per game (tens of microseconds of CPU each, see docs/performance.md).
pub fn play_game_watched(
    cfg: &GameConfig,
    stop: &AtomicBool,
    watchdog: &Watchdog<'_>,
    on_hand: HandHook<'_>,
    processes: &mut dyn Processes,
) -> Result<Outcome, RefereeError> {
    let mut tracer = seating::start_tracer(cfg)?;
    let mut writer = MessageWriter::default();
    let (seats, hellos) = seating::seat_bots(cfg, processes, &mut tracer, &mut writer)?;
    // From here on the thread only talks to the bots (see BatchScheduling for why).
    let _batch = crate::bot::BatchScheduling::begin();
    let (mut table, mut deals) = Table::open(cfg, seats, tracer, writer, stop, watchdog)?;
    let result = table.run(&hellos, &mut deals, on_hand);
    table.unseat(result.is_ok(), processes)?;
    result
}

/// The sandbox the seats ran in, for the record's header: one label, or each distinct one in
/// seat order (a `--bot human` seat runs outside the sandbox).
fn sandbox_label(bots: &[BotSpec; 4]) -> String {
    let mut labels: Vec<String> = Vec::new();
    for b in bots {
        let l = b.sandbox.label();
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    labels.join(", ")
}

fn record_err(cfg: &GameConfig, source: std::io::Error) -> RefereeError {
    RefereeError::Record {
        path: cfg.record.display().to_string(),
        source,
    }
}

impl Table<'_, '_> {
    /// The game from the handshake to its result: the header, the handshake's faults, the
    /// hands, then `game_end` to every seat and the result line.
    fn run(
        &mut self,
        hellos: &[Vec<u8>],
        deals: &mut DealSource,
        on_hand: HandHook<'_>,
    ) -> Result<Outcome, RefereeError> {
        let (names, handshake_faults) = self.handshake(hellos)?;
        if self.cfg.freeze_off_turn {
            for seat in &mut self.seats {
                if seat.alive {
                    seat.bot.freeze();
                }
            }
        }
        let bots = self.bot_infos(&names);
        self.write_header(&bots)?;
        let forfeit = self.handshake_forfeit(handshake_faults)?;
        self.flush()?;
        let result = self.play_out(deals, on_hand, forfeit)?;
        if self.cfg.freeze_off_turn {
            // Each must read game_end (and a kept one its next game); a dead one is stopped,
            // which thaws it first.
            for seat in &mut self.seats {
                seat.bot.thaw();
            }
        }
        self.broadcast(&ToBot::GameEnd(result.clone()));
        self.flush_all();
        self.write(&RecordLine::Result(result.clone()))?;
        self.flush()?;
        Ok(Outcome {
            result,
            bots,
            record: self.cfg.record.clone(),
        })
    }

    /// The seats as the record names them: the command the referee ran, the name and version
    /// the bot gave in its hello, and a remote seat's entrant and allowance, so a reader of the
    /// record knows who played without the tournament's files.
    fn bot_infos(&self, names: &[Option<(String, Option<String>)>; 4]) -> Vec<BotInfo> {
        Seat::ALL
            .iter()
            .map(|&s| BotInfo {
                seat: s,
                command: self.cfg.bots[s.index()].command.clone(),
                name: names[s.index()].as_ref().map(|n| n.0.clone()),
                version: names[s.index()].as_ref().and_then(|n| n.1.clone()),
                remote: self.seats[s.index()]
                    .bot
                    .remote()
                    .map(|r| crate::record::RemoteSeat {
                        entrant: r.entrant.clone(),
                        latency_allowance_ms: r.allowance.as_millis() as u64,
                    }),
            })
            .collect()
    }

    /// The record's first line: everything the game needs to be played again, but the bots.
    fn write_header(&mut self, bots: &[BotInfo]) -> Result<(), RefereeError> {
        let header = Header {
            format: RECORD_FORMAT,
            referee: format!("tarneeb-referee {}", env!("CARGO_PKG_VERSION")),
            rules: self.cfg.rules.clone(),
            seed: self.cfg.seed,
            first_dealer: self.game.first_dealer(),
            bots: bots.to_vec(),
            time: self.cfg.time,
            on_fault: self.cfg.on_fault.to_string(),
            sandbox: Some(sandbox_label(&self.cfg.bots)),
            start_scores: self.cfg.start_scores,
            deal_secret: self.cfg.deal_secret.as_ref().map(DealSecret::id),
        };
        self.write(&RecordLine::Header(Box::new(header)))
    }

    /// The handshake's faults, charged once the header is written (their lines follow it): the
    /// first that forfeits decides the game, and when both partnerships forfeit before the
    /// first deal nobody wins.
    fn handshake_forfeit(
        &mut self,
        faults: Vec<(Seat, FaultKind, String)>,
    ) -> Result<Option<Forfeit>, RefereeError> {
        let mut forfeit = None;
        let mut forfeiting = [false; 2];
        for (seat, kind, detail) in faults {
            if let Some(f) = self.fault(seat, kind, detail)? {
                forfeiting[seat.team().index()] = true;
                forfeit.get_or_insert(f);
            }
        }
        if forfeiting == [true, true] {
            if let Some(f) = forfeit.as_mut() {
                f.winner = None;
            }
        }
        Ok(forfeit)
    }

    /// Deals and decisions until the game has its result: the given deals first, then the
    /// seed's; a forfeit ends it at once, a stop signal aborts it.
    fn play_out(
        &mut self,
        deals: &mut DealSource,
        on_hand: HandHook<'_>,
        mut forfeit: Option<Forfeit>,
    ) -> Result<GameEndMsg, RefereeError> {
        let cfg = self.cfg;
        let mut given = cfg.deals.iter();
        loop {
            if let Some(f) = forfeit.take() {
                return Ok(self.forfeit_result(f));
            }
            if self.stop.load(Ordering::Relaxed) {
                return self.abort("interrupted by a signal");
            }
            if self.game.needs_deal() {
                let deal = given.next().copied().unwrap_or_else(|| deals.next_deal());
                self.deal(deal)?;
                continue;
            }
            let Some(decision) = self.game.decision() else {
                let r = self
                    .game
                    .result()
                    .expect("a game without a decision is over");
                return Ok(crate::protocol::game_end_msg(
                    &self.game, r.winner, r.reason,
                ));
            };
            forfeit = self.decide(decision, on_hand)?;
        }
    }

    /// One decision: the seat's move, or after a fault a random legal move the referee plays
    /// for it (timed as long as the seat took, so a timeout counts as a slow play), applied,
    /// recorded and told to the seats. A fault that forfeits the game plays nothing: `Some`.
    fn decide(
        &mut self,
        decision: Decision,
        on_hand: HandHook<'_>,
    ) -> Result<Option<Forfeit>, RefereeError> {
        let (mv, ms, substituted) = match self.ask(decision)? {
            Answer::Move(mv, ms) => (mv, ms, false),
            Answer::Referee(mv) => (mv, 0, true),
            Answer::Fault(kind, detail) => {
                let took = self.asked_at.map_or(0, |t| t.elapsed().as_millis() as u64);
                if let Some(f) = self.fault(decision.seat, kind, detail)? {
                    return Ok(Some(f));
                }
                (self.random_move(), took, true)
            }
        };
        let applied = self
            .game
            .apply_timed(decision.seat, mv, ms)
            .expect("the referee only applies moves from the legal list");
        let line = MoveLine {
            hand_number: self.game.hand().number,
            seat: decision.seat,
            decision: decision.kind,
            mv,
            ms,
            substituted,
        };
        self.record
            .write_move(&line)
            .map_err(|e| record_err(self.cfg, e))?;
        self.tell_applied(decision, mv, &applied, on_hand)?;
        Ok(None)
    }

    /// Waits for the replies to the `hellos` (lines as written) sent when the bots were
    /// started, all within the handshake limit.
    #[allow(clippy::type_complexity)]
    fn handshake(
        &mut self,
        hellos: &[Vec<u8>],
    ) -> Result<
        (
            [Option<(String, Option<String>)>; 4],
            Vec<(Seat, FaultKind, String)>,
        ),
        RefereeError,
    > {
        for (seat, hello) in Seat::ALL.into_iter().zip(hellos) {
            let line = hello.strip_suffix(b"\n").unwrap_or(hello);
            trace_out(&mut self.leak_trace, &self.game, seat, line);
        }
        let deadline = Instant::now() + Duration::from_millis(self.cfg.time.handshake_ms);
        let mut names: [Option<(String, Option<String>)>; 4] = Default::default();
        let mut faults = Vec::new();
        let mut pending: Vec<Seat> = Seat::ALL.to_vec();
        // A remote entrant with no connection in time has no bot to greet: absent at once.
        pending.retain(|&seat| match self.seats[seat.index()].bot.absent_detail() {
            Some(detail) => {
                faults.push((seat, FaultKind::Absent, detail.to_string()));
                false
            }
            None => true,
        });
        while !pending.is_empty() {
            if self.stop.load(Ordering::Relaxed) {
                self.abort("interrupted by a signal during the handshake")?;
            }
            let now = Instant::now();
            // A remote seat's limit includes its latency allowance (zero for a process).
            let late = |s: &Seat| now >= deadline + self.seats[s.index()].bot.latency_allowance();
            let expired: Vec<Seat> = pending.iter().copied().filter(late).collect();
            if !expired.is_empty() {
                for &seat in &expired {
                    let ms = self.cfg.time.handshake_ms;
                    faults.push((
                        seat,
                        FaultKind::Handshake,
                        format!("no hello reply within the handshake timeout of {ms} ms"),
                    ));
                }
                pending.retain(|s| !expired.contains(s));
                continue;
            }
            let mut still = Vec::new();
            for &seat in &pending {
                match self.seats[seat.index()].bot.try_recv() {
                    None => still.push(seat),
                    Some(BotEvent::Written { .. }) => still.push(seat),
                    Some(BotEvent::Line { text, at }) => {
                        self.trace_in(seat, at, &text);
                        match read_hello(&text) {
                            Ok(h) => {
                                self.seats[seat.index()].multi_game = h.multi_game;
                                self.seats[seat.index()].bot.note_hello(h.multi_game);
                                names[seat.index()] = Some((h.name, h.version));
                                self.seats[seat.index()].bot.started();
                            }
                            Err(e) => faults.push((seat, FaultKind::Handshake, e)),
                        }
                    }
                    Some(BotEvent::TooLong { limit, at }) => {
                        self.trace_note(seat, at, &format!("(line longer than {limit} bytes)"));
                        faults.push((
                            seat,
                            FaultKind::Handshake,
                            format!("hello reply longer than {limit} bytes"),
                        ));
                    }
                    Some(BotEvent::NotUtf8 { at }) => {
                        self.trace_note(seat, at, "(not UTF-8)");
                        faults.push((
                            seat,
                            FaultKind::Handshake,
                            "hello reply is not UTF-8".to_string(),
                        ));
                    }
                    Some(BotEvent::InputClosed { error, .. }) => {
                        // A bot that died is told by its output's end, which follows.
                        match self.input_closed(seat, "its greeting", &error) {
                            Ok(detail) => faults.push((seat, FaultKind::Handshake, detail)),
                            Err(_) => still.push(seat),
                        }
                    }
                    Some(BotEvent::Eof { .. }) => {
                        let status = self.exit_detail(seat);
                        if let Some(message) = self.seats[seat.index()].bot.sandbox_setup_failure()
                        {
                            return self.sandbox_failed(seat, message);
                        }
                        faults.push((
                            seat,
                            FaultKind::Handshake,
                            format!("exited before the hello reply ({status})"),
                        ));
                    }
                }
            }
            if still.len() == pending.len() {
                // Nothing arrived from anyone: wait for any of them (at most 50 ms, to notice
                // a stop signal).
                let bots = still.iter().map(|s| &self.seats[s.index()].bot);
                let left = deadline.saturating_duration_since(now);
                wait_any(
                    bots,
                    left.clamp(Duration::from_millis(1), Duration::from_millis(50)),
                );
            }
            pending = still;
        }
        for (seat, _, _) in &faults {
            self.seats[seat.index()].alive = false;
        }
        Ok((names, faults))
    }

    fn deal(&mut self, deal: Deal) -> Result<(), RefereeError> {
        self.game.deal(deal);
        let h = self.game.hand();
        let (number, dealer) = (h.number, h.dealer);
        self.write(&RecordLine::Deal {
            hand_number: number,
            dealer,
            hands: deal.hands(),
        })?;
        // A deal is flushed at once too: a record that stops mid-hand still shows the cards.
        self.flush()?;
        for seat in Seat::ALL {
            let announcements = self.game.view(seat).announcements;
            let msg = ToBot::Deal {
                hand_number: number,
                dealer,
                hand: deal.hand(seat),
                announcements,
            };
            self.send(seat, &msg, None);
        }
        Ok(())
    }

    fn write(&mut self, line: &RecordLine) -> Result<(), RefereeError> {
        self.record.write(line).map_err(|e| record_err(self.cfg, e))
    }

    fn flush(&mut self) -> Result<(), RefereeError> {
        self.record.flush().map_err(|e| record_err(self.cfg, e))
    }

    /// Ends the game without a result: the sandbox could not start `seat`'s bot.
    fn sandbox_failed<T>(&mut self, seat: Seat, message: String) -> Result<T, RefereeError> {
        self.write(&RecordLine::Aborted {
            reason: format!("seat {seat}: {message}"),
        })?;
        self.flush()?;
        Err(RefereeError::SandboxSetup {
            seat,
            command: self.seats[seat.index()].bot.command().to_string(),
            message,
            record: self.cfg.record.display().to_string(),
        })
    }

    fn abort<T>(&mut self, reason: &str) -> Result<T, RefereeError> {
        self.write(&RecordLine::Aborted {
            reason: reason.to_string(),
        })?;
        self.flush()?;
        Err(RefereeError::Interrupted {
            record: self.cfg.record.display().to_string(),
        })
    }
}

#[cfg(test)]
mod bot_seed_tests {
    use super::*;

    #[test]
    fn bot_seeds_differ_by_seat_game_and_secret_and_repeat() {
        let k = DealSecret::from_bytes([3; 32]);
        let all: Vec<u64> = [None, Some(&k)]
            .into_iter()
            .flat_map(|secret| {
                [1u64, 2].into_iter().flat_map(move |game| {
                    Seat::ALL
                        .into_iter()
                        .map(move |s| bot_seed(game, secret, s))
                })
            })
            .collect();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len(), "{all:?}");
        assert!(all.iter().all(|&s| s < 1 << 53));
        assert_eq!(
            bot_seed(1, Some(&k), Seat::S2),
            bot_seed(1, Some(&k), Seat::S2)
        );
    }
}
