//! Issue 26 item 1: on the live page of a run played with `--analyze`, a finished game opens in
//! the replay viewer with its double-dummy analysis; without `--analyze`, without it.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::remote::Running;
use common::{python_bot, tarneeb, Scratch, RANDOM_BOT};

/// The body of `GET path` from the server at `addr`.
fn get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

/// The JSON of the page's `<script id="analysis">` element.
fn analysis_of(page: &str) -> serde_json::Value {
    let start =
        page.find("id=\"analysis\">").expect("an analysis element") + "id=\"analysis\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn a_finished_game_s_page_has_its_analysis_when_the_run_had_it() {
    let s = Scratch::new("live-analysis");
    let bot = python_bot(RANDOM_BOT, &[]);
    for (name, analyze) in [("plain", false), ("analysed", true)] {
        let out = s.path(name);
        let mut args = vec![
            "tournament".to_string(),
            "--bot".into(),
            format!("a={bot}"),
            "--bot".into(),
            format!("b={bot}"),
            "--games".into(),
            "1".into(),
            "--no-duplicate".into(),
            "--out".into(),
            out.display().to_string(),
        ];
        if analyze {
            args.push("--analyze".into());
        }
        let o = tarneeb(&args);
        assert!(o.status.success(), "{}", common::stderr(&o));
        let mut server = Running::start(&[
            "serve".to_string(),
            out.display().to_string(),
            "--listen".into(),
            "127.0.0.1:0".into(),
        ]);
        let line = server.line_with("serving http://", Duration::from_secs(60));
        let addr = line
            .split("http://")
            .nth(1)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let page = get(&addr, "/games/000000.html");
        assert!(
            page.starts_with("HTTP/1.1 200") || page.starts_with("HTTP/1.0 200"),
            "{page:.300}"
        );
        let analysis = analysis_of(&page);
        if analyze {
            let hands = analysis["hands"].as_array().expect("hands analysed");
            assert!(!hands.is_empty(), "{analysis}");
        } else {
            assert!(analysis.is_null(), "{analysis}");
        }
        // Asked again, the page is the same (from the cache).
        let again = get(&addr, "/games/000000.html");
        assert_eq!(analysis_of(&again), analysis);
        server.kill();
    }
}
