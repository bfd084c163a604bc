//! tarneeb-referee: a headless referee for the Tarneeb family of card games.
//!
//! Layers, data flowing one way, each using only those below it (`tests/quick/layout.rs` checks it):
//! - on top of the drivers, [`league`] (a competition that never ends, on the tournament
//!   runner, its state in SQLite);
//! - the drivers: [`referee`] (one game of four external bots), [`tournament`] (many games:
//!   scheduling, running, the tournament directory), [`site`] (the standings as a static
//!   site with every game's replay page), [`simulate`] (in-process games of the built-in [`players`]) and
//!   [`replay`] (a verified game shown as text or a page);
//! - below them: [`protocol`] (the wire messages), [`record`] (writing, reading and verifying
//!   game records), [`bot`] (bot processes: spawn, pipes, timeouts, stop), [`rules_file`]
//!   (presets and rules files), [`signals`] and [`standings`] (ratings, SPRT, board scoring and
//!   the standings report: pure computation over result rows, no I/O);
//! - at the bottom, [`rules`]: the pure game rules, no I/O.
//!
//! The command line (`src/cli/`, one file per command) sits on top in the binary and is not
//! part of this library's API.

/// `println!` that returns the write's `io::Result` instead of panicking: `tarneeb ... | head`
/// closes stdout early, and that must end the program quietly, not with a panic. Callers pass
/// the error up (main treats a broken pipe as a normal end) or ignore it where the work must go
/// on (a game in progress still has bots to stop).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` with the same contract as [`outln!`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        write!(stdout, $($arg)*).and_then(|()| stdout.flush())
    }};
}

/// "1 hand", "0 hands", "12 hands": a count with its noun in the number it takes (issue 41:
/// a game forfeited in its first hand said "after 1 hands").
pub fn hands(n: impl Into<u64>) -> String {
    match n.into() {
        1 => "1 hand".to_string(),
        n => format!("{n} hands"),
    }
}

/// True when `e` (or what caused it) is a write to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// True when `e` (or what caused it) is a write to a full disk or past a quota (ENOSPC,
/// EDQUOT). Some errors carry the I/O error only as text (a results row's error is a
/// message), so the text's "(os error N)" counts too.
pub fn is_disk_full(e: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind::{QuotaExceeded, StorageFull};
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| matches!(io.kind(), StorageFull | QuotaExceeded))
        {
            return true;
        }
        cause = c.source();
    }
    let text = e.to_string();
    text.contains("(os error 28)") || text.contains("(os error 122)")
}

/// True when `e` (or what caused it) is a write to a read-only file system (EROFS); as with
/// [`is_disk_full`], the text's "(os error 30)" counts too.
pub fn is_read_only(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ReadOnlyFilesystem)
        {
            return true;
        }
        cause = c.source();
    }
    e.to_string().contains("(os error 30)")
}

pub mod analysis;
pub mod bot;
pub mod conformance;
pub mod deal_key;
#[doc(hidden)]
pub mod fuzz_checks;
pub mod league;
pub mod pimc;
pub mod players;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod remote;
pub mod replay;
pub mod rules;
pub mod rules_file;
pub mod serve;
pub mod signals;
pub mod simulate;
pub mod site;
pub mod standings;
pub mod tournament;
