//! One progress line on stderr, rewritten in place, when stderr is a terminal: games done of
//! the total, games per minute, the estimated time left, the leader with its rating and 95%
//! interval (the fit of the standings, redone at most every two seconds), and for an SPRT the
//! LLR against its bounds. When stderr is not a terminal (a batch job's log, `nohup`, CI) the
//! same facts are printed as plain lines, one every 30 seconds by default
//! (`--progress every=30s`, `every=N` games, or `off`), as fastchess prints in its logs.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::standings::ratings::{fit, Rating};
use crate::standings::sprt::SprtState;
use crate::standings::tally::Tally;

/// How progress is shown (`--progress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A line rewritten in place when stderr is a terminal, else plain lines every 30 s.
    Auto,
    /// Plain lines every so many seconds.
    Seconds(u64),
    /// Plain lines every so many games finished.
    Games(u64),
    Off,
}

impl ProgressMode {
    /// `every=30s`, `every=10` (games), `auto` or `off`.
    pub fn parse(s: &str) -> Result<ProgressMode, String> {
        let bad = || {
            format!(
                "--progress {s:?}: give every=SECONDSs (every=30s), every=GAMES (every=10), auto or off"
            )
        };
        match s {
            "auto" => return Ok(ProgressMode::Auto),
            "off" => return Ok(ProgressMode::Off),
            _ => {}
        }
        let v = s.strip_prefix("every=").ok_or_else(bad)?;
        let (num, secs) = match v.strip_suffix('s') {
            Some(n) => (n, true),
            None => (v, false),
        };
        let n: u64 = num.parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        Ok(if secs {
            ProgressMode::Seconds(n)
        } else {
            ProgressMode::Games(n)
        })
    }
}

pub struct Progress {
    enabled: bool,
    /// Plain lines (not a terminal): every so many seconds or games, and when last printed.
    lines: Option<ProgressMode>,
    last_line: Instant,
    last_games: u64,
    start: Instant,
    /// Games already finished before this run started (a resumed tournament).
    resumed: u64,
    shown: bool,
    /// The leader as last fitted, the rows it was fitted on, and when.
    leader: Option<(String, Rating)>,
    fitted_rows: usize,
    fitted_at: Option<Instant>,
}

/// What the line shows.
pub struct Snapshot<'a> {
    pub done: u64,
    pub total: u64,
    pub running: usize,
    /// The top entrant by rating, with its rating.
    pub leader: Option<(&'a str, Rating)>,
    pub sprt: Option<SprtState>,
}

impl Progress {
    pub fn new(resumed: u64) -> Progress {
        Progress::with_mode(resumed, ProgressMode::Auto)
    }

    pub fn with_mode(resumed: u64, mode: ProgressMode) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let lines = match mode {
            ProgressMode::Auto if terminal => None,
            ProgressMode::Auto => Some(ProgressMode::Seconds(30)),
            ProgressMode::Off => None,
            m => Some(m),
        };
        Progress {
            enabled: lines.is_some() || (terminal && mode == ProgressMode::Auto),
            lines,
            last_line: Instant::now(),
            last_games: resumed,
            start: Instant::now(),
            resumed,
            shown: false,
            leader: None,
            fitted_rows: 0,
            fitted_at: None,
        }
    }

    /// The entrant rated highest on the rows counted in `tally` (refitted when rows were added,
    /// at most every two seconds, and only when the line is shown at all).
    pub fn leader(&mut self, tally: &Tally) -> Option<(&str, Rating)> {
        let stale = self
            .fitted_at
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(2));
        if self.enabled && tally.rows() as usize != self.fitted_rows && stale {
            self.leader = top(tally);
            self.fitted_rows = tally.rows() as usize;
            self.fitted_at = Some(Instant::now());
        }
        self.leader.as_ref().map(|(n, r)| (n.as_str(), *r))
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
            Some((name, r)) => format!(
                ", leader {name} {:+.0} Elo [{:+.0}, {:+.0}]",
                r.elo, r.low, r.high
            ),
            None => String::new(),
        };
        let sprt = match s.sprt {
            Some(t) => format!(
                ", LLR {:.2} in ({:.2}, {:.2}){}",
                t.llr,
                t.lower,
                t.upper,
                match t.decision {
                    crate::standings::sprt::SprtDecision::Continue => "",
                    crate::standings::sprt::SprtDecision::AcceptH0 => ": H0 accepted",
                    crate::standings::sprt::SprtDecision::AcceptH1 => ": H1 accepted",
                }
            ),
            None => String::new(),
        };
        format!(
            "games {}/{} ({} running), {per_min:.1}/min, ETA {eta}{leader}{sprt}",
            s.done, s.total, s.running
        )
    }

    pub fn show(&mut self, s: &Snapshot<'_>) {
        if !self.enabled {
            return;
        }
        if let Some(mode) = self.lines {
            let due = match mode {
                ProgressMode::Seconds(n) => self.last_line.elapsed() >= Duration::from_secs(n),
                ProgressMode::Games(n) => s.done >= self.last_games + n,
                _ => false,
            };
            if due && s.done > self.last_games {
                eprintln!("progress: {}", self.line(s));
                self.last_line = Instant::now();
                self.last_games = s.done;
            }
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

/// The entrant with the highest fitted rating.
fn top(tally: &Tally) -> Option<(String, Rating)> {
    let input = tally.totals();
    let ratings = fit(input.names.len(), &input.observations);
    input
        .names
        .into_iter()
        .zip(ratings)
        .max_by(|a, b| a.1.elo.total_cmp(&b.1.elo).then_with(|| b.0.cmp(&a.0)))
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
    use crate::standings::row::GameRow;

    #[test]
    fn the_line_names_counts_and_the_leader() {
        let p = Progress::new(0);
        let rating = Rating {
            elo: 42.4,
            low: 10.2,
            high: 74.6,
        };
        let cfg = crate::standings::sprt::parse_sprt("elo0=0,elo1=10").unwrap();
        let l = p.line(&Snapshot {
            done: 3,
            total: 10,
            running: 2,
            leader: Some(("alpha", rating)),
            sprt: Some(crate::standings::sprt::sprt(
                &cfg,
                crate::standings::sprt::Units::Pairs,
                &[1.0, 0.5],
            )),
        });
        assert!(l.starts_with("games 3/10 (2 running)"), "{l}");
        assert!(l.contains("leader alpha +42 Elo [+10, +75]"), "{l}");
        assert!(l.contains(", LLR "), "{l}");
        assert!(l.ends_with(" in (-2.94, 2.94)"), "{l}");
        // The leader is the top of the fit.
        let row = |game: u64, winner: u8| {
            GameRow::sample(game, None, game, ["a", "b", "a", "b"], Some(winner))
        };
        let mut tally = Tally::new();
        for r in [row(0, 1), row(1, 1), row(2, 0)] {
            tally.push(r);
        }
        let (name, r) = top(&tally).unwrap();
        assert_eq!(name, "b");
        assert!(r.elo > 0.0 && r.low < r.elo);
        assert_eq!(fmt_duration(3725.0), "1h02m");
        assert_eq!(fmt_duration(65.0), "1m05s");
    }
}
