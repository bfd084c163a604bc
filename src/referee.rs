//! One game between four external bots: the rules say what is legal, the bots choose, the
//! referee enforces time and conduct, tells every seat what it may know, and writes the record.
//!
//! A bot's misbehaviour is a game event (recorded, penalised), never an error of this module:
//! errors here are the referee's own (a bot that cannot be started, a record that cannot be
//! written, an interrupt).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use crate::bot::{wait_any, watchdog, Bot, BotError, BotEvent, BotSpec, Watchdog};
use crate::protocol::{
    read_hello, read_move, FaultAction, FaultKind, ForfeitInfo, GameEndMsg, HandEndMsg,
    MessageWriter, ReadReply, TimeLimits, ToBot, TurnClock, PROTOCOL_VERSION,
};
use crate::record::{BotInfo, Header, MoveLine, RecordLine, RecordWriter, RECORD_FORMAT};
use crate::rules::{
    Applied, CardSet, Deal, DealSource, Decision, EndReason, Game, Move, Rules, Seat, Team, View,
};

/// What to do when a bot faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultPolicy {
    /// The faulting seat's partnership loses the game at once.
    Forfeit,
    /// The referee plays a random legal move for the seat; a partnership's `max_faults + 1`-th
    /// fault forfeits the game.
    Substitute { max_faults: u32 },
}

impl std::fmt::Display for FaultPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultPolicy::Forfeit => f.write_str("forfeit"),
            FaultPolicy::Substitute { max_faults } => write!(f, "substitute:{max_faults}"),
        }
    }
}

/// When the referee delivers events (moves, tricks, hand ends, faults) to the seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EventDelivery {
    /// A seat's events wait until the referee next asks that seat something (they go in the
    /// same write as the request) or the game ends. Each move then wakes only the bot that must
    /// answer, not all four: a bot that keeps its own state sees every event, in order, before
    /// it must act on them.
    #[default]
    Batched,
    /// Every event goes to every seat as it happens (for bots that think on others' time).
    Immediate,
}

impl std::fmt::Display for EventDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EventDelivery::Batched => "batched",
            EventDelivery::Immediate => "immediate",
        })
    }
}

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
    /// Test aid: every message with its direction, seat and the cards hidden from that seat.
    pub trace: Option<PathBuf>,
    /// How long a bot gets to exit after the game before it is killed.
    pub grace: Duration,
}

/// The referee's own failures.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    #[error("seat {seat}: {source}")]
    Spawn { seat: Seat, source: BotError },
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

/// Called after every hand with the hand's result (for progress output).
pub type HandHook<'a> = &'a mut dyn FnMut(&HandEndMsg);

/// How a request to a bot came out.
enum Answer {
    /// The bot's move and its time in milliseconds.
    Move(Move, u64),
    /// A move the referee chose for a seat whose bot was stopped after a fault.
    Referee(Move),
    Fault(FaultKind, String),
}

struct Seated {
    bot: Bot,
    /// False once the bot exited or was stopped for a fault it cannot recover from.
    alive: bool,
    bank_ms: Option<u64>,
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
    trace: Option<BufWriter<File>>,
    next_id: u64,
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
    let shared = watchdog::Shared::for_this_thread();
    std::thread::scope(|scope| {
        let watchdog = Watchdog::start(scope, &shared, stop).map_err(RefereeError::Watchdog)?;
        play_watched(cfg, stop, &watchdog, on_hand)
    })
}

fn play_watched(
    cfg: &GameConfig,
    stop: &AtomicBool,
    watchdog: &Watchdog<'_>,
    on_hand: HandHook<'_>,
) -> Result<Outcome, RefereeError> {
    let mut seats = Vec::with_capacity(4);
    let mut hellos = Vec::with_capacity(4);
    let mut writer = MessageWriter::default();
    for (i, spec) in cfg.bots.iter().enumerate() {
        let seat = Seat::from_index(i);
        let mut bot = Bot::spawn(spec).map_err(|source| RefereeError::Spawn { seat, source })?;
        // The hello goes into the pipe at once, before the next bot is started: a bot finds it
        // waiting when it has started up and answers straight away, while the referee starts
        // the others, instead of blocking in its first read until all four are running and
        // being woken up once more for the hello.
        let mut hello = Vec::new();
        writer.write(
            &mut hello,
            &ToBot::Hello {
                protocol: PROTOCOL_VERSION,
                seat,
                rules: &cfg.rules,
                time: cfg.time,
            },
        );
        hello.push(b'\n');
        bot.send(&hello, None);
        hellos.push(hello);
        seats.push(Seated {
            outbox: Vec::new(),
            outbox_request: None,
            bot,
            alive: true,
            bank_ms: cfg.time.bank_ms,
        });
    }
    // From here on the thread only talks to the bots (see BatchScheduling for why).
    let _batch = crate::bot::BatchScheduling::begin();
    let record = RecordWriter::create(&cfg.record).map_err(|source| record_err(cfg, source))?;
    let trace = match &cfg.trace {
        Some(p) => Some(BufWriter::new(File::create(p).map_err(|source| {
            RefereeError::Trace {
                path: p.display().to_string(),
                source,
            }
        })?)),
        None => None,
    };
    let mut deals = DealSource::from_seed(cfg.seed);
    let drawn_dealer = deals.first_dealer();
    let first_dealer = cfg.first_dealer.unwrap_or(drawn_dealer);
    let mut table = Table {
        cfg,
        game: Game::new(cfg.rules.clone(), first_dealer),
        seats,
        record,
        trace,
        next_id: 1,
        rng: Pcg32::seed_from_u64(cfg.seed ^ 0x005E_ED0F_5AB5),
        faults: [0; 2],
        stop,
        watchdog,
        scratch: Vec::new(),
        writer,
        view: View::empty(),
    };
    let result = table.run(&hellos, &mut deals, on_hand);
    let mut bots: Vec<&mut Bot> = table.seats.iter_mut().map(|s| &mut s.bot).collect();
    crate::bot::stop_all(&mut bots, cfg.grace);
    if let Some(t) = table.trace.as_mut() {
        let _ = t.flush();
    }
    result
}

fn record_err(cfg: &GameConfig, source: std::io::Error) -> RefereeError {
    RefereeError::Record {
        path: cfg.record.display().to_string(),
        source,
    }
}

impl Table<'_, '_> {
    fn run(
        &mut self,
        hellos: &[Vec<u8>],
        deals: &mut DealSource,
        on_hand: HandHook<'_>,
    ) -> Result<Outcome, RefereeError> {
        let (names, handshake_faults) = self.handshake(hellos)?;
        let bots: Vec<BotInfo> = Seat::ALL
            .iter()
            .map(|&s| BotInfo {
                seat: s,
                command: self.cfg.bots[s.index()].command.clone(),
                name: names[s.index()].as_ref().map(|n| n.0.clone()),
                version: names[s.index()].as_ref().and_then(|n| n.1.clone()),
            })
            .collect();
        let header = Header {
            format: RECORD_FORMAT,
            referee: format!("tarneeb-referee {}", env!("CARGO_PKG_VERSION")),
            rules: self.cfg.rules.clone(),
            seed: self.cfg.seed,
            first_dealer: self.game.first_dealer(),
            bots: bots.clone(),
            time: self.cfg.time,
            on_fault: self.cfg.on_fault.to_string(),
        };
        self.write(&RecordLine::Header(Box::new(header)))?;
        let mut forfeit = None;
        let mut forfeiting = [false; 2];
        for (seat, kind, detail) in handshake_faults {
            if let Some(f) = self.fault(seat, kind, detail)? {
                forfeiting[seat.team().index()] = true;
                forfeit.get_or_insert(f);
            }
        }
        if forfeiting == [true, true] {
            // Both partnerships forfeit before the first deal: nobody wins.
            if let Some(f) = forfeit.as_mut() {
                f.winner = None;
            }
        }
        self.flush()?;
        let mut given = self.cfg.deals.iter();
        let result = loop {
            if let Some(f) = forfeit.take() {
                break self.forfeit_result(f);
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
                break crate::protocol::game_end_msg(&self.game, r.winner, r.reason);
            };
            let (mv, ms, substituted) = match self.ask(decision)? {
                Answer::Move(mv, ms) => (mv, ms, false),
                Answer::Referee(mv) => (mv, 0, true),
                Answer::Fault(kind, detail) => {
                    if let Some(f) = self.fault(decision.seat, kind, detail)? {
                        forfeit = Some(f);
                        continue;
                    }
                    (self.random_move(), 0, true)
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
        };
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
            trace_out(&mut self.trace, &self.game, seat, line);
        }
        let deadline = Instant::now() + Duration::from_millis(self.cfg.time.handshake_ms);
        let mut names: [Option<(String, Option<String>)>; 4] = Default::default();
        let mut faults = Vec::new();
        let mut pending: Vec<Seat> = Seat::ALL.to_vec();
        while !pending.is_empty() {
            if self.stop.load(Ordering::Relaxed) {
                self.abort("interrupted by a signal during the handshake")?;
            }
            let now = Instant::now();
            if now >= deadline {
                for &seat in &pending {
                    let ms = self.cfg.time.handshake_ms;
                    faults.push((
                        seat,
                        FaultKind::Handshake,
                        format!("no hello reply within the handshake timeout of {ms} ms"),
                    ));
                }
                break;
            }
            let mut still = Vec::new();
            for &seat in &pending {
                match self.seats[seat.index()].bot.try_recv() {
                    None => still.push(seat),
                    Some(BotEvent::Written { .. }) => still.push(seat),
                    Some(BotEvent::Line { text, .. }) => {
                        self.trace_in(seat, &text);
                        match read_hello(&text) {
                            Ok(h) => names[seat.index()] = Some((h.name, h.version)),
                            Err(e) => faults.push((seat, FaultKind::Handshake, e)),
                        }
                    }
                    Some(BotEvent::TooLong { limit, .. }) => {
                        faults.push((
                            seat,
                            FaultKind::Handshake,
                            format!("hello reply longer than {limit} bytes"),
                        ));
                    }
                    Some(BotEvent::NotUtf8 { .. }) => {
                        faults.push((
                            seat,
                            FaultKind::Handshake,
                            "hello reply is not UTF-8".to_string(),
                        ));
                    }
                    Some(BotEvent::Eof { .. }) => {
                        let status = self.exit_detail(seat);
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
                wait_any(bots, (deadline - now).min(Duration::from_millis(50)));
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

    /// Tells every seat what a move changed at the table.
    fn tell_applied(
        &mut self,
        d: Decision,
        mv: Move,
        applied: &Applied,
        on_hand: HandHook<'_>,
    ) -> Result<(), RefereeError> {
        let number = self.game.hand().number;
        if mv != Move::Keep {
            let msg = ToBot::Move {
                hand_number: number,
                seat: d.seat,
                decision: d.kind,
                mv,
            };
            self.broadcast(&msg);
        }
        if let Some((trick, winner)) = applied.trick {
            let msg = ToBot::Trick {
                hand_number: number,
                number: self.game.hand().tricks.len() as u8,
                leader: trick.leader,
                cards: trick.plays().map(|(_, c)| c).collect(),
                winner,
            };
            self.broadcast(&msg);
        }
        if let Some(hand) = applied.hand {
            let msg = crate::protocol::hand_end_msg(&self.game, &hand);
            self.broadcast(&ToBot::HandEnd(msg.clone()));
            self.write(&RecordLine::HandEnd(msg.clone()))?;
            self.flush()?;
            on_hand(&msg);
        }
        Ok(())
    }

    fn forfeit_result(&self, f: Forfeit) -> GameEndMsg {
        let mut r = crate::protocol::game_end_msg(&self.game, f.winner, EndReason::Target);
        r.reason = "forfeit".to_string();
        r.forfeit = Some(f.info);
        r
    }

    /// Records a fault, tells the table, and applies the policy. Returns the forfeit when the
    /// game is lost by it.
    fn fault(
        &mut self,
        seat: Seat,
        kind: FaultKind,
        detail: String,
    ) -> Result<Option<Forfeit>, RefereeError> {
        let team = seat.team();
        self.faults[team.index()] += 1;
        let action = match self.cfg.on_fault {
            FaultPolicy::Forfeit => FaultAction::Forfeit,
            FaultPolicy::Substitute { max_faults } if self.faults[team.index()] > max_faults => {
                FaultAction::Forfeit
            }
            FaultPolicy::Substitute { .. } => FaultAction::Substitute,
        };
        if matches!(
            kind,
            FaultKind::Exited | FaultKind::LineTooLong | FaultKind::Handshake
        ) {
            // Its output is gone or unreadable: stop it now; its moves are the referee's from here.
            self.seats[seat.index()].alive = false;
            self.seats[seat.index()].bot.stop(self.cfg.grace);
        }
        self.write(&RecordLine::Fault {
            hand_number: self.game.hand().number,
            seat,
            kind,
            detail: detail.clone(),
            action,
        })?;
        self.broadcast(&ToBot::Fault { seat, kind, action });
        self.flush()?;
        Ok((action == FaultAction::Forfeit).then(|| Forfeit {
            winner: Some(team.other()),
            info: ForfeitInfo { seat, kind, detail },
        }))
    }

    fn random_move(&mut self) -> Move {
        let legal = self.game.legal_moves();
        legal.as_slice()[self.rng.gen_range(0..legal.len())]
    }

    /// Asks the seat to move and waits for a valid reply within its time.
    fn ask(&mut self, d: Decision) -> Result<Answer, RefereeError> {
        let i = d.seat.index();
        if !self.seats[i].alive {
            return Ok(Answer::Referee(self.random_move()));
        }
        if let Some(fault) = self.check_unsolicited(d.seat) {
            return Ok(fault);
        }
        let legal = self.game.legal_moves();
        let id = self.next_id;
        self.next_id += 1;
        let limit_ms = match self.seats[i].bank_ms {
            Some(bank) => bank.min(self.cfg.time.move_ms),
            None => self.cfg.time.move_ms,
        };
        let mut view = std::mem::replace(&mut self.view, View::empty());
        self.game.view_into(d.seat, &mut view);
        let msg = ToBot::Request {
            id,
            decision: d.kind,
            legal: legal.as_slice(),
            view: &view,
            time: TurnClock {
                limit_ms,
                bank_ms: self.seats[i].bank_ms,
            },
        };
        self.send(d.seat, &msg, Some(id));
        self.view = view;
        match self.cfg.events {
            EventDelivery::Batched => self.flush_seat(d.seat),
            EventDelivery::Immediate => self.flush_all(),
        }
        let sent_at = Instant::now();
        let limit = Duration::from_millis(limit_ms);
        let mut written_at = None;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.abort("interrupted by a signal")?;
            }
            let start = written_at.unwrap_or(sent_at);
            let now = Instant::now();
            if now >= start + limit {
                self.charge_bank(i, limit_ms);
                return Ok(Answer::Fault(
                    FaultKind::Timeout,
                    format!("no reply to request {id} within {limit_ms} ms"),
                ));
            }
            let Some(event) = self.seats[i].bot.recv_until(start + limit, self.watchdog) else {
                continue;
            };
            match event {
                BotEvent::Written { id: w, at } if w == id => written_at = Some(at),
                BotEvent::Written { .. } => {}
                BotEvent::Line { text, at } => {
                    self.trace_in(d.seat, &text);
                    let (reply_id, reply_mv) = match read_move(&text) {
                        ReadReply::Move { id, mv } => (id, mv),
                        ReadReply::NotJson(e) => return Ok(Answer::Fault(FaultKind::NotJson, e)),
                        ReadReply::Invalid(e) => return Ok(Answer::Fault(FaultKind::BadReply, e)),
                    };
                    if reply_id < id {
                        continue; // a late reply to an earlier request: discarded
                    }
                    if reply_id != id {
                        return Ok(Answer::Fault(
                            FaultKind::BadReply,
                            format!(
                                "reply names request {} but request {id} is outstanding",
                                reply_id
                            ),
                        ));
                    }
                    let took = at.saturating_duration_since(written_at.unwrap_or(sent_at));
                    if took > limit {
                        // The watchdog ends the wait a few ms after the deadline; a reply in
                        // that moment is still late, as its measured time says.
                        self.charge_bank(i, limit_ms);
                        return Ok(Answer::Fault(
                            FaultKind::Timeout,
                            format!(
                                "the reply to request {id} took {} ms, over the limit of {limit_ms} ms",
                                took.as_millis()
                            ),
                        ));
                    }
                    let ms = took.as_millis() as u64;
                    self.charge_bank(i, ms);
                    return Ok(match Move::parse(d.kind, &reply_mv) {
                        Ok(mv) if legal.contains(&mv) => Answer::Move(mv, ms),
                        Ok(mv) => Answer::Fault(
                            FaultKind::IllegalMove,
                            format!("{mv} is not legal now; legal: {}", legal_text(&legal)),
                        ),
                        Err(e) => Answer::Fault(FaultKind::IllegalMove, e.to_string()),
                    });
                }
                BotEvent::TooLong { limit, .. } => {
                    return Ok(Answer::Fault(
                        FaultKind::LineTooLong,
                        format!("a line longer than {limit} bytes"),
                    ));
                }
                BotEvent::NotUtf8 { .. } => {
                    return Ok(Answer::Fault(
                        FaultKind::NotJson,
                        "a line that is not UTF-8".to_string(),
                    ))
                }
                BotEvent::Eof { .. } => {
                    let status = self.exit_detail(d.seat);
                    return Ok(Answer::Fault(
                        FaultKind::Exited,
                        format!("output closed while request {id} was outstanding ({status})"),
                    ));
                }
            }
        }
    }

    /// Lines a bot wrote while not asked: late replies to earlier requests are discarded, anything
    /// else is a fault.
    fn check_unsolicited(&mut self, seat: Seat) -> Option<Answer> {
        while let Some(event) = self.seats[seat.index()].bot.try_recv() {
            match event {
                BotEvent::Written { .. } => {}
                BotEvent::Line { text, .. } => {
                    self.trace_in(seat, &text);
                    match read_move(&text) {
                        ReadReply::Move { id, .. } if id < self.next_id => {}
                        _ => {
                            let detail = format!(
                                "output while no request was outstanding: {}",
                                crate::protocol::excerpt(&text)
                            );
                            return Some(Answer::Fault(FaultKind::Unsolicited, detail));
                        }
                    }
                }
                BotEvent::TooLong { limit, .. } => {
                    return Some(Answer::Fault(
                        FaultKind::LineTooLong,
                        format!("a line longer than {limit} bytes"),
                    ))
                }
                BotEvent::NotUtf8 { .. } => {
                    return Some(Answer::Fault(
                        FaultKind::Unsolicited,
                        "output that is not UTF-8 while not asked".to_string(),
                    ))
                }
                BotEvent::Eof { .. } => {
                    let status = self.exit_detail(seat);
                    return Some(Answer::Fault(
                        FaultKind::Exited,
                        format!("output closed between requests ({status})"),
                    ));
                }
            }
        }
        None
    }

    fn charge_bank(&mut self, i: usize, ms: u64) {
        if let Some(bank) = self.seats[i].bank_ms.as_mut() {
            *bank = bank.saturating_sub(ms) + self.cfg.time.increment_ms;
        }
    }

    /// The exit status of a bot whose output closed, waiting briefly for it to be reported.
    fn exit_detail(&mut self, seat: Seat) -> String {
        let bot = &mut self.seats[seat.index()].bot;
        for _ in 0..20 {
            if let Some(status) = bot.exit_status() {
                return describe_status(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "still running with its output closed".to_string()
    }

    /// Queues one message for every seat (serialized once: the same bytes go to all four).
    fn broadcast(&mut self, msg: &ToBot<'_>) {
        let mut line = std::mem::take(&mut self.scratch);
        line.clear();
        self.writer.write(&mut line, msg);
        for seat in Seat::ALL {
            trace_out(&mut self.trace, &self.game, seat, &line);
            let s = &mut self.seats[seat.index()];
            if s.alive {
                s.outbox.extend_from_slice(&line);
                s.outbox.push(b'\n');
            }
        }
        self.scratch = line;
    }

    /// Queues one message for one seat (dropped for a seat whose bot is gone), serialized
    /// straight into its outbox: a request is written to the bot from there, never copied.
    fn send(&mut self, seat: Seat, msg: &ToBot<'_>, request_id: Option<u64>) {
        let s = &mut self.seats[seat.index()];
        let start = s.outbox.len();
        self.writer.write(&mut s.outbox, msg);
        trace_out(&mut self.trace, &self.game, seat, &s.outbox[start..]);
        if s.alive {
            s.outbox.push(b'\n');
            s.outbox_request = request_id.or(s.outbox_request);
        } else {
            s.outbox.truncate(start);
        }
    }

    /// Writes the seat's queued lines to its bot in one write.
    fn flush_seat(&mut self, seat: Seat) {
        let s = &mut self.seats[seat.index()];
        if s.alive && !s.outbox.is_empty() {
            s.bot.send(&s.outbox, s.outbox_request.take());
        }
        s.outbox.clear();
    }

    /// Writes every seat's queued lines.
    fn flush_all(&mut self) {
        for seat in Seat::ALL {
            self.flush_seat(seat);
        }
    }

    fn trace_in(&mut self, seat: Seat, text: &str) {
        if let Some(t) = self.trace.as_mut() {
            let entry = serde_json::json!({"dir": "in", "seat": seat, "line": text});
            let _ = writeln!(t, "{entry}");
        }
    }

    fn write(&mut self, line: &RecordLine) -> Result<(), RefereeError> {
        self.record.write(line).map_err(|e| record_err(self.cfg, e))
    }

    fn flush(&mut self) -> Result<(), RefereeError> {
        self.record.flush().map_err(|e| record_err(self.cfg, e))
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

struct Forfeit {
    winner: Option<Team>,
    info: ForfeitInfo,
}

/// Traces a message to a seat, with the cards hidden from that seat (test aid).
fn trace_out(trace: &mut Option<BufWriter<File>>, game: &Game, seat: Seat, line: &[u8]) {
    if let Some(t) = trace.as_mut() {
        let mut hidden = CardSet::EMPTY;
        if game.hands_dealt() > 0 && !game.needs_deal() {
            for other in Seat::ALL.iter().filter(|&&s| s != seat) {
                hidden = hidden.union(game.hand().held[*other]);
            }
        }
        let line = String::from_utf8_lossy(line);
        let entry = serde_json::json!({"dir": "out", "seat": seat, "hidden": hidden, "line": line});
        let _ = writeln!(t, "{entry}");
    }
}

fn legal_text(legal: &crate::rules::MoveList) -> String {
    legal
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => status.to_string(),
    }
}
