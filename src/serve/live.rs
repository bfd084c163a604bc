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
use crate::standings::table::{standings, Standings};
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
    /// The standings of `rows` and the pages' names, computed when a game finishes (not for
    /// every look at the directory or every page asked for).
    standings: Standings,
    entrant_files: Vec<String>,
    game_pages: Vec<Result<String, String>>,
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
            standings: standings(&[]),
            entrant_files: Vec::new(),
            game_pages: Vec::new(),
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

    /// Why a finished game's page is held back: the other game of its duplicate pair has no
    /// row here yet. The two share their deals, so a replay of one shows every card the other
    /// still has to play (issue 39: a twin's page showed all 24 unplayed cards of a game in
    /// progress). A twin played elsewhere (`--twins-apart`) never ends here: its page is not
    /// served live (the published site shows it).
    pub fn twin_playing(&self, row: &GameRow) -> Option<String> {
        let pair = row.pair?;
        let ended = self
            .rows
            .iter()
            .any(|r| r.pair == Some(pair) && r.game != row.game);
        (!ended).then(|| {
            "its duplicate twin, with the same deals, has not ended here: the page appears when both have"
                .to_string()
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The standings of the games finished so far.
    pub fn standings(&self) -> &Standings {
        &self.standings
    }

    /// The entrants' and the games' page names, as the pages link them.
    pub fn links(&self) -> pages::Links<'_> {
        pages::Links {
            entrant_files: &self.entrant_files,
            game_pages: &self.game_pages,
        }
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
        if added > 0 || self.state.is_null() {
            self.standings = standings(&self.rows);
            // Short of the schedule: a provisional leader, never a winner (issue 40).
            let scheduled = self.scheduled();
            crate::standings::headline::apply(&mut self.standings, scheduled);
            self.entrant_files = crate::site::entrant_files(&self.standings);
            self.game_pages = self
                .rows
                .iter()
                .map(|r| match self.twin_playing(r) {
                    Some(why) => Err(why),
                    None => Ok(crate::site::game_page(r.game)),
                })
                .collect();
        }
        let before = std::mem::take(&mut self.state);
        self.state = self.compute(over);
        before != self.state
    }

    /// The games the verdict waits for: the schedule, unless the SPRT has already decided
    /// (its stopping rule ends the run early).
    fn scheduled(&self) -> Option<u64> {
        match &self.sprt {
            Some(t) if t.decided().is_some() => None,
            _ => self.total,
        }
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
                    "page": self.twin_playing(r).is_none().then(|| format!("games/{}", crate::site::game_page(r.game))),
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
            "standings_html": pages::standings_section(&self.standings, &self.links(), ""),
            "sprt": self.sprt.as_ref().map(|t| json!({"text": t.describe(), "state": t.to_json()})),
            "live": self.in_progress(),
            "recent": recent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_line(game: u64, seats: [&str; 4]) -> String {
        let mut row = GameRow::sample(game, None, game, seats, Some(0));
        row.record = format!("games/{game:06}.jsonl");
        format!("{}\n", serde_json::to_string(&row).unwrap())
    }

    /// The cached standings and page names follow the games as they finish (issue 26: computed
    /// once per finished game, not per request), and the page's links are the site's names.
    #[test]
    fn standings_and_links_follow_finished_games() {
        let dir = std::env::temp_dir().join(format!("tarneeb-live-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tournament.json"), "{}").unwrap();
        let results = dir.join(RESULTS_FILE);
        std::fs::write(&results, row_line(0, ["a", "b", "a", "b"])).unwrap();
        let mut live = Live::open(&dir, None).unwrap();
        assert_eq!(live.standings().entrants.len(), 2);
        assert_eq!(live.links().game_pages, &[Ok("000000.html".to_string())]);
        assert!(!live.refresh(false), "nothing new, nothing changed");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&results)
            .unwrap();
        std::io::Write::write_all(&mut f, row_line(1, ["c", "a", "c", "a"]).as_bytes()).unwrap();
        assert!(live.refresh(false));
        let names: Vec<&str> = live
            .standings()
            .entrants
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert_eq!(
            live.links().entrant_files,
            crate::site::entrant_files(live.standings())
        );
        assert_eq!(live.links().game_pages.len(), 2);
        assert_eq!(live.state()["recent"][0]["page"], "games/000001.html");
        assert_eq!(live.state()["done"], 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
