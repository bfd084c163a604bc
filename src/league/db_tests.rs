//! Tests of the league database: schema, versions, seals.
use super::*;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tarneeb-league-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_new_database_has_this_schema_and_a_newer_one_is_refused() {
    let d = dir("schema");
    let db = Db::open(&d, true).unwrap();
    let v: i64 = db
        .conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    db.conn
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(db);
    let err = Db::open(&d, false)
        .err()
        .expect("a newer schema is refused");
    assert!(err.to_string().contains("newer tarneeb"), "{err}");
}

#[test]
fn versions_link_to_the_one_they_replace_and_names_are_unique() {
    let d = dir("versions");
    let mut db = Db::open(&d, true).unwrap();
    let cmd = vec!["python3".to_string(), "a.py".to_string()];
    let a1 = db.add_entrant("alice", &cmd).unwrap();
    assert_eq!(a1.label, "alice@1");
    assert!(db
        .add_entrant("alice", &cmd)
        .unwrap_err()
        .to_string()
        .contains("update"));
    let stamp = db.roster_stamp().unwrap();
    let a2 = db.update_entrant("alice", &cmd).unwrap();
    assert_eq!((a2.label.as_str(), a2.previous), ("alice@2", Some(a1.id)));
    assert!(db.roster_stamp().unwrap() > stamp);
    let all = db.versions_of("alice").unwrap();
    assert!(all[0].retired && !all[1].retired);
    db.retire_entrant("alice").unwrap();
    assert!(db
        .retire_entrant("alice")
        .unwrap_err()
        .to_string()
        .contains("retired already"));
    assert!(db
        .update_entrant("bob", &cmd)
        .unwrap_err()
        .to_string()
        .contains("league add"));
}

#[test]
fn an_edited_row_is_found() {
    let d = dir("edit");
    let mut db = Db::open(&d, true).unwrap();
    let key = crate::tournament::directory::seal::ensure_key(&d).unwrap();
    let cmd = vec!["x".to_string()];
    let a = db.add_entrant("a", &cmd).unwrap().id;
    let b = db.add_entrant("b", &cmd).unwrap().id;
    let row = GameRow {
        game: 0,
        pair: Some(0),
        seed: u64::MAX,
        seats: ["a@1", "b@1", "a@1", "b@1"].map(String::from),
        winner: Some(1),
        reason: "target".into(),
        team_scores: [12, 41],
        hands: 7,
        forfeit_seat: None,
        record: "games/000000.jsonl".into(),
        referee_us_per_move: None,
        deals: None,
        forfeit_kind: None,
        timeouts: [0; 4],
        hand_deltas: Vec::new(),
        hand_dealers: Vec::new(),
        accuracy: None,
        also_forfeited: None,
    };
    db.finish_game(&key, &row, [a, b, a, b], &[], "{}").unwrap();
    assert_eq!(db.check(&key).unwrap().edited, Vec::<u64>::new());
    // The seed survives as its 64 bits.
    let mut seen = Vec::new();
    db.rows(|r, _| {
        seen.push(r.seed);
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, vec![u64::MAX]);
    db.conn.execute("UPDATE games SET winner = 0", []).unwrap();
    assert_eq!(db.check(&key).unwrap().edited, vec![0]);
    db.conn
        .execute(
            "UPDATE games SET row = replace(row, '\"winner\":1', '\"winner\":0')",
            [],
        )
        .unwrap();
    assert_eq!(
        db.check(&key).unwrap().edited,
        vec![0],
        "row and column agree again: the hash finds it"
    );
}
