//! Reads `--rules`: a preset name, or a JSON file holding `"preset"` plus the options it changes.
//!
//! The file is merged into the preset's JSON (objects merge key by key, anything else replaces),
//! then read with unknown fields denied and validated, so every mistake names its option.

use std::path::Path;

use serde_json::Value;

use crate::rules::{Rules, PRESETS};

/// Why `--rules` could not be used; the message names the input and the fix.
#[derive(Debug, thiserror::Error)]
pub enum RulesInputError {
    #[error("unknown rules preset '{0}'{}: use one of classic, egyptian, 400, 41, or a path to a JSON rules file", did_you_mean(.0, &PRESETS).map(|p| format!(" (did you mean '{p}'?)")).unwrap_or_default())]
    UnknownPreset(String),
    #[error("cannot read rules file {path}: {}", crate::protocol::io_text(error))]
    Read { path: String, error: std::io::Error },
    #[error("rules file {path} is not valid JSON: {source}")]
    Json {
        path: String,
        source: serde_json::Error,
    },
    #[error("rules file {path}: {message}")]
    Invalid { path: String, message: String },
}

/// Loads `--rules ARG`: a preset name or a path to a rules file.
pub fn load(arg: &str) -> Result<Rules, RulesInputError> {
    if let Some(r) = Rules::preset(arg) {
        return Ok(r);
    }
    let path = Path::new(arg);
    if !path.exists() && !arg.contains('/') && !arg.ends_with(".json") {
        return Err(RulesInputError::UnknownPreset(arg.to_string()));
    }
    let text = std::fs::read_to_string(path).map_err(|error| RulesInputError::Read {
        path: arg.to_string(),
        error,
    })?;
    from_json_text(&text, arg)
}

/// Reads rules from JSON text; `origin` names the input in messages.
pub fn from_json_text(text: &str, origin: &str) -> Result<Rules, RulesInputError> {
    let value: Value = serde_json::from_str(text).map_err(|source| RulesInputError::Json {
        path: origin.to_string(),
        source,
    })?;
    from_value(value, origin)
}

/// Reads rules from a JSON value: `{"preset": NAME, ...changes}`, or complete rules without
/// `"preset"` (as `tarneeb rules` prints and records hold).
pub fn from_value(value: Value, origin: &str) -> Result<Rules, RulesInputError> {
    let invalid = |message: String| RulesInputError::Invalid {
        path: origin.to_string(),
        message,
    };
    let Value::Object(mut changes) = value else {
        return Err(invalid(
            "the rules must be a JSON object like {\"preset\": \"classic\", \"target\": 41}".into(),
        ));
    };
    brief_aliases(&mut changes).map_err(invalid)?;
    let merged = match changes.remove("preset") {
        Some(Value::String(name)) => {
            let base = Rules::preset(&name).ok_or_else(|| {
                let hint = did_you_mean(&name, &PRESETS)
                    .map(|p| format!(" (did you mean '{p}'?)"))
                    .unwrap_or_default();
                invalid(format!(
                    "option 'preset': unknown preset '{name}'{hint}: use one of {}",
                    PRESETS.join(", ")
                ))
            })?;
            let mut base = serde_json::to_value(base).expect("rules serialize");
            merge(&mut base, Value::Object(changes));
            base
        }
        Some(other) => {
            return Err(invalid(format!(
                "option 'preset': expected a preset name string, got {other}"
            )))
        }
        // Without a preset the rules must be complete (as `tarneeb rules` prints them and
        // records hold): one that is not was most likely meant to change a preset.
        None if !(changes.contains_key("max-hands")
            && (changes.contains_key("contract") || changes.contains_key("individual"))) =>
        {
            let keys: Vec<&str> = changes.keys().map(String::as_str).collect();
            return Err(invalid(format!(
                "no \"preset\": a rules file names the preset it changes, like {{\"preset\": \"classic\", {}}}; without one it must give every option, as `tarneeb rules classic` prints them",
                if keys.is_empty() {
                    "\"target\": 41".to_string()
                } else {
                    keys.iter()
                        .map(|k| format!("\"{k}\": ..."))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )));
        }
        None => Value::Object(changes),
    };
    let rules: Rules = serde_path_to_error::deserialize(merged).map_err(|e| {
        let path = e.path().to_string();
        invalid(explain(&path, e.into_inner()))
    })?;
    rules.validate().map_err(|e| invalid(e.to_string()))?;
    Ok(rules)
}

/// The brief's names for contract options that are spelt otherwise here
/// (docs/rules.md#option-aliases), with the value each stands for: `(the brief's name, our
/// option, our value for true, our value for false)`; `redouble:
/// false` leaves doubling as the preset has it (the brief's default is off either way).
const ALIASES: [(&str, &str, &str, Option<&str>); 4] = [
    (
        "trump-by-first-lead",
        "trump",
        "\"first-lead\"",
        Some("\"declarer-names\""),
    ),
    ("redouble", "doubling", "\"redouble\"", None),
    ("weak-hand", "throw-in-weak-hand", "true", Some("false")),
    ("long-suit", "throw-in-long-suit", "true", Some("false")),
];

/// Accepts the brief's option names (`{"contract": {"redouble": true}}`) as the options they
/// name, so a rules file written from the brief does what it says; anywhere else, or with a
/// value that is not true or false, the message names the real option.
fn brief_aliases(changes: &mut serde_json::Map<String, Value>) -> Result<(), String> {
    let real = |brief: &str| ALIASES.iter().find(|(b, ..)| *b == brief);
    for (brief, ours, on, _) in ALIASES {
        if changes.contains_key(brief) {
            return Err(format!(
                "option '{brief}' is another name (docs/rules.md#option-aliases) for the contract option '{ours}': write {{\"contract\": {{\"{ours}\": {on}}}}}"
            ));
        }
    }
    let Some(Value::Object(contract)) = changes.get_mut("contract") else {
        return Ok(());
    };
    let briefs: Vec<String> = contract
        .keys()
        .filter(|k| real(k).is_some())
        .cloned()
        .collect();
    for brief in briefs {
        let (_, ours, on, off) = real(&brief).expect("filtered above");
        let value = contract.remove(&brief).expect("present");
        let Value::Bool(flag) = value else {
            return Err(format!(
                "option 'contract.{brief}' (another name for 'contract.{ours}', docs/rules.md#option-aliases): expected true or false, got {value}; or write 'contract.{ours}' (e.g. {on})"
            ));
        };
        let on_value: Value = serde_json::from_str(on).expect("the table's JSON");
        let wanted = match (flag, off) {
            (true, _) => Some(on_value.clone()),
            (false, Some(off)) => Some(serde_json::from_str(off).expect("the table's JSON")),
            (false, None) => None,
        };
        let given = contract.get(*ours);
        let disagree = match (&wanted, given) {
            (Some(w), Some(g)) => w != g,
            (None, Some(g)) => *g == on_value,
            (_, None) => false,
        };
        if disagree {
            return Err(format!(
                "options 'contract.{brief}' ({flag}) and 'contract.{ours}' ({}) disagree: '{brief}' is another name for '{ours}': {on}; keep one",
                given.expect("compared above")
            ));
        }
        if let Some(w) = wanted {
            contract.insert((*ours).to_string(), w);
        }
    }
    Ok(())
}

/// Merges `changes` into `base` as a JSON merge patch (RFC 7386): objects merge key by key,
/// `null` removes a key (a hole in a points table, `slow-play` off), anything else replaces.
fn merge(base: &mut Value, changes: Value) {
    match (base, changes) {
        (Value::Object(b), Value::Object(c)) => {
            for (k, v) in c {
                if v.is_null() {
                    b.remove(&k);
                    continue;
                }
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, c) => *b = c,
    }
}

/// serde's message with the option's full path, and where to look up the options.
fn explain(path: &str, e: serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg);
    let msg = plain_words(msg);
    let at = if path.is_empty() || path == "." {
        String::new()
    } else {
        format!("option '{path}': ")
    };
    format!("{at}{msg} (`tarneeb rules classic` and `tarneeb rules 400` show every option and its type)")
}

/// serde's words for a mistake in the project's words: no Rust type names, and the nearest
/// known option named for an unknown one.
fn plain_words(msg: &str) -> String {
    let mut out = msg.to_string();
    for ty in [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ] {
        out = out.replace(&format!("expected {ty}"), "expected a whole number");
    }
    out = out.replace("expected f64", "expected a number");
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let (field, rest) = rest.split_once('`').unwrap_or((rest, ""));
        let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
        if let Some(near) = did_you_mean(field, &known) {
            out.push_str(&format!(" (did you mean '{near}'?)"));
        }
    }
    out
}

/// The candidate nearest to `input`, when it is near enough to be what was meant: at most a
/// third of its letters wrong (a typo), not a different word.
pub fn did_you_mean<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let input = input.to_ascii_lowercase();
    candidates
        .iter()
        .map(|c| (edit_distance(&input, &c.to_ascii_lowercase()), *c))
        .filter(|(d, c)| *d > 0 && *d <= (c.len().max(input.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diag + usize::from(ca != cb));
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_through_json() {
        for name in PRESETS {
            let r = Rules::preset(name).unwrap();
            let v = serde_json::to_value(&r).unwrap();
            assert_eq!(from_value(v, "test").unwrap(), r, "{name}");
        }
    }

    #[test]
    fn renege_rule_defaults_and_records_from_before_the_option() {
        use crate::rules::Renege;
        let renege = |r: Rules| r.individual.unwrap().slow_play.unwrap().renege;
        // docs/rules.md#individual-slow-play: a renege is a penalty by default; the literal
        // reading is an option.
        assert_eq!(renege(Rules::four_hundred()), Renege::Penalty);
        let file = r#"{"preset": "400", "individual": {"slow-play": {"limit-ms": 5000}}}"#;
        assert_eq!(renege(from_json_text(file, "f").unwrap()), Renege::Penalty);
        let file = r#"{"preset": "41", "individual": {"slow-play": {"renege": "scores-zero"}}}"#;
        assert_eq!(
            renege(from_json_text(file, "f").unwrap()),
            Renege::ScoresZero
        );
        // Complete rules as records written before the option hold them: scored literally.
        let mut old = serde_json::to_value(Rules::four_hundred()).unwrap();
        old["individual"]["slow-play"]
            .as_object_mut()
            .unwrap()
            .remove("renege");
        assert_eq!(
            renege(from_value(old, "record").unwrap()),
            Renege::ScoresZero
        );
    }

    #[test]
    fn brief_option_names_are_accepted_or_pointed_to() {
        use crate::rules::{Doubling, TrumpChoice};
        // docs/rules.md#option-aliases: `trump-by-first-lead`, `redouble`, `weak-hand`,
        // `long-suit`.
        let r = from_json_text(
            r#"{"preset": "classic", "contract": {"trump-by-first-lead": true, "weak-hand": true}}"#,
            "f",
        )
        .unwrap();
        let c = r.contract.unwrap();
        assert_eq!(c.trump, TrumpChoice::FirstLead);
        assert!(c.throw_in_weak_hand);
        assert!(!c.trump_first_lead, "not the other rule with a near name");
        let r = from_json_text(
            r#"{"preset": "egyptian", "contract": {"redouble": true, "long-suit": false}}"#,
            "f",
        )
        .unwrap();
        assert_eq!(r.contract.unwrap().doubling, Doubling::Redouble);
        let e = from_json_text(r#"{"preset": "classic", "redouble": true}"#, "f")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(r#"{"contract": {"doubling": "redouble"}}"#),
            "{e}"
        );
        let e = from_json_text(
            r#"{"preset": "egyptian", "contract": {"redouble": true, "doubling": "off"}}"#,
            "f",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("disagree"), "{e}");
        let r = from_json_text(
            r#"{"preset": "classic", "contract": {"redouble": false}}"#,
            "f",
        );
        assert_eq!(r.unwrap().contract.unwrap().doubling, Doubling::Off);
        let e = from_json_text(
            r#"{"preset": "classic", "contract": {"trump-by-first-lead": "yes"}}"#,
            "f",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("'contract.trump'"), "{e}");
    }

    #[test]
    fn a_file_switches_family_by_removing_one_section_and_giving_the_other() {
        // docs/rules.md#contract, docs/rules.md#individual: to switch, remove one and give the
        // other complete; the top-level options stay the preset's.
        let four = serde_json::to_value(Rules::four_hundred()).unwrap();
        let file = serde_json::json!({
            "preset": "classic", "contract": null, "individual": four["individual"].clone()
        });
        let r = from_value(file, "f").unwrap();
        assert!(r.contract.is_none());
        assert_eq!(r.individual, Rules::four_hundred().individual);
        assert_eq!(r.target, 31);
        let e = from_json_text(r#"{"preset": "classic", "contract": null}"#, "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'contract'"), "{e}");
    }

    #[test]
    fn a_file_changes_only_what_it_names() {
        let r = from_json_text(
            r#"{"preset": "classic", "target": 41, "contract": {"no-trump": true}}"#,
            "f",
        )
        .unwrap();
        assert_eq!(r.target, 41);
        assert!(r.contract.as_ref().unwrap().no_trump);
        assert_eq!(r.max_hands, 200);
    }

    #[test]
    fn mistakes_name_the_option() {
        let cases = [
            (r#"{"preset": "classic", "targte": 41}"#, "targte"),
            (
                r#"{"preset": "classic", "target": "x"}"#,
                "option 'target': invalid type",
            ),
            (
                r#"{"preset": "classic", "contract": {"no-trump": 1}}"#,
                "option 'contract.no-trump'",
            ),
            (r#"{"preset": "classic", "target": 0}"#, "'target'"),
            (
                r#"{"preset": "classic", "contract": {"kaboot": "sometimes"}}"#,
                "sometimes",
            ),
            (
                r#"{"preset": "400", "individual": {"points": {"3": null}}}"#,
                "hole at bid 3",
            ),
            (r#"{"preset": "nope"}"#, "unknown preset 'nope'"),
            (r#"[1]"#, "JSON object"),
        ];
        for (text, want) in cases {
            let e = from_json_text(text, "rules.json").unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
            assert!(e.contains("rules.json"), "{e}");
        }
    }

    #[test]
    fn typos_get_a_suggestion_and_no_rust_type_names() {
        let e = load("clasic").unwrap_err().to_string();
        assert!(e.contains("did you mean 'classic'?"), "{e}");
        let e = from_json_text(r#"{"preset": "classic", "targt": 41}"#, "r.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("did you mean 'target'?"), "{e}");
        let e = from_json_text(r#"{"preset": "classic", "target": "x"}"#, "r.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected a whole number"), "{e}");
        assert!(!e.contains("i32") && !e.contains("u64"), "{e}");
        assert_eq!(did_you_mean("egyptain", &PRESETS), Some("egyptian"));
        assert_eq!(did_you_mean("bridge", &PRESETS), None);
    }

    #[test]
    fn unknown_preset_name_is_an_error() {
        let e = load("fourhundred").unwrap_err().to_string();
        assert!(e.contains("unknown rules preset 'fourhundred'"), "{e}");
    }
}
