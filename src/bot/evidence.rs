//! What a bot that could not start, died or said nothing left behind, for its fault's detail:
//! the last lines of its stderr (once), the likely fix, and the sandbox's paragraph only when
//! that evidence points at the sandbox.

use std::path::Path;

use super::sandbox::log_tail;
use super::Bot;

/// Texts in a bot's last stderr lines that a sandbox may have caused: a denied or missing file,
/// a refused system call, a resource limit. Compared in lower case.
const SANDBOX_SIGNS: &[&str] = &[
    "permission denied",
    "read-only file system",
    "operation not permitted",
    "no such file",
    "not found",
    "cannot find",
    "can't find",
    "cannot open",
    "can't open",
    "bwrap",
    "seccomp",
    "bad system call",
    "disk quota",
    "no space left",
    "cannot allocate memory",
    "memoryerror",
    "out of memory",
    "resource temporarily unavailable",
    "too many open files",
    "network is unreachable",
    "eacces",
    "erofs",
    "eperm",
    "enoent",
    "enospc",
];

/// Whether a bot's last stderr lines, or how it ended (`detail`), point at the sandbox: a
/// denial or missing file in its stderr, or a kill by SIGSYS (a system call the filter refused).
pub fn points_at_sandbox(tail: &str, detail: &str) -> bool {
    if detail.contains("killed by signal 31") {
        return true;
    }
    let lower = tail.to_lowercase();
    let signs: Vec<&str> = SANDBOX_SIGNS
        .iter()
        .copied()
        .filter(|s| lower.contains(s))
        .collect();
    if signs.is_empty() {
        return false;
    }
    // A file missing here as well as in the sandbox (`python3 nosuch.py`: "can't open file
    // '/home/me/nosuch.py'") is a wrong path, not a denial: only a missing-file sign, and every
    // absolute path the tail quotes is missing on this machine too.
    let only_missing = signs.iter().all(|s| MISSING_SIGNS.contains(s));
    let paths = quoted_absolute_paths(tail);
    !(only_missing && !paths.is_empty() && paths.iter().all(|p| !Path::new(p).exists()))
}

/// The signs of [`SANDBOX_SIGNS`] that say a file was not found (not that it was refused).
const MISSING_SIGNS: &[&str] = &[
    "no such file",
    "not found",
    "cannot find",
    "can't find",
    "cannot open",
    "can't open",
    "enoent",
];

/// The absolute paths a text quotes ('/x/y' or "/x/y").
fn quoted_absolute_paths(text: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    for quote in ['\'', '"'] {
        let mut rest = text;
        while let Some(i) = rest.find(&format!("{quote}/")) {
            let after = &rest[i + 1..];
            match after.find(quote) {
                Some(end) => {
                    paths.push(&after[..end]);
                    rest = &after[end + 1..];
                }
                None => break,
            }
        }
    }
    paths
}

/// What to do about a bot that ended or stayed silent, judged from its fault's detail and
/// whether it wrote anything to stderr.
pub fn fix_for(detail: &str, stderr_empty: bool) -> &'static str {
    if detail.starts_with("closed its stdin") {
        return "keep stdin open and read it until game_end or the end of its input: every request comes that way (a bot that closes it, or hands it to a process that exits, can be asked nothing more)";
    }
    let silent = detail.starts_with("no hello reply");
    match (silent, stderr_empty) {
        (true, true) => "answer hello with one JSON line on stdout and flush stdout after every line (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush(); Go: Flush() on a bufio.Writer): output left in a buffer never arrives",
        (true, false) => "flush stdout after every line (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush(); Go: Flush() on a bufio.Writer), and see whether its stderr above says it is stuck",
        (false, false) => "its stderr above most likely says why it stopped; run the command by hand to see it whole",
        (false, true) => "a bot reads stdin until game_end or the end of its input; run the command by hand, paste the last line it was sent (play --trace DIR keeps them) and see why it stops",
    }
}

/// A fault's detail as lines to show a person: the cause, then each part [`Bot::explain_end`]
/// added (the stderr tail, the fix, the sandbox's paragraph) on a line of its own.
pub fn detail_lines(detail: &str) -> Vec<&str> {
    const STARTS: [&str; 4] = [
        "last lines of its stderr",
        "it wrote nothing to stderr",
        "fix: ",
        "the bot ran in the sandbox",
    ];
    let mut lines = Vec::new();
    let mut rest = detail;
    loop {
        let next = STARTS
            .iter()
            .filter_map(|s| rest.find(&format!("; {s}")))
            .min();
        match next {
            Some(i) => {
                lines.push(&rest[..i]);
                rest = &rest[i + 2..];
            }
            None => {
                lines.push(rest);
                return lines;
            }
        }
    }
}

impl Bot {
    /// The detail of a fault for a bot that could not start, died or gave no hello (`detail`
    /// says which): the cause first, then the last lines of its stderr once (or that it wrote
    /// none), then the fix; the sandbox's paragraph (what it allows, how to rule it out) only
    /// when the evidence points there.
    pub fn explain_end(&self, detail: &str) -> String {
        let tail = log_tail(&self.stderr_path, 5);
        let evidence = if tail.is_empty() {
            "it wrote nothing to stderr".to_string()
        } else {
            format!(
                "last lines of its stderr ({}): {tail}",
                self.stderr_path.display()
            )
        };
        let sandbox = if points_at_sandbox(&tail, detail) {
            self.sandbox.failure_hint()
        } else {
            String::new()
        };
        format!(
            "{detail}; {evidence}; fix: {}{sandbox}",
            fix_for(detail, tail.is_empty())
        )
    }

    /// For a fault a sandbox limit explains: what the sandbox allows, how to rule it out, and
    /// the last lines of the bot's stderr log. Empty without a sandbox.
    pub fn sandbox_note(&self) -> String {
        let hint = self.sandbox.failure_hint();
        if hint.is_empty() {
            return hint;
        }
        let tail = log_tail(&self.stderr_path, 5);
        if tail.is_empty() {
            format!("{hint}; it wrote nothing to stderr")
        } else {
            format!(
                "{hint}; last lines of its stderr ({}): {tail}",
                self.stderr_path.display()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denials_and_missing_files_point_at_the_sandbox_and_tracebacks_do_not() {
        for tail in [
            "PermissionError: [Errno 13] Permission denied: '/home/me/weights.bin'",
            // Exists here: hidden by the sandbox.
            "python3: can't open file '/proc/self/cmdline': [Errno 2] No such file or directory",
            "OSError: [Errno 30] Read-only file system: 'cache'",
            "cannot find my weights",
        ] {
            assert!(points_at_sandbox(tail, "exit code 1"), "{tail}");
        }
        for tail in ["Traceback: boom | KeyError: 'throw-in'", ""] {
            assert!(!points_at_sandbox(tail, "exit code 1"), "{tail}");
        }
        assert!(points_at_sandbox("", "exited (killed by signal 31)"));
    }

    /// Issue 41 point 4: `python3 nosuch.py` was blamed on the sandbox. A missing file that is
    /// missing on this machine too is a wrong path; one that exists here is hidden by the
    /// sandbox; a denial stays a sandbox sign whatever the path.
    #[test]
    fn a_file_missing_outside_the_sandbox_too_is_not_the_sandboxs_doing() {
        let gone = "python3: can't open file '/nonexistent-tarneeb/nosuch.py': [Errno 2] No such file or directory";
        assert!(!points_at_sandbox(gone, "exit code 2"));
        let hidden =
            "python3: can't open file '/proc/self/status': [Errno 2] No such file or directory";
        assert!(points_at_sandbox(hidden, "exit code 2"));
        let denied = "PermissionError: [Errno 13] Permission denied: '/nonexistent-tarneeb/x'";
        assert!(points_at_sandbox(denied, "exit code 1"));
        assert_eq!(
            quoted_absolute_paths(r#"open '/a/b' and "/c d" not 'e'"#),
            ["/a/b", "/c d"]
        );
    }

    #[test]
    fn a_detail_splits_into_cause_evidence_and_fix() {
        let d = "no hello reply within 1000 ms; it wrote nothing to stderr; fix: flush; it";
        assert_eq!(
            detail_lines(d),
            [
                "no hello reply within 1000 ms",
                "it wrote nothing to stderr",
                "fix: flush; it"
            ]
        );
        assert_eq!(detail_lines("illegal; plain"), ["illegal; plain"]);
    }

    #[test]
    fn silence_without_stderr_is_a_missing_flush() {
        let d = "no hello reply within the handshake timeout of 1000 ms";
        assert!(fix_for(d, true).contains("flush stdout"));
        assert!(
            fix_for("exited before the hello reply (exit code 3)", false).contains("stderr above")
        );
    }
}
