//! Draining a bot's stderr into its capped log file, on a thread of its own: a bot whose
//! stderr pipe fills blocks in `write` and would then look like a bot that is thinking too
//! long, so stderr is read continuously whatever the referee is doing.

use std::io::{self, Read, Write};

/// Bytes asked for in one read: the default Linux pipe capacity, so one read usually empties
/// the pipe and a flood costs one syscall per 64 KiB.
const CHUNK: usize = 64 * 1024;

/// Copies `stderr` into `log` up to `cap` bytes, then writes one truncation line and keeps
/// reading and discarding until the pipe closes. Log write errors (disk full) stop the
/// copying, never the draining.
pub(super) fn pump_stderr<R: Read, W: Write>(mut stderr: R, mut log: W, cap: u64) {
    let mut buf = vec![0u8; CHUNK];
    let mut written: u64 = 0;
    let mut copying = true;
    let mut ends_in_newline = true;
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if !copying {
            continue;
        }
        let take = (n as u64).min(cap - written) as usize;
        if take > 0 {
            if log.write_all(&buf[..take]).is_err() {
                copying = false;
                continue;
            }
            written += take as u64;
            ends_in_newline = buf[take - 1] == b'\n';
        }
        if take < n {
            copying = false;
            let sep = if ends_in_newline { "" } else { "\n" };
            let _ = writeln!(log, "{sep}[tarneeb: stderr truncated at {cap} bytes]");
            let _ = log.flush();
        }
    }
    let _ = log.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_under_cap_is_copied_whole() {
        let mut log = Vec::new();
        pump_stderr(&b"hello\n"[..], &mut log, 100);
        assert_eq!(log, b"hello\n");
    }

    #[test]
    fn stderr_over_cap_is_cut_with_one_marker_line() {
        let mut log = Vec::new();
        let flood = vec![b'x'; 1_000_000];
        pump_stderr(&flood[..], &mut log, 10);
        assert_eq!(
            String::from_utf8(log).unwrap(),
            "xxxxxxxxxx\n[tarneeb: stderr truncated at 10 bytes]\n"
        );
        let mut log = Vec::new();
        pump_stderr(&b"abc\nmore"[..], &mut log, 4);
        assert_eq!(
            String::from_utf8(log).unwrap(),
            "abc\n[tarneeb: stderr truncated at 4 bytes]\n"
        );
    }
}
