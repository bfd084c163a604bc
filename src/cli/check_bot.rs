//! `tarneeb check-bot CMD`: a bot against built-in seats in every preset and every rare
//! situation, with a report a person can act on; and the hidden `scripted-bot` those seats run.

use std::path::PathBuf;

use anyhow::Result;

use super::args::BotLimits;
use super::UsageError;
use tarneeb_referee::bot::split_command;
use tarneeb_referee::conformance::{check, scenarios::scenarios, scripted, CheckConfig};
use tarneeb_referee::protocol::printable;
use tarneeb_referee::rules::{Rules, PRESETS};
use tarneeb_referee::{outln, rules_file, signals};

#[derive(clap::Args)]
pub struct CheckBotArgs {
    /// The bot's command line, split like a shell would (quote it: 'python3 my_bot.py').
    #[arg(value_name = "CMD")]
    command: String,
    /// Check only this game: a preset name (classic, egyptian, 400, 41) or a JSON rules file.
    /// Default: every preset.
    #[arg(long)]
    rules: Option<String>,
    /// Plain games per preset (the bot's seat turns from game to game), before the games forced
    /// into rare situations.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Keep the records, traces and stderr logs of the games here (default: a temporary
    /// directory, kept only when a check fails).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
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
pub fn run(a: CheckBotArgs) -> Result<u8> {
    let command = split_command(&a.command).map_err(|e| UsageError(e.to_string()))?;
    let presets: Vec<(String, Rules)> = match &a.rules {
        Some(r) => vec![(r.clone(), rules_file::load(r)?)],
        None => PRESETS
            .iter()
            .map(|p| (p.to_string(), Rules::preset(p).expect("a preset")))
            .collect(),
    };
    if a.games == 0 && a.rules.as_deref().is_some_and(|r| !PRESETS.contains(&r)) {
        return Err(
            UsageError("--games 0 with a rules file leaves nothing to check".into()).into(),
        );
    }
    let temporary = a.out.is_none();
    let dir = a.out.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("tarneeb-check-bot-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find the tarneeb program itself: {e}"))?;
    // The bot is checked in the sandbox it will play in; its records and logs are hidden.
    let mut sandbox = a.sandbox.sandbox().map_err(|e| UsageError(e.to_string()))?;
    sandbox.mask(&dir);
    let cfg = CheckConfig {
        sandbox: std::sync::Arc::new(sandbox),
        command,
        scripted: vec![exe.display().to_string(), "scripted-bot".into()],
        time: a.limits.time(),
        events: a.limits.events,
        max_line: a.limits.max_line,
        stderr_cap: a.limits.stderr_cap,
        dir: dir.clone(),
    };
    let stop = signals::install();
    let _ = tarneeb_referee::bot::become_subreaper();
    let list = scenarios(&presets, a.games);
    outln!("check-bot: {}", a.command)?;
    let report = check(&cfg, &list, stop);
    for c in &report.checks {
        outln!("{}  {}", if c.passed { "pass" } else { "FAIL" }, c.name)?;
        for d in &c.details {
            // Details quote the bot: its control characters are shown, not obeyed.
            for line in d.lines() {
                outln!("        {}", printable(line))?;
            }
        }
    }
    let limit = cfg.time.move_ms;
    match report.percentiles() {
        Some((p50, p99, max)) => outln!(
            "reply times: {} replies, p50 {p50} ms, p99 {p99} ms, max {max} ms (limit {limit} ms{})",
            report.reply_ms.len(),
            if max * 2 > limit { "; max is over half the limit: risky" } else { "" }
        )?,
        None => outln!("reply times: no replies")?,
    }
    let failed = report.checks.iter().filter(|c| !c.passed).count();
    let total = report.checks.len();
    if failed == 0 {
        outln!("summary: all {total} checks passed")?;
        if temporary {
            let _ = std::fs::remove_dir_all(&dir);
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
