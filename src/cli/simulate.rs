//! `tarneeb simulate`: whole games in process with built-in players, for speed and outcomes.

use anyhow::Result;

use super::UsageError;
use tarneeb_referee::players::PlayerKind;
use tarneeb_referee::rules::Rules;
use tarneeb_referee::{outln, rules_file, simulate};

#[derive(clap::Args)]
pub struct SimulateArgs {
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
}

pub fn run(a: SimulateArgs) -> Result<()> {
    let SimulateArgs {
        rules,
        games,
        seed,
        players,
        json,
    } = a;
    let r: Rules = rules_file::load(&rules)?;
    let players: [PlayerKind; 4] = match players.as_slice() {
        [one] => [*one; 4],
        [a, b, c, d] => [*a, *b, *c, *d],
        other => return Err(UsageError(format!("--players takes one kind or four (one per seat), got {}: like --players random or --players greedy,random,greedy,random", other.len())).into()),
    };
    let s = simulate::run(&r, games, seed, players);
    if json {
        outln!("{}", serde_json::to_string(&s)?)?;
    } else {
        outln!(
            "games: {} in {:.3} s ({:.0} games/s, {:.0} decisions/s)",
            s.games,
            s.seconds,
            s.games_per_second,
            s.decisions_per_second
        )?;
        outln!(
            "hands per game: {:.1} ({} of {} hands played out)",
            s.hands_per_game,
            s.played_hands,
            s.hands
        )?;
        outln!(
            "contracts made: {:.1}% ({} of {})",
            100.0 * s.made_rate,
            s.contracts_made,
            s.contracts
        )?;
        outln!(
            "wins: team 0 (seats 0+2) {:.1}%, team 1 (seats 1+3) {:.1}%, draws {}",
            100.0 * s.win_rate[0],
            100.0 * s.win_rate[1],
            s.draws
        )?;
        outln!(
            "ended by the hand cap: {}, by an instant win: {}",
            s.ended_by_cap,
            s.ended_instantly
        )?;
    }
    Ok(())
}
