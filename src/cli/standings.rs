//! `tarneeb standings DIR...`: the standings of tournament directories, merged like shards.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tarneeb_referee::out;
use tarneeb_referee::site::{write_site, SiteInput};
use tarneeb_referee::standings::headline;
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::row::GameRow;
use tarneeb_referee::standings::table::{from_totals, Standings};
use tarneeb_referee::standings::tally::Tally;
use tarneeb_referee::standings::verdict::SprtTracker;
use tarneeb_referee::tournament::directory::merge::MergeReport;
use tarneeb_referee::tournament::directory::results::{merged_stream_sealed, shard_neutral};
use tarneeb_referee::tournament::directory::seal;
use tarneeb_referee::tournament::directory::{RowCheck, TournamentDir};
use tarneeb_referee::tournament::schedule::bracket;
use tarneeb_referee::tournament::schedule::GameScore;

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
    /// Also print the statistician's detail under the plain block and the short table: the
    /// full table with each rating's 95% interval, timeouts, points and board Elo, the
    /// crosstable, head to head (pentanomial counts, LOS, fitted differences), the twin-order
    /// test, the leader note and a line on what each column means.
    #[arg(long)]
    detail: bool,
    /// Take the rows of results.jsonl as written, without checking each against its game
    /// record. By default the rows the runner sealed (results.seal, a keyed MAC over the
    /// file whose key the sandbox hides from bots) are taken as written and every other row's
    /// seed and result are compared with its record, so a forged or edited row is refused.
    /// Use it only on directories you produced yourself and kept out of others' reach.
    #[arg(long, conflicts_with = "check_records")]
    trust_rows: bool,
    /// Check every row against its record, sealed or not (opens every record: minutes on a
    /// directory of a million games).
    #[arg(long)]
    check_records: bool,
    /// Seal the rows read (after the check chosen: by default the unsealed rows against their
    /// records; with --trust-rows, none), so later reads take them without opening their
    /// records: for a directory whose seal no longer matches after a repair, or one made
    /// before seals existed. Directories of tournaments run without a sandbox cannot be
    /// sealed.
    #[arg(long)]
    reseal: bool,
    /// Also write the standings as a static site in this directory, for any web host or to
    /// open from disk: index.html (standings, crosstable, head to head, explained in words), a
    /// page per entrant (its games, results, forfeits), games.html and every game's replay
    /// page (each record is replayed and checked: about 40 kB and a few ms a game). Nothing
    /// is loaded from the network. The text report is printed as without it.
    #[arg(long, value_name = "SITE")]
    html: Option<PathBuf>,
}

/// The standings with what was merged: its lines above the text, or `merge` in the JSON.
fn with_merge(text: String, merge: &MergeReport, json: bool) -> String {
    if !json {
        // After the winner line, which stays first.
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        return format!("{first}\n{}{rest}", merge.text());
    }
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(mut v) => {
            v["merge"] = serde_json::json!(merge);
            v["incomplete"] = serde_json::json!(merge.incomplete);
            serde_json::to_string_pretty(&v).expect("JSON") + "\n"
        }
        Err(_) => text,
    }
}

/// The remote entrants of the directories' tournaments (`tournament.json`'s `remote`), and
/// whether any allowed duplicate deals with them: said below the table, or as `remote` and
/// `remote_duplicate` in JSON.
fn with_remote(text: String, dirs: &[std::path::PathBuf], json: bool) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut duplicate = false;
    for d in dirs {
        let Ok(dir) = TournamentDir::open(d) else {
            continue;
        };
        let config = dir.config();
        for n in config["remote"].as_array().into_iter().flatten() {
            if let Some(n) = n.as_str().filter(|n| !names.iter().any(|m| m == n)) {
                names.push(n.to_string());
            }
        }
        duplicate |= config["remote_duplicate"].as_bool().unwrap_or(false);
    }
    if names.is_empty() {
        return text;
    }
    if json {
        return match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(mut v) => {
                v["remote"] = serde_json::json!(names);
                v["remote_duplicate"] = serde_json::json!(duplicate);
                serde_json::to_string_pretty(&v).expect("JSON") + "\n"
            }
            Err(_) => text,
        };
    }
    text + &super::remote_args::remote_note(&names, duplicate)
}

/// Runs `tarneeb standings`; returns the exit code.
/// Which rows are believed: `--trust-rows`, `--check-records`, or the sealed ones.
fn row_check(args: &StandingsArgs) -> RowCheck {
    if args.trust_rows {
        RowCheck::Trusted
    } else if args.check_records {
        RowCheck::Records
    } else {
        RowCheck::Sealed
    }
}

/// `--reseal`: each directory gets its seal key, when it ran sandboxed; the exit code when not.
fn reseal_keys(dirs: &[PathBuf]) -> Result<(), u8> {
    for path in dirs {
        let mut d = match TournamentDir::open(path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("tarneeb: {e}");
                return Err(2);
            }
        };
        if !d.sandboxed() {
            eprintln!(
                "tarneeb: --reseal {}: the tournament ran without a sandbox (its bots could have read the key), so its rows cannot be sealed",
                path.display()
            );
            return Err(2);
        }
        if let Err(e) = d.ensure_key() {
            eprintln!("tarneeb: --reseal: {e}");
            return Err(1);
        }
    }
    Ok(())
}

/// A knockout's or king of the hill's bracket, replayed from the results of one directory.
/// Several directories: only the shards of one run (one command) have one schedule.
fn bracket_config(dirs: &[PathBuf]) -> Option<serde_json::Value> {
    let configs: Vec<serde_json::Value> = dirs
        .iter()
        .filter_map(|d| TournamentDir::open(d).ok().map(|d| d.config().clone()))
        .collect();
    let neutral: Vec<serde_json::Value> =
        configs.iter().map(|c| shard_neutral(c.clone()).0).collect();
    let one_command = configs.len() == dirs.len() && neutral.windows(2).all(|w| w[0] == w[1]);
    configs
        .into_iter()
        .next()
        .filter(|c| one_command && bracket::has_bracket(c))
}

/// `--html DIR`: the site written and said; the exit code when it cannot be.
fn html(site: &Path, input: &SiteInput) -> Result<(), u8> {
    match write_site(site, input) {
        Ok(w) => {
            for (game, why) in &w.missing {
                eprintln!("tarneeb: --html: game {game} has no page: {why}");
            }
            eprintln!(
                "wrote {} pages ({} games) in {}; open {}",
                w.pages,
                w.game_pages,
                site.display(),
                site.join("index.html").display()
            );
            Ok(())
        }
        Err(e) => {
            eprintln!("tarneeb: {e}");
            Err(1)
        }
    }
}

/// The standings on stdout (and the site with `--html`); the exit code.
fn report_and_site(
    args: &StandingsArgs,
    standings: &Standings,
    verdict: Option<&SprtTracker>,
    sandboxes: &[String],
    merge: &MergeReport,
    mut kept: Vec<GameRow>,
) -> u8 {
    if let Some(site) = &args.html {
        kept.sort_by_key(|r| r.game);
        let input = SiteInput {
            standings,
            rows: &kept,
            dirs: &args.dirs,
            sprt: verdict.map(|t| t.describe()),
            sandbox: report::sandbox_line(sandboxes),
            ratings_svg: league_plot(&args.dirs),
        };
        if let Err(code) = html(site, &input) {
            return code;
        }
    }
    let text = report::full_with(standings, verdict, sandboxes, args.json, args.detail);
    let text = with_remote(with_merge(text, merge, args.json), &args.dirs, args.json);
    print_report(text)
}

/// `--reseal`: each directory's seal written for exactly the rows read.
fn write_seals(dirs: &[PathBuf], seals: Vec<Option<seal::SealState>>) {
    for (d, state) in dirs.iter().zip(seals) {
        let (rows, bytes) = state.as_ref().map_or((0, 0), |s| (s.rows, s.bytes));
        // Dropped at once: the seal is written for exactly the rows read.
        drop(state.and_then(|s| seal::Sealer::resume(d, s, bytes)));
        eprintln!("sealed {rows} rows of {}", d.display());
    }
}

/// The standings of the rows counted, a bracket replayed, the headline said.
fn standings_of(
    tally: &Tally,
    bracket_config: Option<&serde_json::Value>,
    scores: &HashMap<u64, GameScore>,
    verdict: Option<&SprtTracker>,
    merge: &MergeReport,
) -> Standings {
    let mut standings = from_totals(tally.totals());
    if let Some(config) = bracket_config {
        bracket::apply_replayed(&mut standings, config, scores);
    }
    // A run short of its schedule has a provisional leader, not a winner; a run the
    // SPRT stopped is complete by the test's stopping rule (issue 40).
    let scheduled = match verdict {
        Some(t) if t.decided().is_some() => None,
        _ => merge.expected_games,
    };
    headline::apply(&mut standings, scheduled);
    standings
}

/// What the rows of the directories added up to.
#[derive(Default)]
struct RowsRead {
    tally: Tally,
    /// Each game's score, for a bracket to be replayed.
    scores: HashMap<u64, GameScore>,
    /// Every row, for the site.
    kept: Vec<GameRow>,
}

/// Streams the rows, in one pass, into running totals and the test: memory does not grow
/// with the rows (the site lists every game, so only then are the rows kept). Gives the
/// sandboxes, the test and what was merged.
fn read_rows(
    args: &StandingsArgs,
    check: RowCheck,
    bracket: bool,
    mut verdict: Option<SprtTracker>,
    read: &mut RowsRead,
) -> Result<(Vec<String>, Option<SprtTracker>, MergeReport), String> {
    let keep = args.html.is_some();
    let (sandboxes, seals, merge) = merged_stream_sealed(&args.dirs, check, args.reseal, |r| {
        if let Some(t) = verdict.as_mut() {
            t.push(&r);
        }
        if bracket {
            let score = GameScore {
                winner: r.winner,
                team_scores: r.team_scores,
            };
            read.scores.insert(r.game, score);
        }
        if keep {
            read.kept.push(r.clone());
        }
        read.tally.push(r);
    })?;
    if args.reseal {
        write_seals(&args.dirs, seals);
    }
    Ok((sandboxes, verdict, merge))
}

pub fn run(args: StandingsArgs) -> u8 {
    if let Some(site) = args.html.as_ref().filter(|p| p.exists() && !p.is_dir()) {
        eprintln!(
            "tarneeb: --html {}: this is a file; give a directory for the site (made if missing)",
            site.display()
        );
        return 2;
    }
    // The SPRT verdict of a single directory, replayed in the order its games ended.
    let verdict = match args.dirs.as_slice() {
        [one] => TournamentDir::open(one).and_then(|d| d.sprt_tracker()),
        _ => Ok(None),
    };
    let check = row_check(&args);
    if args.reseal {
        if let Err(code) = reseal_keys(&args.dirs) {
            return code;
        }
    }
    let bracket_config = bracket_config(&args.dirs);
    let mut read = RowsRead::default();
    let streamed = verdict
        .and_then(|verdict| read_rows(&args, check, bracket_config.is_some(), verdict, &mut read));
    match streamed {
        Ok((sandboxes, verdict, merge)) => {
            let standings = standings_of(
                &read.tally,
                bracket_config.as_ref(),
                &read.scores,
                verdict.as_ref(),
                &merge,
            );
            report_and_site(
                &args,
                &standings,
                verdict.as_ref(),
                &sandboxes,
                &merge,
                read.kept,
            )
        }
        Err(message) => {
            eprintln!("tarneeb: {message}");
            2
        }
    }
}

fn print_report(text: String) -> u8 {
    match out!("{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("tarneeb: cannot write the standings: {e}");
            1
        }
        _ => 0,
    }
}

/// A single league directory's ratings over time for its site (see `league::plot`).
fn league_plot(dirs: &[PathBuf]) -> Option<String> {
    let [dir] = dirs else { return None };
    if !dir.join(tarneeb_referee::league::db::DB_FILE).exists() {
        return None;
    }
    let db = tarneeb_referee::league::db::Db::open(dir, false)
        .map_err(|e| eprintln!("tarneeb: --html: no ratings over time: {e}"))
        .ok()?;
    let series = db.all_histories(400).ok()?;
    Some(tarneeb_referee::league::plot::svg(&series))
}
