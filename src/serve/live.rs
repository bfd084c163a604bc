//! A tournament directory followed as it grows: the rows appended to `results.jsonl` since the
//! last look (only whole lines: a row being written is read on the next look), the games being
//! played (records that have no row yet, shown as the table sees them: see [`super::public`]),
//! and the state a spectator's page shows, as JSON.

use std::collections::{HashSet, VecDeque};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};

use super::public::public_view;
use crate::site::pages;
use crate::standings::row::GameRow;
use crate::standings::table::standings;
use crate::standings::verdict::SprtTracker;
use crate::tournament::directory::{TournamentDir, RESULTS_FILE};

/// How far around the newest finished game to look for games in progress (the runner hands
/// games out in order, `--jobs` at a time).
const LOOK_AROUND: u64 = 64;
/// Finished games listed on the page, newest first.
const RECENT: usize = 20;

pub struct Live {
    dir: PathBuf,
    total: Option<u64>,
    offset: u64,
    rows: Vec<GameRow>,
    have: HashSet<u64>,
    newest: Option<u64>,
    sprt: Option<SprtTracker>,
    /// When each of the last rows arrived, for the rate.
    arrivals: VecDeque<Instant>,
    state: Value,
}

impl Live {
    /// Follows `dir`; `total` is the run's number of games when the caller knows it better than
    /// the directory's config does (a shard).
    pub fn open(dir: &Path, total: Option<u64>) -> Result<Live, String> {
        let d = TournamentDir::open(dir)?;
        let mut live = Live {
            dir: dir.to_path_buf(),
            total: total.or_else(|| d.planned_games()),
            offset: 0,
            rows: Vec::new(),
            have: HashSet::new(),
            newest: None,
            sprt: d.sprt_tracker()?,
            arrivals: VecDeque::new(),
            state: Value::Null,
        };
        live.refresh(false);
        Ok(live)
    }

    pub fn rows(&self) -> &[GameRow] {
        &self.rows
    }

    /// The finished game `game`'s row.
    pub fn finished(&self, game: u64) -> Option<&GameRow> {
        self.have
            .contains(&game)
            .then(|| self.rows.iter().find(|r| r.game == game))
            .flatten()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The state as the page gets it.
    pub fn state(&self) -> &Value {
        &self.state
    }

    /// Reads what was appended; `over` marks the run as ended (no more games will come).
    /// Returns whether the state changed.
    pub fn refresh(&mut self, over: bool) -> bool {
        let added = self.read_rows();
        if added == 0 && !self.state.is_null() && !over {
            // Only the games in progress can have moved.
            let live = Value::Array(self.in_progress());
            let changed = self.state["live"] != live;
            self.state["live"] = live;
            return changed;
        }
        let before = std::mem::take(&mut self.state);
        self.state = self.compute(over);
        before != self.state
    }

    fn read_rows(&mut self) -> usize {
        let path = self.dir.join(RESULTS_FILE);
        let Ok(mut f) = File::open(&path) else {
            return 0;
        };
        if f.seek(SeekFrom::Start(self.offset)).is_err() {
            return 0;
        }
        let mut text = String::new();
        if f.read_to_string(&mut text).is_err() {
            return 0;
        }
        let Some(end) = text.rfind('\n') else {
            return 0;
        };
        let mut added = 0;
        for line in text[..end].lines().filter(|l| !l.trim().is_empty()) {
            let Ok(row) = serde_json::from_str::<GameRow>(line) else {
                continue;
            };
            if !self.have.insert(row.game) {
                continue;
            }
            if let Some(t) = self.sprt.as_mut() {
                t.push(&row);
            }
            self.newest = Some(self.newest.map_or(row.game, |n| n.max(row.game)));
            self.rows.push(row);
            self.arrivals.push_back(Instant::now());
            added += 1;
        }
        while self.arrivals.len() > 200 {
            self.arrivals.pop_front();
        }
        self.offset += end as u64 + 1;
        added
    }

    /// Games per second over the last rows' arrivals (None before two).
    fn rate(&self) -> Option<f64> {
        let (first, last) = (self.arrivals.front()?, self.arrivals.back()?);
        let secs = last.duration_since(*first).as_secs_f64();
        (self.arrivals.len() > 1 && secs > 0.0).then(|| (self.arrivals.len() - 1) as f64 / secs)
    }

    fn in_progress(&self) -> Vec<Value> {
        let (from, to) = match self.newest {
            Some(n) => (n.saturating_sub(LOOK_AROUND), n + LOOK_AROUND),
            None => (0, LOOK_AROUND),
        };
        let mut out = Vec::new();
        for game in (from..=to).filter(|g| !self.have.contains(g)) {
            let path = self.dir.join(format!("games/{game:06}.jsonl"));
            // Compressed records are read whole only: a game in progress shows no moves.
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let view = public_view(&text);
            if !view.ended {
                out.push(json!({"game": game, "view": view}));
            }
        }
        out
    }

    fn compute(&self, over: bool) -> Value {
        let s = standings(&self.rows);
        let files: Vec<String> = s
            .entrants
            .iter()
            .enumerate()
            .map(|(k, e)| crate::site::entrant_file(k, &e.name))
            .collect();
        let pages_of: Vec<Result<String, String>> = self
            .rows
            .iter()
            .map(|r| Ok(format!("{:06}.html", r.game)))
            .collect();
        let links = pages::Links {
            entrant_files: &files,
            game_pages: &pages_of,
        };
        let done = self.rows.len() as u64;
        let rate = self.rate();
        let eta = match (self.total, rate) {
            (Some(t), Some(r)) if r > 0.0 && t > done => Some(((t - done) as f64 / r).round()),
            _ => None,
        };
        let recent: Vec<Value> = self
            .rows
            .iter()
            .rev()
            .take(RECENT)
            .map(|r| {
                json!({
                    "game": r.game,
                    "seats": r.seats,
                    "winner": r.winner,
                    "team_scores": r.team_scores,
                    "reason": r.reason,
                    "forfeit_seat": r.forfeit_seat,
                    "forfeit_kind": r.forfeit_kind,
                })
            })
            .collect();
        json!({
            "done": done,
            "total": self.total,
            "rate": rate.map(|r| (r * 100.0).round() / 100.0),
            "eta_s": eta,
            "over": over || self.total.is_some_and(|t| done >= t),
            "standings_html": pages::standings_section(&s, &links, ""),
            "sprt": self.sprt.as_ref().map(|t| json!({"text": t.describe(), "state": t.to_json()})),
            "live": self.in_progress(),
            "recent": recent,
        })
    }
}
