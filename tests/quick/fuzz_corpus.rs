//! Replays every input saved under `fuzz/corpus/` (the fuzzers' seeds, what they found
//! interesting, and every crash they found, kept as a regression) through the same checks the
//! cargo-fuzz targets run (`tarneeb_referee::fuzz_checks`), without libFuzzer: a parser that
//! panics again on a saved input, or two implementations that disagree on one, fail here.
//! The longer runs are `cargo fuzz run TARGET` (docs/reliability.md).

use std::path::Path;

#[test]
fn every_saved_input_of_every_fuzz_target_passes_its_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut total = 0;
    for (name, check) in tarneeb_referee::fuzz_checks::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (every target keeps its seeds)", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        // A target with a handful of seeds has not been given the real inputs it must take.
        assert!(
            files.len() >= 5,
            "{}: {} inputs",
            dir.display(),
            files.len()
        );
        for f in &files {
            let data = std::fs::read(f).unwrap();
            if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("fuzz target {name} fails on {}: {msg}", f.display());
            }
        }
        total += files.len();
    }
    assert!(total > 100, "{total} inputs in all");
}

#[test]
fn the_fuzz_crate_has_a_binary_for_every_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    for (name, _) in tarneeb_referee::fuzz_checks::TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
        let src = std::fs::read_to_string(dir.join(format!("fuzz_targets/{name}.rs"))).unwrap();
        assert!(
            src.contains(&format!("run(\"{name}\"")),
            "fuzz_targets/{name}.rs does not run its own check"
        );
    }
}
