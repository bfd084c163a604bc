//! One progress line on stderr, rewritten in place, when stderr is a terminal: games done of
//! the total, games per minute, the estimated time left and the leader by wins.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    enabled: bool,
    start: Instant,
    /// Games already finished before this run started (a resumed tournament).
    resumed: u64,
    shown: bool,
}

/// What the line shows.
pub struct Snapshot<'a> {
    pub done: u64,
    pub total: u64,
    pub running: usize,
    pub leader: Option<(&'a str, u64)>,
}

impl Progress {
    pub fn new(resumed: u64) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            start: Instant::now(),
            resumed,
            shown: false,
        }
    }

    pub fn line(&self, s: &Snapshot<'_>) -> String {
        let elapsed = self.start.elapsed();
        let new = s.done.saturating_sub(self.resumed);
        let per_min = if elapsed > Duration::from_millis(500) {
            new as f64 * 60.0 / elapsed.as_secs_f64()
        } else {
            0.0
        };
        let left = s.total.saturating_sub(s.done);
        let eta = if new > 0 {
            fmt_duration(elapsed.as_secs_f64() * left as f64 / new as f64)
        } else {
            "?".into()
        };
        let leader = match s.leader {
            Some((name, wins)) => format!(", leader {name} ({wins} wins)"),
            None => String::new(),
        };
        format!(
            "games {}/{} ({} running), {per_min:.1}/min, ETA {eta}{leader}",
            s.done, s.total, s.running
        )
    }

    pub fn show(&mut self, s: &Snapshot<'_>) {
        if !self.enabled {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{}", self.line(s));
        let _ = err.flush();
        self.shown = true;
    }

    /// Ends the line so later output starts on a fresh one.
    pub fn finish(&mut self) {
        if self.shown {
            eprintln!();
            self.shown = false;
        }
    }
}

fn fmt_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_counts_and_the_leader() {
        let p = Progress::new(0);
        let l = p.line(&Snapshot {
            done: 3,
            total: 10,
            running: 2,
            leader: Some(("alpha", 2)),
        });
        assert!(l.starts_with("games 3/10 (2 running)"), "{l}");
        assert!(l.contains("leader alpha (2 wins)"), "{l}");
        assert_eq!(fmt_duration(3725.0), "1h02m");
        assert_eq!(fmt_duration(65.0), "1m05s");
    }
}
