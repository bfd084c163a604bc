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
    /// A double-dummy reference bot (how it fares against the sample bots: docs/analysis.md,
    /// "Strength"): for each move it deals the unseen cards many times consistently with what
    /// is public (cards played, suits a player showed out of, what the bids said of each
    /// hand) and solves each deal double-dummy (DDS). It plays the card with the best
    /// expected score (each deal's tricks counted as the points they bring: the contract made
    /// or set, each 400/41 bid made or failed), names the trump with the most tricks, and
    /// makes the call with the best expected score under the game's scoring (made or failed,
    /// doubled, kaboot, 400's points table) over the solved deals and a few hundred more
    /// judged by a hand estimate, against passing. Use it as `--bot "tarneeb bot pimc --ms 200"`.
    Pimc {
        /// Thinking time per move in milliseconds, on average (card plays: more at the start
        /// of a hand and at a lead, less later; calls and trump choices: ten times it, up to
        /// the larger of 1 s and half of it): no new batch of deals starts after it. The reply
        /// comes by this time, or by 1 s if that is later (calls and trump choices: 4 s; one
        /// batch of whole deals can take that long on a loaded machine), answered by rules of
        /// thumb (calls: by estimated deals) if solving has not finished; both are kept under
        /// 40% of the referee's limit. Each reply's samples per second go to stderr.
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
        /// Play the card with the most double-dummy tricks over the samples instead of the
        /// best expected score (to measure what playing for the score is worth).
        #[arg(long)]
        play_by_tricks: bool,
        /// A remedy for strategy fusion (each sampled deal's solve lets my own later cards see
        /// the hidden hands, so lines that need a guess look sure): `endgame` plays the last 3
        /// tricks by an alpha-mu search over 32 sampled deals in which my card now and my next
        /// card must be the same in every deal I cannot tell apart (cost: a few milliseconds a
        /// card in those tricks, no more solving); `off`, plain pimc (docs/analysis.md, "pimc").
        #[arg(long, default_value = "off", value_name = "off|endgame")]
        fusion: pimc::fusion::Fusion,
        /// Draw every card decision's deals afresh instead of carrying the previous decision's
        /// deals that the play since still allows, re-weighted by it (to measure what carrying
        /// is worth).
        #[arg(long)]
        no_carry: bool,
        /// In the 3 hands before a game's hand cap (`max-hands`), count the lead as a chance of
        /// being ahead at the cap (the lead's change taken as normal, a hand's spread measured
        /// per game) besides the points; the cap's last hand plays to end the game ahead either
        /// way. Off by default: its own gain is not yet told from noise (docs/analysis.md,
        /// "Strength").
        #[arg(long)]
        cap_equity: bool,
    },
}

pub fn run(a: BotArgs) -> Result<()> {
    match a.kind {
        BotKind::Pimc {
            ms,
            seed,
            samples,
            ignore_bids,
            play_by_tricks,
            fusion,
            no_carry,
            cap_equity,
        } => {
            let cfg = PimcConfig {
                ms,
                seed,
                max_samples: samples,
                ignore_bids,
                play_by_tricks,
                fusion,
                carry: !no_carry,
                cap_equity,
            };
            pimc::run(cfg, std::io::stdin().lock(), std::io::stdout().lock())?;
        }
    }
    Ok(())
}
