//! `check-bot` as asked for ([`CheckBotSettings`]: what its flags give) made into checks that
//! can run ([`CheckBotSpec`]): the bot's command, that it can start, the rules and the sandbox
//! are checked by [`CheckBotSpec::new`] before anything is created; [`CheckBotSpec::open`]
//! makes the directory of records and logs and gives what [`super::check`] runs.

use std::path::PathBuf;
use std::sync::Arc;

use crate::bot::sandbox::SandboxOptions;
use crate::bot::{check_can_start, split_command, Sandbox};
use crate::protocol::TimeLimits;
use crate::referee::EventDelivery;
use crate::rules::{Rules, PRESETS};
use crate::rules_file;

use super::scenarios::scenarios;
use super::{CheckConfig, Scenario};

/// The checks as asked for, before any check. Field names follow the flags of `tarneeb
/// check-bot` (its `--help` says what each does).
#[derive(Clone, Debug)]
pub struct CheckBotSettings {
    /// The bot's command line, as given.
    pub command: String,
    /// One game (a preset or a rules file); `None`: every preset.
    pub rules: Option<String>,
    pub games: u64,
    /// `None`: a temporary directory, kept only when a check fails.
    pub out: Option<PathBuf>,
    pub time: TimeLimits,
    pub events: EventDelivery,
    pub max_line: usize,
    pub stderr_cap: u64,
    pub sandbox: SandboxOptions,
    /// The command line of a built-in seat, without its options (`tarneeb scripted-bot`).
    pub scripted: Vec<String>,
}

/// Checks ready to open: nothing has been created yet.
pub struct CheckBotSpec {
    pub settings: CheckBotSettings,
    /// Where the records, traces and logs go.
    pub dir: PathBuf,
    command: Vec<String>,
    presets: Vec<(String, Rules)>,
    sandbox: Sandbox,
}

impl CheckBotSpec {
    /// Checks everything `s` can get wrong, in the order the errors were always reported. The
    /// error is a usage error (exit 2), said as users see it.
    pub fn new(s: CheckBotSettings) -> Result<CheckBotSpec, String> {
        let command = split_command(&s.command).map_err(|e| e.to_string())?;
        // A program that cannot start is a usage error, said once, as for `play`.
        check_can_start(&command).map_err(|e| e.to_string())?;
        let presets: Vec<(String, Rules)> = match &s.rules {
            Some(r) => vec![(r.clone(), rules_file::load(r).map_err(|e| e.to_string())?)],
            None => PRESETS
                .iter()
                .map(|p| (p.to_string(), Rules::preset(p).expect("a preset")))
                .collect(),
        };
        if s.games == 0 && s.rules.as_deref().is_some_and(|r| !PRESETS.contains(&r)) {
            return Err("--games 0 with a rules file leaves nothing to check".into());
        }
        let dir = s.out.clone().unwrap_or_else(|| {
            std::env::temp_dir().join(format!("tarneeb-check-bot-{}", std::process::id()))
        });
        let sandbox = Sandbox::new(&s.sandbox).map_err(|e| e.to_string())?;
        Ok(CheckBotSpec {
            settings: s,
            dir,
            command,
            presets,
            sandbox,
        })
    }

    /// Makes the directory, hides it from the bot in its sandbox, and gives the checks'
    /// configuration and scenarios (see [`super::check`]). The error: the program failed.
    pub fn open(self) -> Result<(CheckConfig, Vec<Scenario>), String> {
        let s = self.settings;
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        // The bot is checked in the sandbox it will play in; its records and logs are hidden.
        let mut sandbox = self.sandbox;
        sandbox.mask(&self.dir);
        let cfg = CheckConfig {
            sandbox: Arc::new(sandbox),
            command: self.command,
            scripted: s.scripted,
            time: s.time,
            events: s.events,
            max_line: s.max_line,
            stderr_cap: s.stderr_cap,
            dir: self.dir,
        };
        Ok((cfg, scenarios(&self.presets, s.games)))
    }
}
