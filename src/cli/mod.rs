//! The command line: one module per command, each turning its clap arguments into a validated
//! configuration and calling the library. Nothing here is part of the library's API; `main`
//! only parses and maps what [`run`] returns to an exit code (0 done, 1 the program itself
//! failed, 2 bad usage or input, 130 interrupted).

mod args;
mod bot;
mod check_bot;
mod connect;
mod human;
mod keygen;
mod league;
mod league_read;
mod play;
mod play_remote;
mod remote_args;
mod replay;
mod replay_ask;
mod rules;
mod serve;
mod simulate;
mod standings;
mod tournament;
mod web_entrants;
mod web_seat;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use tarneeb_referee::referee::RefereeError;
use tarneeb_referee::rules_file::RulesInputError;

#[derive(Parser)]
#[command(name = "tarneeb", version, about = "A referee for Tarneeb, Egyptian Tarneeb, 400 and Forty-One", long_about = None,
    after_help = "Guides (in the source tree): README.md, docs/writing-a-bot.md, docs/competitions.md,\ndocs/league.md, docs/sandbox.md, docs/rules.md, docs/analysis.md, docs/performance.md,
docs/reliability.md;
protocol.md for bots.")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the complete rules of a preset (or a rules file) as JSON.
    ///
    /// Presets: classic, egyptian, 400, 41. A rules file is JSON like
    /// {"preset": "classic", "target": 41, "contract": {"no-trump": true}}: the preset plus the
    /// options it changes. docs/rules.md lists every option.
    Rules(rules::RulesArgs),
    /// Play one game between four bot programs and write its record.
    ///
    /// Each --bot is a command line; the bot speaks the JSON-lines protocol of protocol.md on
    /// its stdin/stdout (stderr goes to a log beside the record). Exit code 0 when the game
    /// reached a result (a forfeit is a result), 2 for bad usage or input, 1 when the referee
    /// itself failed, 130 when interrupted. Guides: docs/writing-a-bot.md (trying a bot, the
    /// human seat, --trace), docs/sandbox.md (what a bot may use).
    Play(Box<play::PlayArgs>),
    /// Check a game record against the rules in its header and print a transcript.
    ///
    /// Every deal, move, score and the result are replayed with the record's rules; the first
    /// line that disagrees (an edited or truncated record, or one made under other rules) is
    /// reported with its number and exit code 1. Exit code 2 for an unreadable path.
    /// --analyze: docs/analysis.md.
    Replay(replay::ReplayArgs),
    /// Play a tournament between bot programs: many games, several at once, resumable.
    ///
    /// Each --bot is NAME=CMD. Results go to --out DIR (records in DIR/games/, one line per
    /// game in DIR/results.jsonl, the standings in DIR/standings.txt); the same command on the
    /// same DIR resumes. Exit code 0 when done, 2 for bad usage, 130 when interrupted. Guide:
    /// docs/competitions.md (formats, resume, --config, shards, reading the standings).
    #[command(args_override_self = true)]
    Tournament(Box<tournament::TournamentArgs>),
    /// A league that never ends: entrants join, send new versions and retire while it runs.
    ///
    /// `league start DIR` makes it, `league add DIR NAME=CMD` adds an entrant, `league run DIR`
    /// plays (each pair of games where its result tells the most), `league table DIR` and
    /// `league history DIR NAME` read it, its state in DIR/league.db (SQLite). `standings DIR`
    /// and `serve DIR` read a league as a tournament. Guide: docs/league.md.
    League(league::LeagueArgs),
    /// Serve the live page of a tournament directory, running or finished, until Ctrl-C.
    ///
    /// The page shows the progress, the standings and crosstable as games finish (pushed to
    /// the page, no polling), the SPRT, the games in progress as the table sees them (no hidden
    /// card before a game ends), every finished game as a replay page and a page per entrant.
    /// Read-only, on loopback unless --listen says otherwise. `tournament --serve ADDR` does the
    /// same for the run it plays. Guide: docs/competitions.md.
    Serve(serve::ServeArgs),
    /// Play a remote entrant's seats from this machine: run a bot and relay it to a server.
    ///
    /// `tarneeb connect HOST:PORT --token T -- CMD` runs CMD here (no sandbox) and carries its
    /// protocol lines to and from the organiser's `tournament --listen`, unchanged: a bot
    /// written for protocol.md needs no change. It connects again after a drop and exits when
    /// the tournament is over. Guide: docs/competitions.md, "Contest with remote bots".
    Connect(connect::ConnectArgs),
    /// Print the standings of tournament directories (several are merged, like shards).
    ///
    /// Every column, the ratings, the SPRT and the board scores are explained in
    /// docs/competitions.md, "Reading the standings".
    Standings(standings::StandingsArgs),
    /// Play whole games in process with built-in players and report speed and outcomes.
    Simulate(simulate::SimulateArgs),
    /// Run a bot shipped with the referee on stdin/stdout (protocol.md), e.g. as
    /// `--bot "tarneeb bot pimc"`.
    ///
    /// Its design and strength: docs/analysis.md.
    Bot(bot::BotArgs),
    /// Check a bot before a tournament does: every preset and every rare situation.
    ///
    /// The bot plays against built-in seats in plain games of every preset, then in games forced
    /// into rare situations (a throw-in offer, the dealer forced to bid, No Trump, double and
    /// redouble, a bid of 13, the 400 minimum bid by score, the last hands of a game). Checked:
    /// the handshake, every reply's format, id and legality, nothing written unasked, reply
    /// times against the limit, and that the bot is quiet after game_end and exits at the end of its input.
    /// Each failure shows the message that triggered it and the bot's answer. Exit code 0 when
    /// every check passed, 1 when one failed, 2 for bad usage.
    CheckBot(check_bot::CheckBotArgs),
    /// Make a deal key: 256 random bits from the operating system, in a new file (mode 0600).
    ///
    /// With a seed, a deal key fixes every deal: give the same file to `play --deal-key` or
    /// `tournament --deal-key` (every shard of a sharded tournament) to play the same deals
    /// again. Keep it where no bot can read it; an existing file is never overwritten.
    Keygen(keygen::KeygenArgs),
    /// The terminal seat of `play --bot human` (not for direct use).
    #[command(hide = true)]
    HumanSeat(human::HumanSeatArgs),
    /// The built-in seat check-bot plays against (not for direct use).
    #[command(hide = true)]
    ScriptedBot(check_bot::ScriptedBotArgs),
    /// A seat played in a browser (for `play --bot web`; not for direct use).
    #[command(hide = true)]
    WebSeat(web_seat::WebSeatArgs),
    /// A seat that plays given moves in order (for `replay --ask`; not for users).
    #[command(hide = true)]
    ReplaySeat(replay_ask::ReplaySeatArgs),
    /// Ends a killed referee's bots (started by the referee itself; not for users).
    #[command(hide = true)]
    GuardBots(GuardBotsArgs),
}

/// `tarneeb guard-bots`: see `bot::sandbox::guardian`.
#[derive(Debug, clap::Args)]
pub struct GuardBotsArgs {
    /// The referee whose bot cgroups to end once its end of the pipe on stdin closes.
    #[arg(long)]
    referee: u32,
    /// A directory holding the referee's bot cgroups (one per controller hierarchy).
    #[arg(long = "dir")]
    dirs: Vec<std::path::PathBuf>,
}

/// An error caused by the user's input: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Runs the command; returns its exit code or the error that ended it.
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Rules(a) => rules::run(a).map(|()| 0),
        Command::Play(a) => play::run(*a).map(|()| 0),
        Command::Replay(a) => replay::run(a).map(|()| 0),
        Command::Tournament(a) => Ok(tournament::run(*a)),
        Command::Standings(a) => Ok(standings::run(a)),
        Command::Serve(a) => Ok(serve::run(a)),
        Command::League(a) => Ok(league::run(a)),
        Command::Connect(a) => Ok(connect::run(a)),
        Command::Simulate(a) => simulate::run(a).map(|()| 0),
        Command::Bot(a) => bot::run(a).map(|()| 0),
        Command::CheckBot(a) => check_bot::run(a),
        Command::Keygen(a) => keygen::run(a).map(|()| 0),
        Command::HumanSeat(a) => human::run(a).map(|()| 0),
        Command::ScriptedBot(a) => check_bot::run_scripted(a).map(|()| 0),
        Command::ReplaySeat(a) => replay_ask::run_seat(a).map(|()| 0),
        Command::WebSeat(a) => web_seat::run(a).map(|()| 0),
        Command::GuardBots(a) => {
            tarneeb_referee::bot::sandbox::guardian::guard(a.referee, &a.dirs)?;
            Ok(0)
        }
    }
}

/// The message of an error that ended a command: its own text, then each cause that says
/// something new. Why not `{:#}`: our errors already quote their cause (`seat 0: cannot start
/// bot ...: No such file`), so printing the chain too repeated the same text two or three times.
pub fn message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// The exit code for an error that ended a command (its message is printed by the caller).
pub fn exit_code(e: &anyhow::Error) -> ExitCode {
    match e.downcast_ref::<RefereeError>() {
        Some(RefereeError::Interrupted { .. }) => ExitCode::from(130),
        Some(RefereeError::Spawn { .. } | RefereeError::SandboxSetup { .. }) => ExitCode::from(2),
        _ if e.downcast_ref::<UsageError>().is_some()
            || e.downcast_ref::<RulesInputError>().is_some() =>
        {
            ExitCode::from(2)
        }
        _ => ExitCode::from(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_quoted_is_printed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(io).context("cannot start bot 'x': No such file");
        assert_eq!(message(&e), "cannot start bot 'x': No such file");
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(io).context("cannot read r.json");
        assert_eq!(message(&e), "cannot read r.json: No such file");
    }
}
