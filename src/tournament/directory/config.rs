//! `tarneeb tournament --config FILE`: a whole tournament described in a TOML file (or the
//! `tournament.json` a tournament wrote, fed back).
//!
//! The file is turned into the command-line flags it stands for, placed *before* the flags
//! given on the command line; the tournament command lets a later flag override an earlier
//! one, so flags given with `--config` win. `--bot` is the exception, being repeatable: bots
//! given on the command line replace the file's bots instead of joining them.
//!
//! Keys: every flag of `tarneeb tournament` by its name with `_` or `-` (`format`, `games`,
//! `seed`, `rules`, `move_timeout = "2s"`, `no_duplicate = true`, `jobs`, `sprt`, `shard`,
//! `twins_apart = true`,
//! `out`, ...), one `[[bot]]` table per entrant with `name` and `command` (a string split like
//! a shell would, or an array of arguments), and the normalized keys `tournament.json` holds:
//! `entrants` (the same as `[[bot]]`), `duplicate`, `rules` as a table, and `time` with
//! `handshake_ms`, `move_ms`, `bank_ms`, `increment_ms`. A key that is none of these is an
//! error naming it.

use std::ffi::OsString;
use std::path::Path;

use serde_json::Value;

use crate::tournament::directory::results::SANDBOX_SETTINGS;

/// Flags taking a value, as config keys (with `_`).
const VALUE_FLAGS: &[&str] = &[
    "out",
    "format",
    "partners",
    "games",
    "seed",
    "rules",
    "deals_from",
    "jobs",
    "sprt",
    "shard",
    "rounds",
    "round",
    "handshake_timeout",
    "move_timeout",
    "time_bank",
    "increment",
    "on_fault",
    "max_line",
    "stderr_cap",
    "events",
    "sandbox_view",
    "deal_key",
];

/// Flags that may be given several times: a list of values in a config.
const LIST_FLAGS: &[&str] = &["sandbox_ro", "sandbox_env", "peers"];

/// Flags without a value: `key = true` gives the flag, `false` nothing.
const SWITCHES: &[&str] = &[
    "no_pin",
    "analyze",
    "public_deals",
    "freeze_off_turn",
    "twins_apart",
];

/// Replaces `--config FILE` (or `--config=FILE`) after the `tournament` subcommand by the
/// flags the file stands for, ahead of the other flags. Arguments without `--config` come
/// back unchanged.
pub fn expand_args(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let Some(sub) = args.iter().position(|a| a == "tournament") else {
        return Ok(args);
    };
    let mut rest: Vec<OsString> = Vec::new();
    let mut file: Option<OsString> = None;
    let mut it = args[sub + 1..].iter();
    while let Some(a) = it.next() {
        let text = a.to_string_lossy();
        if text == "--config" {
            let f = it
                .next()
                .ok_or("--config needs a file: --config tournament.toml")?;
            if file.replace(f.clone()).is_some() {
                return Err("--config given twice".into());
            }
        } else if let Some(f) = text.strip_prefix("--config=") {
            if file.replace(f.into()).is_some() {
                return Err("--config given twice".into());
            }
        } else {
            rest.push(a.clone());
        }
    }
    let Some(file) = file else {
        return Ok(args);
    };
    let path = Path::new(&file);
    let value = read(path)?;
    let bots_given = rest
        .iter()
        .any(|a| a == "--bot" || a.to_string_lossy().starts_with("--bot="));
    let mut flags =
        to_flags(&value, !bots_given).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out: Vec<OsString> = args[..=sub].to_vec();
    out.extend(flags.drain(..).map(OsString::from));
    // The file itself is hidden from the bots: it may hold the seed, or be an earlier
    // tournament's tournament.json beside its records and keys.
    out.push("--config-file".into());
    out.push(file);
    out.extend(rest);
    Ok(out)
}

/// For a value clap refused (`--games` given `two`): when that flag and value came from the
/// config file (expanded ahead of `--config-file FILE`) and not from the command line, the file
/// and key to blame, `tournament.toml: games = "two"`.
pub fn blame(args: &[OsString], flag: &str, value: &str) -> Option<String> {
    let at = args.iter().position(|a| a == "--config-file")?;
    let file = args.get(at + 1)?.to_string_lossy().into_owned();
    let token = format!("{flag}={value}");
    let from_file = args[..at].iter().any(|a| a.to_string_lossy() == token);
    let on_line = args[at + 2..].iter().any(|a| {
        let a = a.to_string_lossy();
        a == token || a == flag
    });
    let key = flag.trim_start_matches("--").replace('-', "_");
    (from_file && !on_line).then(|| format!("{file}: {key} = {value:?}"))
}

/// Reads a config: JSON when the file name ends in `.json`, TOML otherwise.
pub fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "--config {}: {}",
            path.display(),
            crate::protocol::io_text(&e)
        )
    })?;
    let json = path.extension().is_some_and(|e| e == "json");
    parse(&text, json, &path.display().to_string())
}

/// A config's text as JSON (`json`) or TOML; `origin` names it in messages.
pub fn parse(text: &str, json: bool, origin: &str) -> Result<Value, String> {
    if json {
        serde_json::from_str(text).map_err(|e| format!("--config {origin}: not JSON: {e}"))
    } else {
        let t: toml::Table =
            toml::from_str(text).map_err(|e| format!("--config {origin}: not TOML: {e}"))?;
        serde_json::to_value(t).map_err(|e| format!("--config {origin}: {e}"))
    }
}

fn scalar(key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("{key} must be a string or a number, not {v}")),
    }
}

fn entrant(v: &Value) -> Result<String, String> {
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("a bot needs a name: {v}"))?;
    let command = match v.get("command") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let words: Vec<&str> = parts
                .iter()
                .map(|p| {
                    p.as_str()
                        .ok_or_else(|| format!("bot {name}: command parts must be strings"))
                })
                .collect::<Result<_, _>>()?;
            shlex::try_join(words).map_err(|e| format!("bot {name}: {e}"))?
        }
        _ => return Err(format!("bot {name} needs a command (a string or an array)")),
    };
    for key in v.as_object().into_iter().flat_map(|o| o.keys()) {
        if key != "name" && key != "command" {
            return Err(format!(
                "bot {name}: unknown key {key:?} (a bot has name and command)"
            ));
        }
    }
    Ok(format!("{name}={command}"))
}

/// One setting given by two keys of a config (`duplicate` and `no_duplicate`, `move_timeout`
/// and `[time] move_ms`, `entrants` and `[[bot]]`) must say the same thing: which one wins is
/// not something a reader of the file can see.
#[derive(Default)]
struct Claims(Vec<(&'static str, String, Value)>);

impl Claims {
    fn claim(&mut self, setting: &'static str, key: &str, value: Value) -> Result<(), String> {
        if let Some((_, other, said)) = self
            .0
            .iter()
            .find(|(s, k, _)| *s == setting && k.as_str() != key)
        {
            if *said != value {
                return Err(format!(
                    "keys {other:?} and {key:?} both set {setting}, to {said} and {value}: keep one"
                ));
            }
        }
        self.0.push((setting, key.to_string(), value));
        Ok(())
    }
}

/// The setting a plain key stands for, when another key can name it too.
fn setting_of(key: &str) -> Option<&'static str> {
    Some(match key {
        "handshake_timeout" => "the handshake timeout",
        "move_timeout" => "the move timeout",
        "time_bank" => "the time bank",
        "increment" => "the increment",
        _ => return None,
    })
}

/// A flag and its value as one argument (`--games=-1`), so a value that starts with `-` is
/// read as the value it is and not as another flag.
fn with_value(flag: &str, value: String) -> String {
    format!("--{}={value}", flag.replace('_', "-"))
}

/// The flags a config stands for, in a fixed order; the bots only when `bots`.
pub fn to_flags(v: &Value, bots: bool) -> Result<Vec<String>, String> {
    let obj = v.as_object().ok_or("a config is a table of keys")?;
    let mut flags = Vec::new();
    let mut claims = Claims::default();
    for (key, value) in obj {
        let k = key.replace('-', "_");
        if value.is_null() {
            continue;
        }
        match k.as_str() {
            "bot" | "entrants" => {
                if obj.contains_key("bot") && obj.contains_key("entrants") {
                    return Err(
                        "keys \"bot\" and \"entrants\" both list the entrants: keep one".into(),
                    );
                }
                if bots {
                    bot_flags(key, value, &mut flags)?;
                }
            }
            "duplicate" | "no_duplicate" => {
                duplicate_flag(key, &k, value, &mut claims, &mut flags)?
            }
            "rules" if value.is_object() => {
                flags.push("--rules".into());
                flags.push(value.to_string());
            }
            "time" => time_flags(value, &mut claims, &mut flags)?,
            "sandbox" => sandbox_flags(value, &mut flags)?,
            // tournament.json's description of the limits, for people: the limits themselves
            // are under their own keys.
            "limits" if value.is_string() => {}
            // What a shard owns (`deal set`): follows from --shard, for resume to check.
            "shard_unit" if value.is_string() => {}
            // tournament.json's public id of the directory's deal key: the key itself is
            // given with deal_key (a file) or --deal-key, or is the directory's own.
            "deal_key_id" if value.is_string() => {}
            k if LIST_FLAGS.contains(&k) => {
                let list = value
                    .as_array()
                    .ok_or_else(|| format!("{key} must be a list, like {key} = [\"...\"]"))?;
                for v in list {
                    flags.push(with_value(k, scalar(key, v)?));
                }
            }
            k if SWITCHES.contains(&k) => match value.as_bool() {
                Some(true) => flags.push(format!("--{}", k.replace('_', "-"))),
                Some(false) => {}
                None => return Err(format!("{key} must be true or false")),
            },
            k if VALUE_FLAGS.contains(&k) || SANDBOX_SETTINGS.contains(&k) => {
                let text = scalar(key, value)?;
                if let Some(setting) = setting_of(k) {
                    claims.claim(setting, key, Value::String(text.clone()))?;
                }
                flags.push(with_value(k, text));
            }
            _ => return Err(unknown_key(key)),
        }
    }
    Ok(flags)
}

/// `[[bot]]` tables or tournament.json's `entrants`, one `--bot NAME=COMMAND` each.
fn bot_flags(key: &str, value: &Value, flags: &mut Vec<String>) -> Result<(), String> {
    let list = value
        .as_array()
        .ok_or_else(|| format!("{key} must be a list of tables ([[bot]])"))?;
    for b in list {
        flags.push("--bot".into());
        flags.push(entrant(b)?);
    }
    Ok(())
}

/// `duplicate` (tournament.json's) and `no_duplicate` (the flag's) say one setting with
/// opposite senses: both are claimed as whether deals are duplicated, so a file that gives
/// both must give them agreeing.
fn duplicate_flag(
    key: &str,
    k: &str,
    value: &Value,
    claims: &mut Claims,
    flags: &mut Vec<String>,
) -> Result<(), String> {
    let Some(said) = value.as_bool() else {
        return Err(match k {
            "duplicate" => "duplicate must be true or false".into(),
            _ => format!("{key} must be true or false"),
        });
    };
    let on = if k == "duplicate" { said } else { !said };
    claims.claim("duplicate deals", key, Value::Bool(on))?;
    if !on {
        flags.push("--no-duplicate".into());
    }
    Ok(())
}

/// tournament.json's `time` table, in milliseconds, as the time flags (which want a unit).
/// Each is claimed with the flag's own key, so a file that also gives `move_timeout` must
/// give the same time.
fn time_flags(value: &Value, claims: &mut Claims, flags: &mut Vec<String>) -> Result<(), String> {
    let t = value.as_object().ok_or("time must be a table")?;
    for (tk, tv) in t {
        let flag = match tk.as_str() {
            "handshake_ms" => "handshake_timeout",
            "move_ms" => "move_timeout",
            "bank_ms" => "time_bank",
            "increment_ms" => "increment",
            other => {
                return Err(format!(
                    "time: unknown key {other:?} (handshake_ms, move_ms, bank_ms, increment_ms)"
                ))
            }
        };
        if !tv.is_null() {
            let ms = format!("{}ms", scalar(tk, tv)?);
            let setting = setting_of(flag).expect("a time flag");
            claims.claim(setting, &format!("time.{tk}"), Value::String(ms.clone()))?;
            flags.push(with_value(flag, ms));
        }
    }
    Ok(())
}

/// `sandbox`: the flag's own values (auto, bwrap, none) or tournament.json's label, which
/// adds the view (`bwrap wide`, `bwrap strict`), so a tournament fed its own file back runs
/// in the sandbox it ran in.
fn sandbox_flags(value: &Value, flags: &mut Vec<String>) -> Result<(), String> {
    let text = value
        .as_str()
        .ok_or("sandbox must be auto, bwrap or none")?;
    let mut words = text.split_whitespace();
    flags.push("--sandbox".into());
    flags.push(words.next().unwrap_or(text).to_string());
    if let Some(view) = words.next() {
        flags.push("--sandbox-view".into());
        flags.push(view.to_string());
    }
    Ok(())
}

/// The error for a key that is no flag and no key of tournament.json: the nearest known key
/// if one is close (a typo), and every key a config may hold.
fn unknown_key(key: &str) -> String {
    let known: Vec<&str> = VALUE_FLAGS
        .iter()
        .chain(SWITCHES)
        .chain(LIST_FLAGS)
        .chain(SANDBOX_SETTINGS)
        .chain(&["no_duplicate", "sandbox", "bot", "time"])
        .copied()
        .collect();
    let near = crate::rules_file::did_you_mean(key, &known)
        .map(|k| format!(" (did you mean {k:?}?)"))
        .unwrap_or_default();
    format!(
        "unknown key {key:?}{near}: use the flags of `tarneeb tournament` ({}, {}, no_duplicate, {}, sandbox), [[bot]] tables, or the keys of tournament.json",
        VALUE_FLAGS.join(", "),
        SWITCHES.join(", "),
        SANDBOX_SETTINGS.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_becomes_flags() {
        let t: toml::Table = toml::from_str(
            r#"
            format = "gauntlet"
            games = 4
            no_duplicate = true
            move-timeout = "2s"
            [[bot]]
            name = "a"
            command = "python3 bot.py --x 1"
            [[bot]]
            name = "b"
            command = ["python3", "my bot.py"]
            "#,
        )
        .unwrap();
        let v = serde_json::to_value(t).unwrap();
        let f = to_flags(&v, true).unwrap();
        let joined = f.join(" ");
        assert!(joined.contains("--bot a=python3 bot.py --x 1"), "{joined}");
        assert!(joined.contains("--bot b=python3 'my bot.py'"), "{joined}");
        assert!(joined.contains("--format=gauntlet"), "{joined}");
        assert!(joined.contains("--games=4"), "{joined}");
        assert!(joined.contains("--no-duplicate"), "{joined}");
        assert!(joined.contains("--move-timeout=2s"), "{joined}");
        assert!(!to_flags(&v, false).unwrap().contains(&"--bot".to_string()));
        let bad = serde_json::json!({"colour": "red"});
        assert!(to_flags(&bad, true)
            .unwrap_err()
            .contains("unknown key \"colour\""));
    }

    #[test]
    fn two_keys_for_one_setting_must_agree() {
        let flags = |toml_text: &str| {
            let t: toml::Table = toml::from_str(toml_text).unwrap();
            to_flags(&serde_json::to_value(t).unwrap(), true)
        };
        let e = flags("duplicate = true\nno_duplicate = true\n").unwrap_err();
        assert!(e.contains("\"duplicate\" and \"no_duplicate\""), "{e}");
        assert!(e.contains("keep one"), "{e}");
        let e = flags("move_timeout = \"2s\"\n[time]\nmove_ms = 1000\n").unwrap_err();
        assert!(e.contains("move timeout"), "{e}");
        let e = flags(
            "[[bot]]\nname = \"a\"\ncommand = \"x\"\n[[entrants]]\nname = \"b\"\ncommand = \"y\"\n",
        )
        .unwrap_err();
        assert!(e.contains("both list the entrants"), "{e}");
        // Saying the same thing twice is no contradiction.
        assert!(flags("duplicate = false\nno_duplicate = true\n").is_ok());
    }

    #[test]
    fn twins_apart_and_its_shard_unit_come_back_from_tournament_json() {
        // A --twins-apart shard's tournament.json, fed back: the switch and the shard, and
        // the shard unit (which follows from them) says nothing more.
        let v = serde_json::json!({"shard": "3/4", "twins_apart": true,
            "shard_unit": crate::tournament::schedule::shard::TWINS_APART_UNIT});
        let f = to_flags(&v, true).unwrap();
        assert!(f.contains(&"--twins-apart".to_string()), "{f:?}");
        assert!(f.contains(&"--shard=3/4".to_string()), "{f:?}");
        assert_eq!(f.len(), 2, "{f:?}");
    }

    #[test]
    fn negative_values_stay_values() {
        let t: toml::Table = toml::from_str("games = -1\n").unwrap();
        let f = to_flags(&serde_json::to_value(t).unwrap(), true).unwrap();
        assert_eq!(f, ["--games=-1"]);
    }

    #[test]
    fn command_line_flags_come_after_the_file() {
        let dir = std::env::temp_dir().join(format!("tarneeb-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.toml");
        std::fs::write(
            &file,
            "seed = 3\n[[bot]]\nname = \"x\"\ncommand = \"bot\"\n",
        )
        .unwrap();
        let args: Vec<OsString> = ["tarneeb", "tournament", "--seed", "9", "--config"]
            .iter()
            .map(OsString::from)
            .chain([file.clone().into_os_string()])
            .collect();
        let out: Vec<String> = expand_args(args)
            .unwrap()
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            out,
            [
                "tarneeb",
                "tournament",
                "--bot",
                "x=bot",
                "--seed=3",
                "--config-file",
                &file.display().to_string(),
                "--seed",
                "9"
            ]
        );
        let none: Vec<OsString> = ["tarneeb", "standings", "d"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(expand_args(none.clone()).unwrap(), none);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
