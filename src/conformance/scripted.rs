//! The built-in seats of `check-bot`: a protocol bot that plays the first of its preferred moves
//! that is legal, else a seeded random legal move. Run as the hidden `tarneeb scripted-bot`
//! command, so it talks to the referee over the same pipes as the bot under test and the game
//! is played exactly as in `play`.

use std::io::{self, BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde_json::Value;

/// Plays one game on `input`/`output`; returns at `game_end` or end of file.
pub fn serve(
    prefer: &[String],
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut rng = Pcg32::seed_from_u64(seed);
    for line in input.lines() {
        let line = line?;
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let reply = match msg["type"].as_str() {
            Some("hello") => r#"{"type":"hello","name":"scripted"}"#.to_string(),
            Some("request") => {
                let legal: Vec<&str> = msg["legal"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let Some(mv) = choose(prefer, &legal, &mut rng) else {
                    continue;
                };
                // Written by hand so the fields come in protocol.md's order.
                format!(
                    r#"{{"type":"move","id":{},"move":{}}}"#,
                    msg["id"],
                    Value::from(mv)
                )
            }
            Some("game_end") => return Ok(()),
            _ => continue,
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}

/// The first preferred move that is legal, else a random legal one.
fn choose<'a>(prefer: &[String], legal: &[&'a str], rng: &mut Pcg32) -> Option<&'a str> {
    prefer
        .iter()
        .find_map(|p| legal.iter().find(|l| **l == p.as_str()).copied())
        .or_else(|| (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_the_first_preferred_legal_move() {
        let input = concat!(
            r#"{"type":"hello","protocol":1,"seat":1}"#,
            "\n",
            r#"{"type":"request","id":4,"decision":"call","legal":["pass","7S","double"]}"#,
            "\n",
            r#"{"type":"game_end"}"#,
            "\n",
            r#"{"type":"request","id":5,"decision":"call","legal":["pass"]}"#,
            "\n"
        );
        let prefer = vec!["redouble".to_string(), "double".to_string()];
        let mut out = Vec::new();
        serve(&prefer, 1, input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "nothing after game_end: {out}");
        assert!(lines[1].contains(r#""move":"double""#), "{out}");
        assert!(lines[1].contains(r#""id":4"#), "{out}");
    }
}
