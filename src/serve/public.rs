//! What a spectator may see of a game still being played: what the table sees, built from the
//! record's prefix by a whitelist. Deals are never read past their number and dealer, a fault's
//! detail (which can list a seat's legal cards) is left out, and nothing is copied from a line
//! whose type is not known here: a field added to the record later stays private until it is
//! added to this file.

use serde::Serialize;
use serde_json::Value;

/// One call or card, by whom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicMove {
    pub seat: u8,
    pub decision: String,
    #[serde(rename = "move")]
    pub mv: String,
}

/// A game in progress as the table sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PublicGame {
    /// The bots' names from their hello, per seat (None until the handshake).
    pub names: Vec<Option<String>>,
    /// The hand being played (0 before the first deal) and its dealer.
    pub hand_number: u32,
    pub dealer: Option<u8>,
    /// The calls (bids, passes, doubles, trump choices, throw-in answers) of this hand.
    pub calls: Vec<PublicMove>,
    /// The cards played in this hand, in order (tricks are four at a time).
    pub plays: Vec<PublicMove>,
    /// Team scores after the last finished hand, and per seat where the game keeps them.
    pub team_scores: Option<Value>,
    pub seat_scores: Option<Value>,
    /// Faults so far: seat and kind, without the detail.
    pub faults: Vec<(u8, String)>,
    /// The record has its last line (`result` or `aborted`).
    pub ended: bool,
}

fn seat(v: &Value) -> Option<u8> {
    v.as_u64()
        .and_then(|s| u8::try_from(s).ok())
        .filter(|s| *s < 4)
}

/// The public view of a record's text so far; a torn last line (no newline yet) is ignored,
/// and so is any line that does not parse.
pub fn public_view(text: &str) -> PublicGame {
    let mut g = PublicGame::default();
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    for raw in complete.lines() {
        let Ok(line) = serde_json::from_str::<Value>(raw) else {
            continue;
        };
        match line["type"].as_str() {
            Some("header") => {
                g.names = (0..4)
                    .map(|s| {
                        line["bots"].as_array().and_then(|bots| {
                            bots.iter()
                                .find(|b| seat(&b["seat"]) == Some(s))
                                .and_then(|b| b["name"].as_str().map(str::to_string))
                        })
                    })
                    .collect();
            }
            Some("deal") => {
                g.hand_number = line["hand_number"].as_u64().unwrap_or(0) as u32;
                g.dealer = seat(&line["dealer"]);
                g.calls.clear();
                g.plays.clear();
            }
            Some("move") => {
                let (Some(s), Some(decision), Some(mv)) = (
                    seat(&line["seat"]),
                    line["decision"].as_str(),
                    line["move"].as_str(),
                ) else {
                    continue;
                };
                let m = PublicMove {
                    seat: s,
                    decision: decision.to_string(),
                    mv: mv.to_string(),
                };
                if decision == "play" {
                    g.plays.push(m);
                } else {
                    g.calls.push(m);
                }
            }
            Some("fault") => {
                if let (Some(s), Some(kind)) = (seat(&line["seat"]), line["kind"].as_str()) {
                    g.faults.push((s, kind.to_string()));
                }
            }
            Some("hand_end") => {
                g.team_scores = Some(line["team_scores"].clone()).filter(|v| v.is_array());
                g.seat_scores = Some(line["seat_scores"].clone()).filter(|v| v.is_array());
            }
            Some("result") | Some("aborted") => g.ended = true,
            _ => {}
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    const PREFIX: &str = r#"{"type":"header","format":1,"seed":9,"bots":[{"seat":0,"command":["x"],"name":"north","version":"1"},{"seat":1,"command":["y"],"name":"east","version":"1"},{"seat":2,"command":["x"],"name":"north","version":"1"},{"seat":3,"command":["y"],"name":null,"version":null}],"deal_secret":"00ff"}
{"type":"deal","hand_number":1,"dealer":1,"hands":[["AS","KS"],["QH","JH"],["2C","3C"],["9D","8D"]]}
{"type":"move","hand_number":1,"seat":2,"decision":"call","move":"7","ms":3}
{"type":"fault","hand_number":1,"seat":3,"kind":"illegal-move","detail":"9H is not legal now; legal: 9D, 8D","action":"substitute"}
{"type":"move","hand_number":1,"seat":2,"decision":"play","move":"2C","ms":1}
{"type":"move","hand_number":1,"seat":3,"decision":"play","mo"#;

    #[test]
    fn shows_the_table_and_never_a_hidden_card() {
        let g = public_view(PREFIX);
        assert_eq!(g.names[0].as_deref(), Some("north"));
        assert_eq!(g.names[3], None);
        assert_eq!((g.hand_number, g.dealer), (1, Some(1)));
        assert_eq!(g.calls.len(), 1);
        assert_eq!(g.plays.len(), 1, "the torn last line is not read");
        assert_eq!(g.faults, vec![(3, "illegal-move".to_string())]);
        let shown = serde_json::to_string(&g).unwrap();
        // Every card of the deal but the one played stays out, and so does the fault's
        // detail and the deal key's id.
        for hidden in [
            "AS",
            "KS",
            "QH",
            "JH",
            "3C",
            "9D",
            "8D",
            "00ff",
            "not legal now",
        ] {
            assert!(!shown.contains(hidden), "{hidden} leaked: {shown}");
        }
        assert!(shown.contains("2C"));
    }

    #[test]
    fn a_new_deal_starts_a_new_hand_and_the_end_is_seen() {
        let text = format!(
            "{}\n{}\n{}\n{}\n",
            r#"{"type":"deal","hand_number":1,"dealer":0,"hands":[]}"#,
            r#"{"type":"move","hand_number":1,"seat":1,"decision":"play","move":"5S","ms":1}"#,
            r#"{"type":"hand_end","hand_number":1,"dealer":0,"end":"played","team_delta":[3,-3],"team_scores":[3,-3]}"#,
            r#"{"type":"deal","hand_number":2,"dealer":1,"hands":[]}"#,
        );
        let g = public_view(&text);
        assert_eq!(g.hand_number, 2);
        assert!(g.plays.is_empty());
        assert_eq!(g.team_scores, Some(serde_json::json!([3, -3])));
        assert!(!g.ended);
        let ended = public_view(&(text + r#"{"type":"result","winner":0}"# + "\n"));
        assert!(ended.ended);
    }
}
