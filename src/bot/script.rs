//! A bot run through an interpreter whose script is missing (`python3 nosuch.py`): the
//! interpreter starts, says "can't open file" and exits, which read like a sandbox denial in
//! every game (issue 41). Found before the game, it is a bot that cannot be started.

use std::path::{Path, PathBuf};

use super::BotError;

/// The interpreter exists but the script it is given does not: the sandbox is not at fault.
#[derive(Debug, thiserror::Error)]
#[error("cannot start bot '{command}': its script '{script}' does not exist (no such file: {}); check the script's path (a relative one is taken from the directory tarneeb runs in)", path.display())]
pub struct MissingScript {
    pub command: String,
    pub script: String,
    pub path: PathBuf,
}

/// Whether the script `command` runs through a known interpreter exists, from `cwd`.
pub(super) fn check_script(command: &[String], cwd: &Path) -> Result<(), BotError> {
    // A script missing here is missing in the sandbox too.
    if let Some(script) = script_argument(command) {
        let path = cwd.join(script);
        if std::fs::symlink_metadata(&path).is_err() {
            return Err(BotError::from(MissingScript {
                command: command.join(" "),
                script: script.to_string(),
                path,
            }));
        }
    }
    Ok(())
}

/// The script a command runs through a known interpreter (`python3 -u bot.py` -> `bot.py`):
/// the first argument that is not an option and looks like a file (holds a `/` or a `.`).
/// None when the program is not a known interpreter, or when the code is given inline or by
/// module (`-c`, `-m`, `-e`...): then there is no file to look for.
pub fn script_argument(command: &[String]) -> Option<&str> {
    let program = command.first()?;
    let name = Path::new(program).file_name()?.to_str()?;
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    const INTERPRETERS: &[&str] = &[
        "python", "pypy", "perl", "ruby", "node", "nodejs", "php", "lua", "luajit", "Rscript",
        "bash", "sh", "dash", "zsh", "ksh", "julia", "tclsh",
    ];
    if !INTERPRETERS.contains(&base) {
        return None;
    }
    const INLINE: &[&str] = &["-c", "-m", "-e", "-E", "-p", "-r", "-", "--eval", "--print"];
    for arg in &command[1..] {
        if INLINE.contains(&arg.as_str())
            || (arg.len() > 2 && (arg.starts_with("-c") || arg.starts_with("-m")))
        {
            return None;
        }
        if arg.starts_with('-') {
            continue;
        }
        if arg.contains('/') || arg.contains('.') {
            return Some(arg);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::script_argument;

    fn arg(cmd: &str) -> Option<String> {
        let v: Vec<String> = cmd.split(' ').map(String::from).collect();
        script_argument(&v).map(String::from)
    }

    #[test]
    fn the_script_of_an_interpreter_and_nothing_else() {
        assert_eq!(
            arg("python3 -u bot.py --level 3").as_deref(),
            Some("bot.py")
        );
        assert_eq!(arg("/usr/bin/python3.11 x/bot").as_deref(), Some("x/bot"));
        assert_eq!(arg("node bots/b.js").as_deref(), Some("bots/b.js"));
        assert_eq!(arg("python3 -W ignore bot.py").as_deref(), Some("bot.py"));
        assert_eq!(arg("python3 -m mybot"), None);
        assert_eq!(arg("python3 -c pass"), None);
        assert_eq!(arg("java -cp /tmp/rb RandomBot"), None);
        assert_eq!(arg("./my_bot.py"), None);
    }
}
