//! Issue 41 point 4: check-bot's hints cited "protocol.md section 3" for timeouts and for the
//! reply format, which sections 5 ("Time and faults") and 4.2 ("Requests and replies") are
//! about. Every section a hint cites must be a heading of protocol.md, and about the hint's
//! subject.

use tarneeb_referee::conformance::hints::{hint, Seen};
use tarneeb_referee::protocol::FaultKind;

/// protocol.md's numbered headings: "5" -> "Time and faults".
fn headings() -> Vec<(String, String)> {
    let text = std::fs::read_to_string("protocol.md").expect("protocol.md");
    text.lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
        .filter_map(|l| {
            let rest = l.trim_start_matches('#').trim();
            let (number, title) = rest.split_once(' ')?;
            let number = number.trim_end_matches('.');
            number
                .chars()
                .next()
                .filter(char::is_ascii_digit)
                .map(|_| (number.to_string(), title.to_string()))
        })
        .collect()
}

/// The sections a text cites as "protocol.md section N".
fn cited(text: &str) -> Vec<String> {
    text.match_indices("protocol.md section ")
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect::<String>()
                .trim_end_matches('.')
                .to_string()
        })
        .collect()
}

const KINDS: [FaultKind; 15] = [
    FaultKind::Handshake,
    FaultKind::Timeout,
    FaultKind::Exited,
    FaultKind::Disconnected,
    FaultKind::NotJson,
    FaultKind::BadReply,
    FaultKind::LineTooLong,
    FaultKind::IllegalMove,
    FaultKind::Unsolicited,
    FaultKind::Flood,
    FaultKind::Memory,
    FaultKind::Processes,
    FaultKind::FileSize,
    FaultKind::CpuTime,
    FaultKind::Disk,
];

/// Every hint check-bot can give, with its fault kind: each kind with and without output, with
/// and without a stderr tail, and the cut-short and sandbox cases.
fn every_hint() -> Vec<(FaultKind, String)> {
    let mut hints = Vec::new();
    for kind in KINDS {
        for wrote in [false, true] {
            for tail in [
                "",
                "KeyError: 'x'",
                "PermissionError: Permission denied: '/x'",
            ] {
                for detail in ["exit code 1", "not JSON (EOF): {; cut short"] {
                    let h = hint(&Seen {
                        kind,
                        detail,
                        wrote_anything: wrote,
                        stderr_tail: tail,
                        sandboxed: true,
                        answered_twice: None,
                    });
                    hints.push((kind, h));
                }
            }
        }
    }
    hints
}

#[test]
fn every_section_a_hint_cites_is_a_heading_of_protocol_md() {
    let headings = headings();
    assert!(headings.iter().any(|(n, _)| n == "4.2"), "{headings:?}");
    let mut seen = 0;
    for (kind, h) in every_hint() {
        for section in cited(&h) {
            seen += 1;
            assert!(
                headings.iter().any(|(n, _)| *n == section),
                "the {kind} hint cites protocol.md section {section}, which has no heading: {h}"
            );
        }
    }
    assert!(seen > 0, "no hint cites a section: the test reads nothing");
}

/// Each kind's hint cites the section about it (the heading's words checked, so a renumbered
/// protocol.md fails here rather than sending authors to the wrong place).
#[test]
fn a_hint_cites_the_section_about_its_subject() {
    let headings = headings();
    let title = |n: &str| {
        headings
            .iter()
            .find(|(h, _)| h == n)
            .map(|(_, t)| t.to_lowercase())
            .unwrap_or_default()
    };
    let expect: &[(FaultKind, &str, &str)] = &[
        (FaultKind::Timeout, "5", "time"),
        (FaultKind::BadReply, "4.2", "replies"),
        (FaultKind::Flood, "5", "faults"),
        (FaultKind::LineTooLong, "2", "framing"),
        (FaultKind::Memory, "1.1", "limits"),
    ];
    for (kind, section, word) in expect {
        let h = hint(&Seen {
            kind: *kind,
            detail: "exit code 1",
            wrote_anything: true,
            stderr_tail: "",
            sandboxed: false,
            answered_twice: None,
        });
        assert_eq!(cited(&h), [*section], "the {kind} hint: {h}");
        assert!(
            title(section).contains(word),
            "protocol.md section {section} is '{}', not about {word} ({kind})",
            title(section)
        );
    }
}

/// Beyond the hints: every "protocol.md section N" in the source (messages and comments)
/// names a heading that exists.
#[test]
fn every_section_the_source_cites_exists() {
    let headings = headings();
    let mut stack = vec![std::path::PathBuf::from("src")];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for section in cited(&text) {
                    seen += 1;
                    assert!(
                        headings.iter().any(|(n, _)| *n == section),
                        "{} cites protocol.md section {section}, which has no heading",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(
        seen > 10,
        "only {seen} citations found: the test reads nothing"
    );
}
