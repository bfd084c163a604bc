//! Seating a game's bots and letting them go: each seat's process taken (kept up from the last
//! game, or started) and greeted before the next is started, the table opened, and at the end
//! each process given back for another game or stopped.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::SeedableRng;
use rand_pcg::Pcg32;

use super::{bot_seed, record_err, trace, trace_path, GameConfig, RefereeError, Seated, Table};
use super::{Processes, SeatProcess};
use crate::bot::{Bot, Watchdog};
use crate::protocol::{MessageWriter, ToBot, PROTOCOL_VERSION};
use crate::record::RecordWriter;
use crate::rules::{DealSource, Game, Seat, View};

fn trace_err(dir: &Path, source: std::io::Error) -> RefereeError {
    RefereeError::Trace {
        path: dir.display().to_string(),
        source,
    }
}

/// The tracer of `--trace`, started before any bot so that it holds every line sent.
pub(super) fn start_tracer(cfg: &GameConfig) -> Result<Option<trace::Tracer>, RefereeError> {
    match &cfg.trace {
        Some(dir) => trace::Tracer::start(dir, &cfg.record, Instant::now())
            .map(Some)
            .map_err(|e| trace_err(dir, e)),
        None => Ok(None),
    }
}

/// Each seat's bot, taken from `processes` in seat order, with the greeting sent to it (the
/// lines, for the handshake). The greeting goes into the pipe at once, before the next bot is
/// started: a bot finds it waiting when it has started up and answers straight away, while the
/// referee starts the others, instead of blocking in its first read until all four are running
/// and being woken up once more for the hello.
pub(super) fn seat_bots(
    cfg: &GameConfig,
    processes: &mut dyn Processes,
    tracer: &mut Option<trace::Tracer>,
    writer: &mut MessageWriter,
) -> Result<(Vec<Seated>, Vec<Vec<u8>>), RefereeError> {
    let mut seats = Vec::with_capacity(4);
    let mut hellos = Vec::with_capacity(4);
    for (i, spec) in cfg.bots.iter().enumerate() {
        let seat = Seat::from_index(i);
        let taken = processes.take(seat, spec).and_then(|mut p| {
            if p.kept {
                p.bot.log_stderr_to(&spec.stderr_log, spec.stderr_cap)?;
            }
            Ok(p)
        });
        let SeatProcess { mut bot, kept } = match taken {
            Ok(p) => p,
            Err(source) => {
                drop(seats);
                abandon_start(cfg, i, tracer.take());
                return Err(RefereeError::Spawn { seat, source });
            }
        };
        let hello = greeting(cfg, seat, kept, writer);
        bot.send(&hello, None);
        if let Some(t) = tracer.as_mut() {
            t.sent(seat, &hello);
        }
        hellos.push(hello);
        seats.push(Seated {
            outbox: Vec::new(),
            outbox_request: None,
            bot,
            alive: true,
            faulted: false,
            multi_game: false,
            bank_ms: cfg.time.bank_ms,
            stale: 0,
        });
    }
    Ok((seats, hellos))
}

/// The game never starts (seat `failed` could not be): the bots already running were stopped
/// (dropped) by the caller; their logs and the traces are taken back, so a command that could
/// not start leaves no file behind.
fn abandon_start(cfg: &GameConfig, failed: usize, tracer: Option<trace::Tracer>) {
    for started in &cfg.bots[..failed] {
        let _ = std::fs::remove_file(&started.stderr_log);
    }
    if let (Some(t), Some(dir)) = (tracer, &cfg.trace) {
        let _ = t.finish();
        for seat in Seat::ALL {
            let _ = std::fs::remove_file(trace_path(dir, &cfg.record, seat));
        }
    }
}

/// The first line a seat's bot gets, with its own seed (see [`bot_seed`]): `hello` for a bot
/// just started, `new_game` for one kept up from the last game, which has greeted already.
fn greeting(cfg: &GameConfig, seat: Seat, kept: bool, writer: &mut MessageWriter) -> Vec<u8> {
    let mut hello = Vec::new();
    let (protocol, rules, time) = (PROTOCOL_VERSION, &cfg.rules, cfg.time);
    let seed = bot_seed(cfg.seed, cfg.deal_secret.as_ref(), seat);
    let game = crate::protocol::game_name(rules);
    let msg = if kept {
        ToBot::NewGame {
            protocol,
            seat,
            rules,
            game,
            time,
            seed,
        }
    } else {
        ToBot::Hello {
            protocol,
            seat,
            rules,
            game,
            time,
            seed,
        }
    };
    writer.write(&mut hello, &msg);
    hello.push(b'\n');
    hello
}

impl<'a, 's> Table<'a, 's> {
    /// The table of a game whose bots are seated: the record created only now (a game whose
    /// bots could not all start leaves none), the deals drawn from the seed (under the secret,
    /// when there is one), and the game at its start scores. Also returns the deals to come.
    pub(super) fn open(
        cfg: &'a GameConfig,
        seats: Vec<Seated>,
        tracer: Option<trace::Tracer>,
        writer: MessageWriter,
        stop: &'a AtomicBool,
        watchdog: &'a Watchdog<'s>,
    ) -> Result<(Self, DealSource), RefereeError> {
        let record = RecordWriter::create(&cfg.record).map_err(|source| record_err(cfg, source))?;
        let leak_trace = match &cfg.leak_trace {
            Some(p) => Some(BufWriter::new(
                File::create(p).map_err(|source| trace_err(p, source))?,
            )),
            None => None,
        };
        let mut deals = match &cfg.deal_secret {
            Some(secret) => DealSource::keyed(secret, cfg.seed),
            None => DealSource::from_seed(cfg.seed),
        };
        // Drawn also when overridden: the deals that follow are the same either way.
        let drawn_dealer = deals.first_dealer();
        let first_dealer = cfg.first_dealer.unwrap_or(drawn_dealer);
        let mut game = Game::new(cfg.rules.clone(), first_dealer);
        if let Some(scores) = cfg.start_scores {
            game = game
                .with_scores(scores)
                .map_err(|problem| RefereeError::StartScores { scores, problem })?;
        }
        let table = Table {
            cfg,
            game,
            seats,
            record,
            leak_trace,
            tracer,
            next_id: 1,
            asked_at: None,
            rng: Pcg32::seed_from_u64(cfg.seed ^ 0x005E_ED0F_5AB5),
            faults: [0; 2],
            stop,
            watchdog,
            scratch: Vec::new(),
            writer,
            view: View::empty(),
        };
        Ok((table, deals))
    }

    /// Lets the bots go once the game is over (`finished`: played to a result), every process
    /// either given back to `processes` for another game or stopped and reaped; then the
    /// traces are finished.
    pub(super) fn unseat(
        &mut self,
        finished: bool,
        processes: &mut dyn Processes,
    ) -> Result<(), RefereeError> {
        let cfg = self.cfg;
        let mut ending: Vec<Bot> = Vec::new();
        for (seat, s) in Seat::ALL.into_iter().zip(std::mem::take(&mut self.seats)) {
            // Only after a complete game: an interrupted or failed one stops everything. Not
            // under --cpu-limit either: the kernel counts a process's CPU time over its whole
            // life, so a kept process would carry one game's time into the next (protocol.md
            // 4.4: limits are per game).
            let per_game_cpu = cfg.bots[seat.index()].sandbox.limits().cpu_limit.is_none();
            // A remote connection goes back whatever its bot declared: the relay restarts a bot
            // that did not declare `multi_game` when it sees the next `hello`.
            let keepable = s.bot.is_remote() || (s.multi_game && per_game_cpu);
            let fit = finished && s.alive && !s.faulted && keepable;
            let bot = if fit {
                processes.give_back(seat, s.bot)
            } else {
                Some(s.bot)
            };
            ending.extend(bot);
        }
        let mut bots: Vec<&mut Bot> = ending.iter_mut().collect();
        crate::bot::stop_all(&mut bots, cfg.grace);
        if let Some(t) = self.leak_trace.as_mut() {
            let _ = t.flush();
        }
        if let (Some(t), Some(dir)) = (self.tracer.take(), &cfg.trace) {
            t.finish().map_err(|e| trace_err(dir, e))?;
        }
        Ok(())
    }
}
