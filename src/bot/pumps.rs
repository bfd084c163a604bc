//! The three loops that move bytes between a bot's pipes and the referee, each on its own
//! thread. They are generic over `Read`/`Write` so their edge cases (caps, CRLF, bad UTF-8,
//! partial last lines) are tested on in-memory buffers, without processes or timing.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::BotEvent;

/// Bytes asked for in one read: the default Linux pipe capacity, so one read usually empties
/// the pipe and a flood costs one syscall per 64 KiB.
const CHUNK: usize = 64 * 1024;

/// One message queued for a bot's stdin.
pub(super) struct Outgoing {
    pub line: String,
    pub request: Option<u64>,
}

/// Takes the ordering lock. A panic while it was held cannot leave `()` inconsistent, so a
/// poisoned lock is simply taken over.
pub(super) fn lock(order: &Mutex<()>) -> MutexGuard<'_, ()> {
    order.lock().unwrap_or_else(|e| e.into_inner())
}

/// Splits `stdout` into lines and hands each to `emit` (which returns false once nobody is
/// listening). Ends with `Eof`, or with `TooLong` without reading further: a bot that wrote an
/// over-long line is faulted, and reading the rest of it would only cost time and memory.
///
/// The line buffer never grows past `max_line` bytes, so a bot cannot make the referee allocate
/// more than that per line whatever it writes.
pub(super) fn pump_lines<R: Read>(
    stdout: R,
    max_line: usize,
    mut emit: impl FnMut(BotEvent) -> bool,
) {
    let mut reader = BufReader::with_capacity(CHUNK, stdout);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let (used, complete_at) = {
            let chunk = match reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // Any other read error means the pipe is unusable: the same as a close.
                Err(_) => &[],
            };
            let at = Instant::now();
            if chunk.is_empty() {
                // A last line without its newline is still what the bot said before exiting.
                if !line.is_empty() && !emit(line_event(line, at)) {
                    return;
                }
                emit(BotEvent::Eof { at });
                return;
            }
            let (piece, used, complete) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            if line.len() + piece.len() > max_line {
                emit(BotEvent::TooLong {
                    at,
                    limit: max_line,
                });
                return;
            }
            extend_capped(&mut line, piece, max_line);
            (used, complete.then_some(at))
        };
        reader.consume(used);
        if let Some(at) = complete_at {
            if !emit(line_event(std::mem::take(&mut line), at)) {
                return;
            }
        }
    }
}

/// Appends without letting `Vec`'s doubling reserve more than `max_line` bytes.
fn extend_capped(line: &mut Vec<u8>, piece: &[u8], max_line: usize) {
    let need = line.len() + piece.len();
    if need > line.capacity() {
        let target = need.max(line.capacity() * 2).min(max_line);
        line.reserve_exact(target - line.len());
    }
    line.extend_from_slice(piece);
}

/// A finished line: a trailing `\r` is dropped so bots written on Windows-minded runtimes
/// (which print CRLF) are not faulted for it.
fn line_event(mut bytes: Vec<u8>, at: Instant) -> BotEvent {
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    match String::from_utf8(bytes) {
        Ok(text) => BotEvent::Line { text, at },
        Err(_) => BotEvent::NotUtf8 { at },
    }
}

/// Copies `stderr` into `log` up to `cap` bytes, then writes one truncation line and keeps
/// reading and discarding until the pipe closes. Draining to the end matters: a bot whose
/// stderr pipe fills blocks in `write`, and would then look like a bot that is thinking too
/// long. Log write errors (disk full) stop the copying, never the draining.
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

/// Writes queued messages to the bot's stdin until the queue closes, `closing` is set, or a
/// write fails (EPIPE: the bot is gone; nothing useful can be done about it here, the reader
/// will report `Eof`).
///
/// For a request, the ordering lock is held from before the write until `Written` is queued.
/// The stdout reader takes the same lock to queue each event, so the bot's reply can never be
/// queued ahead of the `Written` of the request it answers: the reply cannot exist before the
/// write finished, and once it does the reader waits for the lock. The cost: while a write is
/// blocked (a bot not reading a request bigger than the pipe buffer) the reader stops queueing
/// lines; such a bot times out and `stop` breaks the write with EPIPE.
pub(super) fn pump_stdin<W: Write>(
    mut stdin: W,
    queue: Receiver<Outgoing>,
    closing: &AtomicBool,
    order: &Mutex<()>,
    events: &SyncSender<BotEvent>,
) {
    for Outgoing { line, request } in queue {
        if closing.load(Ordering::Acquire) {
            return;
        }
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        let _guard = request.map(|_| lock(order));
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
        if let Some(id) = request {
            let at = Instant::now();
            if events.send(BotEvent::Written { id, at }).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn lines(input: &[u8], max_line: usize) -> Vec<BotEvent> {
        let mut out = Vec::new();
        pump_lines(input, max_line, |ev| {
            out.push(ev);
            true
        });
        out
    }

    fn shape(events: &[BotEvent]) -> Vec<String> {
        events
            .iter()
            .map(|ev| match ev {
                BotEvent::Line { text, .. } => format!("line:{text}"),
                BotEvent::TooLong { limit, .. } => format!("toolong:{limit}"),
                BotEvent::NotUtf8 { .. } => "notutf8".to_string(),
                BotEvent::Written { id, .. } => format!("written:{id}"),
                BotEvent::Eof { .. } => "eof".to_string(),
            })
            .collect()
    }

    #[test]
    fn lines_strip_newline_and_cr() {
        let ev = lines(b"a\r\nbb\n\nc\r\r\n", 100);
        assert_eq!(
            shape(&ev),
            ["line:a", "line:bb", "line:", "line:c\r", "eof"]
        );
    }

    #[test]
    fn partial_last_line_is_delivered_before_eof() {
        assert_eq!(
            shape(&lines(b"x\ntail", 100)),
            ["line:x", "line:tail", "eof"]
        );
        assert_eq!(shape(&lines(b"", 100)), ["eof"]);
    }

    #[test]
    fn not_utf8_line_is_reported_and_reading_goes_on() {
        let ev = lines(b"\xff\xfe\nok\n", 100);
        assert_eq!(shape(&ev), ["notutf8", "line:ok", "eof"]);
    }

    #[test]
    fn cap_is_exact_and_too_long_ends_reading() {
        assert_eq!(shape(&lines(b"abcd\n", 4)), ["line:abcd", "eof"]);
        assert_eq!(shape(&lines(b"abcde\nnext\n", 4)), ["toolong:4"]);
        // Over the cap without any newline at all.
        assert_eq!(shape(&lines(&[b'z'; 300_000], 1000)), ["toolong:1000"]);
    }

    #[test]
    fn long_line_split_across_reads_is_joined() {
        let mut input = vec![b'q'; 200_000];
        input.push(b'\n');
        let ev = lines(&input, 200_000);
        match &ev[0] {
            BotEvent::Line { text, .. } => assert_eq!(text.len(), 200_000),
            other => panic!("expected a line, got {other:?}"),
        }
        assert_eq!(shape(&ev[1..]), ["eof"]);
    }

    #[test]
    fn buffer_never_exceeds_cap() {
        let mut line = Vec::new();
        for _ in 0..10 {
            extend_capped(&mut line, &[0; 70], 1000);
        }
        assert_eq!(line.len(), 700);
        assert!(line.capacity() <= 1000, "capacity {}", line.capacity());
        extend_capped(&mut line, &[0; 300], 1000);
        assert_eq!(line.capacity(), 1000);
    }

    #[test]
    fn stops_when_nobody_listens() {
        let mut seen = 0;
        pump_lines(&b"a\nb\nc\n"[..], 10, |_| {
            seen += 1;
            false
        });
        assert_eq!(seen, 1);
    }

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

    #[test]
    fn stdin_writes_lines_and_reports_requests() {
        let (qtx, qrx) = mpsc::channel();
        let (etx, erx) = mpsc::sync_channel(10);
        qtx.send(Outgoing {
            line: "one".into(),
            request: None,
        })
        .unwrap();
        qtx.send(Outgoing {
            line: "two".into(),
            request: Some(9),
        })
        .unwrap();
        drop(qtx);
        let mut out = Vec::new();
        pump_stdin(
            &mut out,
            qrx,
            &AtomicBool::new(false),
            &Mutex::new(()),
            &etx,
        );
        assert_eq!(out, b"one\ntwo\n");
        let ev: Vec<_> = erx.try_iter().collect();
        assert_eq!(shape(&ev), ["written:9"]);
    }

    #[test]
    fn stdin_stops_on_write_error() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (qtx, qrx) = mpsc::channel();
        let (etx, erx) = mpsc::sync_channel(10);
        qtx.send(Outgoing {
            line: "x".into(),
            request: Some(1),
        })
        .unwrap();
        // The queue stays open: the pump must return because of the error, not the close.
        pump_stdin(Broken, qrx, &AtomicBool::new(false), &Mutex::new(()), &etx);
        assert!(erx.try_recv().is_err());
        drop(qtx);
    }
}
