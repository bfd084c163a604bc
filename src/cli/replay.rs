//! `tarneeb replay RECORD`: verifies a game record against the rules in its header and prints a
//! readable transcript (or, with `--json`, the verified game for other tools; with `--html`, a
//! self-contained page that steps through the game).

use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::UsageError;
use tarneeb_referee::analysis::{analyse_game_with, report, GameAnalysis};
use tarneeb_referee::outln;
use tarneeb_referee::record::verified::VerifiedHand;
use tarneeb_referee::record::{replay_file, LineError, ReadError, VerifiedGame};
use tarneeb_referee::replay::html;
use tarneeb_referee::replay::transcript::{hand_text, transcript};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The game record (JSON lines; zstd-compressed records, as `--compress` writes them, too) to check and show.
    record: PathBuf,
    /// Show only hand N (1, 2, ...).
    #[arg(long, value_name = "N")]
    hand: Option<u32>,
    /// Print the verified game (or with --hand, the hand) as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write the verified game as one self-contained HTML page that steps through it move by
    /// move (buttons, arrow keys; the URL fragment #step=N opens it after N steps).
    #[arg(long, value_name = "OUT.html", conflicts_with_all = ["hand", "json"])]
    html: Option<PathBuf>,
    /// Add the double-dummy analysis of the play (DDS): per hand the declaring side's par
    /// (tricks with best play from the first lead) and, for classic and Egyptian, the
    /// declarer's tricks with each trump; per card the tricks it gave away and the best cards;
    /// per seat the tricks lost and the share of best cards. With --html the page shows them.
    #[arg(long)]
    analyze: bool,
    /// Give a bot the lines seat SEAT was sent in this game, up to its request --at N, and show
    /// its reply beside the recorded move: one decision reproduced, under a debugger if need be
    /// (the bot's stderr is the terminal; no time limit). Needs --at and --bot.
    #[arg(long, value_name = "SEAT", requires_all = ["at", "bot"], conflicts_with_all = ["hand", "json", "html", "analyze"])]
    ask: Option<u8>,
    /// With --ask: the request's id, as the trace and fault messages show it (ids count the
    /// requests of every seat).
    #[arg(long, value_name = "N", requires = "ask")]
    at: Option<u64>,
    /// With --ask: the bot's command line.
    #[arg(long, value_name = "CMD", requires = "ask")]
    bot: Option<String>,
}

pub fn run(a: ReplayArgs) -> Result<()> {
    if let (Some(seat), Some(at), Some(bot)) = (a.ask, a.at, &a.bot) {
        return super::replay_ask::ask(&a.record, seat, at, bot)
            .map_err(|e| UsageError(format!("{e:#}")).into());
    }
    verify_and_show(&a.record, a.hand, a.json, a.html.as_deref(), a.analyze).map_err(|e| {
        if e.is_usage() {
            UsageError(e.to_string()).into()
        } else {
            e.into()
        }
    })
}

/// Why `tarneeb replay` failed.
#[derive(Debug, thiserror::Error)]
enum ReplayCmdError {
    /// Bad usage or an unreadable path: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// The record does not replay: exit code 1, the message names the line.
    #[error("{path}: {error}")]
    Invalid { path: String, error: LineError },
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    #[error("{path}: double-dummy analysis failed: {error}")]
    Analysis {
        path: String,
        error: tarneeb_referee::analysis::AnalysisError,
    },
}

impl ReplayCmdError {
    fn is_usage(&self) -> bool {
        matches!(self, ReplayCmdError::Usage(_))
    }
}

/// Verifies the record at `path` and prints it: one hand with `hand`, JSON with `json`; with
/// `html`, writes the replay page there instead (and prints one line saying so). With
/// `analyze`, adds the double-dummy analysis of the play.
fn verify_and_show(
    path: &Path,
    hand: Option<u32>,
    json: bool,
    html: Option<&Path>,
    analyze: bool,
) -> Result<(), ReplayCmdError> {
    let game = verified(path)?;
    let one = match hand {
        Some(n) => Some(hand_of(&game, n)?),
        None => None,
    };
    // With --hand (and no page to write) only that hand is shown, so only it is solved: the
    // other hands of a 200-hand game cost minutes of DDS for output nobody asked for.
    let one_hand_game;
    let analysed = match (one, html) {
        (Some(h), None) => {
            one_hand_game = VerifiedGame {
                header: game.header.clone(),
                faults: game.faults.clone(),
                hands: vec![h.clone()],
                finished: game.finished,
                result: game.result.clone(),
                aborted: game.aborted.clone(),
            };
            &one_hand_game
        }
        _ => &game,
    };
    let analysis = match analyze {
        true => Some(analysis_of(analysed, path)?),
        false => None,
    };
    if let Some(out) = html {
        return write_page(&game, analysis.as_ref(), out);
    }
    let text = match (json, one) {
        (true, Some(h)) => serde_json::to_string(h).expect("a verified hand serializes") + "\n",
        (true, None) => serde_json::to_string(&game).expect("a verified game serializes") + "\n",
        (false, Some(h)) => hand_text(&game, h),
        (false, None) => transcript(&game),
    };
    let text = match &analysis {
        None => text,
        Some(a) if json => analysed_json(&text, a, hand),
        Some(a) => text + "\n" + &report::text(a, hand),
    };
    print_all(&text)
}

/// The record at `path`, replayed against the rules in its header.
fn verified(path: &Path) -> Result<VerifiedGame, ReplayCmdError> {
    replay_file(path).map_err(|e| match e {
        ReadError::Io { .. } => ReplayCmdError::Usage(e.to_string()),
        ReadError::Line(error) => ReplayCmdError::Invalid {
            path: path.display().to_string(),
            error,
        },
    })
}

/// Hand `n` of the game (`--hand N`), or why there is none.
fn hand_of(game: &VerifiedGame, n: u32) -> Result<&VerifiedHand, ReplayCmdError> {
    game.hands.iter().find(|h| h.number == n).ok_or_else(|| {
        ReplayCmdError::Usage(match game.hands.len() {
            0 => format!("--hand {n}: the record holds no hand"),
            len => format!("--hand {n}: the record holds hands 1 to {len}"),
        })
    })
}

/// The double-dummy analysis of `game` (the record at `path`). Progress on a terminal only (a
/// 200-hand game took 88 s with no word, issue 41 point 6): hands played out of all, then the
/// last stage, on one line that is cleared at the end; nothing when stderr is a file or a pipe.
fn analysis_of(game: &VerifiedGame, path: &Path) -> Result<GameAnalysis, ReplayCmdError> {
    let terminal = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if terminal {
            let then = if done == total {
                "; finding the best cards and the strain table..."
            } else {
                ""
            };
            eprint!("\ranalysing: {done} of {total} hands played out{then}\x1b[K");
        }
    };
    let a = analyse_game_with(game, &progress);
    if terminal {
        eprint!("\r\x1b[K");
    }
    a.map_err(|error| ReplayCmdError::Analysis {
        path: path.display().to_string(),
        error,
    })
}

/// `--html OUT`: the replay page written, and one line saying so.
fn write_page(
    game: &VerifiedGame,
    analysis: Option<&GameAnalysis>,
    out: &Path,
) -> Result<(), ReplayCmdError> {
    std::fs::write(out, html::render_with(game, analysis)).map_err(|e| {
        ReplayCmdError::Usage(format!("--html {}: cannot write it: {e}", out.display()))
    })?;
    let moves: usize = game.hands.iter().map(|h| h.moves.len()).sum();
    outln!(
        "wrote {}: {}, {moves} moves, verified",
        out.display(),
        tarneeb_referee::hands(game.hands.len() as u64)
    )
    .or_else(ignore_broken_pipe)
    .map_err(ReplayCmdError::Output)
}

/// `text` on stdout; a reader that stopped early (`| head`) is not a failure.
fn print_all(text: &str) -> Result<(), ReplayCmdError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(ReplayCmdError::Output(e)),
        Ok(()) => Ok(()),
    }
}

/// The verified game's (or hand's) JSON object with an `analysis` member: the game's analysis,
/// or with `--hand` that hand's.
fn analysed_json(verified: &str, a: &GameAnalysis, hand: Option<u32>) -> String {
    let mut v: serde_json::Value = serde_json::from_str(verified).expect("we just wrote it");
    let analysis = match hand {
        Some(n) => serde_json::to_value(a.hands.iter().find(|h| h.number == n)),
        None => serde_json::to_value(a),
    };
    v["analysis"] = analysis.expect("an analysis serializes");
    v.to_string() + "\n"
}

/// A closed stdout (`| head`) ends the output, not the command.
fn ignore_broken_pipe(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}
