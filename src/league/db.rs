//! The league's database, `league.db` (SQLite in WAL mode): entrants and their versions, every
//! game planned and finished, each version's rating after each of its games, and the table.
//!
//! Why a database and not more files: a league runs for weeks and its questions (an entrant's
//! history, the table now, the games of one version) must stay a query away at a million games.
//! The records stay files as in a tournament, and `results.jsonl` stays the sealed journal
//! (`tarneeb standings DIR` reads a league as it reads a tournament); the database is rebuilt
//! from it where they disagree after a crash (see [`Db::missing_rows`]).
//!
//! Trust: each game's row carries a keyed hash (the directory's seal key, which no sandboxed
//! bot can read), so a row edited behind the referee's back is found by [`Db::check`].
//!
//! The schema is versioned with `PRAGMA user_version`; [`Db::open`] migrates an older one
//! forward and refuses a newer one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};

use crate::standings::row::GameRow;
use crate::tournament::directory::seal::Key;

pub const DB_FILE: &str = "league.db";

/// The schema this build writes. Each step of [`MIGRATIONS`] takes a database from version
/// `i` to `i + 1`.
pub const SCHEMA_VERSION: i64 = 1;

const MIGRATIONS: &[&str] = &[
    // 0 -> 1
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE entrants(
         id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE,
         added_at INTEGER NOT NULL);
     CREATE TABLE versions(
         id INTEGER PRIMARY KEY,
         entrant INTEGER NOT NULL REFERENCES entrants(id),
         number INTEGER NOT NULL,
         label TEXT NOT NULL UNIQUE,
         command TEXT NOT NULL,
         previous INTEGER REFERENCES versions(id),
         added_at INTEGER NOT NULL,
         retired_at INTEGER,
         games INTEGER NOT NULL DEFAULT 0,
         place INTEGER,
         elo REAL,
         low REAL,
         high REAL,
         UNIQUE(entrant, number));
     CREATE TABLE planned(
         game INTEGER PRIMARY KEY,
         pair INTEGER,
         deal_set INTEGER NOT NULL,
         seed INTEGER NOT NULL,
         v0 INTEGER NOT NULL, v1 INTEGER NOT NULL, v2 INTEGER NOT NULL, v3 INTEGER NOT NULL);
     CREATE TABLE games(
         game INTEGER PRIMARY KEY,
         pair INTEGER,
         seed INTEGER NOT NULL,
         v0 INTEGER NOT NULL, v1 INTEGER NOT NULL, v2 INTEGER NOT NULL, v3 INTEGER NOT NULL,
         winner INTEGER,
         score0 INTEGER NOT NULL,
         score1 INTEGER NOT NULL,
         record TEXT NOT NULL,
         row TEXT NOT NULL,
         finished_at INTEGER NOT NULL,
         mac TEXT NOT NULL);
     CREATE TABLE ratings(
         version INTEGER NOT NULL,
         game INTEGER NOT NULL,
         games INTEGER NOT NULL,
         elo REAL NOT NULL,
         low REAL NOT NULL,
         high REAL NOT NULL,
         PRIMARY KEY(version, game)) WITHOUT ROWID;",
];

/// What went wrong with the database, named with its path.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Sql {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{path} was made by a newer tarneeb (schema {found}, this one knows up to {known}); use that tarneeb or a newer one")]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("{0}")]
    Invalid(String),
}

/// A version of an entrant: one program, rated on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Version {
    pub id: i64,
    pub entrant: String,
    pub number: i64,
    /// `NAME@N`: the name it has in rows, records and standings.
    pub label: String,
    pub command: Vec<String>,
    pub previous: Option<i64>,
    pub retired: bool,
    pub games: i64,
    pub place: Option<i64>,
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Version {
    /// Played from its owner's machine through a relay (`league add NAME=remote`).
    pub fn is_remote(&self) -> bool {
        self.command.len() == 1 && self.command[0] == "remote"
    }
}

/// A game handed to the runner, kept until its row is in: a league killed mid-game plays it
/// again (same deals, same seats) on restart, so no duplicate pair is left half played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub game: u64,
    pub pair: Option<u64>,
    pub deal_set: u64,
    pub seed: u64,
    /// Version ids at seats 0..3.
    pub seats: [i64; 4],
}

/// One point of a version's history: its rating after one of its games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryPoint {
    pub game: u64,
    pub games: i64,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// What [`Db::check`] found wrong.
#[derive(Debug, Default, PartialEq)]
pub struct CheckReport {
    pub rows: u64,
    /// Game numbers whose row does not match its keyed hash (edited) or whose columns
    /// disagree with the row.
    pub edited: Vec<u64>,
}

pub struct Db {
    conn: Connection,
    path: PathBuf,
}

/// Seeds are u64 and SQLite integers i64: stored as the same 64 bits.
fn to_sql(v: u64) -> i64 {
    v as i64
}

fn from_sql(v: i64) -> u64 {
    v as u64
}

fn sql_error(path: &Path) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |source| DbError::Sql {
        path: path.to_path_buf(),
        source,
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Db {
    /// Opens (creating it when `create`) the league database in `dir`, migrating an older
    /// schema.
    pub fn open(dir: &Path, create: bool) -> Result<Db, DbError> {
        let path = dir.join(DB_FILE);
        if !create && !path.exists() {
            return Err(DbError::Invalid(format!(
                "{} is not a league directory: {} does not exist (start one with `tarneeb league start {}`)",
                dir.display(),
                path.display(),
                dir.display()
            )));
        }
        let sql = sql_error(&path);
        if create && !path.exists() {
            // Private as the records and the keys beside it (mode 0600), before SQLite
            // writes a byte to it.
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path)
                .map_err(|e| DbError::Invalid(format!("cannot create {}: {e}", path.display())))?;
        }
        let conn = Connection::open(&path).map_err(&sql)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(&sql)?;
        // WAL: `league add` and `league table` run beside `league run` without waiting for
        // it; NORMAL sync: a commit is durable at the next checkpoint, and results.jsonl
        // (flushed per game) is the journal the database is mended from after a power loss.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(&sql)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(&sql)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(&sql)?;
        drop(sql);
        let mut db = Db { conn, path };
        db.migrate()?;
        Ok(db)
    }

    fn sql(&self) -> impl Fn(rusqlite::Error) -> DbError + '_ {
        sql_error(&self.path)
    }

    /// Runs `f` in one transaction, committed when it succeeds; an error names the database.
    fn write<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
    ) -> Result<T, DbError> {
        let path = &self.path;
        let tx = self.conn.transaction().map_err(sql_error(path))?;
        let out = f(&tx).map_err(sql_error(path))?;
        tx.commit().map_err(sql_error(path))?;
        Ok(out)
    }

    fn migrate(&mut self) -> Result<(), DbError> {
        let found: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(self.sql())?;
        if found > SCHEMA_VERSION {
            return Err(DbError::Newer {
                path: self.path.clone(),
                found,
                known: SCHEMA_VERSION,
            });
        }
        for (i, step) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            self.write(|tx| {
                tx.execute_batch(step)?;
                tx.pragma_update(None, "user_version", i as i64 + 1)
            })?;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>, DbError> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(self.sql())
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), DbError> {
        self.conn
            .execute(
                "INSERT INTO meta(key, value) VALUES(?1, ?2)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, value],
            )
            .map(drop)
            .map_err(self.sql())
    }

    /// A number that changes whenever an entrant is added, updated or retired: the running
    /// league reads it between duplicate pairs to take the change in.
    pub fn roster_stamp(&self) -> Result<i64, DbError> {
        Ok(self
            .meta("roster")?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0))
    }

    fn bump_roster(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
        tx.execute(
            "INSERT INTO meta(key, value) VALUES('roster', '1')
             ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
            [],
        )
        .map(drop)
    }

    /// A new entrant with its first version. The name must be new.
    pub fn add_entrant(&mut self, name: &str, command: &[String]) -> Result<Version, DbError> {
        let exists: Option<i64> = self
            .conn
            .query_row("SELECT id FROM entrants WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()
            .map_err(self.sql())?;
        if exists.is_some() {
            return Err(DbError::Invalid(format!(
                "the league already has an entrant named '{name}': give a new version with `tarneeb league update DIR {name}=CMD`, or choose another name"
            )));
        }
        let cmd = serde_json::to_string(command).expect("a command is JSON");
        self.write(|tx| {
            tx.execute(
                "INSERT INTO entrants(name, added_at) VALUES(?1, ?2)",
                params![name, now()],
            )?;
            let entrant = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO versions(entrant, number, label, command, added_at)
                 VALUES(?1, 1, ?2, ?3, ?4)",
                params![entrant, format!("{name}@1"), cmd, now()],
            )?;
            Self::bump_roster(tx)?;
            Ok(())
        })?;
        self.version_by_label(&format!("{name}@1"))?
            .ok_or_else(|| DbError::Invalid("the version just added is missing".into()))
    }

    /// A new version of `name`: the previous one is retired (its games and history stay),
    /// the new one starts unrated, linked to it.
    pub fn update_entrant(&mut self, name: &str, command: &[String]) -> Result<Version, DbError> {
        let last = self.latest_version(name)?.ok_or_else(|| {
            DbError::Invalid(format!(
                "the league has no entrant named '{name}': add it with `tarneeb league add DIR {name}=CMD`"
            ))
        })?;
        let cmd = serde_json::to_string(command).expect("a command is JSON");
        let label = format!("{name}@{}", last.number + 1);
        self.write(|tx| {
            tx.execute(
                "UPDATE versions SET retired_at = ?2 WHERE id = ?1 AND retired_at IS NULL",
                params![last.id, now()],
            )?;
            tx.execute(
                "INSERT INTO versions(entrant, number, label, command, previous, added_at)
                 SELECT entrant, ?2, ?3, ?4, id, ?5 FROM versions WHERE id = ?1",
                params![last.id, last.number + 1, label, cmd, now()],
            )?;
            Self::bump_roster(tx)?;
            Ok(())
        })?;
        self.version_by_label(&label)?
            .ok_or_else(|| DbError::Invalid("the version just added is missing".into()))
    }

    /// Retires `name`'s current version: it starts no new game (games in flight finish).
    pub fn retire_entrant(&mut self, name: &str) -> Result<Version, DbError> {
        let last = self
            .latest_version(name)?
            .ok_or_else(|| DbError::Invalid(format!("the league has no entrant named '{name}'")))?;
        if last.retired {
            return Err(DbError::Invalid(format!(
                "'{name}' is retired already (its last version is {})",
                last.label
            )));
        }
        self.write(|tx| {
            tx.execute(
                "UPDATE versions SET retired_at = ?2 WHERE id = ?1",
                params![last.id, now()],
            )?;
            Self::bump_roster(tx)?;
            Ok(())
        })?;
        Ok(Version {
            retired: true,
            ..last
        })
    }

    const VERSION_COLUMNS: &'static str = "v.id, e.name, v.number, v.label, v.command, v.previous,
         v.retired_at IS NOT NULL, v.games, v.place, v.elo, v.low, v.high";

    fn version_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
        let command: String = r.get(4)?;
        Ok(Version {
            id: r.get(0)?,
            entrant: r.get(1)?,
            number: r.get(2)?,
            label: r.get(3)?,
            command: serde_json::from_str(&command).unwrap_or_default(),
            previous: r.get(5)?,
            retired: r.get(6)?,
            games: r.get(7)?,
            place: r.get(8)?,
            elo: r.get(9)?,
            low: r.get(10)?,
            high: r.get(11)?,
        })
    }

    fn versions_where(
        &self,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<Version>, DbError> {
        let q = format!(
            "SELECT {} FROM versions v JOIN entrants e ON e.id = v.entrant {filter}",
            Self::VERSION_COLUMNS
        );
        let mut st = self.conn.prepare_cached(&q).map_err(self.sql())?;
        let rows = st
            .query_map(args, Self::version_of)
            .map_err(self.sql())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.sql())?;
        Ok(rows)
    }

    /// Every version, in the order they were added.
    pub fn versions(&self) -> Result<Vec<Version>, DbError> {
        self.versions_where("ORDER BY v.id", &[])
    }

    pub fn version_by_label(&self, label: &str) -> Result<Option<Version>, DbError> {
        Ok(self
            .versions_where("WHERE v.label = ?1", &[&label])?
            .into_iter()
            .next())
    }

    pub fn latest_version(&self, name: &str) -> Result<Option<Version>, DbError> {
        Ok(self
            .versions_where("WHERE e.name = ?1 ORDER BY v.number DESC LIMIT 1", &[&name])?
            .into_iter()
            .next())
    }

    /// The versions of `name`, oldest first.
    pub fn versions_of(&self, name: &str) -> Result<Vec<Version>, DbError> {
        self.versions_where("WHERE e.name = ?1 ORDER BY v.number", &[&name])
    }

    /// Games handed out that have no row yet (a run killed while they were played).
    pub fn unfinished(&self) -> Result<Vec<Planned>, DbError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT p.game, p.pair, p.deal_set, p.seed, p.v0, p.v1, p.v2, p.v3
                 FROM planned p LEFT JOIN games g ON g.game = p.game
                 WHERE g.game IS NULL ORDER BY p.game",
            )
            .map_err(self.sql())?;
        let rows = st
            .query_map([], |r| {
                Ok(Planned {
                    game: from_sql(r.get(0)?),
                    pair: r.get::<_, Option<i64>>(1)?.map(from_sql),
                    deal_set: from_sql(r.get(2)?),
                    seed: from_sql(r.get(3)?),
                    seats: [r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
                })
            })
            .map_err(self.sql())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.sql())?;
        Ok(rows)
    }

    /// The next game number and deal set free (after every planned or finished one).
    pub fn next_numbers(&self) -> Result<(u64, u64), DbError> {
        self.conn
            .query_row(
                "SELECT MAX(COALESCE((SELECT MAX(game) + 1 FROM planned), 0),
                            COALESCE((SELECT MAX(game) + 1 FROM games), 0)),
                        COALESCE((SELECT MAX(deal_set) + 1 FROM planned), 0)",
                [],
                |r| Ok((from_sql(r.get(0)?), from_sql(r.get(1)?))),
            )
            .map_err(self.sql())
    }

    /// Keeps the games about to be handed out (both games of a pair in one transaction).
    pub fn plan(&mut self, games: &[Planned]) -> Result<(), DbError> {
        self.write(|tx| {
            for g in games {
                tx.execute(
                    "INSERT INTO planned(game, pair, deal_set, seed, v0, v1, v2, v3)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        to_sql(g.game),
                        g.pair.map(to_sql),
                        to_sql(g.deal_set),
                        to_sql(g.seed),
                        g.seats[0],
                        g.seats[1],
                        g.seats[2],
                        g.seats[3]
                    ],
                )?;
            }
            Ok(())
        })
    }

    /// Whether game `game` has its row.
    pub fn has_game(&self, game: u64) -> Result<bool, DbError> {
        self.conn
            .query_row(
                "SELECT 1 FROM games WHERE game = ?1",
                [to_sql(game)],
                |_| Ok(()),
            )
            .optional()
            .map(|o| o.is_some())
            .map_err(self.sql())
    }

    pub fn game_count(&self) -> Result<u64, DbError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(from_sql)
            .map_err(self.sql())
    }

    /// The keyed hash that seals a game's row in the database.
    pub fn mac(key: &Key, row_json: &str) -> String {
        let mut h = key.hasher();
        h.update(b"tarneeb league row v1\n");
        h.update(row_json.as_bytes());
        h.finalize().to_hex().to_string()
    }

    /// Writes a finished game and what it changed: each version's rating and place now, and
    /// a history point for the versions that played it. One transaction.
    pub fn finish_game(
        &mut self,
        key: &Key,
        row: &GameRow,
        seats: [i64; 4],
        ratings: &[RatingNow],
        standings: &str,
    ) -> Result<(), DbError> {
        let json = serde_json::to_string(row).expect("a row is JSON");
        let mac = Self::mac(key, &json);
        self.write(|tx| {
            tx.execute(
                "INSERT INTO games(game, pair, seed, v0, v1, v2, v3, winner, score0, score1,
                                   record, row, finished_at, mac)
                 VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    to_sql(row.game),
                    row.pair.map(to_sql),
                    to_sql(row.seed),
                    seats[0],
                    seats[1],
                    seats[2],
                    seats[3],
                    row.winner,
                    row.team_scores[0],
                    row.team_scores[1],
                    row.record,
                    json,
                    now(),
                    mac
                ],
            )?;
            {
                let mut up = tx.prepare_cached(
                    "UPDATE versions SET games = ?2, place = ?3, elo = ?4, low = ?5, high = ?6
                         WHERE id = ?1",
                )?;
                let mut hist = tx.prepare_cached(
                    "INSERT OR REPLACE INTO ratings(version, game, games, elo, low, high)
                         VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                )?;
                for r in ratings {
                    up.execute(params![r.version, r.games, r.place, r.elo, r.low, r.high])?;
                    if seats.contains(&r.version) {
                        hist.execute(params![
                            r.version,
                            to_sql(row.game),
                            r.games,
                            r.elo,
                            r.low,
                            r.high
                        ])?;
                    }
                }
            }
            tx.execute(
                "INSERT INTO meta(key, value) VALUES('standings', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [standings],
            )?;
            Ok(())
        })
    }

    /// Every version's standing now and the table, without a game (after mending).
    pub fn set_standings(&mut self, ratings: &[RatingNow], standings: &str) -> Result<(), DbError> {
        self.write(|tx| {
            for r in ratings {
                tx.execute(
                    "UPDATE versions SET games = ?2, place = ?3, elo = ?4, low = ?5, high = ?6 WHERE id = ?1",
                    params![r.version, r.games, r.place, r.elo, r.low, r.high],
                )
                ?;
            }
            tx.execute(
                "INSERT INTO meta(key, value) VALUES('standings', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [standings],
            )
            ?;
            Ok(())
        })
    }

    /// A version's rating after each of its games, in game order.
    pub fn history(&self, version: i64) -> Result<Vec<HistoryPoint>, DbError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT game, games, elo, low, high FROM ratings WHERE version = ?1 ORDER BY game",
            )
            .map_err(self.sql())?;
        let rows = st
            .query_map([version], |r| {
                Ok(HistoryPoint {
                    game: from_sql(r.get(0)?),
                    games: r.get(1)?,
                    elo: r.get(2)?,
                    low: r.get(3)?,
                    high: r.get(4)?,
                })
            })
            .map_err(self.sql())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.sql())?;
        Ok(rows)
    }

    /// [`Db::history`] with at most about `max` points: every k-th, and always the last (the
    /// rating now), for a plot.
    pub fn history_thinned(&self, version: i64, max: usize) -> Result<Vec<HistoryPoint>, DbError> {
        let all = self.history(version)?;
        let step = all.len().div_ceil(max.max(1)).max(1);
        if step == 1 {
            return Ok(all);
        }
        let last = all.last().copied();
        let mut thin: Vec<HistoryPoint> = all.into_iter().step_by(step).collect();
        if thin.last() != last.as_ref() {
            thin.extend(last);
        }
        Ok(thin)
    }

    /// Every version's history (thinned to about `max` points), by label, for a plot.
    pub fn all_histories(&self, max: usize) -> Result<Vec<(String, Vec<HistoryPoint>)>, DbError> {
        self.versions()?
            .into_iter()
            .map(|v| Ok((v.label, self.history_thinned(v.id, max)?)))
            .collect()
    }

    /// Every game's row, in game order, with the version ids at its seats.
    pub fn rows(
        &self,
        mut each: impl FnMut(GameRow, [i64; 4]) -> Result<(), String>,
    ) -> Result<(), DbError> {
        let mut st = self
            .conn
            .prepare("SELECT row, v0, v1, v2, v3, game FROM games ORDER BY game")
            .map_err(self.sql())?;
        let mut rows = st.query([]).map_err(self.sql())?;
        while let Some(r) = rows.next().map_err(self.sql())? {
            let text: String = r.get(0).map_err(self.sql())?;
            let game: i64 = r.get(5).map_err(self.sql())?;
            let row: GameRow = serde_json::from_str(&text).map_err(|e| {
                DbError::Invalid(format!(
                    "{}: the row of game {game} is not a results row: {e}",
                    self.path.display()
                ))
            })?;
            let seats = [
                r.get(1).map_err(self.sql())?,
                r.get(2).map_err(self.sql())?,
                r.get(3).map_err(self.sql())?,
                r.get(4).map_err(self.sql())?,
            ];
            each(row, seats).map_err(DbError::Invalid)?;
        }
        Ok(())
    }

    /// Every row's keyed hash, and its columns against its row.
    pub fn check(&self, key: &Key) -> Result<CheckReport, DbError> {
        let mut report = CheckReport::default();
        let mut st = self
            .conn
            .prepare("SELECT game, row, mac, seed, winner, score0, score1, record FROM games ORDER BY game")
            .map_err(self.sql())?;
        let mut rows = st.query([]).map_err(self.sql())?;
        while let Some(r) = rows.next().map_err(self.sql())? {
            report.rows += 1;
            let game = from_sql(r.get(0).map_err(self.sql())?);
            let text: String = r.get(1).map_err(self.sql())?;
            let mac: String = r.get(2).map_err(self.sql())?;
            let columns_agree = serde_json::from_str::<GameRow>(&text).is_ok_and(|row| {
                row.game == game
                    && r.get::<_, i64>(3).is_ok_and(|s| from_sql(s) == row.seed)
                    && r.get::<_, Option<u8>>(4).is_ok_and(|w| w == row.winner)
                    && r.get::<_, i32>(5).is_ok_and(|s| s == row.team_scores[0])
                    && r.get::<_, i32>(6).is_ok_and(|s| s == row.team_scores[1])
                    && r.get::<_, String>(7).is_ok_and(|p| p == row.record)
            });
            if !columns_agree || Self::mac(key, &text) != mac {
                report.edited.push(game);
            }
        }
        Ok(report)
    }
}

/// An entrant version's standing after a game, as [`Db::finish_game`] stores it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingNow {
    pub version: i64,
    pub games: i64,
    pub place: i64,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

#[cfg(test)]
#[path = "db_tests.rs"]
mod tests;
