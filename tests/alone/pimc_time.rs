//! pimc's hard time limit holds when the machine is loaded: every reply, as the referee's
//! trace times it, within the bot's own hard limit.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{stderr, tarneeb, Scratch};
use serde_json::Value;

/// pimc's hard limit at `--ms 50`: its floor of one second (`FLOOR_MS` in src/pimc/mod.rs),
/// four times that for calls and trump choices (`BIDDING_FLOOR`), while the referee's limit
/// (30 s by default) is over 10 s.
const HARD_MS: f64 = 1000.0;
const BIDDING_HARD_MS: f64 = 4000.0;

/// Busy threads, two per core (at most 8), each stopping when told or after `most`.
fn load_cpu(stop: &Arc<AtomicBool>, most: Duration) -> Vec<std::thread::JoinHandle<()>> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (0..(2 * cores).min(8))
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) && start.elapsed() < most {
                    for i in 0..100_000u64 {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
                    }
                    std::hint::black_box(x);
                }
            })
        })
        .collect()
}

/// Each request's reply time in seconds (request written to the reply read, as the trace
/// has them), with the request's own limit and pimc's hard limit for its decision.
fn reply_times(trace: &str) -> Vec<(u64, f64, u64, f64)> {
    let mut asked = std::collections::HashMap::new();
    let mut out = Vec::new();
    for line in trace.lines() {
        let mut parts = line.splitn(4, ' ');
        let (Some(t), Some(_), Some(dir), Some(json)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let t: f64 = t.parse().unwrap();
        let Ok(v) = serde_json::from_str::<Value>(json) else {
            continue;
        };
        match (dir, v["type"].as_str()) {
            ("to-bot", Some("request")) => {
                let limit = v["time"]["limit_ms"].as_u64().unwrap_or(u64::MAX);
                let bidding = matches!(v["decision"].as_str(), Some("call" | "trump"));
                let hard = if bidding { BIDDING_HARD_MS } else { HARD_MS };
                asked.insert(v["id"].as_u64().unwrap(), (t, limit, hard));
            }
            ("from-bot", Some("move")) => {
                let id = v["id"].as_u64().unwrap();
                let (at, limit, hard) = asked.remove(&id).expect("a reply to a request");
                out.push((id, t - at, limit, hard));
            }
            _ => {}
        }
    }
    assert!(
        asked.is_empty(),
        "requests never answered: {:?}",
        asked.keys()
    );
    out
}

#[test]
fn pimc_answers_within_its_hard_limit_on_a_loaded_machine() {
    let _alone = crate::one_at_a_time();
    let scratch = Scratch::new("pimc-time");
    let bot = format!("{} bot pimc --ms 50", env!("CARGO_BIN_EXE_tarneeb"));
    // Three hands: under load pimc's choices differ from run to run (it stops searching at
    // its time limit), and a hand may end at its auction (all passed, thrown in), so the
    // count of replies is not fixed; one played hand in three is all the test needs.
    let rules = scratch.file("rules.json", r#"{"preset": "classic", "max-hands": 3}"#);
    let record = scratch.path("game.jsonl");
    let traces = scratch.path("traces");
    let stop = Arc::new(AtomicBool::new(false));
    let spinners = load_cpu(&stop, Duration::from_secs(300));
    let mut args = vec![
        "play".to_string(),
        "--rules".into(),
        rules.display().to_string(),
        "--seed".into(),
        "41".into(),
        "--record".into(),
        record.display().to_string(),
        "--trace".into(),
        traces.display().to_string(),
    ];
    for _ in 0..4 {
        args.extend(["--bot".to_string(), bot.clone()]);
    }
    let out = tarneeb(&args);
    stop.store(true, Ordering::Relaxed);
    for s in spinners {
        s.join().unwrap();
    }
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut replies = 0;
    let mut longest = 0.0f64;
    let mut late = Vec::new();
    for seat in 0..4 {
        let path = traces.join(format!("game.seat{seat}.trace"));
        let text = std::fs::read_to_string(&path).unwrap();
        for (id, secs, limit, hard) in reply_times(&text) {
            assert!(
                limit >= 10_000,
                "the referee's limit {limit} ms would lower pimc's"
            );
            replies += 1;
            longest = longest.max(secs * 1e3);
            if secs * 1e3 > hard {
                late.push(format!(
                    "seat {seat} request {id}: {:.0} ms over {hard}",
                    secs * 1e3
                ));
            }
        }
    }
    eprintln!("{replies} replies, the longest {longest:.0} ms");
    // At least one hand's 52 cards, so the limit was tested on play as well as on calls.
    assert!(replies >= 52, "only {replies} replies");
    assert!(late.is_empty(), "over the hard limit: {late:?}");
}
