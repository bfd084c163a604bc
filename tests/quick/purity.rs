//! The pure layers stay pure. The rules core: no I/O, threads, clocks, processes or
//! serde_json under `src/rules/` (house style; issue "The rules engine"). The statistics and
//! standings under `src/standings/`: no file system, processes, threads or clocks, and nothing
//! from the layers that have them (issue 22: "a pure layer below the tournament runner"); JSON
//! is allowed there, it is how the standings are written. This scans the source, comments
//! excluded (and for the standings their test modules), for the paths and macros that would
//! bring them in.

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

/// What the standings layer may not use: the rules core's list without `serde_json`, plus the
/// layers that do I/O.
const FORBIDDEN_IN_STANDINGS: &[&str] = &[
    "std::io",
    "std::fs",
    "std::net",
    "std::thread",
    "std::time",
    "std::process",
    "std::env",
    "std::sync",
    "std::path",
    "Instant::",
    "SystemTime",
    "println!",
    "print!",
    "dbg!",
    "thread_rng",
    "OsRng",
    "crate::analysis",
    "crate::bot",
    "crate::record",
    "crate::referee",
    "crate::tournament",
    "crate::cli",
];

/// The code of a file without its `mod tests` (a test may print what it measured).
fn without_tests(text: &str) -> &str {
    text.split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text)
}

/// Modules a `mod.rs` declares under `#[cfg(test)]`: test code in files of their own.
fn test_only_modules(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    text.split("#[cfg(test)]\nmod ")
        .skip(1)
        .filter_map(|rest| rest.split(';').next())
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .map(|name| format!("{name}.rs"))
        .collect()
}

fn offenders(dir: &Path, forbidden: &[&str], skip_tests: bool) -> Vec<String> {
    let mut found = Vec::new();
    let test_only = test_only_modules(dir);
    for entry in std::fs::read_dir(dir).expect("the layer's directory exists") {
        let path = entry.expect("readable dir entry").path();
        if path.is_dir() {
            found.extend(offenders(&path, forbidden, skip_tests));
            continue;
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if skip_tests && test_only.iter().any(|t| *t == name) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        let text = if skip_tests {
            without_tests(&text)
        } else {
            &text
        };
        for (n, line) in code_lines(text) {
            for f in forbidden {
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
    let found = offenders(&dir, FORBIDDEN, false);
    assert!(
        found.is_empty(),
        "the rules core must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn standings_layer_has_no_files_processes_threads_clocks_or_io_layers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/standings");
    let found = offenders(&dir, FORBIDDEN_IN_STANDINGS, true);
    assert!(
        found.is_empty(),
        "the standings layer must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_standings_scan_skips_only_test_code() {
    let text = "use std::fmt;\n#[cfg(test)]\nmod tests {\n    fn f() { println!(\"x\"); }\n}\n";
    assert!(!without_tests(text).contains("println!"));
    let text = "use std::fs::File;\n#[cfg(test)]\nmod tests {}\n";
    assert!(without_tests(text).contains("std::fs"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/standings");
    assert_eq!(
        test_only_modules(&dir),
        vec![
            "ratings_coverage.rs".to_string(),
            "ratings_symmetry.rs".to_string()
        ]
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
