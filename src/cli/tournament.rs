//! `tarneeb tournament`: arguments, the tournament directory, output and exit codes (0 done,
//! 1 the program failed, 2 bad usage or input, 130 interrupted).

use std::path::PathBuf;
use std::sync::Arc;

use super::args::BotLimits;
use tarneeb_referee::bot::{become_subreaper, split_command};
use tarneeb_referee::referee::RefereeError;
use tarneeb_referee::standings::report;
use tarneeb_referee::standings::table::from_totals;
use tarneeb_referee::tournament::directory::results::STANDINGS_FILE;
use tarneeb_referee::tournament::run::progress::ProgressMode;
use tarneeb_referee::tournament::run::runner::{Entrant, RunError, RunSummary};
use tarneeb_referee::tournament::run::spec::{
    parse_shard, Ran, RunFailure, TournamentSettings, TournamentSpec,
};
use tarneeb_referee::tournament::schedule::bracket;
use tarneeb_referee::tournament::schedule::{Format, Partners};
use tarneeb_referee::{out, signals};

#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// An entrant: a unique name ([A-Za-z0-9_.-]) and its command line, like
    /// `--bot rnd='python3 sample-bots/python/random_bot.py'`. Give two or more.
    /// `--bot alice=remote` declares a remote entrant, played from its owner's machine
    /// through `tarneeb connect` (see --listen); `--bot me=web` an entrant played by people
    /// in a browser, at addresses printed when it starts (see --web-listen; needs
    /// --no-duplicate).
    #[arg(long = "bot", value_name = "NAME=CMD", required = true)]
    bots: Vec<String>,
    /// A TOML file describing the tournament (entrants as [[bot]] tables with name and
    /// command, and any flag by its name: format = "gauntlet", games = 4, ...), or a
    /// tournament.json written by an earlier tournament. Flags given with it override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Directory for the records (DIR/games/), results.jsonl, tournament.json and
    /// standings.txt. Running the same command on it again resumes the tournament; one run at
    /// a time writes it (a second run while one runs is refused).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// round-robin (every pair of partnerships meets), gauntlet (the first entrant against
    /// each other one), knockout (single elimination), king-of-the-hill (the winner stays,
    /// the next challenger replaces the loser) or swiss (--rounds R rounds, each pairing
    /// partnerships of similar score that have not met).
    #[arg(long, default_value = "round-robin", value_parser = Format::parse)]
    format: Format,
    /// Rounds of a Swiss tournament (--format swiss).
    #[arg(long, value_name = "R", default_value_t = 0)]
    rounds: u64,
    /// own: each entrant partners a copy of itself; rotate: every entrant partners every other
    /// one (round-robin and gauntlet, four entrants or more).
    #[arg(long, default_value = "own", value_parser = Partners::parse)]
    partners: Partners,
    /// Deal sets per match. Each is played twice with the sides swapped (a duplicate pair), so
    /// a match plays twice this many games (`--games 12`: 24); with --no-duplicate, once.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Play each deal set once (sides alternating) instead of twice with the sides swapped.
    #[arg(long)]
    no_duplicate: bool,
    /// Progress on stderr: `auto` (a line rewritten in place on a terminal, else a plain
    /// line every 30 s), `every=30s`, `every=10` (games) or `off`. A plain line: games done
    /// of the total, games per minute, time left, leader.
    #[arg(long, default_value = "auto", value_parser = ProgressMode::parse)]
    progress: ProgressMode,
    /// Tournament seed: every deal set's seed derives from it and the deal set's index; with
    /// the deal key it fixes the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The deal key (`tarneeb keygen FILE`): with the seed, it fixes every deal, so shards
    /// and reruns that share it share the deals. Give the same file to every shard (a sharded
    /// run needs one) and keep it where no bot can read it (this run hides it from its bots;
    /// other programs on the machine are another matter). Default: a fresh secret kept in
    /// DIR/.deal-key (mode 0600, hidden from the bots like the rest of DIR), read on resume.
    #[arg(long, value_name = "FILE", conflicts_with = "public_deals")]
    deal_key: Option<PathBuf>,
    /// Deals from the seed alone: anyone who knows or guesses the seed (the default is 1)
    /// knows every hand. For research runs with trusted bots only; said in tournament.json.
    #[arg(long)]
    public_deals: bool,
    /// Set by --config: the file it named, hidden from the bots (it may hold the seed or name
    /// an earlier tournament's directory).
    #[arg(long, hide = true, value_name = "FILE")]
    config_file: Option<PathBuf>,
    /// A preset name (classic, egyptian, 400, 41) or a path to a JSON rules file.
    #[arg(long, default_value = "classic")]
    rules: String,
    /// Play the deals of earlier games: a record, or a directory of records (deal set i uses
    /// record i modulo their number, its deals and first dealer).
    #[arg(long, value_name = "DIR|RECORD")]
    deals_from: Option<PathBuf>,
    /// Games at once. Default: the number of CPUs.
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Do not pin each game (referee and bots) to its own CPU.
    #[arg(long)]
    no_pin: bool,
    /// Start every bot afresh for every game. By default a bot that declares `multi_game` in
    /// its hello stays up between the games of a worker and gets `new_game` (protocol.md);
    /// use this for comparisons, or for a bot that misbehaves when kept.
    #[arg(long)]
    fresh_bots: bool,
    /// Write each game record zstd-compressed, as games/NNNNNN.jsonl.zst (about a tenth of the
    /// size); `tarneeb replay`, `--deals-from` and resume read them as they read plain ones.
    #[arg(long)]
    compress: bool,
    /// Sequential probability ratio test on the first entrant (gauntlet of two entrants):
    /// elo0=..,elo1=..,alpha=..,beta=.. ; no new game starts once it decides. Add
    /// score=boards to test who wins the boards of each duplicate pair instead of the games
    /// (scale=points, the default, or scale=imps). model=logistic (the default: logistic Elo,
    /// fishtest's normal approximation) or model=normalized (the exact normalized-Elo test of
    /// fastchess and OpenBench; elo0 and elo1 are then normalized Elo).
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Play only part K of N of the schedule (the deal sets numbered K-1 modulo N, both games
    /// of each duplicate pair), to spread one round-robin, gauntlet or Swiss over N machines;
    /// merge with `tarneeb standings DIR...`.
    /// A Swiss shard needs --round, and --peers from round 2 on.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// With --shard K/N (N even; round-robin or gauntlet, duplicate): the two games of every
    /// duplicate pair in different shards, shards 1 to N/2 playing every pair's first game and
    /// N/2+1 to N its second. Run the two halves on machines that share no kernel, and no
    /// machine plays both games of a pair (docs/competitions.md, "The duplicate twin").
    #[arg(long, requires = "shard")]
    twins_apart: bool,
    /// Swiss: play the rounds up to R only (the same command with a larger R goes on). With
    /// --shard, all shards play round R before any plays round R+1.
    #[arg(long, value_name = "R")]
    round: Option<u64>,
    /// Swiss with --shard: the other shards' --out directories, whose results of the earlier
    /// rounds the pairing needs (read, never written, hidden from the bots like --out; this
    /// shard's own directory is skipped).
    #[arg(long, value_name = "DIR", num_args = 1..)]
    peers: Vec<PathBuf>,
    #[command(flatten)]
    limits: BotLimits,
    #[command(flatten)]
    remote: super::remote_args::RemoteArgs,
    #[command(flatten)]
    sandbox: super::args::SandboxArgs,
    /// Write every line sent to and received from each seat, with its time, to
    /// DIR/GAME.seatN.trace (one file per seat per game; GAME as in DIR/games/).
    #[arg(long, value_name = "DIR")]
    trace: Option<PathBuf>,
    /// After each game, analyse its card play double-dummy (DDS): the tricks each seat's cards
    /// gave away against best play, kept in the game's results row. The standings then show
    /// per entrant the tricks lost per hand per seat with a 95% interval (Student's t over
    /// per-game values), a measure of card play that the luck of the cards does not move.
    /// Costs about a third of a second of CPU per game of ten hands.
    #[arg(long)]
    analyze: bool,
    /// Serve a live page of the run while it plays (as `tarneeb serve DIR` does): progress,
    /// standings, the SPRT, the games in progress as the table sees them, finished games'
    /// replays. ADDR:PORT, e.g. 127.0.0.1:8080 (port 0: any free one; the address is printed).
    /// The server stops when the run ends; `tarneeb serve DIR` shows the page again.
    #[arg(long, value_name = "ADDR:PORT")]
    serve: Option<std::net::SocketAddr>,
}

/// An error of the command, with its exit code.
struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

/// Runs `tarneeb tournament`; returns the exit code.
pub fn run(args: TournamentArgs) -> u8 {
    match run_tournament(args) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("tarneeb: {}", f.message);
            f.code
        }
    }
}

impl TournamentArgs {
    /// The tournament these flags ask for (the league builds its own the same way).
    pub fn settings(&self) -> TournamentSettings {
        // The listener is tried only for a tournament that needs one.
        let remote = self.bots.iter().any(|b| {
            b.split_once('=')
                .and_then(|(_, cmd)| split_command(cmd).ok())
                .is_some_and(|cmd| cmd == [Entrant::REMOTE])
        });
        let refused = remote.then(|| self.remote.listener_refused()).flatten();
        TournamentSettings {
            bots: self.bots.clone(),
            out: self.out.clone(),
            format: self.format,
            rounds: self.rounds,
            partners: self.partners,
            games: self.games,
            duplicate: !self.no_duplicate,
            progress: self.progress,
            seed: self.seed,
            deal_key: self.deal_key.clone(),
            public_deals: self.public_deals,
            config_file: self.config_file.clone(),
            rules: self.rules.clone(),
            deals_from: self.deals_from.clone(),
            jobs: self.jobs,
            pin: !self.no_pin,
            fresh_bots: self.fresh_bots,
            compress: self.compress,
            sprt: self.sprt.clone(),
            shard: self.shard,
            twins_apart: self.twins_apart,
            round: self.round,
            peers: self.peers.clone(),
            limits: self.limits.seat_limits(),
            sandbox: self.sandbox.options(),
            remote: self.remote.policy(refused),
            trace: self.trace.clone(),
            analyze: self.analyze,
            watched: self.serve.is_some(),
        }
    }
}

fn run_tournament(a: TournamentArgs) -> Result<u8, Failure> {
    // Every check first: nothing is printed or created for a tournament that cannot run.
    let spec = TournamentSpec::new(a.settings()).map_err(usage)?;
    let total = spec.total;
    let opened = spec.open().map_err(|e| usage(read_only_hint(e, &a.out)))?;
    if let Some(why) = &opened.lock.unlocked {
        eprintln!("tarneeb: warning: {why}");
    }
    if opened.resumed {
        eprintln!(
            "resuming {}: {} finished games kept",
            a.out.display(),
            opened.prior_rows()
        );
    }
    // `--games 12` plays 24 games under duplicate deals: said before the first game.
    eprintln!(
        "{total} games to play: {} deal {} per match, each {}",
        a.games,
        if a.games == 1 { "set" } else { "sets" },
        if a.no_duplicate {
            "played once (--no-duplicate)"
        } else {
            "played twice with the sides swapped (duplicate pairs)"
        }
    );
    let stop = signals::install();
    let _ = become_subreaper();
    let page = match a.serve {
        Some(addr) => Some(super::serve::start(&a.out, addr, Some(total)).map_err(usage)?),
        None => None,
    };
    let (entrants, max_line) = (&opened.cfg.entrants, opened.cfg.limits.max_line);
    let remote = a
        .remote
        .start(entrants, &a.out, max_line)
        .and_then(|setup| {
            super::web_entrants::start(entrants, a.remote.web_listen(), max_line, setup)
        })
        .map_err(usage)?;
    if let Some(r) = &remote {
        r.lobby.set_absent_timeout(a.remote.absent_timeout());
    }
    let ran = opened.run(remote.as_ref().map(|r| Arc::clone(&r.lobby)), stop);
    if let Some(remote) = remote {
        remote.finish();
    }
    if let Some(page) = page {
        page.finish();
    }
    finish(&a, ran)
}

/// The end of a run said: why it stopped, or the standings (printed and written).
fn finish(a: &TournamentArgs, ran: Ran) -> Result<u8, Failure> {
    let summary = match &ran.result {
        Ok(s) => s,
        Err(RunFailure::Waiting(message)) => return Err(usage(message.clone())),
        Err(RunFailure::Run(e)) => {
            let code = match &e {
                RunError::Referee {
                    source: RefereeError::Spawn { .. } | RefereeError::SandboxSetup { .. },
                    ..
                } => 2,
                _ => 1,
            };
            let message = format!("{e}{}", disk_full_hint(e, &a.out));
            return Err(Failure { code, message });
        }
    };
    if summary.interrupted {
        eprintln!(
            "tarneeb: interrupted: {} finished games are kept in {}; run the same command to resume",
            summary.tally.rows(),
            a.out.display()
        );
        return Ok(130);
    }
    let p = summary.processes;
    eprintln!(
        "bot processes: {} started, {} seats of games played by a process kept up from an earlier one",
        p.started, p.kept
    );
    let remote = remote_note(
        &ran.cfg.entrants,
        a.remote.duplicate_allowed() && !a.no_duplicate,
    );
    write_standings(&ran, summary, remote)
}

/// The closing standings, on stdout and in DIR/standings.txt and DIR/standings.json.
fn write_standings(ran: &Ran, summary: &RunSummary, remote: Option<String>) -> Result<u8, Failure> {
    let out = &ran.settings.out;
    let mut table_standings = from_totals(summary.tally.totals());
    let names: Vec<String> = ran.cfg.entrants.iter().map(|e| e.name.clone()).collect();
    bracket::apply(
        &mut table_standings,
        &names,
        &ran.plan,
        &summary.bracket,
        summary.champion,
    );
    // As `tarneeb standings DIR` says it (the same schedule size: the whole run's, also for a
    // shard), so the two reports agree; a run the SPRT stopped is complete by its rule.
    let scheduled = match &summary.sprt {
        Some(t) if t.decided().is_some() => None,
        _ => tarneeb_referee::tournament::directory::merge::expected_games(ran.dir.config()),
    };
    tarneeb_referee::standings::headline::apply(&mut table_standings, scheduled);
    let sandboxes = [ran.cfg.sandbox.label()];
    let mut table =
        report::render_with(&table_standings, false) + &report::sandbox_line(&sandboxes);
    if let Some(note) = remote {
        table.push_str(&note);
    }
    let json_path = out.join("standings.json");
    let json = report::full(&table_standings, summary.sprt.as_ref(), &sandboxes, true);
    std::fs::write(&json_path, json).map_err(|e| cannot_write(&json_path, &e, out))?;
    // A closed stdout (`| head`) is no reason to stop: the standings file is written below.
    let _ = out!("{table}");
    let mut extra = String::new();
    if let Some(u) = summary.champion {
        let name = &ran.cfg.entrants[u[0]].name;
        extra.push_str(&format!("champion: {name}\n"));
    }
    if let Some(t) = &summary.sprt {
        extra.push_str(&t.describe());
        extra.push('\n');
    }
    let _ = out!("{extra}");
    let path = out.join(STANDINGS_FILE);
    std::fs::write(&path, format!("{table}{extra}")).map_err(|e| cannot_write(&path, &e, out))?;
    Ok(0)
}

/// A directory that cannot be opened or made because its file system is read-only: what to
/// do about it (issue 43).
fn read_only_hint(message: String, out: &std::path::Path) -> String {
    if message.contains("(os error 30)") {
        format!(
            "{message}\n--out {} is on a read-only file system: give --out a directory on a writable one, or make this one writable (remount it read-write), and run again",
            out.display()
        )
    } else {
        message
    }
}

/// The end of a run that stopped on a write: on a full disk or a read-only file system, what
/// to do about it (issue 43).
fn disk_full_hint(e: &(dyn std::error::Error + 'static), out: &std::path::Path) -> String {
    if tarneeb_referee::is_disk_full(e) {
        format!(
            "\nthe disk is full: finished games are kept in {}; free space and run the same command again to resume",
            out.display()
        )
    } else if tarneeb_referee::is_read_only(e) {
        format!(
            "\nthe file system of {} is read-only: finished games are kept there; make it writable (remount it read-write) and run the same command again to resume, or copy the directory to a writable disk and resume there",
            out.display()
        )
    } else {
        format!("; finished games are kept in {}", out.display())
    }
}

fn cannot_write(path: &std::path::Path, e: &std::io::Error, out: &std::path::Path) -> Failure {
    Failure {
        code: 1,
        message: format!(
            "cannot write {}: {e}{}",
            path.display(),
            disk_full_hint(e, out)
        ),
    }
}

/// The standings' line on remote entrants, when there are any.
fn remote_note(entrants: &[Entrant], duplicate: bool) -> Option<String> {
    let names: Vec<String> = entrants
        .iter()
        .filter(|e| e.is_remote())
        .map(|e| e.name.clone())
        .collect();
    (!names.is_empty()).then(|| super::remote_args::remote_note(&names, duplicate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tarneeb_referee::tournament::run::spec::parse_entrant;

    #[test]
    fn entrants_and_shards_parse() {
        let e = parse_entrant("rnd=python3 bot.py --x 1").unwrap();
        assert_eq!(e.name, "rnd");
        assert_eq!(e.command, vec!["python3", "bot.py", "--x", "1"]);
        assert!(parse_entrant("no command").is_err());
        assert!(parse_entrant("bad name=x").is_err());
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
    }
}
