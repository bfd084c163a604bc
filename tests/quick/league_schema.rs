//! Issue 44: "the schema versioned and migrated (a league made by this version opens in the
//! next)". `league_v1/league.sql` is a league made by schema version 1 (two entrants, a second
//! version of one, four games, with the seal key it was made under); every later build must
//! open it, migrate it to its own schema, and read the same versions, games, ratings and
//! seals. A change to the schema without a migration step fails here.

use std::path::PathBuf;

use tarneeb_referee::league::db::{Db, DB_FILE, SCHEMA_VERSION};
use tarneeb_referee::tournament::directory::seal;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/quick/league_v1")
}

#[test]
fn a_league_made_by_schema_version_1_opens_migrated_with_its_games_and_seals() {
    let dir = std::env::temp_dir().join(format!("tarneeb-league-v1-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sql = std::fs::read_to_string(fixture().join("league.sql")).unwrap();
    {
        let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
        conn.execute_batch(&sql).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, 1, "the fixture is a version 1 league");
    }
    std::fs::copy(fixture().join("seal-key"), dir.join(seal::KEY_FILE)).unwrap();

    let db = Db::open(&dir, false).expect("a version 1 league opens");
    let now: i64 = rusqlite::Connection::open(dir.join(DB_FILE))
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(
        now, SCHEMA_VERSION,
        "opened and migrated to this build's schema"
    );

    let versions = db.versions().unwrap();
    let labels: Vec<(&str, bool)> = versions
        .iter()
        .map(|v| (v.label.as_str(), v.retired))
        .collect();
    assert_eq!(labels, [("a@1", true), ("b@1", false), ("a@2", false)]);
    assert_eq!(
        versions[2].previous,
        Some(versions[0].id),
        "a@2 replaces a@1"
    );
    assert_eq!(db.game_count().unwrap(), 4);
    let a2 = db.history(versions[2].id).unwrap();
    assert_eq!(a2.len(), 2, "a@2's rating after each of its games");
    assert!(a2.iter().all(|p| p.elo.is_finite()));

    // Every row still matches the keyed hash it was written with.
    let key = seal::read_key(&dir).unwrap().expect("the fixture's key");
    let report = db.check(&key).unwrap();
    assert_eq!(report.rows, 4);
    assert!(report.edited.is_empty(), "{:?}", report.edited);
    let _ = std::fs::remove_dir_all(&dir);
}
