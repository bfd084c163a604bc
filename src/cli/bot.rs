//! `tarneeb bot KIND`: bots shipped with the referee, speaking protocol.md on stdin/stdout, so
//! they can sit at any seat of `play`, `tournament` and `check-bot`.

use anyhow::Result;
use tarneeb_referee::pimc::{self, PimcConfig};

#[derive(clap::Args)]
pub struct BotArgs {
    #[command(subcommand)]
    kind: BotKind,
}

#[derive(clap::Subcommand)]
enum BotKind {
    /// A double-dummy reference bot (its card play beats the sample bots', its bidding not yet:
    /// README "Strength"): for each move it deals the unseen cards many times consistently
    /// with what is public (cards played, suits a player showed out of, what the bids said of
    /// each hand), solves each deal
    /// double-dummy (DDS) and plays the card (names the trump, makes the bid) with the best
    /// total. Use it as `--bot "tarneeb bot pimc --ms 200"`.
    Pimc {
        /// Thinking time per move in milliseconds: no new batch of deals starts after it. The
        /// reply comes by this time, or by 1 s if that is later (one batch of whole deals can
        /// take that long), answered by rules of thumb if solving has not finished; both are
        /// kept under 40% of the referee's limit. Each reply's samples per second go to stderr.
        #[arg(long, default_value_t = 1000)]
        ms: u64,
        /// Seed of the deal sampling.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// At most this many sampled deals per move (with --seed: the same moves every run).
        #[arg(long, value_name = "N")]
        samples: Option<usize>,
        /// Deal the unseen cards as if the auction said nothing about the hands (to measure
        /// what reading the bids is worth).
        #[arg(long)]
        ignore_bids: bool,
    },
}

pub fn run(a: BotArgs) -> Result<()> {
    match a.kind {
        BotKind::Pimc {
            ms,
            seed,
            samples,
            ignore_bids,
        } => {
            let cfg = PimcConfig {
                ms,
                seed,
                max_samples: samples,
                ignore_bids,
            };
            pimc::run(cfg, std::io::stdin().lock(), std::io::stdout().lock())?;
        }
    }
    Ok(())
}
