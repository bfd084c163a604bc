//! `tarneeb replay RECORD --ask SEAT --at N --bot CMD`: gives a bot the lines a seat was sent in
//! a recorded game up to its request N, so an author reproduces one decision (under a debugger:
//! the bot's stderr is the terminal, and there is no time limit). The lines are the referee's
//! own: the game is played again, every seat answering with its recorded moves (the hidden
//! `replay-seat` command), with a trace; the bot then reads that seat's lines from the trace.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};

use tarneeb_referee::bot::{split_command, BotSpec, Sandbox};
use tarneeb_referee::outln;
use tarneeb_referee::record::read_record;
use tarneeb_referee::record::{recorded_deals, Header, RecordLine, RecordedDeals};
use tarneeb_referee::referee::{play_game, trace_path, EventDelivery, GameConfig};
use tarneeb_referee::rules::Seat;

/// The hidden seat that answers its requests with given moves, in order, then exits.
#[derive(clap::Args)]
pub struct ReplaySeatArgs {
    /// The moves, comma-separated, in the order the seat made them.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
}

pub fn run_seat(a: ReplaySeatArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let mut moves = a.moves.iter().filter(|m| !m.is_empty());
    for line in std::io::stdin().lock().lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        match v["type"].as_str() {
            Some("hello") => writeln!(out, r#"{{"type":"hello","name":"replay"}}"#)?,
            Some("request") => {
                let Some(m) = moves.next() else {
                    return Ok(());
                };
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({"type": "move", "id": v["id"], "move": m})
                )?;
            }
            Some("game_end") => return Ok(()),
            _ => continue,
        }
        out.flush()?;
    }
    Ok(())
}

/// Plays the recorded game again, then gives `bot` the lines `seat` was sent up to its request
/// `at`, answering nothing itself: prints the bot's reply to that request beside the recorded one.
pub fn ask(record: &Path, seat: u8, at: u64, bot: &str) -> Result<()> {
    let seat = Seat::new(seat).ok_or_else(|| anyhow!("--ask {seat}: a seat is 0, 1, 2 or 3"))?;
    let lines = read_record(record).map_err(|e| anyhow!("{e}"))?;
    let deals = recorded_deals(&lines).map_err(|e| anyhow!("{}: {e}", record.display()))?;
    let Some(RecordLine::Header(header)) = lines.first().map(|l| &l.record) else {
        bail!("{}: no header", record.display());
    };
    let mut moves: [Vec<String>; 4] = Default::default();
    for l in &lines {
        if let RecordLine::Move { seat, mv, .. } = &l.record {
            moves[seat.index()].push(mv.clone());
        }
    }
    let dir = std::env::temp_dir().join(format!("tarneeb-replay-ask-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let result = ask_in(&dir, record, header, deals, &moves, seat, at, bot);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[allow(clippy::too_many_arguments)]
fn ask_in(
    dir: &Path,
    record: &Path,
    header: &Header,
    deals: RecordedDeals,
    moves: &[Vec<String>; 4],
    seat: Seat,
    at: u64,
    bot: &str,
) -> Result<()> {
    let again = dir.join("again.jsonl");
    let traces = dir.join("traces");
    let cfg = replay_config(record, header, deals, moves, &again, &traces)?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    play_game(&cfg, &stop, &mut |_| {}).map_err(|e| anyhow!("playing the record again: {e}"))?;
    let trace = std::fs::read_to_string(trace_path(&traces, &again, seat))
        .context("reading the trace of the game played again")?;
    let (sent, asked) = sent_up_to(&trace, seat, at)?;
    if header.deal_secret.is_some() {
        eprintln!("note: the game's deals were secret: hello's seed differs from the one the bot got (the deals and every other line are the same)");
    }
    let (mut child, reply) = bot_reply(bot, &sent)?;
    let recorded = moves[seat.index()]
        .get(asked - 1)
        .map_or("(none)", String::as_str);
    outln!(
        "request {at} of seat {seat}, as sent: {}",
        sent.last().expect("found")
    )?;
    outln!("the bot's reply:  {}", reply.trim_end())?;
    outln!("recorded move:    {recorded}")?;
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

/// The recorded game as a game to play again (record `again`, traces in `traces`): its rules,
/// seed, first dealer, deals, time and fault policy, with every seat a `replay-seat` answering
/// its recorded moves, unsandboxed (the moves are the record's own) and with no secret (the
/// deals are given), so the referee itself writes the lines each seat was sent.
fn replay_config(
    record: &Path,
    header: &Header,
    deals: RecordedDeals,
    moves: &[Vec<String>; 4],
    again: &Path,
    traces: &Path,
) -> Result<GameConfig> {
    let exe = std::env::current_exe().context("cannot find the tarneeb program itself")?;
    let bots: [BotSpec; 4] = std::array::from_fn(|i| {
        let command = vec![
            exe.display().to_string(),
            "replay-seat".into(),
            format!("--moves={}", moves[i].join(",")),
        ];
        BotSpec::beside_record(
            command,
            again,
            i,
            1 << 20,
            1 << 20,
            Arc::new(Sandbox::none()),
        )
    });
    Ok(GameConfig {
        rules: deals.rules.clone(),
        seed: deals.seed,
        first_dealer: Some(deals.first_dealer),
        deals: deals.deals,
        bots,
        time: header.time,
        on_fault: header
            .on_fault
            .parse()
            .map_err(|e| anyhow!("{}: on_fault: {e}", record.display()))?,
        events: EventDelivery::default(),
        record: again.to_path_buf(),
        trace: Some(traces.to_path_buf()),
        leak_trace: None,
        grace: std::time::Duration::from_millis(500),
        start_scores: header.start_scores,
        deal_secret: None,
        watched: false,
        freeze_off_turn: false,
    })
}

/// The lines `seat` was sent, from its trace, up to and with its request `at`, and how many
/// requests it had by then (the recorded move to show beside the bot's is that one). Request ids
/// count every seat's requests, so a wrong `--at` is answered with the ids this seat had.
fn sent_up_to(trace: &str, seat: Seat, at: u64) -> Result<(Vec<String>, usize)> {
    let mut sent = Vec::new();
    let (mut asked, mut ids) = (0usize, Vec::new());
    for l in trace.lines() {
        let mut p = l.splitn(4, ' ');
        let (_, _, dir, text) = (p.next(), p.next(), p.next(), p.next().unwrap_or(""));
        if dir != Some("to-bot") {
            continue;
        }
        sent.push(text.to_string());
        let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        if v["type"] == "request" {
            asked += 1;
            ids.push(v["id"].as_u64().unwrap_or(0));
            if v["id"].as_u64() == Some(at) {
                return Ok((sent, asked));
            }
        }
    }
    let first: Vec<String> = ids.iter().take(8).map(u64::to_string).collect();
    bail!(
        "--at {at}: seat {seat} got no request {at} in this game (request ids count every seat's requests, as the trace and fault messages show them; seat {seat}'s were {}{})",
        first.join(", "),
        if ids.len() > 8 { ", ..." } else { "" }
    );
}

/// Starts `bot` (its stderr the terminal, for a debugger) and gives it the `sent` lines one by
/// one, reading its reply to each hello and request as a seat's bot would be read, so it sees
/// the same exchange as in the game; returns the running bot and its reply to the last one.
fn bot_reply(bot: &str, sent: &[String]) -> Result<(Child, String)> {
    let argv = split_command(bot).map_err(|e| anyhow!("--bot: {e}"))?;
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| anyhow!("--bot: cannot start {}: {e}", argv[0]))?;
    let mut to_bot = child.stdin.take().expect("piped");
    let mut from_bot = BufReader::new(child.stdout.take().expect("piped"));
    let mut reply = String::new();
    for line in sent {
        writeln!(to_bot, "{line}")?;
        to_bot.flush()?;
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        if v["type"] == "hello" || v["type"] == "request" {
            reply.clear();
            if from_bot.read_line(&mut reply)? == 0 {
                let _ = child.wait();
                bail!(
                    "the bot closed its output before answering: {}",
                    line.chars().take(120).collect::<String>()
                );
            }
        }
    }
    drop(to_bot);
    Ok((child, reply))
}
