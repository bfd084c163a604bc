//! `tarneeb league` (issue 44): a league of local entrants that join, send new versions and
//! retire while it runs; its database against its records and `standings`; kill -9 and
//! restart; a row edited behind the referee's back. The real binary, the Python sample bots,
//! the default sandbox.

use crate::common;

use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use common::{python_bot, stderr, stdout, Scratch, RANDOM_BOT};
use serde_json::Value;

const HEURISTIC_BOT: &str = "sample-bots/python/heuristic_bot.py";
/// A bound for a loaded machine, never a timing assertion.
const LIMIT: Duration = Duration::from_secs(300);

fn league(args: &[&str], dir: &Path) -> Output {
    let (sub, rest) = args.split_first().unwrap();
    common::command()
        .args(["league", sub])
        .arg(dir)
        .args(rest)
        .output()
        .unwrap()
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn start(s: &Scratch, dir: &Path, entrants: &[(&str, &str)]) {
    ok(league(
        &["start", "--seed", "5", "--handshake-timeout", "120s"],
        dir,
    ));
    for (name, script) in entrants {
        let bot = python_bot(script, &[&s.marker]);
        ok(league(&["add", &format!("{name}={bot}")], dir));
    }
}

fn run_in_background(dir: &Path) -> Child {
    common::command()
        .args(["league", "run", "--jobs", "2", "--progress", "off"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn table(dir: &Path) -> Value {
    serde_json::from_str(&stdout(&ok(league(&["table", "--json"], dir)))).unwrap()
}

/// Games a version has played, as the table says.
fn games_of(t: &Value, label: &str) -> u64 {
    t["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["label"] == label)
        .map_or(0, |v| v["games"].as_u64().unwrap())
}

/// Waits until `done` holds of the table (the league running meanwhile).
fn wait_for(dir: &Path, child: &mut Child, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let t = table(dir);
        if done(&t) {
            return t;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the league ended ({status}) before {what}");
        }
        assert!(start.elapsed() < LIMIT, "no {what} within {LIMIT:?}: {t}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn results_rows(dir: &Path) -> Vec<Value> {
    common::json_lines(&dir.join("results.jsonl"))
}

/// Every game of the results in one complete duplicate pair, numbered 0.. without a gap
/// or a repeat.
fn assert_whole_pairs(rows: &[Value]) {
    let mut games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    games.sort_unstable();
    assert_eq!(
        games,
        (0..rows.len() as u64).collect::<Vec<_>>(),
        "games lost or doubled"
    );
    for r in rows {
        let pair = r["pair"].as_u64().unwrap();
        let twins: Vec<&Value> = rows.iter().filter(|o| o["pair"] == pair).collect();
        assert_eq!(twins.len(), 2, "pair {pair} is not whole");
        assert_eq!(twins[0]["seed"], twins[1]["seed"]);
        assert_eq!(
            twins[0]["seats"][0], twins[1]["seats"][1],
            "seats swapped in the twin"
        );
    }
}

/// The league's table is what `standings` computes from the records: every row checked
/// against its record, the same entrants, games and ratings.
fn assert_table_is_the_standings(dir: &Path) {
    let checked = ok(common::command()
        .args(["standings", "--check-records", "--json"])
        .arg(dir)
        .output()
        .unwrap());
    let fresh: Value = serde_json::from_str(&stdout(&checked)).unwrap();
    let stored = table(dir)["standings"].clone();
    let fresh_entrants = fresh["standings"]["entrants"]
        .as_array()
        .or_else(|| fresh["entrants"].as_array())
        .unwrap_or_else(|| panic!("standings JSON: {fresh}"))
        .clone();
    let stored_entrants = stored["entrants"].as_array().unwrap();
    assert_eq!(fresh_entrants.len(), stored_entrants.len());
    for (f, s) in fresh_entrants.iter().zip(stored_entrants) {
        assert_eq!(f["name"], s["name"]);
        assert_eq!(f["games"], s["games"]);
        assert_eq!(f["wins"], s["wins"]);
        let (fe, se) = (f["elo"].as_f64().unwrap(), s["elo"].as_f64().unwrap());
        assert!(
            (fe - se).abs() < 1e-6,
            "{}: Elo {fe} against {se}",
            f["name"]
        );
    }
    let check = league(&["check"], dir);
    assert!(check.status.success(), "league check: {}", stderr(&check));
}

#[test]
fn entrants_join_update_and_retire_while_the_league_runs_and_its_table_is_the_standings() {
    let s = Scratch::new("league-roster");
    let dir = s.path("league");
    start(&s, &dir, &[("a", RANDOM_BOT), ("b", HEURISTIC_BOT)]);
    let mut child = run_in_background(&dir);
    wait_for(&dir, &mut child, "4 games", |t| games_of(t, "a@1") >= 4);
    // A newcomer is added while games run: it plays.
    ok(league(
        &[
            "add",
            &format!("c={}", python_bot(HEURISTIC_BOT, &[&s.marker])),
        ],
        &dir,
    ));
    wait_for(&dir, &mut child, "games of c@1", |t| {
        games_of(t, "c@1") >= 4
    });
    // A new version of a: the old one stops (but for a pair in flight), the new one plays.
    ok(league(
        &[
            "update",
            &format!("a={}", python_bot(RANDOM_BOT, &[&s.marker])),
        ],
        &dir,
    ));
    let at_update = games_of(&table(&dir), "a@1");
    wait_for(&dir, &mut child, "games of a@2", |t| {
        games_of(t, "a@2") >= 4
    });
    ok(league(&["retire", "b"], &dir));
    let at_retire = games_of(&table(&dir), "b@1");
    let later = games_of(&table(&dir), "c@1");
    wait_for(&dir, &mut child, "more games of c@1", |t| {
        games_of(t, "c@1") >= later + 6
    });
    common::stop_referee(&mut child, LIMIT);
    let t = table(&dir);
    // What was in flight when the change was read finishes: a game per worker (two) and the
    // twin of a pair one of them started.
    assert!(
        games_of(&t, "a@1") <= at_update + 3,
        "a@1 played on after its update (at {at_update}): {t}"
    );
    assert!(
        games_of(&t, "b@1") <= at_retire + 3,
        "b@1 played on after retiring (at {at_retire}): {t}"
    );
    let states: Vec<(String, bool)> = t["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["label"].as_str().unwrap().to_string(),
                v["retired"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [("a@1", true), ("b@1", true), ("c@1", false), ("a@2", false)]
            .map(|(l, r)| (l.to_string(), r))
    );
    // The history of a links its versions.
    let h: Value =
        serde_json::from_str(&stdout(&ok(league(&["history", "a", "--json"], &dir)))).unwrap();
    assert_eq!(h.as_array().unwrap().len(), 2);
    assert!(h[1]["history"].as_array().unwrap().len() >= 4);
    let text = stdout(&ok(league(&["history", "a"], &dir)));
    assert!(
        text.contains("a@2 (active") && text.contains("replaces a@1"),
        "{text}"
    );
    // Stopped between pairs or not, the restart completes what was in flight.
    let n = results_rows(&dir).len() as u64;
    ok(league(
        &["run", "--games", &(n + 4).to_string(), "--progress", "off"],
        &dir,
    ));
    let rows = results_rows(&dir);
    assert_whole_pairs(&rows);
    assert!(rows.len() as u64 >= n + 4);
    assert_table_is_the_standings(&dir);
    common::assert_no_leftovers(&s.marker);
}

#[test]
fn a_league_killed_with_sigkill_loses_nothing_and_doubles_nothing() {
    let s = Scratch::new("league-kill");
    let dir = s.path("league");
    start(
        &s,
        &dir,
        &[("x", RANDOM_BOT), ("y", RANDOM_BOT), ("z", HEURISTIC_BOT)],
    );
    let mut child = run_in_background(&dir);
    wait_for(&dir, &mut child, "10 games", |t| {
        t["standings"]["games"].as_u64().unwrap_or(0) >= 10
    });
    child.kill().unwrap();
    let _ = child.wait();
    let before = results_rows(&dir).len() as u64;
    let out = ok(league(
        &[
            "run",
            "--games",
            &(before + 6).to_string(),
            "--progress",
            "off",
        ],
        &dir,
    ));
    let rows = results_rows(&dir);
    assert_whole_pairs(&rows);
    assert!(rows.len() as u64 >= before + 6, "{}", stderr(&out));
    assert_table_is_the_standings(&dir);
    // The guardian ends a killed referee's bots; give it the time a loaded machine needs.
    let start = Instant::now();
    while !s.leftovers().is_empty() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(200));
    }
    common::assert_no_leftovers(&s.marker);
}

#[test]
fn a_row_edited_in_the_database_is_reported() {
    let s = Scratch::new("league-edit");
    let dir = s.path("league");
    start(&s, &dir, &[("p", RANDOM_BOT), ("q", HEURISTIC_BOT)]);
    ok(league(&["run", "--games", "4", "--progress", "off"], &dir));
    ok(league(&["check"], &dir));
    // The site of a league has its ratings over time, linked from the standings.
    let site = s.path("site");
    ok(common::command()
        .arg("standings")
        .arg(&dir)
        .arg("--html")
        .arg(&site)
        .output()
        .unwrap());
    let page = std::fs::read_to_string(site.join("ratings.html")).unwrap();
    for label in ["p@1", "q@1"] {
        assert!(
            page.contains(&format!("data-version=\"{label}\"")),
            "{page}"
        );
    }
    let svg = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap()];
    assert!(!svg.contains("<script"), "{svg}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("href=\"ratings.html\""));
    // A cheat turns game 1 around, its columns and its row alike.
    let db = rusqlite::Connection::open(dir.join("league.db")).unwrap();
    let (row, was): (String, Option<i64>) = db
        .query_row("SELECT row, winner FROM games WHERE game = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    let mut v: Value = serde_json::from_str(&row).unwrap();
    let winner = v["winner"].as_u64().map(|w| 1 - w).unwrap_or(0);
    v["winner"] = winner.into();
    db.execute(
        "UPDATE games SET winner = ?1, row = ?2 WHERE game = 1",
        rusqlite::params![winner, v.to_string()],
    )
    .unwrap();
    drop(db);
    let check = league(&["check"], &dir);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(stderr(&check).contains("(games 1)"), "{}", stderr(&check));
    // Put back, the row passes; a rating edited in the versions table is found.
    let db = rusqlite::Connection::open(dir.join("league.db")).unwrap();
    db.execute(
        "UPDATE games SET winner = ?1, row = ?2 WHERE game = 1",
        rusqlite::params![was, row],
    )
    .unwrap();
    db.execute(
        "UPDATE versions SET elo = elo + 100 WHERE label = 'p@1'",
        [],
    )
    .unwrap();
    drop(db);
    let check = league(&["check"], &dir);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert!(
        stderr(&check).contains("the rating of p@1"),
        "{}",
        stderr(&check)
    );
}

#[test]
fn the_live_page_of_a_running_league_plots_every_versions_rating_over_time() {
    use common::browser::{addresses_on_stderr, required_browser, required_puppeteer};
    let Some(chromium) = required_browser() else {
        return;
    };
    if !required_puppeteer() {
        return;
    }
    let s = Scratch::new("league-page");
    let dir = s.path("league");
    start(&s, &dir, &[("r", RANDOM_BOT), ("h", HEURISTIC_BOT)]);
    ok(league(
        &[
            "update",
            &format!("r={}", python_bot(RANDOM_BOT, &[&s.marker])),
        ],
        &dir,
    ));
    let mut child = common::command()
        .args(["league", "run", "--jobs", "1", "--progress", "off"])
        .args(["--serve", "127.0.0.1:0"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (rx, reader) = addresses_on_stderr(&mut child);
    let url = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the league says where it serves");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let driver = std::process::Command::new("node")
        .arg(common::root().join("tests/browser/league.mjs"))
        .arg(&url)
        .arg(&s.dir)
        .arg(&chromium)
        .arg("2")
        .current_dir(common::root().join("tests/browser"))
        .output()
        .expect("node runs");
    common::stop_referee(&mut child, LIMIT);
    let stderr_text = reader.join().unwrap();
    assert!(
        driver.status.success(),
        "league.mjs failed: {}",
        common::text(&driver.stderr)
    );
    let out: Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("league.json")).unwrap()).unwrap();
    assert_eq!(out["errors"], serde_json::json!([]), "{out}\n{stderr_text}");
    assert_eq!(out["console"], serde_json::json!([]), "{out}");
    // r@1 never played (updated before the first game): the lines are the two that did.
    let mut plotted: Vec<String> = out["after"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    plotted.sort();
    assert_eq!(plotted, ["h@1", "r@2"], "{out}");
    assert_eq!(out["after"]["scripts"], 0);
    assert!(
        out["width1280"].as_u64().unwrap() <= 1280,
        "the page scrolls sideways: {out}"
    );
    assert!(
        out["width390"].as_f64().unwrap() <= 390.0,
        "the plot is wider than a phone: {out}"
    );
}

/// Issue 44's "a remote entrant joins by relay": a remote entrant added before any relay
/// connects is not paired (its seats never wait or forfeit as absent) while the local entrants
/// play; once its relay connects it plays, each of its pairs on deals of their own (an owner
/// could carry a deal from one game of a duplicate pair to its twin); the relay hears `over`
/// when the league stops; the table is the standings, and names it as remote.
#[test]
fn a_remote_entrant_joins_by_relay_and_plays_only_while_connected() {
    use common::remote::{relay, Running};
    let s = Scratch::new("league-remote");
    let dir = s.path("league");
    start(&s, &dir, &[("a", RANDOM_BOT), ("b", HEURISTIC_BOT)]);
    let added = ok(league(&["add", "far=remote"], &dir));
    let said = stderr(&added);
    let token = said
        .lines()
        .find_map(|l| l.strip_prefix("token for far: "))
        .unwrap_or_else(|| panic!("no token printed: {said}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    // A second version keeps the token: none is printed again.
    let again = stderr(&ok(league(&["update", "far=remote"], &dir)));
    assert!(!again.contains(&token), "{again}");
    let mut run = Running::start(&[
        "league".into(),
        "run".into(),
        dir.display().to_string(),
        "--jobs".into(),
        "2".into(),
        "--progress".into(),
        "off".into(),
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--games".into(),
        "16".into(),
    ]);
    let addr = run.addr();
    // The local entrants play while far has no relay.
    let start = Instant::now();
    while results_rows(&dir).len() < 4 {
        assert!(
            run.child.try_wait().unwrap().is_none(),
            "the league ended early: {}",
            run.stderr()
        );
        assert!(start.elapsed() < LIMIT, "no 4 games: {}", run.stderr());
        std::thread::sleep(Duration::from_millis(200));
    }
    let before: Vec<Value> = results_rows(&dir);
    assert!(
        before.iter().all(|r| !r.to_string().contains("far@")),
        "far played before its relay connected: {before:?}"
    );
    let bot = python_bot(HEURISTIC_BOT, &[&s.marker]);
    let far = relay(&addr, &token, 2, &[], &bot);
    let (status, _, err) = run.finish(LIMIT);
    assert!(status.success(), "{err}");
    let (relay_status, _, relay_err) = far.finish(LIMIT);
    assert!(
        relay_status.success(),
        "the relay did not end on `over`: {relay_err}"
    );
    let rows = results_rows(&dir);
    let theirs: Vec<&Value> = rows
        .iter()
        .filter(|r| r["seats"].to_string().contains("far@2"))
        .collect();
    assert!(theirs.len() >= 2, "far@2 never played: {rows:?}\n{err}");
    assert!(
        rows.iter().all(|r| !r.to_string().contains("far@1")),
        "the replaced version played"
    );
    for r in &rows {
        assert!(!r.to_string().contains("absent"), "an absent seat: {r}");
    }
    // Its games are on deals of their own; the local pairs stay duplicate.
    for r in &theirs {
        assert!(r["pair"].is_null(), "a duplicate pair with far: {r}");
    }
    let seeds: std::collections::HashSet<String> =
        theirs.iter().map(|r| r["seed"].to_string()).collect();
    assert_eq!(seeds.len(), theirs.len(), "far played a deal twice");
    let local: Vec<Value> = rows
        .iter()
        .filter(|r| !r["seats"].to_string().contains("far@"))
        .cloned()
        .collect();
    for r in &local {
        let twins = local.iter().filter(|o| o["pair"] == r["pair"]).count();
        assert_eq!(twins, 2, "a local pair is not whole: {r}");
    }
    assert_table_is_the_standings(&dir);
    let text = stdout(&ok(league(&["table"], &dir)));
    assert!(
        text.contains("active, remote") && text.contains("remote entrants: far"),
        "{text}"
    );
    common::assert_no_leftovers(&s.marker);
}

/// Issue 44's "partners and seats rotated": with `league start --partners rotate` the two
/// versions of each pair partner two others, changing from pair to pair, both games of a pair
/// on the same deals with the partnerships' seats swapped; the table is still the standings.
#[test]
fn with_rotating_partners_each_pair_seats_two_partnerships_of_different_versions() {
    let s = Scratch::new("league-rotate");
    let dir = s.path("league");
    ok(league(
        &[
            "start",
            "--seed",
            "9",
            "--partners",
            "rotate",
            "--handshake-timeout",
            "120s",
        ],
        &dir,
    ));
    for (name, script) in [
        ("a", RANDOM_BOT),
        ("b", HEURISTIC_BOT),
        ("c", RANDOM_BOT),
        ("d", HEURISTIC_BOT),
    ] {
        let bot = python_bot(script, &[&s.marker]);
        ok(league(&["add", &format!("{name}={bot}")], &dir));
    }
    ok(league(
        &["run", "--games", "12", "--jobs", "2", "--progress", "off"],
        &dir,
    ));
    let rows = results_rows(&dir);
    assert_eq!(rows.len(), 12);
    let mut partnerships = std::collections::HashSet::new();
    for r in &rows {
        let seats: Vec<&str> = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let distinct: std::collections::HashSet<&str> = seats.iter().copied().collect();
        assert_eq!(distinct.len(), 4, "not four versions: {r}");
        let mut p = [seats[0], seats[2]];
        p.sort_unstable();
        partnerships.insert(p);
        let twin = rows
            .iter()
            .find(|o| o["pair"] == r["pair"] && o["game"] != r["game"])
            .unwrap_or_else(|| panic!("no twin: {r}"));
        assert_eq!(twin["seed"], r["seed"]);
        assert_eq!(
            twin["seats"][0], r["seats"][1],
            "sides not swapped: {r} {twin}"
        );
        assert_eq!(
            twin["seats"][2], r["seats"][3],
            "sides not swapped: {r} {twin}"
        );
    }
    assert!(
        partnerships.len() >= 4,
        "partners did not rotate: {partnerships:?}"
    );
    assert_table_is_the_standings(&dir);
    common::assert_no_leftovers(&s.marker);
}

/// The last line of a refusal on stderr (after any sandbox warning), its command's prefix
/// (`tarneeb league: `, `tarneeb: `) taken off.
fn refusal(out: &Output, prefix: &str) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let text = stderr(out);
    let last = text.lines().last().unwrap_or_default().to_string();
    last.strip_prefix(prefix)
        .unwrap_or_else(|| panic!("no '{prefix}' in: {text}"))
        .to_string()
}

/// What `tarneeb tournament` says of `settings` (two startable entrants, nothing else wrong).
fn tournament_refusal(s: &Scratch, settings: &[&str]) -> String {
    let bot = python_bot(RANDOM_BOT, &[&s.marker]);
    let out = s.path("tournament");
    let said = common::command()
        .args([
            "tournament",
            "--bot",
            &format!("a={bot}"),
            "--bot",
            &format!("b={bot}"),
        ])
        .arg("--out")
        .arg(&out)
        .args(settings)
        .output()
        .unwrap();
    assert!(
        !out.exists(),
        "the refused tournament made {}",
        out.display()
    );
    refusal(&said, "tarneeb: ")
}

/// Issue 42 point 1: a league's settings are checked by the tournament's own checks ("the
/// validation of a tournament in one place the library owns"). A setting `tarneeb tournament`
/// refuses, `league start` refuses with the same message (exit 2), making no directory; and
/// settings that no longer hold when `league run` reads them back are refused the same way.
#[test]
fn a_bad_setting_is_refused_by_league_start_with_the_tournaments_message_and_makes_nothing() {
    let s = Scratch::new("league-bad-setting");
    let missing = s.path("no-such-path").display().to_string();
    let cases: [&[&str]; 3] = [
        &["--rules", "no-such-preset"],
        // Inline rules: a league reads them as a tournament does.
        &["--rules", "{\"deal\": 1}"],
        &["--sandbox-ro", &missing],
    ];
    for settings in cases {
        let dir = s.path("league");
        let mut args = vec!["start"];
        args.extend_from_slice(settings);
        let said = refusal(&league(&args, &dir), "tarneeb league: ");
        assert_eq!(said, tournament_refusal(&s, settings), "{settings:?}");
        assert!(
            !dir.exists(),
            "{settings:?}: the refused league made its directory"
        );
    }

    // A league whose kept settings name a path since gone: `run` refuses it as a tournament
    // would, and plays nothing.
    let dir = s.path("kept");
    let ro = s.path("gone");
    std::fs::create_dir(&ro).unwrap();
    let ro_text = ro.display().to_string();
    ok(league(&["start", "--sandbox-ro", &ro_text], &dir));
    for name in ["a", "b"] {
        let bot = python_bot(RANDOM_BOT, &[&s.marker]);
        ok(league(&["add", &format!("{name}={bot}")], &dir));
    }
    std::fs::remove_dir(&ro).unwrap();
    let said = refusal(
        &league(&["run", "--games", "2", "--progress", "off"], &dir),
        "tarneeb league: ",
    );
    assert_eq!(said, tournament_refusal(&s, &["--sandbox-ro", &ro_text]));
    let results = dir.join("results.jsonl");
    assert!(
        !results.exists() || results_rows(&dir).is_empty(),
        "a refused run played"
    );
}
