//! `tarneeb standings DIR...`: the standings of tournament directories, merged like shards.

use std::path::PathBuf;

use tarneeb_referee::out;
use tarneeb_referee::tournament::report;
use tarneeb_referee::tournament::results::{merged_stream, RowCheck};
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
    /// Take the rows of results.jsonl as written, without checking each against its game
    /// record. By default every row's seed and result are compared with its record, so a
    /// forged or edited row is refused; that opens every record, which is most of the time
    /// on a directory of a million games. Use it only on directories you produced yourself
    /// and kept out of others' reach.
    #[arg(long)]
    trust_rows: bool,
}

/// Runs `tarneeb standings`; returns the exit code.
pub fn run(args: StandingsArgs) -> u8 {
    // The SPRT verdict of a single directory, replayed in the order its games ended.
    let verdict = match args.dirs.as_slice() {
        [one] => verdict::tracker_of(one),
        _ => Ok(None),
    };
    let check = if args.trust_rows {
        RowCheck::Trusted
    } else {
        RowCheck::Records
    };
    // Rows are streamed, in one pass, into running totals and the test: memory does not
    // grow with the rows.
    let mut tally = Tally::new();
    let streamed = verdict.and_then(|mut verdict| {
        let sandboxes = merged_stream(&args.dirs, check, |r| {
            if let Some(t) = verdict.as_mut() {
                t.push(&r);
            }
            tally.push(r);
        })?;
        Ok((sandboxes, verdict))
    });
    match streamed {
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
