//! How a league's database scales (issue 44): fills a fresh `league.db` with N games through
//! the very write the league makes after each game ([`Db::finish_game`]: the row, its keyed
//! hash, every version's rating, a history point for the two versions that played and the
//! table), then times the reads a reader makes: the table now (`league table`'s two queries)
//! and one version's whole history (`league history`), and reports the database's size per
//! game.
//!
//!   cargo run --release --example league_scale -- [GAMES] [DIR]
//!
//! GAMES defaults to 1,000,000 (a few minutes on two cores); DIR to a fresh temporary
//! directory, removed at the end. Rows are synthetic but of a real row's size (ten hands of
//! deltas and dealers). Eight entrants, each updated once halfway. Figures go to stdout; it
//! asserts nothing about time.

use std::time::Instant;

use tarneeb_referee::league::db::{Db, RatingNow};
use tarneeb_referee::standings::row::GameRow;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map(|a| {
            a.replace([',', '_'], "")
                .parse()
                .expect("GAMES: a whole number")
        })
        .unwrap_or(1_000_000);
    let (dir, remove) = match args.next() {
        Some(d) => (std::path::PathBuf::from(d), false),
        None => (
            std::env::temp_dir().join(format!("tarneeb-league-scale-{}", std::process::id())),
            true,
        ),
    };
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make the directory");
    let key = tarneeb_referee::tournament::directory::seal::ensure_key(&dir).expect("a seal key");
    let mut db = Db::open(&dir, true).expect("open the database");
    let cmd = vec!["bot".to_string()];
    let mut versions: Vec<(i64, String)> = (0..8)
        .map(|i| {
            let v = db.add_entrant(&format!("e{i}"), &cmd).expect("add");
            (v.id, v.label)
        })
        .collect();
    // A plausible table JSON of eight entrants (what `finish_game` stores each time).
    let table = format!(
        "{{\"entrants\":[{}]}}",
        ["{\"name\":\"e0@1\",\"elo\":12.5,\"games\":1000}"; 8].join(",")
    );
    let t0 = Instant::now();
    for g in 0..games {
        if g == games / 2 {
            for (i, slot) in versions.iter_mut().enumerate() {
                let v = db.update_entrant(&format!("e{i}"), &cmd).expect("update");
                *slot = (v.id, v.label);
            }
        }
        let pair = g / 2;
        let (a, b) = (
            (pair % 8) as usize,
            ((pair / 8 + pair) % 7 + 1 + pair % 8) as usize % 8,
        );
        let (x, y) = if g % 2 == 0 { (a, b) } else { (b, a) };
        let row = GameRow {
            game: g,
            pair: Some(pair),
            seed: pair.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            seats: [x, y, x, y].map(|i| versions[i].1.clone()),
            winner: Some((g % 2) as u8),
            reason: "target".into(),
            team_scores: [41, 17],
            hands: 10,
            forfeit_seat: None,
            record: format!("games/{g:06}.jsonl"),
            referee_us_per_move: Some(3.1),
            deals: None,
            forfeit_kind: None,
            timeouts: [0; 4],
            hand_deltas: vec![[4, -4]; 10],
            hand_dealers: (0..10).map(|h| h % 4).collect(),
            accuracy: None,
            also_forfeited: None,
        };
        let ratings: Vec<RatingNow> = versions
            .iter()
            .enumerate()
            .map(|(k, (id, _))| RatingNow {
                version: *id,
                games: g as i64 / 4,
                place: k as i64 + 1,
                elo: k as f64 * 10.0 - (g % 100) as f64 / 10.0,
                low: -50.0,
                high: 50.0,
            })
            .collect();
        let seats = [x, y, x, y].map(|i| versions[i].0);
        db.finish_game(&key, &row, seats, &ratings, &table)
            .expect("write a game");
        if g > 0 && g % 100_000 == 0 {
            eprintln!("{g} games written, {:.0} s", t0.elapsed().as_secs_f64());
        }
    }
    let write = t0.elapsed().as_secs_f64();
    drop(db);
    let size: u64 = ["league.db", "league.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum();
    // The reads, each from a fresh open as a command makes them, best of five.
    let best = |f: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let t = Instant::now();
                let n = f();
                (t.elapsed().as_secs_f64() * 1000.0, n)
            })
            .fold((f64::MAX, 0), |b, x| if x.0 < b.0 { x } else { b })
    };
    let (table_ms, n_versions) = best(&|| {
        let db = Db::open(&dir, false).expect("open");
        let _ = db.meta("standings").expect("the table");
        db.versions().expect("versions").len()
    });
    let (history_ms, points) = best(&|| {
        let db = Db::open(&dir, false).expect("open");
        db.history(versions[0].0).expect("history").len()
    });
    let (old_history_ms, old_points) = best(&|| {
        let db = Db::open(&dir, false).expect("open");
        db.history(1).expect("history").len()
    });
    println!("games: {games}");
    println!(
        "writes: {write:.1} s, {:.0} games/s (finish_game: row, hash, 16 ratings, 2 history points, the table)",
        games as f64 / write
    );
    println!(
        "database: {:.1} MB, {:.0} bytes per game",
        size as f64 / 1e6,
        size as f64 / games as f64
    );
    println!("table now ({n_versions} versions): {table_ms:.1} ms");
    println!("history of one version ({points} points): {history_ms:.1} ms");
    println!("history of an old version ({old_points} points): {old_history_ms:.1} ms");
    if remove {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
