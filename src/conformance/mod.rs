//! `tarneeb check-bot`: one bot under test against built-in seats, through every preset and the
//! rare situations a tournament may take long to reach, each forced with explicit deals,
//! scripted seats ([`scripted`]) and given scores. Every game is a real referee game over pipes,
//! so whatever the referee would fault the bot for is found here, with the message that
//! triggered it and the bot's answer, read back from the game's trace.

pub mod hints;
pub mod scenarios;
pub mod scripted;
pub mod spec;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::bot::{stderr_tail, Bot, BotEvent, BotSpec};
use crate::protocol::{FaultKind, TimeLimits};
use crate::referee::{play_game, trace_path, EventDelivery, FaultPolicy, GameConfig};
use crate::rules::{Deal, Rules, Seat, StartScores};

/// How long a bot may take to exit after `game_end` or the end of its input.
pub const EXIT_LIMIT: Duration = Duration::from_secs(5);
/// How long a bot is watched after `game_end` for output it must not write (it may exit then,
/// or wait for the end of its input: protocol.md section 1).
const QUIET_AFTER_END: Duration = Duration::from_millis(500);

/// What to check and how.
pub struct CheckConfig {
    /// The sandbox every seat runs in (`--sandbox`, as for `play`).
    pub sandbox: std::sync::Arc<crate::bot::Sandbox>,
    /// The bot under test.
    pub command: Vec<String>,
    /// The command line of a built-in seat, without its options (`tarneeb scripted-bot`).
    pub scripted: Vec<String>,
    pub time: TimeLimits,
    pub events: EventDelivery,
    pub max_line: usize,
    pub stderr_cap: u64,
    /// Records, traces and stderr logs go here.
    pub dir: PathBuf,
}

/// One game forced into a situation.
pub struct Scenario {
    pub name: String,
    pub rules: Rules,
    /// The seat of the bot under test; the others are scripted.
    pub seat: Seat,
    pub seed: u64,
    pub first_dealer: Option<Seat>,
    pub deals: Vec<Deal>,
    /// Moves every scripted seat plays when legal, in order of preference.
    pub prefer: Vec<String>,
    pub start_scores: Option<StartScores>,
    /// Texts the record must hold for the situation to have been reached (a move line, say).
    pub reach: Vec<String>,
}

/// The verdict on one check.
pub struct Check {
    pub name: String,
    pub passed: bool,
    /// What went wrong and what triggered it, or notes on a pass.
    pub details: Vec<String>,
    /// For a failure: its cause in one line (identical causes are told once).
    pub cause: Option<String>,
    /// For a failure: the likely cause, from what was seen, and its fix.
    pub hint: Option<String>,
    /// How long the check took.
    pub elapsed: Duration,
}

impl Check {
    fn new(name: &str) -> Check {
        Check {
            name: name.to_string(),
            passed: true,
            details: Vec::new(),
            cause: None,
            hint: None,
            elapsed: Duration::ZERO,
        }
    }

    fn fail(&mut self, cause: String, hint: &str) {
        self.passed = false;
        self.cause = Some(cause);
        self.hint = Some(hint.to_string());
    }
}

/// Everything check-bot found.
pub struct Report {
    pub checks: Vec<Check>,
    /// The bot's reply times in ms (every answered request of every game).
    pub reply_ms: Vec<u64>,
    /// Checks were left out: stopped at a failure (`--fail-fast`) or by a signal.
    pub stopped: bool,
    /// The exit probes were not run: no game gave the bot a hello and a game_end to replay.
    pub probes_skipped: bool,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    /// `p50 .. p99 .. max` of the reply times, or `None` without replies.
    pub fn percentiles(&self) -> Option<(u64, u64, u64)> {
        let mut v = self.reply_ms.clone();
        if v.is_empty() {
            return None;
        }
        v.sort_unstable();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        Some((at(0.5), at(0.99), v[v.len() - 1]))
    }
}

/// Runs every scenario and the exit probes, handing each check to `done` as it finishes (to
/// be shown at once); stops early when `done` returns false (`--fail-fast`) or on a stop signal.
pub fn check(
    cfg: &CheckConfig,
    scenarios: &[Scenario],
    stop: &AtomicBool,
    done: &mut dyn FnMut(&Check) -> bool,
) -> Report {
    let mut report = Report {
        checks: Vec::new(),
        reply_ms: Vec::new(),
        stopped: false,
        probes_skipped: false,
    };
    let mut lines_for_probes = None;
    for sc in scenarios {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            report.stopped = true;
            return report;
        }
        let started = Instant::now();
        let (mut check, times) = run_scenario(cfg, sc, stop);
        check.elapsed = started.elapsed();
        report.reply_ms.extend(times);
        if lines_for_probes.is_none() {
            lines_for_probes = first_and_last_lines(cfg, sc);
        }
        let go_on = done(&check);
        report.checks.push(check);
        if !go_on {
            report.stopped = true;
            return report;
        }
    }
    let Some((hello, game_end)) = lines_for_probes else {
        report.probes_skipped = true;
        return report;
    };
    let probes: [(&str, Option<&[u8]>); 2] = [
        ("quiet after game_end", Some(&game_end)),
        ("exits at the end of its input", None),
    ];
    for (name, end) in probes {
        let started = Instant::now();
        let mut check = probe_exit(cfg, name, &hello, end);
        check.elapsed = started.elapsed();
        let go_on = done(&check);
        report.checks.push(check);
        if !go_on {
            report.stopped = true;
            break;
        }
    }
    report
}

/// The bots of a scenario: the bot under test at its seat, scripted seats elsewhere.
fn specs(cfg: &CheckConfig, sc: &Scenario, record: &Path) -> [BotSpec; 4] {
    std::array::from_fn(|i| {
        let command = if i == sc.seat.index() {
            cfg.command.clone()
        } else {
            let mut c = cfg.scripted.clone();
            c.push("--seed".into());
            c.push((sc.seed * 4 + i as u64).to_string());
            if !sc.prefer.is_empty() {
                c.push("--prefer".into());
                c.push(sc.prefer.join(","));
            }
            c
        };
        BotSpec::beside_record(
            command,
            record,
            i,
            cfg.stderr_cap,
            cfg.max_line,
            cfg.sandbox.clone(),
        )
    })
}

fn record_of(cfg: &CheckConfig, sc: &Scenario) -> PathBuf {
    let mut stem = String::new();
    for c in sc.name.chars() {
        if c.is_ascii_alphanumeric() {
            stem.push(c.to_ascii_lowercase());
        } else if !stem.ends_with('-') {
            stem.push('-');
        }
    }
    stem.truncate(40);
    cfg.dir
        .join(format!("{}.jsonl", stem.trim_end_matches('-')))
}

fn traces(cfg: &CheckConfig) -> PathBuf {
    cfg.dir.join("traces")
}

/// Plays one scenario and judges the bot under test by the game's end: a reply repeated, a
/// fault of its own (or of a built-in seat), or a pass with what the game reached.
fn run_scenario(cfg: &CheckConfig, sc: &Scenario, stop: &AtomicBool) -> (Check, Vec<u64>) {
    let record = record_of(cfg, sc);
    let game = scenario_game(cfg, sc, &record);
    let mut check = Check::new(&sc.name);
    let outcome = match play_game(&game, stop, &mut |_| {}) {
        Ok(o) => o,
        Err(e) => {
            check.fail(
                e.to_string(),
                "the game could not be played: the message says why",
            );
            check.details.push(e.to_string());
            return (check, Vec::new());
        }
    };
    let times = reply_times(&record, sc.seat);
    let trace = trace_path(&traces(cfg), &record, sc.seat);
    let twice = answered_twice(&read_trace(&trace));
    let files = Files {
        trace: &trace,
        record: &record,
    };
    // A flood of repeated replies is told as what it is.
    let flood = |f: &crate::protocol::ForfeitInfo| f.seat == sc.seat && f.kind == FaultKind::Flood;
    let forfeit = outcome.result.forfeit.as_ref();
    if let Some(t) = twice.as_ref().filter(|_| forfeit.is_none_or(flood)) {
        fail_answered_twice(&mut check, t, files);
    } else if let Some(f) = forfeit {
        if f.seat == sc.seat {
            fail_fault(&mut check, cfg, &game, f, twice.as_ref(), files);
        } else {
            let cause = format!(
                "a built-in seat ({}) faulted: {}: {} (a bug of check-bot, not of your bot)",
                f.seat, f.kind, f.detail
            );
            check.fail(cause.clone(), "please report it");
            check.details.push(cause);
        }
    } else {
        note_reached(&mut check, sc, &record, outcome.result.hands, times.len());
    }
    (check, times)
}

/// The referee's configuration for a scenario: its fixed deals, seed and scores, every fault a
/// forfeit (the check is over at the first), and a trace of every seat, since what the bot
/// was sent and answered is read back from it to explain a failure.
fn scenario_game(cfg: &CheckConfig, sc: &Scenario, record: &Path) -> GameConfig {
    GameConfig {
        rules: sc.rules.clone(),
        seed: sc.seed,
        first_dealer: sc.first_dealer,
        deals: sc.deals.clone(),
        bots: specs(cfg, sc, record),
        time: cfg.time,
        on_fault: FaultPolicy::Forfeit,
        events: cfg.events,
        record: record.to_path_buf(),
        trace: Some(traces(cfg)),
        leak_trace: None,
        grace: Duration::from_millis(1000),
        start_scores: sc.start_scores,
        // check-bot's scenarios are fixed deals and seeds, the same for every author: there
        // is nothing to keep secret from the bot under test.
        deal_secret: None,
        watched: false,
        freeze_off_turn: false,
    }
}

/// The files a failure's details point to, where the whole lines are.
#[derive(Clone, Copy)]
struct Files<'a> {
    trace: &'a Path,
    record: &'a Path,
}

impl Files<'_> {
    fn line(self) -> String {
        format!(
            "trace {}, record {}",
            self.trace.display(),
            self.record.display()
        )
    }
}

/// A bot that repeated replies fails even though the game went on: the referee discards a
/// reply to a request already answered (protocol.md section 3, faults: up to 100 a game), but
/// a tournament's longer games end in a `flood` fault, and a bot out of step with its requests
/// is a bug either way.
fn fail_answered_twice(check: &mut Check, t: &Twice, files: Files<'_>) {
    let cause = format!(
        "answered-twice: {} replies repeated one already given, first to request {}",
        t.repeats, t.id
    );
    check.fail(
        cause.clone(),
        &hints::hint(&hints::Seen {
            kind: FaultKind::Flood,
            detail: &cause,
            wrote_anything: true,
            stderr_tail: "",
            sandboxed: false,
            answered_twice: Some(t.id),
        }),
    );
    check.details.push(cause);
    check
        .details
        .push(format!("sent:   {}", crate::protocol::excerpt(&t.request)));
    check.details.push(format!(
        "answer: {} (twice)",
        crate::protocol::excerpt(&t.reply)
    ));
    check.details.push(files.line());
}

/// The bot under test faulted: the failure says the fault, a hint from everything seen (its
/// stderr, whether it wrote anything, the sandbox), and the exchange that triggered it, so an
/// author can fix the bot without opening the trace.
fn fail_fault(
    check: &mut Check,
    cfg: &CheckConfig,
    game: &GameConfig,
    f: &crate::protocol::ForfeitInfo,
    twice: Option<&Twice>,
    files: Files<'_>,
) {
    // The detail's parts (cause, stderr tail, fix, sandbox) on lines of their own.
    let parts = crate::bot::detail_lines(&f.detail);
    check.details.push(format!("{}: {}", f.kind, parts[0]));
    check
        .details
        .extend(parts[1..].iter().map(|p| p.to_string()));
    let log = &game.bots[f.seat.index()].stderr_log;
    let tail = stderr_tail(log, 5).unwrap_or_default().join(" | ");
    let seen = hints::Seen {
        kind: f.kind,
        detail: &f.detail,
        wrote_anything: read_trace(files.trace).iter().any(|(to_bot, _)| !to_bot),
        stderr_tail: &tail,
        sandboxed: cfg.sandbox.is_sandboxed(),
        answered_twice: twice.map(|t| t.id),
    };
    check.fail(format!("{}: {}", f.kind, parts[0]), &hints::hint(&seen));
    let (sent, answer) = exchange_at_fault(files.trace, f.kind);
    // The start of each line: the trace holds them whole.
    check.details.push(format!(
        "sent:   {}",
        sent.map_or_else(|| "(nothing)".into(), |l| crate::protocol::excerpt(&l))
    ));
    check.details.push(format!(
        "answer: {}",
        answer.map_or_else(|| "(none)".into(), |l| crate::protocol::excerpt(&l))
    ));
    check.details.push(files.line());
}

/// A pass: the game's length and the bot's replies, and, when the bot's own choices steered
/// the game away from the situation the scenario forces, which of its marks the record lacks
/// (the check still passes: the bot did nothing wrong, the situation was just not tested).
fn note_reached(check: &mut Check, sc: &Scenario, record: &Path, hands: u32, replies: usize) {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let missing: Vec<&String> = sc
        .reach
        .iter()
        .filter(|r| !text.contains(r.as_str()))
        .collect();
    if !missing.is_empty() {
        check.details.push(format!(
            "(the situation was not reached with this bot's choices: no {})",
            missing
                .iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    check
        .details
        .push(format!("{}, {replies} replies", crate::hands(hands)));
}

/// The bot's recorded reply times (moves it made, not those the referee played for it).
fn reply_times(record: &Path, seat: Seat) -> Vec<u64> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| {
            v["type"] == "move"
                && v["seat"].as_u64() == Some(seat.index() as u64)
                && v["substituted"] != true
        })
        .filter_map(|v| v["ms"].as_u64())
        .collect()
}

/// From a seat's trace: the message that triggered a fault and the bot's answer to it.
/// For a bot that answered wrongly, its last line and the last line it was sent before it; for
/// one that said nothing (timeout, exit), the last request or hello it was sent.
fn exchange_at_fault(trace: &Path, kind: FaultKind) -> (Option<String>, Option<String>) {
    let lines = read_trace(trace);
    let silent = matches!(kind, FaultKind::Timeout | FaultKind::Exited);
    let answer_at = if silent {
        None
    } else {
        lines.iter().rposition(|(to_bot, _)| !to_bot)
    };
    let before = answer_at.unwrap_or(lines.len());
    let sent = lines[..before]
        .iter()
        .rev()
        .find(|(to_bot, line)| {
            *to_bot
                && (!silent
                    || line.starts_with("{\"type\":\"request\"")
                    || line.starts_with("{\"type\":\"hello\""))
        })
        .map(|(_, l)| l.to_string());
    (sent, answer_at.map(|i| lines[i].1.clone()))
}

/// A reply the bot gave more than once in a game (see [`answered_twice`]).
struct Twice {
    /// The first request answered twice.
    id: u64,
    /// Its request and the reply, as sent and written.
    request: String,
    reply: String,
    /// Replies in the game that named a request already answered.
    repeats: usize,
}

/// Replies naming a request the bot had already answered, from a seat's trace: a bot that
/// writes each reply twice (protocol.md section 3: one reply per request). A late reply after
/// a timeout is a first reply and not counted.
fn answered_twice(lines: &[(bool, String)]) -> Option<Twice> {
    let mut answered = std::collections::HashSet::new();
    let mut first: Option<Twice> = None;
    let mut repeats = 0;
    for (to_bot, line) in lines {
        if *to_bot {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(id) = v["id"].as_u64().filter(|_| v["type"] == "move") else {
            continue;
        };
        if answered.insert(id) {
            continue;
        }
        repeats += 1;
        if first.is_none() {
            let request = lines
                .iter()
                .find(|(to_bot, l)| {
                    *to_bot
                        && l.starts_with("{\"type\":\"request\"")
                        && l.contains(&format!("\"id\":{id},"))
                })
                .map_or_else(|| "(not in the trace)".into(), |(_, l)| l.clone());
            first = Some(Twice {
                id,
                request,
                reply: line.clone(),
                repeats: 0,
            });
        }
    }
    first.map(|t| Twice { repeats, ..t })
}

/// A trace file's lines as (sent to the bot, the line); nothing when it cannot be read.
fn read_trace(trace: &Path) -> Vec<(bool, String)> {
    let text = std::fs::read_to_string(trace).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            // `SECONDS seatN to-bot|from-bot LINE` (see referee/trace.rs)
            let mut p = l.splitn(4, ' ');
            let (_, _, dir) = (p.next()?, p.next()?, p.next()?);
            Some((dir == "to-bot", p.next().unwrap_or("").to_string()))
        })
        .collect()
}

/// The hello and the game_end a seat was sent in a scenario's game, to replay in the probes.
fn first_and_last_lines(cfg: &CheckConfig, sc: &Scenario) -> Option<(Vec<u8>, Vec<u8>)> {
    let trace = trace_path(&traces(cfg), &record_of(cfg, sc), sc.seat);
    let sent: Vec<String> = read_trace(&trace)
        .into_iter()
        .filter_map(|(to_bot, line)| to_bot.then_some(line))
        .collect();
    let hello = sent.iter().find(|l| l.starts_with("{\"type\":\"hello\""))?;
    let end = sent
        .iter()
        .rev()
        .find(|l| l.starts_with("{\"type\":\"game_end\""))?;
    Some((
        format!("{hello}\n").into_bytes(),
        format!("{end}\n").into_bytes(),
    ))
}

/// Starts the bot alone, shakes hands, then sends `game_end` and watches that it writes
/// nothing more, or closes its input and waits for it to exit without writing anything more.
fn probe_exit(cfg: &CheckConfig, name: &str, hello: &[u8], game_end: Option<&[u8]>) -> Check {
    let mut check = Check::new(name);
    check.passed = false;
    let mut bot = match Bot::spawn(&probe_spec(cfg, game_end.is_some())) {
        Ok(b) => b,
        Err(e) => {
            check.fail(e.to_string(), "the message says why it could not start");
            check.details.push(e.to_string());
            return check;
        }
    };
    bot.send(hello, None);
    let handshake = Duration::from_millis(cfg.time.handshake_ms);
    let Some(multi_game) = hello_reply(&mut bot, handshake) else {
        check.fail(
            "no hello reply".into(),
            "the bot wrote nothing to stdout: did you flush stdout after each line?",
        );
        check.details.push("no hello reply".into());
        bot.stop(Duration::from_millis(200));
        return check;
    };
    match game_end {
        Some(line) => bot.send(line, None),
        None => bot.close_stdin(),
    }
    // protocol.md section 1: a bot "should exit when it reads end-of-file (and may exit at
    // game_end)"; one that declared multi_game waits there for new_game (4.4). Either way it
    // must stay quiet after game_end, and exit at the end of its input (the other probe).
    let stays_up = game_end.is_some();
    let limit = if stays_up {
        QUIET_AFTER_END
    } else {
        EXIT_LIMIT
    };
    let (extra, exited) = watch_after(&mut bot, limit);
    bot.stop(Duration::from_millis(200));
    let seen = AfterEnd {
        multi_game,
        exited,
        extra,
    };
    judge_after_end(&mut check, game_end, &seen);
    check
}

/// A probe's bot: the bot under test alone, with a stderr log of its own per probe so the
/// second probe does not overwrite what the first one's bot said.
fn probe_spec(cfg: &CheckConfig, after_game_end: bool) -> BotSpec {
    BotSpec {
        command: cfg.command.clone(),
        cwd: None,
        env: Vec::new(),
        stderr_log: cfg.dir.join(format!(
            "probe-{}.stderr.log",
            if after_game_end { "game-end" } else { "eof" }
        )),
        stderr_cap: cfg.stderr_cap,
        max_line: cfg.max_line,
        sandbox: cfg.sandbox.clone(),
    }
}

/// Waits up to the handshake limit for the bot's first line: whether it declared
/// `multi_game`, which changes what it may do at `game_end`; `None` if it wrote nothing or
/// ended first. Any first line counts as a reply: the games already judged the hello itself.
fn hello_reply(bot: &mut Bot, limit: Duration) -> Option<bool> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        match bot.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Some(BotEvent::Line { text, .. }) => {
                return Some(crate::protocol::read_hello(&text).is_ok_and(|h| h.multi_game));
            }
            Some(BotEvent::Eof { .. }) => return None,
            _ => {}
        }
    }
    None
}

/// Watches the bot for `limit` or until it exits: the lines it wrote meanwhile and whether it
/// exited. Its exit is looked at between reads, so a bot that exits at once is not waited for.
fn watch_after(bot: &mut Bot, limit: Duration) -> (Vec<String>, bool) {
    let deadline = Instant::now() + limit;
    let mut extra = Vec::new();
    while Instant::now() < deadline {
        if let Some(BotEvent::Line { text, .. }) = bot.recv_timeout(Duration::from_millis(50)) {
            extra.push(text);
        }
        if bot.exit_status().is_some() {
            return (extra, true);
        }
    }
    (extra, false)
}

/// What a probe's bot did after `game_end` or the end of its input.
struct AfterEnd {
    multi_game: bool,
    exited: bool,
    extra: Vec<String>,
}

/// The probe's verdict. After `game_end` a bot may exit or stay up, but quiet; at the end of
/// its input it must exit within [`EXIT_LIMIT`]. Either way a line written after the end is a
/// failure: a tournament stops a kept process that wrote between `game_end` and `new_game`
/// (protocol.md section 4.4), so such a bot would get a fresh process for every game.
fn judge_after_end(check: &mut Check, game_end: Option<&[u8]>, seen: &AfterEnd) {
    let stays_up = game_end.is_some();
    let what = match game_end {
        Some(_) => "game_end",
        None => "the end of its input (stdin closed)",
    };
    if stays_up {
        check.details.push(format!(
            "{}: {}",
            if seen.multi_game {
                "declares multi_game: waits for new_game or the end of its input"
            } else {
                "may exit at game_end or wait for the end of its input"
            },
            if seen.exited {
                "it exited"
            } else {
                "it stayed up, quiet"
            }
        ));
    } else if !seen.exited {
        check.details.push(format!(
            "still running {} s after {what}: exit when it arrives",
            EXIT_LIMIT.as_secs()
        ));
    }
    if let Some(line) = seen.extra.first() {
        check.details.push(format!(
            "wrote {} line(s) after {what}, first: {}",
            seen.extra.len(),
            crate::protocol::excerpt(line)
        ));
    }
    if !seen.extra.is_empty() {
        check.fail(
            format!("wrote {} line(s) after {what}", seen.extra.len()),
            "write nothing after game_end: exit, or wait for new_game or the end of input",
        );
    } else if !seen.exited && !stays_up {
        check.fail(
            format!("still running {} s after {what}", EXIT_LIMIT.as_secs()),
            "exit when stdin ends (a read returns end-of-file: Python's for line in sys.stdin ends, C's fgets returns NULL, Java's readLine returns null, Go's Scanner.Scan returns false)",
        );
    } else {
        check.passed = true;
    }
    if let Some(line) = game_end {
        check.details.push(format!(
            "sent:   {}",
            String::from_utf8_lossy(line).trim_end()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::answered_twice;

    fn lines(raw: &[(bool, &str)]) -> Vec<(bool, String)> {
        raw.iter().map(|(b, l)| (*b, l.to_string())).collect()
    }

    /// protocol.md section 3: one reply per request. A reply repeated is counted; a late reply
    /// to a request that timed out (its first) is not.
    #[test]
    fn a_repeated_reply_is_told_apart_from_a_late_one() {
        let req = |id: u64| format!(r#"{{"type":"request","id":{id},"decision":"play"}}"#);
        let mv = |id: u64| format!(r#"{{"type": "move", "id": {id}, "move": "QS"}}"#);
        let (r3, r4, m3, m4) = (req(3), req(4), mv(3), mv(4));
        let late = lines(&[(true, &r3), (true, &r4), (false, &m3), (false, &m4)]);
        assert!(answered_twice(&late).is_none());
        let twice = lines(&[
            (true, &r3),
            (false, &m3),
            (false, &m3),
            (true, &r4),
            (false, &m4),
            (false, &m4),
        ]);
        let t = answered_twice(&twice).expect("a repeated reply");
        assert_eq!((t.id, t.repeats), (3, 2));
        assert_eq!(t.request, r3);
        assert_eq!(t.reply, m3);
    }
}
