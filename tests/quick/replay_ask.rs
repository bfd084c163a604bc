//! `tarneeb replay RECORD --ask SEAT --at N --bot CMD` (issue 24): a bot is given exactly the
//! bytes the seat was sent in the recorded game up to request N, as the game's own trace holds
//! them, and its reply is shown beside the recorded move.

use crate::common;

use common::{python_bot, stderr, stdout, tarneeb, trace_lines, Scratch, RANDOM_BOT};

#[test]
fn ask_gives_a_bot_the_same_request_bytes_it_got_in_the_game() {
    let s = Scratch::new("replay-ask");
    let record = s.path("g.jsonl");
    let traces = s.path("traces");
    let random = python_bot(RANDOM_BOT, &[]);
    let mut args: Vec<String> = ["play", "--public-deals", "--seed", "9", "--rules", "400"]
        .iter()
        .map(|a| a.to_string())
        .collect();
    args.extend(["--record".into(), record.display().to_string()]);
    args.extend(["--trace".into(), traces.display().to_string()]);
    for _ in 0..4 {
        args.extend(["--bot".into(), random.clone()]);
    }
    let o = tarneeb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    // What seat 2 was sent in the game, up to its fifth request.
    let sent: Vec<String> = trace_lines(&traces.join("g.seat2.trace"))
        .into_iter()
        .filter_map(|(to_bot, l)| to_bot.then_some(l))
        .collect();
    let requests: Vec<usize> = sent
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("{\"type\":\"request\""))
        .map(|(i, _)| i)
        .collect();
    let fifth = requests[4];
    let v: serde_json::Value = serde_json::from_str(&sent[fifth]).unwrap();
    let id = v["id"].as_u64().unwrap().to_string();
    let expected = sent[..=fifth].join("\n") + "\n";
    // The tee bot keeps the bytes it read.
    let prefix = s.path("asked");
    let tee = python_bot(
        "tests/bots/tee_bot.py",
        &[prefix.to_str().unwrap(), &s.marker],
    );
    let o = tarneeb(&[
        "replay",
        record.to_str().unwrap(),
        "--ask",
        "2",
        "--at",
        &id,
        "--bot",
        &tee,
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let got = std::fs::read_to_string(s.path("asked.in")).unwrap();
    assert_eq!(got, expected, "the bytes the bot read are the game's");
    assert!(
        out.contains(&format!("request {id} of seat 2, as sent: ")),
        "{out}"
    );
    assert!(
        out.contains("the bot's reply:  {\"type\": \"move\""),
        "{out}"
    );
    let recorded: Vec<serde_json::Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["type"] == "move" && v["seat"] == 2)
        .collect();
    let mv = recorded[4]["move"].as_str().unwrap();
    assert!(out.contains(&format!("recorded move:    {mv}\n")), "{out}");
    // A request id that was not this seat's is refused with the seat's ids.
    let o = tarneeb(&[
        "replay",
        record.to_str().unwrap(),
        "--ask",
        "2",
        "--at",
        "2",
        "--bot",
        &tee,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("seat 2 got no request 2"),
        "{}",
        stderr(&o)
    );
    common::assert_no_leftovers(&s.marker);
}
