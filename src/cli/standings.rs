//! `tarneeb standings DIR...`: the standings of tournament directories, merged like shards.

use std::path::{Path, PathBuf};

use tarneeb_referee::out;
use tarneeb_referee::site::{write_site, SiteInput};
use tarneeb_referee::standings::report;
use tarneeb_referee::tournament::directory::merge::MergeReport;
use tarneeb_referee::tournament::directory::standings::{
    StandingsSettings, StandingsSpec, Tallied,
};
use tarneeb_referee::tournament::directory::{RowCheck, TournamentDir};

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
fn report_and_site(args: &StandingsArgs, t: &Tallied) -> u8 {
    let verdict = t.verdict.as_ref();
    if let Some(site) = &args.html {
        let input = SiteInput {
            standings: &t.standings,
            rows: &t.kept,
            dirs: &args.dirs,
            sprt: verdict.map(|v| v.describe()),
            sandbox: report::sandbox_line(&t.sandboxes),
            ratings_svg: league_plot(&args.dirs),
        };
        if let Err(code) = html(site, &input) {
            return code;
        }
    }
    let text = report::full_with(&t.standings, verdict, &t.sandboxes, args.json, args.detail);
    let text = with_remote(with_merge(text, &t.merge, args.json), &args.dirs, args.json);
    print_report(text)
}

/// Runs `tarneeb standings`; returns the exit code.
pub fn run(args: StandingsArgs) -> u8 {
    let settings = StandingsSettings {
        dirs: args.dirs.clone(),
        check: row_check(&args),
        reseal: args.reseal,
        html: args.html.clone(),
    };
    match StandingsSpec::new(settings).and_then(StandingsSpec::run) {
        Ok(tallied) => report_and_site(&args, &tallied),
        Err(e) => {
            eprintln!("tarneeb: {}", e.message);
            e.code
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
