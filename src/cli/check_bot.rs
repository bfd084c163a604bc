//! `tarneeb check-bot CMD`: a bot against built-in seats in every preset and every rare
//! situation, with a report a person can act on; and the hidden `scripted-bot` those seats run.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::args::BotLimits;
use super::UsageError;
use tarneeb_referee::conformance::hints::group_key;
use tarneeb_referee::conformance::spec::{CheckBotSettings, CheckBotSpec};
use tarneeb_referee::conformance::{check, scripted, Check, Report};
use tarneeb_referee::protocol::{excerpt, printable};
use tarneeb_referee::{outln, signals};

#[derive(clap::Args)]
pub struct CheckBotArgs {
    /// The bot's command line, split like a shell would (quote it: 'python3 my_bot.py').
    #[arg(value_name = "CMD")]
    command: String,
    /// Check only this game: a preset name (classic, egyptian, 400, 41) or a JSON rules file.
    /// Default: every preset.
    #[arg(long)]
    rules: Option<String>,
    /// Plain games per preset (the bot's seat turns from game to game, each stops after 12
    /// hands), before the games forced into rare situations.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Keep the records, traces and stderr logs of the games here (default: a temporary
    /// directory, kept only when a check fails).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Stop at the first failed check (the others are not run).
    #[arg(long)]
    fail_fast: bool,
    #[command(flatten)]
    limits: BotLimits,
    #[command(flatten)]
    sandbox: super::args::SandboxArgs,
}

/// The built-in seat of check-bot (not for users): plays its preferred moves when legal.
#[derive(clap::Args)]
pub struct ScriptedBotArgs {
    /// Moves to play whenever legal, most preferred first, comma-separated.
    #[arg(long, value_delimiter = ',')]
    prefer: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run_scripted(a: ScriptedBotArgs) -> Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    scripted::serve(&a.prefer, a.seed, stdin, stdout)?;
    Ok(())
}

/// Runs the checks; exit code 0 when every one passed, 1 otherwise.
/// The failures grouped, the reply times, and the summary line; the exit code. A temporary
/// directory of a bot that passed goes.
fn summary(
    a: &CheckBotArgs,
    report: &Report,
    scenarios: usize,
    limit: u64,
    dir: &Path,
) -> Result<u8> {
    let failures: Vec<&Check> = report.checks.iter().filter(|c| !c.passed).collect();
    if !failures.is_empty() {
        outln!("failures:")?;
        for group in grouped(&failures) {
            show_group(&group)?;
        }
    }
    match report.percentiles() {
        Some((p50, p99, max)) => outln!(
            "reply times: {} replies, p50 {p50} ms, p99 {p99} ms, max {max} ms (limit {limit} ms{})",
            report.reply_ms.len(),
            if max * 2 > limit { "; max is over half the limit: risky" } else { "" }
        )?,
        None => outln!("reply times: no replies")?,
    }
    let failed = failures.len();
    let total = report.checks.len();
    if report.stopped {
        outln!(
            "stopped after {total} of {} checks ({})",
            scenarios + 2,
            if a.fail_fast && failed > 0 {
                "--fail-fast: at the first failure"
            } else {
                "interrupted"
            }
        )?;
    } else if report.probes_skipped {
        outln!("the exit checks were not run: no game reached its end with the bot")?;
    }
    if failed == 0 {
        outln!("summary: all {total} checks passed")?;
        if a.out.is_none() {
            let _ = std::fs::remove_dir_all(dir);
        } else {
            outln!("records, traces and logs: {}", dir.display())?;
        }
        Ok(0)
    } else {
        outln!(
            "summary: {failed} of {total} checks failed; records, traces and logs: {}",
            dir.display()
        )?;
        Ok(1)
    }
}

impl CheckBotArgs {
    /// The checks these flags ask for, as the library's settings hold them (no check yet);
    /// `scripted` is this program's hidden `scripted-bot`.
    fn settings(&self, scripted: Vec<String>) -> CheckBotSettings {
        CheckBotSettings {
            command: self.command.clone(),
            rules: self.rules.clone(),
            games: self.games,
            out: self.out.clone(),
            time: self.limits.time(),
            events: self.limits.events,
            max_line: self.limits.max_line,
            stderr_cap: self.limits.stderr_cap,
            sandbox: self.sandbox.options(),
            scripted,
        }
    }
}

pub fn run(a: CheckBotArgs) -> Result<u8> {
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find the tarneeb program itself: {e}"))?;
    let scripted = vec![exe.display().to_string(), "scripted-bot".into()];
    let spec = CheckBotSpec::new(a.settings(scripted)).map_err(UsageError)?;
    let dir = spec.dir.clone();
    let (cfg, list) = spec.open().map_err(anyhow::Error::msg)?;
    let stop = signals::install();
    let _ = tarneeb_referee::bot::become_subreaper();
    outln!("check-bot: {}", a.command)?;
    // One line per check as it finishes, so a slow bot is seen to be checked.
    let mut write_error = None;
    let fail_fast = a.fail_fast;
    let report = check(&cfg, &list, stop, &mut |c| {
        if let Err(e) = stream_line(c) {
            write_error = Some(e);
            return false;
        }
        c.passed || !fail_fast
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    summary(&a, &report, list.len(), cfg.time.move_ms, &dir)
}

/// The line for a check as it finishes: verdict, name and time; for a pass its notes, for a
/// failure its cause (the whole story comes once per kind of failure, at the end).
fn stream_line(c: &Check) -> Result<()> {
    let verdict = if c.passed { "pass" } else { "FAIL" };
    outln!("{verdict}  {}  ({:.1} s)", c.name, c.elapsed.as_secs_f64())?;
    let notes: Vec<&str> = match (&c.cause, c.passed) {
        (Some(cause), false) => vec![cause.as_str()],
        _ => c.details.iter().map(String::as_str).collect(),
    };
    for d in notes {
        // Details quote the bot: its control characters are shown, not obeyed.
        for line in d.lines() {
            outln!("        {}", printable(line))?;
        }
    }
    Ok(())
}

/// The kind of a failure: its fault kind (the cause up to its first colon) and the hint, so
/// failures that differ only in the line the bot wrote or a request id are one kind.
fn kind_of(c: &Check) -> String {
    let cause = c.cause.as_deref().unwrap_or("");
    let kind = cause.split_once(':').map_or(cause, |(k, _)| k);
    format!("{}\n{}", group_key(kind), c.hint.as_deref().unwrap_or(""))
}

/// Failures of the same kind, in order of first appearance.
fn grouped<'a>(failures: &[&'a Check]) -> Vec<Vec<&'a Check>> {
    let mut groups: Vec<(String, Vec<&Check>)> = Vec::new();
    for c in failures {
        let key = kind_of(c);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(c),
            None => groups.push((key, vec![c])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// One kind of failure: how many checks, which, one example in full and the hint.
fn show_group(group: &[&Check]) -> Result<()> {
    let first = group[0];
    let cause = first.cause.as_deref().unwrap_or("failed");
    // The cause when all say it alike (numbers aside), else the fault kind they share.
    let alike = group
        .iter()
        .all(|c| group_key(c.cause.as_deref().unwrap_or("")) == group_key(cause));
    let said = match alike {
        true => excerpt(cause),
        false => cause.split_once(':').map_or(cause, |(k, _)| k).to_string(),
    };
    match group.len() {
        1 => outln!("  1 check: {said}")?,
        n => {
            outln!("  {n} checks: {said}")?;
            let names: Vec<&str> = group.iter().map(|c| c.name.as_str()).collect();
            outln!("    in: {}", printable(&names.join("; ")))?;
        }
    }
    outln!("    example: {}", first.name)?;
    // The hint below says the fix, from more of what was seen than the fault's own.
    let fix_in_hint = |d: &&String| first.hint.is_none() || !d.starts_with("fix: ");
    for d in first.details.iter().filter(fix_in_hint) {
        for line in d.lines() {
            outln!("        {}", printable(line))?;
        }
    }
    if let Some(h) = &first.hint {
        outln!("    hint: {h}")?;
    }
    Ok(())
}
