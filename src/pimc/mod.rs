//! `tarneeb bot pimc`: a reference bot of strength, speaking protocol.md on stdin/stdout like
//! any other bot. Card play, trump choice and bids all come from double-dummy solving of deals
//! sampled to agree with what is public (see [`decide`]); each move gets a time budget, and
//! the seed makes a move depend only on the request and the budget's sample count.

pub mod decide;
pub mod sample;
pub mod wire;

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::rules::{DecisionKind, Move, Rules};
use decide::{Effort, Table};
use wire::Incoming;

/// How the bot thinks.
#[derive(Clone, Copy, Debug)]
pub struct PimcConfig {
    /// Time budget per move in milliseconds (kept under 40% of the referee's limit too).
    pub ms: u64,
    pub seed: u64,
    /// Stop after this many sampled deals even with time left (for reproducible moves).
    pub max_samples: Option<usize>,
}

/// Answers the referee's requests until `game_end` or the end of input. Lines it cannot read
/// are reported on stderr and skipped (the referee judges silence, not the bot).
pub fn run(cfg: PimcConfig, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut rules: Option<Rules> = None;
    for line in input.lines() {
        let line = line?;
        let msg: Incoming = match serde_json::from_str(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("pimc: cannot read a line ({e}): {line}");
                continue;
            }
        };
        match msg.kind.as_str() {
            "hello" => {
                rules = msg.rules;
                let version = env!("CARGO_PKG_VERSION");
                writeln!(
                    output,
                    r#"{{"type":"hello","name":"pimc","version":"{version}"}}"#
                )?;
                output.flush()?;
            }
            "request" => {
                let id = msg.id.unwrap_or(0);
                let started = Instant::now();
                // A solver fault must cost one move, not the game: fall back to a legal move.
                let first = msg.legal.first().cloned().unwrap_or_default();
                let (text, effort) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    answer(&cfg, rules.as_ref(), &msg)
                }))
                .unwrap_or((first, Effort::default()));
                let reply = serde_json::json!({"type": "move", "id": id, "move": text});
                writeln!(output, "{reply}")?;
                output.flush()?;
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let rate = effort.samples as f64 / (ms / 1e3).max(1e-6);
                eprintln!(
                    "pimc: request {id} {}: {text} after {} samples in {ms:.0} ms ({rate:.0} samples/s)",
                    msg.decision.as_deref().unwrap_or("?"),
                    effort.samples
                );
            }
            "game_end" => break,
            _ => {}
        }
    }
    Ok(())
}

fn kind_of(decision: &str) -> Option<DecisionKind> {
    [
        DecisionKind::ThrowIn,
        DecisionKind::Call,
        DecisionKind::Trump,
        DecisionKind::Play,
    ]
    .into_iter()
    .find(|k| k.as_str() == decision)
}

/// The reply's move, written exactly as the request's legal list has it.
fn answer(cfg: &PimcConfig, rules: Option<&Rules>, msg: &Incoming) -> (String, Effort) {
    let first = msg.legal.first().cloned().unwrap_or_default();
    let (Some(kind), Some(view), Some(rules)) = (
        msg.decision.as_deref().and_then(kind_of),
        msg.view.as_ref(),
        rules,
    ) else {
        return (first, Effort::default());
    };
    let legal: Vec<Move> = msg
        .legal
        .iter()
        .filter_map(|t| Move::parse(kind, t).ok())
        .collect();
    if legal.len() != msg.legal.len() || legal.is_empty() {
        return (first, Effort::default());
    }
    let limit = msg
        .time
        .as_ref()
        .and_then(|t| t.limit_ms)
        .map_or(u64::MAX, |l| l * 2 / 5);
    let table = Table {
        rules,
        view,
        deadline: Instant::now() + Duration::from_millis(cfg.ms.min(limit)),
        max_samples: cfg.max_samples.unwrap_or(usize::MAX),
    };
    let id = msg.id.unwrap_or(0);
    let mut rng = Pcg64::seed_from_u64(cfg.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (mv, effort) = match kind {
        DecisionKind::ThrowIn => (Move::Keep, Effort::default()),
        DecisionKind::Trump => table.trump_choice(&legal, &mut rng),
        DecisionKind::Call if rules.individual.is_some() => table.individual_bid(&legal, &mut rng),
        DecisionKind::Call => table.contract_call(&legal, &mut rng),
        DecisionKind::Play => {
            let cards: Vec<_> = legal
                .iter()
                .filter_map(|m| match m {
                    Move::Play(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let (c, e) = table.play(&cards, &mut rng);
            (Move::Play(c), e)
        }
    };
    let text = legal
        .iter()
        .position(|&m| m == mv)
        .map_or(first, |i| msg.legal[i].clone());
    (text, effort)
}
