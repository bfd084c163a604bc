//! The Java and Go starter bots (sample-bots/java, sample-bots/go): minimal protocol bots, each
//! built here with its own toolchain and passed through `tarneeb check-bot` (every preset, every
//! rare situation, the exit probes), as an author would check theirs. Under CI a missing
//! toolchain fails the test (.ci/run installs them); elsewhere that language is skipped.

use crate::common;

use common::{root, stderr, stdout, tarneeb, Scratch};

use std::process::Command;

fn have(tool: &str, arg: &str) -> bool {
    let ok = Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "{tool} is needed under CI (.ci/run installs it)"
        );
        eprintln!("note: {tool} is not installed: skipping its sample bot");
    }
    ok
}

/// `tarneeb check-bot CMD --games 1`: every check passes.
fn passes_check_bot(cmd: &str) {
    let o = tarneeb(&["check-bot", cmd, "--games", "1"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{cmd}:\n{out}{}", stderr(&o));
    assert!(out.contains("summary: all "), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    for probe in ["quiet after game_end", "exits at the end of its input"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("pass  ") && l.contains(probe)),
            "{probe}: {out}"
        );
    }
}

#[test]
fn the_java_starter_bot_passes_check_bot() {
    if !have("javac", "-version") {
        return;
    }
    let s = Scratch::new("java-bot");
    let classes = s.path("classes");
    let built = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(root().join("sample-bots/java/RandomBot.java"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    passes_check_bot(&format!(
        "java -cp {} RandomBot {}",
        classes.display(),
        s.marker
    ));
    common::assert_no_leftovers(&s.marker);
}

#[test]
fn the_go_starter_bot_passes_check_bot() {
    if !have("go", "version") {
        return;
    }
    let s = Scratch::new("go-bot");
    let bin = s.path("random_bot");
    let built = Command::new("go")
        .args(["build", "-o"])
        .arg(&bin)
        .arg(root().join("sample-bots/go/random_bot.go"))
        // Its build cache in the scratch directory: nothing written to the user's home.
        .env("GOCACHE", s.path("gocache"))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    passes_check_bot(&format!("{} {}", bin.display(), s.marker));
    common::assert_no_leftovers(&s.marker);
}
