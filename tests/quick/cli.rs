//! End-to-end tests of the `tarneeb` binary's rules and simulate commands.

use crate::common;

use common::{stderr, stdout, tarneeb, temp_file};

#[test]
fn rules_prints_every_preset_as_json_that_reads_back() {
    for preset in ["classic", "egyptian", "400", "41"] {
        let o = tarneeb(&["rules", preset]);
        assert!(o.status.success(), "{preset}: {}", stderr(&o));
        let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
        assert!(json["target"].is_i64());
        // The printed rules are a complete rules file: reading them back prints the same.
        let p = temp_file(&format!("{preset}.json"), &stdout(&o));
        let again = tarneeb(&["rules", p.to_str().unwrap()]);
        assert!(again.status.success(), "{}", stderr(&again));
        assert_eq!(stdout(&again), stdout(&o));
    }
}

#[test]
fn a_rules_file_changes_a_preset() {
    let p = temp_file(
        "to41.json",
        r#"{"preset": "classic", "target": 41, "contract": {"kaboot": "instant-win"}}"#,
    );
    let o = tarneeb(&["rules", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["target"], 41);
    assert_eq!(json["contract"]["kaboot"], "instant-win");
    assert_eq!(json["contract"]["auction"], "elimination");
}

#[test]
fn bad_rules_input_is_a_clear_error_with_exit_code_2() {
    let cases: Vec<(String, &str)> = vec![
        ("fourhundred".into(), "unknown rules preset 'fourhundred'"),
        (
            temp_file("unknown.json", r#"{"preset": "classic", "targte": 41}"#)
                .display()
                .to_string(),
            "targte",
        ),
        (
            temp_file("type.json", r#"{"preset": "classic", "target": "high"}"#)
                .display()
                .to_string(),
            "invalid type",
        ),
        (
            temp_file("zero.json", r#"{"preset": "classic", "target": 0}"#)
                .display()
                .to_string(),
            "option 'target'",
        ),
        (
            temp_file(
                "hole.json",
                r#"{"preset": "400", "individual": {"points": {"4": null}}}"#,
            )
            .display()
            .to_string(),
            "hole at bid 4",
        ),
        (
            temp_file("broken.json", "{not json").display().to_string(),
            "not valid JSON",
        ),
        ("/no/such/rules.json".into(), "cannot read rules file"),
    ];
    for (arg, want) in cases {
        for cmd in [
            vec!["rules", arg.as_str()],
            vec!["simulate", "--games", "1", "--rules", arg.as_str()],
        ] {
            let o = tarneeb(&cmd);
            assert_eq!(o.status.code(), Some(2), "{cmd:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(want), "{cmd:?}: {}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
}

#[test]
fn simulate_plays_every_preset_with_both_players() {
    for preset in ["classic", "egyptian", "400", "41"] {
        for players in ["random", "greedy", "greedy,random,greedy,random"] {
            let o = tarneeb(&[
                "simulate",
                "--rules",
                preset,
                "--games",
                "20",
                "--seed",
                "5",
                "--players",
                players,
                "--json",
            ]);
            assert!(o.status.success(), "{preset} {players}: {}", stderr(&o));
            let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
            assert_eq!(s["games"], 20);
            let wins = s["wins"][0].as_u64().unwrap()
                + s["wins"][1].as_u64().unwrap()
                + s["draws"].as_u64().unwrap();
            assert_eq!(wins, 20, "every game has a result");
            assert!(s["hands_per_game"].as_f64().unwrap() >= 1.0);
        }
    }
}

#[test]
fn simulate_is_deterministic_for_a_seed() {
    let run = || {
        let o = tarneeb(&[
            "simulate", "--rules", "egyptian", "--games", "30", "--seed", "77", "--json",
        ]);
        let mut v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        for k in ["seconds", "games_per_second", "decisions_per_second"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(run(), run());
}

#[test]
fn bad_usage_exits_2() {
    let o = tarneeb(&["simulate", "--players", "random,greedy"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--players takes one kind or four"),
        "{}",
        stderr(&o)
    );
    let o = tarneeb(&["simulate", "--games", "many"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tarneeb(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `tarneeb ... | head` closes stdout before the program is done writing: that ends the output
/// quietly with exit 0, never a panic.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::Stdio;
    for args in [
        &["rules", "classic"][..],
        &[
            "simulate", "--rules", "classic", "--games", "20", "--seed", "1",
        ][..],
    ] {
        let mut child = common::command()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}
