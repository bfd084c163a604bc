//! One bot cannot starve the others of CPU (issue "Secret cards", point 3): a bot that starts
//! 240 processes spinning on the CPU its game is pinned to as soon as it has answered the
//! handshake does not make the honest seats of that game (bots that spend 100 ms of CPU on each
//! reply) miss a move, even under a limit tighter than the default (5 s a move instead of 30):
//! each bot is a CPU cgroup of equal weight, so its processes share one bot's share of the CPU.
//! Without that, an honest bot got about one 480th of the CPU and its first reply took over a
//! minute. The deals are public and the seed chosen so that an honest seat is asked first (the
//! spinner's own replies are as slow as anyone's: asked first, it would forfeit at once).

use crate::common;

use common::{have_bwrap, json_lines, root, tarneeb, text, Scratch, FAULT_BOT};
use tarneeb_referee::rules::{DealSource, Seat};
use tarneeb_referee::tournament::schedule::deal_set_seed;

#[test]
fn a_spinning_bot_does_not_starve_honest_seats() {
    let _alone = crate::one_at_a_time();
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("spin");
    let rules = s.file("short.json", r#"{"preset": "classic", "max-hands": 2}"#);
    let spinner = format!(
        "{} {} spin 240 {}",
        common::python(),
        root().join(FAULT_BOT).display(),
        s.marker
    );
    // Honest, and thinks: 100 ms of CPU before each reply.
    let honest = format!(
        "{} {} burn 100 {}",
        common::python(),
        root().join(FAULT_BOT).display(),
        s.marker
    );
    // Game 0 seats spin, honest, spin, honest: a seed whose first dealer is seat 0, so seat 1
    // (honest) speaks first.
    let seed = (1u64..)
        .find(|&t| DealSource::from_seed(deal_set_seed(t, 0)).first_dealer() == Seat::S0)
        .unwrap()
        .to_string();
    let out = s.path("t");
    let o = tarneeb(&[
        "tournament",
        "--bot",
        &format!("spin={spinner}"),
        "--bot",
        &format!("honest={honest}"),
        "--games",
        "1",
        "--no-duplicate",
        "--jobs",
        "1",
        "--public-deals",
        "--seed",
        &seed,
        "--move-timeout",
        "5s",
        "--rules",
        rules.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = json_lines(&out.join("results.jsonl"));
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    let record = json_lines(&out.join(row["record"].as_str().unwrap()));
    let seats = row["seats"].as_array().unwrap();
    assert_eq!(seats[1], "honest");
    let first = record
        .iter()
        .find(|l| l["type"] == "move" || l["type"] == "fault");
    assert_eq!(first.unwrap()["seat"], 1, "an honest seat is asked first");
    for f in record.iter().filter(|l| l["type"] == "fault") {
        let seat = f["seat"].as_u64().unwrap() as usize;
        assert_eq!(seats[seat], "spin", "an honest seat faulted: {f}");
    }
    if let Some(seat) = row["forfeit_seat"].as_u64() {
        assert_eq!(seats[seat as usize], "spin", "{row}");
    }
    common::assert_no_leftovers(&s.marker);
}
