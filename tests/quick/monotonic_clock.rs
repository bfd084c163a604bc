//! Time limits never read the wall clock (issue 43, docs/reliability.md "A clock step"): a
//! step of the system time (NTP, an administrator's `date -s`) during a move must neither
//! forfeit a bot that answered in time nor give one more time. Every deadline of the code that
//! times bots (src/referee, src/bot, src/remote) is a `std::time::Instant`, which Linux reads
//! from CLOCK_MONOTONIC (the unit test `deadlines_are_read_on_the_monotonic_clock` in
//! src/bot/watchdog.rs shows that); this test keeps the wall clock out of that code.

use std::path::{Path, PathBuf};

/// What reads the wall clock (or a clock it steps) in Rust or through libc.
const WALL_CLOCK: [&str; 8] = [
    "SystemTime",
    "UNIX_EPOCH",
    "CLOCK_REALTIME",
    "gettimeofday",
    "libc::time(",
    "chrono::",
    "Utc::now",
    "Local::now",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `file:line: text` for each line of `text`'s code (comments and the `mod tests` at its end
/// left out) that names the wall clock.
fn wall_clock_uses(name: &str, text: &str) -> Vec<String> {
    let body = text
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text);
    body.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let code = l.split("//").next().unwrap_or("");
            WALL_CLOCK
                .iter()
                .any(|w| code.contains(w))
                .then(|| format!("{name}:{}: {}", i + 1, l.trim()))
        })
        .collect()
}

#[test]
fn the_scan_finds_a_wall_clock_read_and_skips_comments_and_tests() {
    let text = "use std::time::Instant;\n\
                // SystemTime is not used here\n\
                let t = std::time::SystemTime::now();\n\
                #[cfg(test)]\nmod tests {\n    let x = libc::CLOCK_REALTIME;\n}\n";
    assert_eq!(
        wall_clock_uses("x.rs", text),
        ["x.rs:3: let t = std::time::SystemTime::now();"]
    );
}

#[test]
fn code_that_times_bots_reads_only_the_monotonic_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/referee", "src/bot", "src/remote"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    let mut uses = Vec::new();
    let mut instants = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.strip_prefix(root).unwrap().display().to_string();
        uses.extend(wall_clock_uses(&name, &text));
        instants += text.matches("Instant::now()").count();
    }
    assert!(files.len() > 20, "{files:?}");
    // The timing is there to be checked: the move timer and the watchdog take Instants.
    for (file, needle) in [
        ("src/referee/ask.rs", "Instant::now()"),
        (
            "src/bot/watchdog.rs",
            "pub fn arm(&self, deadline: Instant)",
        ),
        ("src/bot/mod.rs", "deadline: Instant"),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(text.contains(needle), "{file} no longer has {needle:?}");
    }
    assert!(instants > 10, "{instants}");
    assert!(
        uses.is_empty(),
        "time limits must use std::time::Instant (the monotonic clock), never the wall clock, \
         which a clock step moves:\n{}",
        uses.join("\n")
    );
}
