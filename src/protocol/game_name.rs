//! Which game a set of rules is, for `hello` and `new_game` (protocol.md 4.1): the preset the
//! rules are, or the preset they are closest to and the options they change, so a bot need not
//! tell 400 from Forty-One by their scoring tables.

use serde::Serialize;
use serde_json::Value;

use crate::rules::{Rules, PRESETS};

/// `{"name": "400", "changed": []}`: the preset (`classic`, `egyptian`, `400`, `41`) and the
/// options, as dotted paths of the rules object, in which the rules differ from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameName {
    pub name: &'static str,
    pub changed: Vec<String>,
}

/// The preset `rules` differ from in the fewest options (the first of [`PRESETS`] on a tie),
/// with those options.
pub fn game_name(rules: &Rules) -> GameName {
    let mine = leaves(rules);
    PRESETS
        .iter()
        .map(|&name| {
            let preset = leaves(&Rules::preset(name).expect("a preset"));
            let mut changed: Vec<String> = mine
                .iter()
                .filter(|(k, v)| preset.get(k.as_str()) != Some(*v))
                .map(|(k, _)| k.clone())
                .chain(preset.keys().filter(|k| !mine.contains_key(*k)).cloned())
                .collect();
            changed.sort();
            changed.dedup();
            GameName { name, changed }
        })
        .min_by_key(|g| g.changed.len())
        .expect("there are presets")
}

/// The rules as `path -> value` for every leaf (`contract.no-trump -> false`); arrays are
/// leaves.
fn leaves(rules: &Rules) -> std::collections::BTreeMap<String, Value> {
    fn walk(prefix: &str, v: &Value, out: &mut std::collections::BTreeMap<String, Value>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, v, out);
                }
            }
            other => {
                out.insert(prefix.to_string(), other.clone());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(
        "",
        &serde_json::to_value(rules).expect("rules serialize"),
        &mut out,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_preset_is_named_and_a_changed_one_says_what_changed() {
        for name in PRESETS {
            let g = game_name(&Rules::preset(name).unwrap());
            assert_eq!((g.name, g.changed.len()), (name, 0));
        }
        let mut r = Rules::four_hundred();
        r.target = 51;
        assert_eq!(
            game_name(&r),
            GameName {
                name: "400",
                changed: vec!["target".into()]
            }
        );
        let mut r = Rules::egyptian();
        r.contract.as_mut().unwrap().no_trump = true;
        let g = game_name(&r);
        assert_eq!(
            (g.name, g.changed),
            ("egyptian", vec!["contract.no-trump".into()])
        );
    }
}
