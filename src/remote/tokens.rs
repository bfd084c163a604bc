//! Remote entrants' tokens: 256 random bits each, from the operating system, kept in the
//! tournament directory's `tokens.json` (mode 0600, hidden from sandboxed bots like the rest
//! of the directory) so a resumed tournament accepts the same relays.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use rand::RngCore;
use serde_json::{Map, Value};

/// The file in a tournament directory that holds the tokens.
pub const TOKENS_FILE: &str = "tokens.json";

/// The tokens of a run's remote entrants.
#[derive(Clone, Debug)]
pub struct Tokens {
    /// (entrant index in the run, entrant name, token).
    entries: Vec<(usize, String, [u8; 32])>,
}

impl Tokens {
    /// The tokens of `remote` entrants (index, name) from `path`, making and saving those it
    /// lacks. Returns the names whose tokens were just made (to print once).
    pub fn load_or_make(
        path: &Path,
        remote: &[(usize, String)],
    ) -> Result<(Tokens, Vec<String>), String> {
        let mut saved: Map<String, Value> = match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{} is not a tokens file ({e}): restore it, or delete it to make new tokens (every relay then needs its new one)",
                    path.display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut entries = Vec::new();
        let mut made = Vec::new();
        for (index, name) in remote {
            let token = match saved.get(name).and_then(Value::as_str).and_then(parse) {
                Some(t) => t,
                None => {
                    let mut t = [0u8; 32];
                    rand::rngs::OsRng.fill_bytes(&mut t);
                    saved.insert(name.clone(), Value::String(hex(&t)));
                    made.push(name.clone());
                    t
                }
            };
            entries.push((*index, name.clone(), token));
        }
        if !made.is_empty() {
            write_private(path, &serde_json::to_vec_pretty(&saved).expect("json"))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok((Tokens { entries }, made))
    }

    /// Fresh tokens for `remote` entrants (index, name), kept nowhere (`play`, one game).
    pub fn fresh(remote: &[(usize, String)]) -> Tokens {
        let entries = remote
            .iter()
            .map(|(i, name)| {
                let mut t = [0u8; 32];
                rand::rngs::OsRng.fill_bytes(&mut t);
                (*i, name.clone(), t)
            })
            .collect();
        Tokens { entries }
    }

    /// The entrant (index, name) a token belongs to. Every token is compared in full, in time
    /// that does not depend on where a guess first differs.
    pub fn entrant_of(&self, token: &str) -> Option<(usize, &str)> {
        let given = parse(token)?;
        let mut found = None;
        for (index, name, t) in &self.entries {
            let diff = t
                .iter()
                .zip(given.iter())
                .fold(0u8, |d, (a, b)| d | (a ^ b));
            if diff == 0 {
                found = Some((*index, name.as_str()));
            }
        }
        found
    }

    /// An entrant's token as given to its owner (64 hex digits).
    pub fn token_of(&self, name: &str) -> Option<String> {
        self.entries
            .iter()
            .find(|(_, n, _)| n == name)
            .map(|(_, _, t)| hex(t))
    }
}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn parse(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Writes `bytes` to `path` readable by its owner only, replacing it whole (a crash leaves the
/// old file or the new one).
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn tokens_are_made_once_kept_private_and_matched_exactly() {
        let dir = std::env::temp_dir().join(format!("tarneeb-tokens-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(TOKENS_FILE);
        let remote = vec![(0, "alice".to_string()), (2, "bob".to_string())];
        let (t, made) = Tokens::load_or_make(&path, &remote).unwrap();
        assert_eq!(made, vec!["alice", "bob"]);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let alice = t.token_of("alice").unwrap();
        assert_eq!(alice.len(), 64);
        assert_ne!(alice, t.token_of("bob").unwrap());
        assert_eq!(t.entrant_of(&alice), Some((0, "alice")));
        // One digit changed, a short token, and junk are nobody's.
        let mut wrong = alice.clone().into_bytes();
        wrong[63] = if wrong[63] == b'0' { b'1' } else { b'0' };
        assert_eq!(t.entrant_of(std::str::from_utf8(&wrong).unwrap()), None);
        assert_eq!(t.entrant_of(&alice[..62]), None);
        assert_eq!(t.entrant_of("zz"), None);
        // A resume reads the same tokens and makes none.
        let (again, made) = Tokens::load_or_make(&path, &remote).unwrap();
        assert!(made.is_empty());
        assert_eq!(again.token_of("alice"), Some(alice));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
