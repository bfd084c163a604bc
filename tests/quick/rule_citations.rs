//! Citations a reader can follow (issue 42 point 5): code, tests and docs cite the rules by
//! docs/rules.md anchors (`docs/rules.md#contract-kaboot`), never by the source documents the
//! project was created from, which are not in the repository.
//!
//! - every `rules.md#anchor` cited in src/, tests/, python/, docs/ and the top-level guides is an
//!   anchor of docs/rules.md (`<a id="anchor"></a>`), and every in-page link of docs/rules.md
//!   leads to an anchor or a heading;
//! - every anchor of docs/rules.md is cited by at least one test (tests/, python/tests/, a
//!   `tests.rs` or the `#[cfg(test)]` part of a source file): each rule has a test;
//! - every option of the rules configuration type has an anchor (`contract.kaboot` is
//!   `#contract-kaboot`);
//! - no file cites the brief's file or a rule text's file name or number.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tarneeb_referee::rules::Rules;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rules_md() -> String {
    std::fs::read_to_string(root().join("docs/rules.md")).expect("docs/rules.md")
}

/// The anchors a text defines: `<a id="NAME"></a>`.
fn anchors_in(text: &str) -> Vec<String> {
    let open = "<a id=\"";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        rest = &rest[at + open.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        let name = &rest[..end];
        assert!(
            rest[end..].starts_with("\"></a>"),
            "docs/rules.md: the anchor `{name}` must be written `<a id=\"{name}\"></a>`"
        );
        out.push(name.to_string());
    }
    out
}

fn is_anchor_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}

/// The anchors `text` cites as `rules.md#NAME` (also `docs/rules.md#NAME`), with line numbers.
fn citations_in(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("rules.md#") {
            rest = &rest[at + "rules.md#".len()..];
            let end = rest.find(|c| !is_anchor_char(c)).unwrap_or(rest.len());
            out.push((n + 1, rest[..end].trim_end_matches('-').to_string()));
        }
    }
    out
}

/// The lines of `text` that are test code: all of a test file, or what follows `#[cfg(test)]`.
fn test_part(path: &Path, text: &str) -> usize {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if rel.starts_with("tests")
        || rel.starts_with("python/tests")
        || name == "tests.rs"
        || name.ends_with("_tests.rs")
    {
        return 0;
    }
    text.lines()
        .position(|l| l.trim_start().starts_with("#[cfg(test)]"))
        .map_or(usize::MAX, |n| n + 1)
}

/// Source and documentation files under `dir`, skipping build output and hidden folders.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || ["target", "node_modules", "__pycache__"].contains(&&*name) {
            continue;
        }
        if p.is_dir() {
            files(&p, out);
        } else if [".rs", ".py", ".pyi", ".md"]
            .iter()
            .any(|x| name.ends_with(x))
        {
            out.push(p);
        }
    }
}

/// The files the checks read; this file is left out, since it cites made-up anchors and
/// spells the forbidden names to look for them.
fn scanned() -> Vec<(PathBuf, String)> {
    let me = root().join("tests/quick/rule_citations.rs");
    let mut paths = Vec::new();
    for dir in ["src", "tests", "python", "docs"] {
        files(&root().join(dir), &mut paths);
    }
    for top in ["README.md", "protocol.md"] {
        paths.push(root().join(top));
    }
    paths.sort();
    paths.retain(|p| *p != me);
    paths
        .into_iter()
        .filter_map(|p| Some((p.clone(), std::fs::read_to_string(&p).ok()?)))
        .collect()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, other punctuation dropped.
fn heading_slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Citations whose anchor docs/rules.md does not define, as `file:line: #anchor`.
fn dangling(anchors: &BTreeSet<String>, files: &[(PathBuf, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (path, text) in files {
        for (line, a) in citations_in(text) {
            if !anchors.contains(&a) {
                bad.push(format!("{}:{line}: #{a}", rel(path)));
            }
        }
    }
    bad
}

#[test]
fn every_cited_rule_anchor_exists_in_docs_rules_md() {
    let doc = rules_md();
    let anchors: BTreeSet<String> = anchors_in(&doc).into_iter().collect();
    let bad = dangling(&anchors, &scanned());
    assert!(
        bad.is_empty(),
        "citations of docs/rules.md anchors that docs/rules.md does not define (add \
         `<a id=\"NAME\"></a>` to the rule in docs/rules.md, or cite an existing anchor):\n  {}",
        bad.join("\n  ")
    );
    // In-page links of docs/rules.md lead to an anchor or a heading.
    let mut targets = anchors.clone();
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix('#') {
            let h = h.trim_start_matches('#');
            if !h.contains("<a id=") {
                targets.insert(heading_slug(h));
            }
        }
    }
    let mut bad = Vec::new();
    for (n, line) in doc.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](#") {
            rest = &rest[at + 3..];
            let end = rest.find(')').unwrap_or(rest.len());
            if !targets.contains(&rest[..end]) {
                bad.push(format!("docs/rules.md:{}: #{}", n + 1, &rest[..end]));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "in-page links of docs/rules.md to no anchor or heading:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn the_check_finds_a_made_up_anchor() {
    // The check itself: a citation of an anchor docs/rules.md lacks is reported with its place.
    let anchors: BTreeSet<String> = anchors_in(&rules_md()).into_iter().collect();
    assert!(anchors.contains("contract-kaboot"), "{anchors:?}");
    let text = "// docs/rules.md#contract-kaboot: fine\n// docs/rules.md#no-such-rule: made up\n";
    let bad = dangling(&anchors, &[(root().join("src/x.rs"), text.to_string())]);
    assert_eq!(bad, ["src/x.rs:2: #no-such-rule"]);
}

#[test]
fn every_anchor_of_docs_rules_md_is_cited_by_a_test() {
    let doc = rules_md();
    let anchors = anchors_in(&doc);
    let mut seen = BTreeSet::new();
    let twice: Vec<&String> = anchors.iter().filter(|a| !seen.insert(*a)).collect();
    assert!(
        twice.is_empty(),
        "docs/rules.md defines these anchors twice: {twice:?}"
    );
    let mut cited_by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, text) in scanned() {
        if !path.to_string_lossy().ends_with(".rs") && !path.to_string_lossy().ends_with(".py") {
            continue;
        }
        let from = test_part(&path, &text);
        for (line, a) in citations_in(&text) {
            if line > from {
                cited_by.entry(a).or_default().push(rel(&path));
            }
        }
    }
    let untested: Vec<&String> = anchors
        .iter()
        .filter(|a| !cited_by.contains_key(*a))
        .collect();
    assert!(
        untested.is_empty(),
        "rules in docs/rules.md that no test cites (each rule needs a test whose comment cites \
         `docs/rules.md#NAME`, e.g. in tests/quick/rules_doc.rs): {untested:?}"
    );
}

#[test]
fn every_option_of_the_rules_type_has_an_anchor() {
    let anchors: BTreeSet<String> = anchors_in(&rules_md()).into_iter().collect();
    let mut missing = Vec::new();
    for rules in [Rules::classic(), Rules::four_hundred()] {
        let v = serde_json::to_value(&rules).expect("rules serialize");
        for (key, value) in v.as_object().expect("an object") {
            let mut names = vec![key.clone()];
            if let (Some(section), "contract" | "individual") = (value.as_object(), key.as_str()) {
                names.extend(section.keys().map(|k| format!("{key}-{k}")));
            }
            for name in names {
                if !anchors.contains(&name) {
                    missing.push(name);
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "options without an anchor in docs/rules.md (add `<a id=\"NAME\"></a>` to the option's \
         row, NAME being its path with `-` for `.`): {missing:?}"
    );
}

/// Where `text` names the brief's file, the folder of the sources, a rule text's file name
/// (`NNN_` and 16 hex digits) or cites a rule text by its number (`000` .. `004` standing alone,
/// as in `// 002: "..."` or `(000, 002)`).
fn source_citations(text: &str, numbers_too: bool) -> Vec<(usize, String)> {
    let brief = ["BRI", "EF"].concat();
    let folder = ["/work/", "shared/rules"].concat();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.contains(&brief) || line.contains(&folder) {
            out.push((n + 1, line.trim().to_string()));
            continue;
        }
        let b = line.as_bytes();
        for i in 0..b.len().saturating_sub(2) {
            if !(b[i] == b'0' && b[i + 1] == b'0' && (b'0'..=b'4').contains(&b[i + 2])) {
                continue;
            }
            let before = if i == 0 { b' ' } else { b[i - 1] };
            let after = b.get(i + 3).copied().unwrap_or(b' ');
            let file_name = after == b'_'
                && b.len() >= i + 20
                && b[i + 4..i + 20].iter().all(u8::is_ascii_hexdigit);
            let standalone = b" (\"'/".contains(&before) && b" :),\"'/.".contains(&after);
            if file_name || (numbers_too && standalone) {
                out.push((n + 1, line.trim().to_string()));
                break;
            }
        }
    }
    out
}

#[test]
fn no_file_cites_the_brief_or_a_rule_text_file() {
    let mut bad = Vec::new();
    for (path, text) in scanned() {
        // docs/rules.md describes the sources, and names the rule texts by number there.
        let numbers_too = rel(&path) != "docs/rules.md";
        for (line, what) in source_citations(&text, numbers_too) {
            bad.push(format!("{}:{line}: {what}", rel(&path)));
        }
    }
    assert!(
        bad.is_empty(),
        "citations of documents outside the repository (cite the rule's anchor in docs/rules.md \
         instead, `docs/rules.md#NAME`; docs/rules.md names the sources):\n  {}",
        bad.join("\n  ")
    );
    // The check itself.
    let made_up = [
        ["// ", "BRI", "EF: \"x\""].concat(),
        "// 002: \"x\"".to_string(),
        "/// (000, 004)".to_string(),
        ["see 003", "_0123456789abcdef.txt"].concat(),
    ];
    for line in made_up {
        assert_eq!(source_citations(&line, true).len(), 1, "{line}");
    }
    for fine in ["1_000_000", "0x4000_0000", "10,000 games", "E0042", "2,002"] {
        assert!(source_citations(fine, true).is_empty(), "{fine}");
    }
}
