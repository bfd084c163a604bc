//! `--trace DIR`: one file per seat per game holding every line the seat was sent and wrote,
//! compared byte for byte with what bots that keep their raw input and output really saw.

use crate::common;

use std::path::Path;

use common::{python_bot, stderr, stdout, tarneeb, Scratch, RANDOM_BOT};

/// The lines of one direction (`to-bot` or `from-bot`) of a trace file, each with its newline,
/// after checking every line's form and that times never go backwards.
fn traced(file: &Path, seat: usize, direction: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    let mut last = 0.0f64;
    for line in text.lines() {
        let mut parts = line.splitn(4, ' ');
        let t: f64 = parts.next().unwrap().parse().expect("seconds first");
        assert!(t >= last, "times go forward in {}: {line}", file.display());
        last = t;
        assert_eq!(parts.next(), Some(format!("seat{seat}").as_str()), "{line}");
        let d = parts.next().unwrap();
        assert!(d == "to-bot" || d == "from-bot", "{line}");
        if d == direction {
            out.extend_from_slice(parts.next().unwrap_or("").as_bytes());
            out.push(b'\n');
        }
    }
    out
}

#[test]
fn play_traces_equal_what_the_bots_really_received_and_wrote() {
    for (rules, events) in [
        ("classic", "batched"),
        ("400", "immediate"),
        ("egyptian", "batched"),
    ] {
        let s = Scratch::new(&format!("trace-{rules}"));
        let dir = s.path("traces");
        let mut args = vec![
            "play".to_string(),
            "--rules".into(),
            rules.into(),
            "--seed".into(),
            "7".into(),
            "--events".into(),
            events.into(),
            "--record".into(),
            s.path("g.jsonl").display().to_string(),
            "--trace".into(),
            dir.display().to_string(),
            // The tee bot keeps its raw input and output in the scratch directory, which a
            // sandboxed bot cannot write to.
            "--sandbox".into(),
            "none".into(),
        ];
        for seat in 0..4 {
            let prefix = s.path(&format!("bot{seat}"));
            args.push("--bot".into());
            args.push(python_bot(
                "tests/bots/tee_bot.py",
                &[prefix.to_str().unwrap(), &s.marker],
            ));
        }
        let o = tarneeb(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("traces "), "{}", stdout(&o));
        for seat in 0..4 {
            let file = dir.join(format!("g.seat{seat}.trace"));
            let got = std::fs::read(s.path(&format!("bot{seat}.in"))).unwrap();
            let sent = std::fs::read(s.path(&format!("bot{seat}.out"))).unwrap();
            assert!(got.len() > 1000, "{rules}: the bot read the game");
            assert_eq!(
                String::from_utf8_lossy(&traced(&file, seat, "to-bot")),
                String::from_utf8_lossy(&got),
                "{rules} seat {seat}: the trace holds exactly what the bot read"
            );
            assert_eq!(
                String::from_utf8_lossy(&traced(&file, seat, "from-bot")),
                String::from_utf8_lossy(&sent),
                "{rules} seat {seat}: the trace holds exactly what the bot wrote"
            );
        }
    }
}

#[test]
fn tournament_traces_one_file_per_seat_per_game() {
    let s = Scratch::new("trace-tournament");
    let dir = s.path("traces");
    let bot = python_bot(RANDOM_BOT, &[&s.marker]);
    let o = tarneeb(&[
        "tournament",
        "--out",
        s.path("t").to_str().unwrap(),
        "--games",
        "1",
        "--jobs",
        "2",
        "--trace",
        dir.to_str().unwrap(),
        "--bot",
        &format!("a={bot}"),
        "--bot",
        &format!("b={bot}"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // One deal set played twice with the sides swapped: two games, four seats each.
    assert_eq!(names.len(), 8, "{names:?}");
    for name in &names {
        let seat: usize = name[name.len() - 7..name.len() - 6].parse().unwrap();
        let to_bot = traced(&dir.join(name), seat, "to-bot");
        let text = String::from_utf8(to_bot).unwrap();
        assert!(
            text.starts_with("{\"type\":\"hello\""),
            "{name}: {text:.80}"
        );
        assert!(text.contains("\"type\":\"game_end\""), "{name}");
    }
}
