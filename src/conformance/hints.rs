//! What check-bot tells an author about a failure: the likely cause, from what was seen (no
//! output at all, text on stdout, a sandbox denial in stderr...), and how to fix it; and the
//! key under which identical failures are told once.

use crate::protocol::FaultKind;

/// What was seen of the bot in a failed game.
pub struct Seen<'a> {
    pub kind: FaultKind,
    /// The fault's detail, as recorded.
    pub detail: &'a str,
    /// Whether the bot wrote any line at all to stdout during the game.
    pub wrote_anything: bool,
    /// The last lines of its stderr (joined), empty when it wrote none.
    pub stderr_tail: &'a str,
    /// Whether the bot ran in a sandbox.
    pub sandboxed: bool,
    /// The first request it answered more than once in the game, if any.
    pub answered_twice: Option<u64>,
}

/// The hint for a failure: the likely cause and its fix, most telling evidence first.
pub fn hint(s: &Seen) -> String {
    use FaultKind::*;
    if s.sandboxed && crate::bot::points_at_sandbox(s.stderr_tail, s.detail) {
        return "its stderr points at the sandbox (a denied or missing file, a refused system call): give it what it needs with --sandbox-ro PATH or --sandbox-view wide (docs/sandbox.md), or check it once with --sandbox none to rule the sandbox out".into();
    }
    if s.answered_twice.is_some() {
        return "it answered a request more than once (the example above): write exactly one reply per request, then wait for the next message; look for a reply written twice (a print and a send, a retry, a loop that does not break after answering)".into();
    }
    if matches!(s.kind, NotJson | Handshake) && s.detail.contains("cut short") {
        return "it wrote a JSON message cut short at the end of its line (the example above): write each message whole on one line, with no newline inside it (no pretty-printing), and end the line only after the whole message (protocol.md section 2)".into();
    }
    match s.kind {
        Handshake | Timeout if !s.wrote_anything => "the bot wrote nothing at all to stdout: did you flush stdout after each line? (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush(); Go: Flush() on the bufio.Writer); output left in a buffer never arrives".into(),
        NotJson => "it wrote text that is not a JSON message to stdout: stdout carries protocol lines only; write diagnostics to stderr (Python: print(..., file=sys.stderr))".into(),
        Exited | Handshake if !s.stderr_tail.is_empty() => "it stopped: its stderr (above) says where; run the command by hand and paste the 'sent' line to reproduce it".into(),
        Absent => "no connection of the entrant was there for the game: start its relay (`tarneeb connect`) and keep it running, with --connections enough for the games it plays at once".into(),
        Disconnected => "its connection closed: check the relay's stderr on the bot's machine, and the network between the two".into(),
        Exited => "it exited without a word: a bot reads stdin until game_end or the end of its input; paste the 'sent' line into it by hand to see why it stops".into(),
        Handshake => "answer hello with {\"type\":\"hello\",\"name\":...} on one line, then flush stdout".into(),
        Timeout => "it answered too late or not at all: reply to every request within the time limit (protocol.md section 5), one line each, flushed".into(),
        IllegalMove => "play only a move from the request's legal list, written as it is there".into(),
        BadReply => "reply {\"type\":\"move\",\"id\":ID,\"move\":MOVE} with the id of the request being answered (protocol.md section 4.2)".into(),
        Unsolicited => "write exactly one line per request and nothing else on stdout: no line after game_end, none between requests".into(),
        Flood => "it answered requests already answered or timed out, more than 100 times in one game: write exactly one reply per request, and none after a timeout (protocol.md section 5)".into(),
        LineTooLong => "it wrote a line longer than --max-line: one message per line, ended by a newline after each (protocol.md section 2); raise --max-line only if a message really is that long".into(),
        Memory | Processes | FileSize | CpuTime | Disk => "it ran into a limit: the detail names it and the flag that raises it (protocol.md section 1.1)".into(),
    }
}

/// The key under which failures are grouped: the cause with its numbers (request ids, times)
/// taken out, so "no reply to request 21" and "to request 5" are one failure.
pub fn group_key(cause: &str) -> String {
    let mut key = String::new();
    let mut in_number = false;
    for c in cause.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                key.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            key.push(c);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen<'a>(kind: FaultKind, wrote: bool, tail: &'a str) -> Seen<'a> {
        Seen {
            kind,
            detail: "no hello reply within the handshake timeout of 1000 ms",
            wrote_anything: wrote,
            stderr_tail: tail,
            sandboxed: true,
            answered_twice: None,
        }
    }

    #[test]
    fn the_hint_follows_the_evidence() {
        assert!(hint(&seen(FaultKind::Handshake, false, "")).contains("flush stdout"));
        assert!(hint(&seen(FaultKind::NotJson, true, "")).contains("diagnostics to stderr"));
        let mut cut = seen(FaultKind::NotJson, true, "");
        cut.detail = "not JSON (EOF while parsing an object at line 1 column 9): {\"type\":; the JSON message ends before it closes (cut short): ...";
        let h = hint(&cut);
        assert!(h.contains("cut short") && !h.contains("stderr"), "{h}");
        let denied = "PermissionError: [Errno 13] Permission denied: '/home/a'";
        assert!(hint(&seen(FaultKind::Exited, true, denied)).contains("--sandbox none"));
        assert!(hint(&seen(FaultKind::Exited, true, "KeyError: 'x'")).contains("its stderr"));
    }

    #[test]
    fn failures_that_differ_in_numbers_only_are_one_group() {
        assert_eq!(
            group_key("timeout: no reply to request 21 within 1000 ms"),
            group_key("timeout: no reply to request 5 within 1000 ms")
        );
        assert_ne!(group_key("illegal-move: 5S"), group_key("illegal-move: 5H"));
    }
}
