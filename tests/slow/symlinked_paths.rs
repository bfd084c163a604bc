//! A `--out` or `--record` reached through a symlink works like any other (issue "Secret
//! cards", point 5): the sandbox masks the real directory the link points to. Before, bwrap
//! failed to mount the mask on the link, every bot failed its handshake and every game was a
//! double-forfeit draw, with exit 0.

use crate::common;

use common::{have_bwrap, json_lines, play_four, python_bot, tarneeb, text, Scratch, RANDOM_BOT};

#[test]
fn symlinked_out_and_record_directories_play_real_games() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("symlinks");
    let real = s.path("real");
    std::fs::create_dir_all(&real).unwrap();
    let link = s.path("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let bot = python_bot(RANDOM_BOT, &[]);
    let record = link.join("g.jsonl");
    let o = play_four(&record, &bot, &["--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let result: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_ne!(result["result"]["reason"], "forfeit", "{result}");
    assert!(real.join("g.jsonl").is_file());

    let out = link.join("t");
    let o = tarneeb(&[
        "tournament",
        "--bot",
        &format!("a={bot}"),
        "--bot",
        &format!("b={bot}"),
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for row in json_lines(&real.join("t/results.jsonl")) {
        assert_ne!(row["reason"], "forfeit", "{row}");
    }
}
