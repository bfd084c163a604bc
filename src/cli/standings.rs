//! `tarneeb standings DIR...`: the standings of tournament directories, merged like shards.

use std::path::PathBuf;

use tarneeb_referee::out;
use tarneeb_referee::tournament::results::{merged_rows, sandbox_line};
use tarneeb_referee::tournament::standings::{render_table, standings};

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    /// Tournament directories (their results.jsonl files are merged; parts of one sharded
    /// tournament count each game once).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
}

/// Runs `tarneeb standings`; returns the exit code.
pub fn run(args: StandingsArgs) -> u8 {
    match merged_rows(&args.dirs) {
        Ok((rows, sandboxes)) => match out!(
            "{}{}",
            render_table(&standings(&rows)),
            sandbox_line(&sandboxes)
        ) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                eprintln!("tarneeb: cannot write the standings: {e}");
                1
            }
            _ => 0,
        },
        Err(message) => {
            eprintln!("tarneeb: {message}");
            2
        }
    }
}
