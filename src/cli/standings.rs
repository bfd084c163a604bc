//! `tarneeb standings DIR...`: the standings of tournament directories, merged like shards.

use std::path::PathBuf;

use tarneeb_referee::out;
use tarneeb_referee::tournament::report;
use tarneeb_referee::tournament::results::merged_stream;
use tarneeb_referee::tournament::standings::from_totals;
use tarneeb_referee::tournament::tally::Tally;
use tarneeb_referee::tournament::verdict;

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    /// Tournament directories (their results.jsonl files are merged; parts of one sharded
    /// tournament count each game once).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Print everything (table, crosstable, head to head, leader note, SPRT verdict) as one
    /// JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `tarneeb standings`; returns the exit code.
pub fn run(args: StandingsArgs) -> u8 {
    // The SPRT verdict of a single directory, replayed in the order its games ended.
    let verdict = match args.dirs.as_slice() {
        [one] => verdict::from_dir(one),
        _ => Ok(None),
    };
    // Rows are streamed into running totals: memory does not grow with the rows.
    let mut tally = Tally::new();
    match merged_stream(&args.dirs, |r| tally.push(r)).and_then(|s| Ok((s, verdict?))) {
        Ok((sandboxes, verdict)) => match out!(
            "{}",
            report::full(
                &from_totals(tally.totals()),
                verdict.as_ref(),
                &sandboxes,
                args.json
            )
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
