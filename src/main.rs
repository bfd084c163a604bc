//! The `tarneeb` command: parse arguments, run, map errors to an exit code
//! (0 done, 1 the program itself failed, 2 bad usage or input).

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use tarneeb_referee::players::PlayerKind;
use tarneeb_referee::rules::Rules;
use tarneeb_referee::{rules_file, simulate};

#[derive(Parser)]
#[command(name = "tarneeb", version, about = "A referee for Tarneeb, Egyptian Tarneeb, 400 and Forty-One", long_about = None)]
struct Cli {
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
    Rules {
        /// A preset name or a path to a JSON rules file.
        rules: String,
    },
    /// Play whole games in process with built-in players and report speed and outcomes.
    Simulate {
        /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file.
        #[arg(long, default_value = "classic")]
        rules: String,
        /// How many games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Seed of the first game; game i uses seed + i, which fixes its first dealer and deals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Built-in players: one kind for all seats, or four separated by commas (seat order).
        #[arg(long, default_value = "random", value_delimiter = ',', num_args = 1..=4)]
        players: Vec<PlayerKind>,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// An error caused by the user's input: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct UsageError(String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tarneeb: {e:#}");
            if e.downcast_ref::<UsageError>().is_some()
                || e.downcast_ref::<rules_file::RulesInputError>().is_some()
            {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Rules { rules } => {
            let r = rules_file::load(&rules)?;
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
        Command::Simulate {
            rules,
            games,
            seed,
            players,
            json,
        } => {
            let r: Rules = rules_file::load(&rules)?;
            let players: [PlayerKind; 4] = match players.as_slice() {
                [one] => [*one; 4],
                [a, b, c, d] => [*a, *b, *c, *d],
                other => return Err(UsageError(format!("--players takes one kind or four (one per seat), got {}: like --players random or --players greedy,random,greedy,random", other.len())).into()),
            };
            let s = simulate::run(&r, games, seed, players);
            if json {
                println!("{}", serde_json::to_string(&s)?);
            } else {
                println!(
                    "games: {} in {:.3} s ({:.0} games/s, {:.0} decisions/s)",
                    s.games, s.seconds, s.games_per_second, s.decisions_per_second
                );
                println!(
                    "hands per game: {:.1} ({} of {} hands played out)",
                    s.hands_per_game, s.played_hands, s.hands
                );
                println!(
                    "contracts made: {:.1}% ({} of {})",
                    100.0 * s.made_rate,
                    s.contracts_made,
                    s.contracts
                );
                println!(
                    "wins: team 0 (seats 0+2) {:.1}%, team 1 (seats 1+3) {:.1}%, draws {}",
                    100.0 * s.win_rate[0],
                    100.0 * s.win_rate[1],
                    s.draws
                );
                println!(
                    "ended by the hand cap: {}, by an instant win: {}",
                    s.ended_by_cap, s.ended_instantly
                );
            }
        }
    }
    Ok(())
}
