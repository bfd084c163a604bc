//! Cutting a bot's stdout into capped lines. Pure (bytes in, events out), so its edge cases
//! (the cap, CRLF, bad UTF-8, a partial last line, lines split across reads) are tested on
//! in-memory input, without processes or timing.

use std::collections::VecDeque;
use std::time::Instant;

use super::BotEvent;

/// Collects the bytes of the line being read. Its buffer never grows past `max_line` bytes,
/// so a bot cannot make the referee allocate more than that per line whatever it writes.
#[derive(Debug)]
pub(super) struct LineSplitter {
    line: Vec<u8>,
    max_line: usize,
}

impl LineSplitter {
    pub fn new(max_line: usize) -> LineSplitter {
        LineSplitter {
            line: Vec::new(),
            max_line,
        }
    }

    /// Cuts `chunk` (bytes read at `at`) into events appended to `out`. Returns false after a
    /// line grew past the cap: `TooLong` is then the last event, and the caller stops reading
    /// (a bot that wrote an over-long line is faulted; reading the rest would only cost time).
    pub fn feed(&mut self, mut chunk: &[u8], at: Instant, out: &mut VecDeque<BotEvent>) -> bool {
        loop {
            let (piece, rest) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(&chunk[i + 1..])),
                None => (chunk, None),
            };
            if self.line.len() + piece.len() > self.max_line {
                out.push_back(BotEvent::TooLong {
                    at,
                    limit: self.max_line,
                });
                return false;
            }
            match rest {
                // A whole line in this read (the usual reply): one allocation of its size.
                Some(rest) if self.line.is_empty() => {
                    out.push_back(line_event(piece.to_vec(), at));
                    chunk = rest;
                }
                Some(rest) => {
                    self.extend_capped(piece);
                    out.push_back(line_event(std::mem::take(&mut self.line), at));
                    chunk = rest;
                }
                None => {
                    self.extend_capped(piece);
                    return true;
                }
            }
        }
    }

    /// End of the output: a last line without its newline is still what the bot said before
    /// exiting, so it is delivered before `Eof`.
    pub fn finish(&mut self, at: Instant, out: &mut VecDeque<BotEvent>) {
        if !self.line.is_empty() {
            out.push_back(line_event(std::mem::take(&mut self.line), at));
        }
        out.push_back(BotEvent::Eof { at });
    }

    /// Appends without letting `Vec`'s doubling reserve more than `max_line` bytes.
    fn extend_capped(&mut self, piece: &[u8]) {
        let need = self.line.len() + piece.len();
        if need > self.line.capacity() {
            let target = need.max(self.line.capacity() * 2).min(self.max_line);
            self.line.reserve_exact(target - self.line.len());
        }
        self.line.extend_from_slice(piece);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `input` in reads of `step` bytes, then ends it (unless the cap stopped reading).
    fn lines_in_steps(input: &[u8], max_line: usize, step: usize) -> Vec<BotEvent> {
        let mut splitter = LineSplitter::new(max_line);
        let mut out = VecDeque::new();
        let at = Instant::now();
        for chunk in input.chunks(step.max(1)) {
            if !splitter.feed(chunk, at, &mut out) {
                return out.into();
            }
        }
        splitter.finish(at, &mut out);
        out.into()
    }

    fn lines(input: &[u8], max_line: usize) -> Vec<BotEvent> {
        lines_in_steps(input, max_line, 64 * 1024)
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
                BotEvent::InputClosed { .. } => "inputclosed".to_string(),
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
    fn the_same_lines_whatever_the_read_sizes() {
        let input = b"first\nsecond line\r\n\nlast without newline";
        let whole = shape(&lines(input, 100));
        for step in 1..input.len() {
            assert_eq!(
                shape(&lines_in_steps(input, 100, step)),
                whole,
                "step {step}"
            );
        }
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
        // Over the cap without any newline at all, arriving in many reads.
        assert_eq!(
            shape(&lines_in_steps(&[b'z'; 300_000], 1000, 4096)),
            ["toolong:1000"]
        );
        // Lines before the long one are still delivered.
        assert_eq!(shape(&lines(b"ok\nabcde", 4)), ["line:ok", "toolong:4"]);
    }

    #[test]
    fn long_line_split_across_reads_is_joined() {
        let mut input = vec![b'q'; 200_000];
        input.push(b'\n');
        let ev = lines_in_steps(&input, 200_000, 65_536);
        match &ev[0] {
            BotEvent::Line { text, .. } => assert_eq!(text.len(), 200_000),
            other => panic!("expected a line, got {other:?}"),
        }
        assert_eq!(shape(&ev[1..]), ["eof"]);
    }

    #[test]
    fn buffer_never_exceeds_cap() {
        let mut splitter = LineSplitter::new(1000);
        for _ in 0..10 {
            splitter.extend_capped(&[0; 70]);
        }
        assert_eq!(splitter.line.len(), 700);
        assert!(
            splitter.line.capacity() <= 1000,
            "capacity {}",
            splitter.line.capacity()
        );
        splitter.extend_capped(&[0; 300]);
        assert_eq!(splitter.line.capacity(), 1000);
    }
}
