//! Bots of one entrant cannot pass cards through the kernel (issue "Secret cards"): the
//! keyring, file locks on files every bot can read, /dev/shm and the cgroup tree; and issue
//! 38's quieter ones: inotify, fanotify and dnotify on files every bot reads, the page cache
//! as storage (probed with preadv2's RWF_NOWAIT and with mincore), the machine's counters in
//! /proc, and an AF_VSOCK socket. Four
//! processes of tests/bots/channel_bot.py publish their seat through one channel at every
//! request and look for another seat's; with the sandbox none of them finds one, in the wide
//! and the strict view. Without it (`--sandbox none`) the keyring and the locks carry the
//! message, which shows the bots' attacks work.

use crate::common;

use common::{have_bwrap, play_four, python_bot, root, text, Scratch};

/// The first verdict line of each seat's stderr log.
fn verdicts(s: &Scratch, mode: &str, flags: &[&str]) -> Vec<String> {
    let record = s.path(&format!("{mode}-{}.jsonl", flags.join("-")));
    let shared = root().join("tests/bots/channel_bot.py");
    let bot = python_bot(
        "tests/bots/channel_bot.py",
        &[mode, shared.to_str().unwrap()],
    );
    let mut all = vec!["--public-deals", "--seed", "2"];
    all.extend_from_slice(flags);
    let o = play_four(&record, &bot, &all);
    assert!(o.status.success(), "{mode} {flags:?}: {}", text(&o.stderr));
    (0..4)
        .map(|seat| {
            let log = tarneeb_referee::bot::stderr_log_path(&record, seat);
            let t = std::fs::read_to_string(&log).unwrap_or_default();
            t.lines()
                .find(|l| l.starts_with("RECEIVED") || l.starts_with("NOTHING"))
                .unwrap_or_else(|| panic!("{mode} {flags:?} seat {seat}: no verdict in {t:?}"))
                .to_string()
        })
        .collect()
}

#[test]
fn no_kernel_channel_between_sandboxed_bots() {
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("channels");
    for view in ["wide", "strict"] {
        for mode in [
            "keyring",
            "flock",
            "fcntl",
            "shm",
            "cgroup",
            "inotify",
            "fanotify",
            "dnotify",
            "pagecache:a",
            "mincore:b",
            "counters",
            "vsock",
        ] {
            let flags = ["--sandbox", "bwrap", "--sandbox-view", view];
            for v in verdicts(&s, mode, &flags) {
                assert!(v.starts_with("NOTHING"), "{view} view, {mode}: {v}");
            }
        }
    }
}

#[test]
fn without_the_sandbox_the_same_bots_talk() {
    let s = Scratch::new("channels-open");
    // Other page files than the sandboxed test's (a and b): the two tests run side by side.
    for mode in [
        "keyring",
        "flock",
        "inotify",
        "dnotify",
        "pagecache:c",
        "mincore:d",
    ] {
        let v = verdicts(&s, mode, &["--sandbox", "none"]);
        assert!(
            v.iter().any(|v| v.starts_with("RECEIVED")),
            "{mode} without a sandbox: {v:?}"
        );
    }
}

/// Issue 38 (3), the duplicate twin: "the same page-cache store survives between the two games
/// of a pair". A pair of games (one deal set, one worker, fresh processes): every bot asks at
/// its hello whether a page of `tests/bots/pagecache/e0` is cached and reads it at its game's
/// end; the test evicts it first, so in the second game a cached page is a message from the
/// first. Without a sandbox the second game's bots all receive it; in the sandbox none can ask.
#[test]
fn the_two_games_of_a_pair_share_no_page_cache_state() {
    use std::os::fd::AsRawFd;
    if !have_bwrap() {
        return;
    }
    let s = Scratch::new("twin-store");
    let page = root().join("tests/bots/pagecache/e0");
    let bot = python_bot(
        "tests/bots/channel_bot.py",
        &[
            "twin:e",
            root().join("tests/bots/channel_bot.py").to_str().unwrap(),
        ],
    );
    for sandbox in ["none", "bwrap"] {
        let f = std::fs::File::open(&page).unwrap();
        // SAFETY: advice on an open descriptor of ours; no memory is touched.
        let rc = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        assert_eq!(rc, 0);
        let out = s.path(sandbox);
        let o = common::tarneeb(&[
            "tournament",
            "--bot",
            &format!("a={bot}"),
            "--bot",
            &format!("b={bot}"),
            "--games",
            "1",
            "--jobs",
            "1",
            "--sandbox",
            sandbox,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{sandbox}: {}", text(&o.stderr));
        let verdicts = |game: &str| -> Vec<String> {
            (0..4)
                .map(|seat| {
                    let record = out.join("games").join(format!("{game}.jsonl"));
                    let log = tarneeb_referee::bot::stderr_log_path(&record, seat);
                    let t = std::fs::read_to_string(&log).unwrap_or_default();
                    t.lines()
                        .find(|l| l.starts_with("RECEIVED") || l.starts_with("NOTHING"))
                        .unwrap_or_else(|| panic!("{sandbox} {game} seat {seat}: {t:?}"))
                        .to_string()
                })
                .collect()
        };
        let (first, second) = (verdicts("000000"), verdicts("000001"));
        assert!(
            first.iter().all(|v| v.starts_with("NOTHING")),
            "{sandbox}, first game: {first:?}"
        );
        if sandbox == "none" {
            assert!(
                second.iter().all(|v| v.starts_with("RECEIVED")),
                "without a sandbox the second game hears the first: {second:?}"
            );
        } else {
            assert!(
                second.iter().all(|v| v.starts_with("NOTHING")),
                "in the sandbox: {second:?}"
            );
        }
    }
}
