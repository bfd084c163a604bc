//! The `tarneeb` command: parse arguments, run, map errors to an exit code
//! (0 done, 1 the program itself failed, 2 bad usage or input, 130 interrupted).

mod cli;

use std::process::ExitCode;

/// mimalloc rather than the system allocator: reading results rows allocates their strings on
/// one thread and frees them on another, where glibc's malloc spent a third of `standings`.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // This binary can end its own bots after a kill -9 (bot::sandbox::guardian).
    if let Ok(exe) = std::env::current_exe() {
        tarneeb_referee::bot::sandbox::guardian::enable(exe);
    }
    // `tournament --config FILE` stands for the flags in FILE, ahead of the others.
    let args = match tarneeb_referee::tournament::directory::config::expand_args(
        std::env::args_os().collect(),
    ) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tarneeb: {e}");
            return ExitCode::from(2);
        }
    };
    let cli = match parse_cli(&args) {
        Ok(c) => c,
        Err(e) => {
            // A bad value from a --config file is blamed on the file and its key, not on a
            // flag the user never typed.
            if let Some(blamed) = config_value_error(&args, &e) {
                eprintln!("tarneeb: {blamed}");
                return ExitCode::from(2);
            }
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Whoever read our output stopped reading (`| head`): not an error.
        Err(e) if tarneeb_referee::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tarneeb: {}", cli::message(&e));
            cli::exit_code(&e)
        }
    }
}

/// `tournament.toml: games = "two": invalid digit found in string` for a value clap refused
/// that came from the config file, or `None`.
/// The command line parsed with negative numbers read as values (`--seed -1` is then a bad
/// seed, named with its flag, not "unexpected argument '-1'"; issue 41), in every subcommand.
fn parse_cli(args: &[std::ffi::OsString]) -> Result<cli::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    fn negatives(c: clap::Command) -> clap::Command {
        c.allow_negative_numbers(true).mut_subcommands(negatives)
    }
    let cmd = negatives(cli::Cli::command());
    let matches = cmd
        .clone()
        .try_get_matches_from(args)
        .map_err(|e| without_hidden_suggestions(&cmd, e))?;
    cli::Cli::from_arg_matches(&matches)
}

/// clap's "similar subcommands" tip names hidden commands too (`tarneeb plya` suggested
/// `replay-seat`, a seat for `replay --ask` only; issue 41): they are taken out of it.
fn without_hidden_suggestions(cmd: &clap::Command, mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    fn hidden(c: &clap::Command, names: &mut Vec<String>) {
        for s in c.get_subcommands() {
            if s.is_hide_set() {
                names.push(s.get_name().to_string());
            }
            hidden(s, names);
        }
    }
    let mut names = Vec::new();
    hidden(cmd, &mut names);
    let kept = match e.get(ContextKind::SuggestedSubcommand) {
        Some(ContextValue::Strings(all)) => Some(
            all.iter()
                .filter(|s| !names.contains(s))
                .cloned()
                .collect::<Vec<_>>(),
        ),
        Some(ContextValue::String(one)) => Some(
            std::iter::once(one.clone())
                .filter(|s| !names.contains(s))
                .collect(),
        ),
        _ => None,
    };
    match kept {
        Some(k) if k.is_empty() => {
            e.remove(ContextKind::SuggestedSubcommand);
        }
        Some(k) => {
            e.insert(ContextKind::SuggestedSubcommand, ContextValue::Strings(k));
        }
        None => {}
    }
    e
}

fn config_value_error(args: &[std::ffi::OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let flag = match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(s) => s.split(' ').next()?.to_string(),
        _ => return None,
    };
    let value = match e.get(ContextKind::InvalidValue)? {
        ContextValue::String(s) => s.clone(),
        _ => return None,
    };
    let place = tarneeb_referee::tournament::directory::config::blame(args, &flag, &value)?;
    let why = std::error::Error::source(e)
        .map_or_else(|| "not a valid value".to_string(), |s| s.to_string());
    Some(format!(
        "{place}: {why} (the key takes what the flag {flag} takes: `tarneeb tournament --help`)"
    ))
}
