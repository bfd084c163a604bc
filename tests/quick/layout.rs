//! The house's shape holds (issue 10): no file in `src/` over 800 lines; modules use only those
//! at their layer or below (cli on top; the drivers referee, tournament, simulate, replay; then
//! record; then bot; then protocol and the rules' helpers; the pure rules at the bottom); and no two
//! files import each other, directly or round a circle; no function in `src/` over 120 lines,
//! and none in `src/cli/` over 60 (issue 42: a command holds flags, its spec and printing). The
//! imports are read from the source (`crate::`, `super::`, `tarneeb_referee::` paths, test
//! modules excluded).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

/// Each top-level module's layer: a module may use its own layer's modules and those below.
fn layer(top: &str) -> Option<u8> {
    Some(match top {
        "rules" => 0,
        // The wire format is below the bots that speak it: protocol must not name bot
        // (issue 42: `protocol` converted `bot::LimitKind`; the conversion is in bot now).
        "protocol" | "players" | "signals" | "deal_key" | "standings" => 1,
        "bot" | "rules_file" => 2,
        "record" => 3,
        "referee" | "replay" | "simulate" | "analysis" | "remote" => 4,
        "tournament" | "pimc" | "conformance" | "site" | "fuzz_checks" => 5,
        // A league runs the tournament runner with games of its own choosing.
        "league" => 6,
        "cli" | "main" | "serve" => 7,
        "lib" => 8,
        _ => return None,
    })
}

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

/// `src/record/verify/mod.rs` -> ["record", "verify"]; `src/lib.rs` -> ["lib"].
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() > 1 && parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its `mod tests` (tests may reach anywhere).
fn code(text: &str) -> String {
    let body = text
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text);
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path a file's code names, as segments from the crate root (lowercase
/// segments only: the path up to the first type or function).
fn named_paths(me: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for prefix in ["crate::", "super::", "tarneeb_referee::"] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().last();
            rest = &rest[at + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let mut base: Vec<String> = match prefix {
                // `super` is the parent module, for a mod.rs file as for any other.
                "super::" => me[..me.len() - 1].to_vec(),
                _ => Vec::new(),
            };
            // Segments, then possibly a `{...}` group of further paths.
            let mut s = rest;
            loop {
                let seg: String = s
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if seg.is_empty() || !s[seg.len()..].starts_with("::") {
                    if !seg.is_empty() {
                        base.push(seg);
                    }
                    break;
                }
                base.push(seg.clone());
                s = &s[seg.len() + 2..];
            }
            if s.starts_with('{') {
                let end = s.find('}').unwrap_or(s.len());
                for item in s[1..end].split(',') {
                    let mut p = base.clone();
                    for seg in item.trim().split("::") {
                        if seg.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                            && seg != "self"
                        {
                            p.push(seg.to_string());
                        }
                    }
                    out.push(p);
                }
            }
            out.push(base);
        }
    }
    out
}

#[test]
fn no_file_in_src_is_over_800_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these along their seams: {long:?}");
}

/// A function longer than this is split along its seams, each piece named for what it decides
/// (issue 42 point 2).
const MAX_FUNCTION_LINES: usize = 120;

/// The functions of `text` (its `mod tests` left out) as (name, lines from `fn` to the brace
/// that closes it at the same indent).
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let body = text
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text);
    let lines: Vec<&str> = body.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = line.len() - code.len();
        let mut rest = code;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{}}}", " ".repeat(indent));
        // A declaration without a body (in a trait) ends with ';' before any '{'.
        let end = lines[i..].iter().position(|l| *l == close);
        let bodiless = lines[i..]
            .iter()
            .find(|l| l.contains('{') || l.trim_end().ends_with(';'))
            .is_some_and(|l| !l.contains('{'));
        if let (Some(end), false) = (end, bodiless) {
            found.push((name, end + 1));
        }
    }
    found
}

/// Every function in the `.rs` files under `dir` (relative to the crate) longer than `limit`
/// lines, as (file, name, lines).
fn functions_over(dir: &str, limit: usize) -> Vec<(String, String, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join(dir), &mut files);
    assert!(!files.is_empty(), "{dir}: no Rust file read");
    let mut long = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        for (name, n) in function_lengths(&std::fs::read_to_string(f).unwrap()) {
            if n > limit {
                long.push((rel.clone(), name, n));
            }
        }
    }
    long
}

#[test]
fn no_function_in_src_is_over_120_lines() {
    let long = functions_over("src", MAX_FUNCTION_LINES);
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines: split each along its seams, the pieces named for what they decide: {long:?}"
    );
}

/// A command function longer than this holds the library's knowledge: a command module holds
/// its flags, the construction of its spec and the printing (issue 42 point 1).
const MAX_CLI_FUNCTION_LINES: usize = 60;

#[test]
fn no_function_in_src_cli_is_over_60_lines() {
    let long = functions_over("src/cli", MAX_CLI_FUNCTION_LINES);
    assert!(
        long.is_empty(),
        "command functions over {MAX_CLI_FUNCTION_LINES} lines: move what the library should know into it (a spec it validates, a call that runs it) and split the rest along its seams: {long:?}"
    );
}

#[test]
fn function_lengths_are_read_from_fn_to_its_closing_brace() {
    let text = "fn a() {\n    x();\n}\n\nimpl B {\n    pub fn c(&self) {\n        y();\n        z();\n    }\n    fn d();\n}\n#[cfg(test)]\nmod tests {\nfn t() {\n}\n}\n";
    assert_eq!(
        function_lengths(text),
        vec![("a".to_string(), 3), ("c".to_string(), 4)]
    );
}

#[test]
fn modules_use_only_their_layer_and_below_and_no_file_imports_round_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut upward = Vec::new();
    for f in &files {
        let me = module_of(&src, f);
        let text = std::fs::read_to_string(f).unwrap();
        let deps = edges.entry(me.clone()).or_default();
        for path in named_paths(&me, &code(&text)) {
            // The longest prefix that is a file of its own.
            let Some(target) = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            // A file may use what its own ancestors (mod.rs files) declare.
            if target == me || me.starts_with(&target) {
                continue;
            }
            let (a, b) = (layer(&me[0]), layer(&target[0]));
            assert!(
                a.is_some(),
                "{}: add its top-level module to layer()",
                f.display()
            );
            assert!(b.is_some(), "{target:?}: add it to layer()");
            if b > a {
                upward.push(format!("{} uses {}", me.join("::"), target.join("::")));
            }
            deps.insert(target);
        }
    }
    assert!(
        upward.is_empty(),
        "imports that reach up a layer: {upward:?}"
    );
    // Depth-first search for a circle.
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|s| s == m).unwrap();
                return Some(stack[at..].iter().map(|s| s.join("::")).collect());
            }
            _ => {}
        }
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for d in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, edges, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        let circle = visit(m, &edges, &mut state, &mut Vec::new());
        assert!(circle.is_none(), "an import circle: {circle:?}");
    }
}

/// The Python crate's modules import round no circle either (issue 42: `game.rs` and
/// `search.rs` imported each other; their shared conversions are in `view.rs` now). The crate
/// root `lib.rs` declares them all and is left out.
#[test]
fn python_crate_modules_import_round_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let stems: BTreeSet<String> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|s| s != "lib")
        .collect();
    assert!(stems.contains("game") && stems.contains("search") && stems.contains("view"));
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let me = f.file_stem().unwrap().to_string_lossy().into_owned();
        if me == "lib" {
            continue;
        }
        let text = code(&std::fs::read_to_string(f).unwrap());
        let deps = edges.entry(me.clone()).or_default();
        for path in named_paths(std::slice::from_ref(&me), &text) {
            if let Some(first) = path.first().filter(|p| stems.contains(*p) && **p != me) {
                deps.insert(first.clone());
            }
        }
    }
    assert!(edges["game"].contains("view") && edges["search"].contains("view"));
    // Depth-first from every module: no path leads back to where it started.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = edges[start].iter().collect();
        while let Some(m) = todo.pop() {
            assert!(
                m != start,
                "python/src/{start}.rs imports round a circle back to itself: {edges:?}"
            );
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
}
