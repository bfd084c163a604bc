//! Remote entrants: bots that stay on their owners' machines and play a tournament over the
//! network (issue 25, protocol.md section 9).
//!
//! The organiser's side: [`listener`] accepts connections (plain TCP on loopback, or TLS
//! through [`tls`]), checks each one's token ([`tokens`]) within a bounded handshake, and hands
//! it, as a [`Bot`](crate::bot::Bot) whose "stdin" and "stdout" are the socket, to the
//! [`lobby`], where games take connections from. The referee's loop is then the same for pipes
//! and sockets: the same line caps, time limits and faults.
//!
//! The participant's side: [`relay`] (`tarneeb connect`) runs any stdio bot unchanged and
//! carries its lines to and from the server.
//!
//! What a connection sees before it plays is fixed and small ([`Control`]): it says who it is
//! (`auth`), and hears `welcome` or `refused` with one reason; `over` when the tournament has
//! no more games. Everything after `welcome` is the bot protocol, byte for byte.

pub mod listener;
pub mod lobby;
pub mod relay;
pub mod tls;
pub mod tokens;

use serde::{Deserialize, Serialize};

/// Longest `auth` line the server reads (the line is about 100 bytes).
pub const AUTH_LINE_MAX: usize = 4096;

/// The transport's own messages, before and after the bot protocol (protocol.md section 9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Control {
    /// The relay's first line: the protocol version and the entrant's token.
    Auth { protocol: u32, token: String },
    /// The token is good: the connection now waits for a game.
    Welcome { entrant: String },
    /// The connection is refused, with a machine-readable [`code`](refusal) and a reason for
    /// people; the server closes it. A relay decides on the code, never on the text.
    Refused {
        #[serde(default)]
        code: String,
        reason: String,
    },
    /// The tournament has no more games: the relay may exit.
    Over,
}

/// The codes of a `refused` line (protocol.md section 9). Only [`refusal::UNKNOWN_TOKEN`] and
/// [`refusal::PROTOCOL`] are final: retrying cannot mend them; a relay tries the others again.
pub mod refusal {
    /// The token is no entrant's (or is malformed).
    pub const UNKNOWN_TOKEN: &str = "unknown_token";
    /// The `auth` line names a protocol version this server does not speak.
    pub const PROTOCOL: &str = "protocol";
    /// The first line is not an `auth` line.
    pub const NOT_AUTH: &str = "not_auth";
    /// No `auth` line within the handshake time, or one too long.
    pub const TIMEOUT: &str = "timeout";
    /// The entrant has its most connections (`--remote-connections`).
    pub const ENTRANT_FULL: &str = "entrant_full";
    /// The address has its most authenticated connections.
    pub const ADDRESS_FULL: &str = "address_full";

    /// Whether a refusal with `code` is final (the relay gives up) rather than passing.
    pub fn is_final(code: &str) -> bool {
        matches!(code, UNKNOWN_TOKEN | PROTOCOL)
    }
}

impl Control {
    /// A refusal with its code and reason.
    pub fn refused(code: &str, reason: impl Into<String>) -> Control {
        Control::Refused {
            code: code.to_string(),
            reason: reason.into(),
        }
    }

    /// The message as one line, with its newline.
    pub fn line(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec(self).expect("control messages serialize");
        v.push(b'\n');
        v
    }
}

/// The `type` of a JSON line without parsing it whole: the referee writes `type` first, and a
/// relay only needs it to see where games start and end.
pub fn line_type(line: &[u8]) -> Option<&str> {
    let key = b"\"type\":\"";
    let at = line.windows(key.len()).position(|w| w == key)? + key.len();
    let len = line[at..].iter().position(|&b| b == b'"')?;
    std::str::from_utf8(&line[at..at + len]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_lines_round_trip() {
        let auth = Control::Auth {
            protocol: 1,
            token: "ab".into(),
        };
        let line = auth.line();
        assert_eq!(
            line,
            b"{\"type\":\"auth\",\"protocol\":1,\"token\":\"ab\"}\n"
        );
        let back: Control = serde_json::from_slice(&line).unwrap();
        assert_eq!(back, auth);
        assert_eq!(Control::Over.line(), b"{\"type\":\"over\"}\n");
        assert!(serde_json::from_str::<Control>(r#"{"type":"auth","token":"x"}"#).is_err());
    }

    #[test]
    fn line_type_reads_the_first_type() {
        assert_eq!(line_type(br#"{"type":"hello","seat":1}"#), Some("hello"));
        assert_eq!(
            line_type(br#"{"type":"game_end","x":{"type":"y"}}"#),
            Some("game_end")
        );
        assert_eq!(line_type(b"garbage"), None);
    }
}
