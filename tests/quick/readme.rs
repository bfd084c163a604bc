//! The README's claims that a test can check (issue 42 point 4): the sample bots' languages are
//! those of sample-bots/, and every repository path it names exists.

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

#[test]
fn readme_names_the_languages_of_every_sample_bot_folder_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The README's row for sample-bots/README.md names the languages in words.
    let text = readme();
    let row = text
        .lines()
        .find(|l| l.starts_with("| [sample-bots/README.md]"))
        .expect("README.md: the table row of sample-bots/README.md");
    let words = [
        ("Python", "python"),
        ("JavaScript", "js"),
        ("Rust", "rust"),
        ("C", "c"),
        ("Java", "java"),
        ("Go", "go"),
    ];
    let row_words: Vec<&str> = row
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut named: Vec<&str> = words
        .iter()
        .filter(|(w, _)| row_words.contains(w))
        .map(|(_, dir)| *dir)
        .collect();
    named.sort();
    let mut dirs: Vec<String> = std::fs::read_dir(root.join("sample-bots"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(
        named, dirs,
        "README.md's sample-bots row names these languages' folders; sample-bots/ holds those on the right: make them agree"
    );
}

#[test]
fn every_repository_path_the_readme_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = readme();
    let prefixes = [
        "src/",
        "docs/",
        "tests/",
        "sample-bots/",
        "bench/",
        "python/",
        "fuzz/",
        ".ci/",
    ];
    let mut missing = Vec::new();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        for token in line.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c))) {
            // A path at the start of a token only (not the tail of a URL or of another path).
            let token = token.trim_end_matches(['.', ',']);
            if !prefixes.iter().any(|p| token.starts_with(p)) {
                continue;
            }
            checked += 1;
            if !root.join(token).exists() {
                missing.push(format!("README.md:{}: {token}", n + 1));
            }
        }
    }
    assert!(checked > 20, "only {checked} paths found in README.md");
    assert!(
        missing.is_empty(),
        "README.md names paths that are not in the repository (fix the path or the text): {missing:?}"
    );
}
