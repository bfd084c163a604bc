//! `tarneeb standings DIR --html SITE`: a real tournament (a random bot, a heuristic bot and a
//! bot that plays an illegal card) written as a static site, then every page opened in headless
//! Chromium with the network off: each loads with nothing written to its console, the index
//! links every entrant, each entrant's page lists its games with links to pages that exist, the
//! forfeits are named, no page refers to anything on the network, and nothing on the index, the
//! game index, an entrant's page or a game's page scrolls sideways at 1280 or 390 px (issue
//! 40: tests/browser/fit.mjs). Screenshots at 1280 and
//! 390 px are saved in the system's temp directory (their paths are printed) for a look.

use crate::common;

use common::browser::{assert_deck, browse, required_browser, required_puppeteer};
use common::{python_bot, root, stderr, tarneeb, text, Scratch, FAULT_BOT, RANDOM_BOT};

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

const HEURISTIC_BOT: &str = "sample-bots/python/heuristic_bot.py";

fn play_tournament(s: &Scratch) -> std::path::PathBuf {
    let dir = s.path("run");
    let o = tarneeb(&[
        "tournament",
        "--out",
        dir.to_str().unwrap(),
        "--games",
        "1",
        "--bot",
        &format!("random={}", python_bot(RANDOM_BOT, &[])),
        "--bot",
        &format!("heuristic={}", python_bot(HEURISTIC_BOT, &[])),
        "--bot",
        &format!("cheat={}", python_bot(FAULT_BOT, &["illegal", "1"])),
    ]);
    assert!(o.status.success(), "tournament failed: {}", stderr(&o));
    dir
}

/// Every `href="..."` of a page but the empty inline icon (`data:,`, so no browser asks for
/// a favicon).
fn links(page: &str) -> Vec<String> {
    page.split("href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .filter(|l| l != "data:,")
        .collect()
}

/// A page refers to nothing outside itself and the site: no address with a scheme, no
/// protocol-relative one, no CSS import.
fn assert_offline(path: &Path, page: &str) {
    for needle in ["http://", "https://", "src=\"//", "href=\"//", "@import"] {
        assert!(
            !page.contains(needle),
            "{} refers to the network ({needle})",
            path.display()
        );
    }
}

#[test]
fn standings_html_writes_a_site_that_opens_from_disk() {
    let s = Scratch::new("site");
    let dir = play_tournament(&s);
    let site = s.path("site");
    let o = tarneeb(&[
        "standings",
        dir.to_str().unwrap(),
        "--html",
        site.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "standings --html failed: {}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("wrote "), "{}", stderr(&o));
    // The text report is printed as without --html.
    let plain = tarneeb(&["standings", dir.to_str().unwrap()]);
    assert_eq!(o.stdout, plain.stdout);

    let rows = fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let games = rows.lines().count();
    assert_eq!(games, 6, "three matches of one duplicate pair: {rows}");
    assert_eq!(fs::read_dir(site.join("games")).unwrap().count(), games);
    let entrants: Vec<_> = fs::read_dir(site.join("entrants"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entrants.len(), 3, "{entrants:?}");

    let index = fs::read_to_string(site.join("index.html")).unwrap();
    for name in ["random", "heuristic", "cheat"] {
        assert!(
            index.contains(&format!(">{name}</a>")),
            "the index links {name}"
        );
    }
    // Every link of the index and of every entrant page leads to a file of the site.
    let mut pages = vec![site.join("index.html"), site.join("games.html")];
    pages.extend(entrants.iter().cloned());
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        assert_offline(page, &text);
        for link in links(&text) {
            let target = page.parent().unwrap().join(&link);
            assert!(
                target.is_file(),
                "{} links {link}: no such file",
                page.display()
            );
        }
    }
    let cheat = entrants
        .iter()
        .find(|p| p.to_str().unwrap().ends_with("cheat.html"))
        .expect("cheat's page");
    let cheat_page = fs::read_to_string(cheat).unwrap();
    assert!(cheat_page.contains("Games (4)"), "{cheat_page}");
    assert!(
        cheat_page.contains("illegal-move"),
        "the forfeit's kind is named: {cheat_page}"
    );
    let game_pages: Vec<_> = fs::read_dir(site.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for g in &game_pages {
        assert_offline(g, &fs::read_to_string(g).unwrap());
    }

    let Some(chromium) = required_browser() else {
        return;
    };
    let shots = std::env::temp_dir().join("tarneeb-site-screenshots");
    fs::create_dir_all(&shots).unwrap();
    let url = |p: &Path| format!("file://{}", p.canonicalize().unwrap().display());
    let mut opened = pages.clone();
    opened.push(game_pages[0].clone());
    for (k, page) in opened.iter().enumerate() {
        let run = browse(
            &chromium,
            &s.path(&format!("profile-{k}")),
            &["--dump-dom".into()],
            &url(page),
        );
        assert!(
            run.console.is_empty(),
            "{} wrote to its console: {:?}",
            page.display(),
            run.console
        );
        assert!(
            run.stdout.contains("</body>"),
            "{}: {}",
            page.display(),
            run.stdout
        );
    }
    // The replay page ran its script: the step counter is filled in.
    let game = browse(
        &chromium,
        &s.path("profile-game"),
        &["--dump-dom".into()],
        &url(&game_pages[0]),
    );
    assert!(game.stdout.contains("id=\"step\""), "{}", game.stdout);
    for (width, page, name) in [
        (1280, &pages[0], "index-1280.png"),
        (390, &pages[0], "index-390.png"),
        (1280, cheat, "entrant-1280.png"),
        (390, cheat, "entrant-390.png"),
    ] {
        let shot = shots.join(name);
        let _ = fs::remove_file(&shot);
        browse(
            &chromium,
            &s.path(&format!("profile-{name}")),
            &[
                format!("--window-size={width},900"),
                format!("--screenshot={}", shot.display()),
            ],
            &url(page),
        );
        assert!(shot.is_file(), "no screenshot {}", shot.display());
        eprintln!("screenshot: {}", shot.display());
    }
    // The four-colour deck (issue 26): one setting for the whole site. Turned on from the
    // keyboard on the index, a game's replay page opens with it on and keeps it over a
    // reload; its own toggle turns it off again.
    if !required_puppeteer() {
        return;
    }
    let out_file = s.path("deck.json");
    let driver = Command::new("node")
        .arg(root().join("tests/browser/deck.mjs"))
        .arg(&out_file)
        .arg(&chromium)
        .arg(url(&pages[0]))
        .arg(url(&game_pages[0]))
        .current_dir(root().join("tests/browser"))
        .output()
        .expect("node runs");
    assert!(
        driver.status.success(),
        "deck.mjs: {}",
        text(&driver.stderr)
    );
    let out: Value = serde_json::from_str(&fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(out["errors"], serde_json::json!([]), "{out}");
    assert_eq!(out["console"], serde_json::json!([]), "{out}");
    assert_deck(&out["indexBefore"], false, false, "the index");
    assert_deck(&out["indexAfter"], true, false, "the index");
    assert_deck(&out["gameOpened"], true, true, "a game's page");
    assert_deck(&out["gameReloaded"], true, true, "a game's page, reloaded");
    assert_deck(&out["gameOff"], false, true, "a game's page, turned off");

    // Issue 40: nothing scrolls sideways at 1280 px (the standings' table used to be 1388 px
    // wide in a 1168 px column) nor on a phone at 390 px, where the tables turn into a card
    // per row; the verdict and the plain block come before the table.
    let fit_file = s.path("fit.json");
    let driver = Command::new("node")
        .arg(root().join("tests/browser/fit.mjs"))
        .arg(&fit_file)
        .arg(&chromium)
        .arg(url(&pages[0]))
        .arg(url(&pages[1]))
        .arg(url(cheat))
        .arg(url(&game_pages[0]))
        .current_dir(root().join("tests/browser"))
        .output()
        .expect("node runs");
    assert!(driver.status.success(), "fit.mjs: {}", text(&driver.stderr));
    let fit: Value = serde_json::from_str(&fs::read_to_string(&fit_file).unwrap()).unwrap();
    assert_eq!(fit["errors"], serde_json::json!([]), "{fit}");
    assert_eq!(fit["console"], serde_json::json!([]), "{fit}");
    let measured = fit["pages"].as_array().unwrap();
    assert_eq!(measured.len(), 8, "four pages at two widths: {fit}");
    for m in measured {
        let width = m["width"].as_u64().unwrap();
        assert!(
            m["scrollWidth"].as_u64().unwrap() <= width,
            "{} is wider than the window at {width} px: {m}",
            m["url"]
        );
        assert_eq!(
            m["wide"],
            serde_json::json!([]),
            "something scrolls sideways in {} at {width} px",
            m["url"]
        );
    }
    for index in measured
        .iter()
        .filter(|m| m["url"] == url(&pages[0]).as_str())
    {
        let table = index["tableTop"].as_i64().unwrap();
        for first in ["headlineTop", "plainTop"] {
            let top = index[first].as_i64().unwrap();
            assert!(
                top >= 0 && top < table,
                "{first} comes before the table: {index}"
            );
        }
    }
}

#[test]
fn standings_html_refuses_a_file_for_the_site() {
    let s = Scratch::new("site-file");
    let file = s.file("not-a-dir", "x");
    let dir = s.path("empty");
    fs::create_dir_all(&dir).unwrap();
    let o = tarneeb(&[
        "standings",
        dir.to_str().unwrap(),
        "--html",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--html") && stderr(&o).contains("is a file;"),
        "the message names the flag and the problem: {}",
        stderr(&o)
    );
}
