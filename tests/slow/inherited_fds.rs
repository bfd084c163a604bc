//! Descriptors the referee inherited do not reach the bots (issue "Secret cards": a launcher's
//! descriptor, reopened through `/proc/self/fd/N`, gave a bot write access to a host file; a
//! directory descriptor gave it the tournament's seal key). The test opens a file and a
//! directory without close-on-exec on purpose, so `tarneeb` inherits them, and a bot lists
//! what it holds.

use crate::common;

use std::os::fd::AsRawFd;

use common::{play_four, python_bot, text, Scratch};

/// Clears close-on-exec, so a child started after this inherits `fd`.
fn inheritable(fd: i32) {
    // SAFETY: fcntl on a descriptor this test owns.
    let rc = unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
    assert_eq!(rc, 0);
}

#[test]
fn inherited_descriptors_do_not_reach_a_bot() {
    let s = Scratch::new("fds");
    let secret = s.file("host-file", "the host's\n");
    let file = std::fs::OpenOptions::new()
        .read(true)
        .open(&secret)
        .unwrap();
    let dir = std::fs::File::open(&s.dir).unwrap();
    inheritable(file.as_raw_fd());
    inheritable(dir.as_raw_fd());
    let bot = python_bot("tests/bots/fd_bot.py", &[]);
    for sandbox in ["auto", "none"] {
        let record = s.path(&format!("{sandbox}.jsonl"));
        let flags = ["--public-deals", "--seed", "3", "--sandbox", sandbox];
        let o = play_four(&record, &bot, &flags);
        assert!(o.status.success(), "{sandbox}: {}", text(&o.stderr));
        for seat in 0..4 {
            let log = tarneeb_referee::bot::stderr_log_path(&record, seat);
            let t = std::fs::read_to_string(&log).unwrap();
            let line = t
                .lines()
                .find(|l| l.starts_with("FDS: "))
                .unwrap_or_else(|| panic!("{sandbox} seat {seat}: {t}"));
            assert_eq!(line, "FDS: []", "{sandbox} seat {seat} holds descriptors");
        }
    }
    drop((file, dir));
}
