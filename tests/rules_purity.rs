//! The rules core stays pure: no I/O, threads, clocks, processes or serde_json under
//! `src/rules/` (house style; issue "The rules engine"). This scans the source, comments
//! excluded, for the paths and macros that would bring them in.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "std::io",
    "std::fs",
    "std::net",
    "std::thread",
    "std::time",
    "std::process",
    "std::env",
    "std::sync",
    "serde_json",
    "Instant::",
    "SystemTime",
    "println!",
    "eprintln!",
    "print!",
    "dbg!",
    "thread_rng",
    "OsRng",
    // Double-dummy analysis calls C++ through FFI: it lives in src/analysis/, never here.
    "crate::analysis",
    "dds_bridge",
    "contract_bridge",
];

fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
}

fn offenders(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src/rules exists") {
        let path = entry.expect("readable dir entry").path();
        if path.is_dir() {
            found.extend(offenders(&path));
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (n, line) in code_lines(&text) {
            for f in FORBIDDEN {
                if line.contains(f) {
                    found.push(format!("{}:{n}: uses {f}", path.display()));
                }
            }
        }
    }
    found
}

#[test]
fn rules_core_has_no_io_threads_clocks_processes_or_serde_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let found = offenders(&dir);
    assert!(
        found.is_empty(),
        "the rules core must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_catches_a_forbidden_use() {
    // Guard against a scan that can never fail.
    let sample = "use std::time::Instant; // fine in a comment: std::fs\nlet x = 1; // serde_json";
    let hits: Vec<_> = code_lines(sample)
        .filter(|(_, l)| FORBIDDEN.iter().any(|f| l.contains(f)))
        .collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].0, 1);
}
