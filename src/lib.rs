//! tarneeb-referee: a headless referee for the Tarneeb family of card games.
//!
//! Layers, data flowing one way: [`rules`] (pure game rules) under the drivers: [`simulate`]
//! with built-in [`players`], and [`referee`], which runs external bots through [`bot`]
//! over [`protocol`] and writes a [`record`].

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

/// True when `e` (or what caused it) is a write to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

pub mod bot;
pub mod cli_args;
pub mod players;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod replay_cmd;
pub mod replay_html;
pub mod rules;
pub mod rules_file;
pub mod signals;
pub mod simulate;
pub mod tournament;
pub mod tournament_cmd;
